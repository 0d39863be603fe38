"""The Wild Customizable rule composer (issue 14; DECISIONS.md D16-D21).

Scenario files (tests/scenarios/D1[6-9]_*, D2[01]_*) check each step kind's effect on the
position; here: the catalogue presets against games recorded before the composer, events
(announcement, reveal, give), the rules object's JSON, set-up refusals with their reasons
in both languages, bots, and hypothesis properties over random composed rules.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from native_diff import composed_rule
from test_properties import (
    Setup,
    check_events,
    check_views,
    play_round,
    prop_cards_conserved_dealt,
    prop_legal_moves,
    prop_replays,
    prop_rounds_end,
    prop_views,
    setups,
)

from unogame.bots import HardBot, make_bot
from unogame.engine import Game, Rules, RulesError
from unogame.engine.custom import REASONS, CustomRule, CustomRuleError, Step, preset
from unogame.engine.scenario import run_scenario
from unogame.i18n import LANGUAGES, table
from unogame.sim.runner import play_round as bots_play_round

SNAPSHOT = Path(__file__).parent / "snapshots" / "custom_presets.json"
GRANDMA = {"name": "Grandma's rule", "text": "everyone else draws 1, the next is skipped",
           "steps": [{"who": "others", "what": "draw", "count": 1},
                     {"who": "next", "what": "skip", "count": 1}]}


def test_presets_play_exactly_as_the_catalogue_did() -> None:
    """Games recorded with the engine before the composer (every preset, the WC played
    whenever possible): the same legal moves, events for every seat and positions."""
    cases = json.loads(SNAPSHOT.read_text(encoding="utf-8"))["cases"]
    assert len(cases) >= 64
    assert {case["rules"]["custom_rule"] for case in cases} == set(_PRESETS)
    for case in cases:
        players = case["players"]
        game = Game.new(players, Rules.from_dict(case["rules"]), case["seed"])
        digest = hashlib.sha256()
        for seat, move in case["moves"]:
            events = game.push(seat, move)
            digest.update(json.dumps([[str(m) for m in game.legal_moves(s)]
                                      for s in range(players)]).encode())
            digest.update(json.dumps([e.for_seat(s) for e in events
                                      for s in [None, *range(players)]], sort_keys=True).encode())
            digest.update(json.dumps(game.position(), sort_keys=True).encode())
        assert digest.hexdigest() == case["sha256"], case["rules"]


_PRESETS = ("none", "others_draw", "next_draw_skip", "skip", "play_again", "discard_color",
            "pass_hands", "chosen_draw")


def test_a_presets_steps_as_a_familys_rule_play_the_same() -> None:
    """A family's rule with a preset's steps moves the cards exactly as the preset."""
    for name in _PRESETS[1:]:
        rule = preset(name, 3)
        own = CustomRule(rule.steps, "same", "")
        for seed in range(15):
            rng = random.Random(seed)
            players = 4 + seed % 5
            a = Game.new(players, Rules(custom_rule=name, custom_count=3), seed)
            b = Game.new(players, Rules(custom_rule=own), seed)
            for _ in range(200):
                if a.winner is not None:
                    break
                assert a.legal_moves() == b.legal_moves()
                move = rng.choice(a.legal_moves())
                a.push(a.turn, move)
                b.push(b.turn, move)
                assert a.position() == b.position()


def wc_game(rule: dict[str, Any] | str, hands: list[list[str]], **extra: Any) -> Game:
    position = {"players": len(hands), "hands": hands, "draw_pile": ["G3", "Y4", "B6", "G7"],
                "discard_pile": ["R5"], "color": "R", "turn": 0, **extra}
    return Game.from_position(position, Rules.from_dict({"custom_rule": rule}))


def test_grandmas_rule_is_announced_with_its_name_text_and_steps() -> None:
    game = wc_game(GRANDMA, [["WC", "G1", "G2"], ["Y1", "Y2"], ["B1", "B2"], ["R1", "R2"]])
    events = game.push(0, "play WC Y")
    assert [event.type for event in events] == ["play", "custom", "draw", "draw", "draw", "skip"]
    assert events[1].for_seat(None) == {"type": "custom", "seat": 0, "rule": "composed",
                                        **GRANDMA}
    assert [event.public["seat"] for event in events[2:5]] == [1, 2, 3]
    assert events[5].public == {"seat": 1}
    assert game.turn == 2


def test_presets_announce_as_before_and_none_announces_nothing() -> None:
    hands = [["WC", "G1", "G2"], ["Y1", "Y2"], ["B1", "B2"]]
    events = wc_game("skip", hands).push(0, "play WC Y")
    assert events[1].for_seat(None) == {"type": "custom", "seat": 0, "rule": "skip"}
    assert [event.type for event in wc_game("none", hands).push(0, "play WC Y")] == ["play"]


def test_a_table_rule_announces_its_text_and_acts_as_a_wild() -> None:
    game = wc_game({"name": "Clap", "text": "ทุกคนปรบมือ"}, [["WC", "G1"], ["Y1"], ["B1"]])
    events = game.push(0, "play WC B")
    assert events[1].for_seat(2) == {"type": "custom", "seat": 0, "rule": "table",
                                     "name": "Clap", "text": "ทุกคนปรบมือ", "steps": []}
    assert game.turn == 1 and game.color == "B" and game.hand_sizes() == [1, 1, 1]


def test_reveal_is_public_and_give_is_private_to_the_two_seats() -> None:
    rule = {"name": "Show and give", "steps": [{"who": "next", "what": "reveal"},
                                               {"who": "chosen", "what": "give"}]}
    game = wc_game(rule, [["WC", "G1", "R9"], ["Y1", "Y2"], ["B1", "B2"]])
    events = game.push(0, "play WC B 2 R9")
    reveal = next(event for event in events if event.type == "reveal")
    assert all(reveal.for_seat(seat) == {"type": "reveal", "seat": 1, "hand": ["Y1", "Y2"]}
               for seat in (None, 0, 1, 2))
    give = next(event for event in events if event.type == "give")
    assert give.for_seat(None) == give.for_seat(1) == {"type": "give", "seat": 0, "to": 2,
                                                       "count": 1}
    assert give.for_seat(0)["card"] == give.for_seat(2)["card"] == "R9"
    assert game.hands == [["G1"], ["Y1", "Y2"], ["B1", "B2", "R9"]]


def test_the_play_event_names_a_given_card_only_to_its_player() -> None:
    """Issue 21: the play's move text named the card given (``play WC B 2 R9``) in the
    event's public part, so every seat and spectator read what the give event hides."""
    rule = {"name": "Present", "steps": [{"who": "chosen", "what": "give"}]}
    game = wc_game(rule, [["WC", "G1", "R9"], ["Y1", "Y2"], ["B1", "B2"]])
    play = game.push(0, "play WC B 2 R9")[0]
    assert play.type == "play"
    for seat in (None, 1, 2):
        assert play.for_seat(seat) == {"type": "play", "seat": 0, "card": "WC",
                                       "move": "play WC B 2", "color": "B"}
    assert play.for_seat(0)["move"] == "play WC B 2 R9"
    assert "R9" not in json.dumps(play.public)


def test_reverse_event_and_direction() -> None:
    game = wc_game({"name": "Back", "steps": [{"what": "reverse"}]},
                   [["WC", "G1"], ["Y1"], ["B1"], ["R1"]])
    events = game.push(0, "play WC B")
    assert events[-1].for_seat(None) == {"type": "reverse", "seat": 0, "direction": -1}
    assert (game.direction, game.turn) == (-1, 3)


def test_rules_json_round_trip_and_record_replay() -> None:
    rules = Rules.from_dict({"custom_rule": GRANDMA, "stacking": True})
    assert rules.to_dict() == {"custom_rule": GRANDMA, "stacking": True}
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    assert hash(rules) == hash(Rules.from_dict(rules.to_dict()))
    assert Rules.from_dict({"custom_rule": "skip"}).custom == preset("skip", 2)
    game = Game.new(4, rules, seed=3)
    rng = random.Random(3)
    for _ in play_round(game, rng, 200):
        pass
    from unogame.engine import replay

    assert replay(json.loads(json.dumps(game.record()))).position() == game.position()


def test_a_step_count_defaults_to_one_and_who_to_the_usual_one() -> None:
    rule = CustomRule.from_dict({"name": "n", "steps": [{"what": "skip"}, {"what": "draw"}]})
    assert rule.steps == (Step("next", "skip", 1), Step("next", "draw", 1))


@pytest.mark.parametrize(("data", "key"), [
    (["others", "draw", 1], "not_object"),
    ({"name": "n", "steps": [], "colour": "R"}, "unknown_field"),
    ({"name": 3, "steps": [{"what": "play_again"}]}, "not_text"),
    ({"name": "", "steps": [{"what": "play_again"}]}, "name_missing"),
    ({"name": "n" * 41, "steps": [{"what": "play_again"}]}, "name_too_long"),
    ({"name": "n", "text": "t" * 81, "steps": [{"what": "play_again"}]}, "text_too_long"),
    ({"name": "n", "text": "a\x07b", "steps": [{"what": "play_again"}]}, "control_character"),
    ({"name": "n\u202e", "steps": [{"what": "play_again"}]}, "control_character"),
    ({"name": "n", "steps": {"what": "skip"}}, "steps_not_list"),
    ({"name": "n", "steps": [{"what": "reveal", "who": "self"}] * 5}, "too_many_steps"),
    ({"name": "n", "steps": []}, "table_needs_text"),
    ({"name": "n", "steps": ["skip"]}, "step_not_object"),
    ({"name": "n", "steps": [{"what": "skip", "n": 2}]}, "step_unknown_field"),
    ({"name": "n", "steps": [{"what": "sing"}]}, "unknown_what"),
    ({"name": "n", "steps": [{"what": "draw", "who": "dealer"}]}, "unknown_who"),
    ({"name": "n", "steps": [{"what": "swap", "who": "others"}]}, "who_not_allowed"),
    ({"name": "n", "steps": [{"what": "draw", "count": 0}]}, "count_range"),
    ({"name": "n", "steps": [{"what": "draw", "count": 21}]}, "count_range"),
    ({"name": "n", "steps": [{"what": "draw", "count": "2"}]}, "count_range"),
    ({"name": "n", "steps": [{"what": "reverse", "count": 2}]}, "count_not_allowed"),
    ({"name": "n", "steps": [{"what": "swap"}, {"what": "swap"}]}, "twice"),
    ({"name": "n", "steps": [{"what": "play_again"}, {"what": "skip"}]}, "play_again_with_skip"),
    ({"name": "n", "steps": [{"what": "skip"}, {"what": "reverse"}]}, "reverse_after_skip"),
    ({"name": "n", "steps": [{"what": "discard_color"}, {"what": "give"}]},
     "give_after_hand_change"),
])
def test_refusals_have_a_reason_in_both_languages(data: Any, key: str) -> None:
    with pytest.raises(CustomRuleError) as caught:
        Rules.from_dict({"custom_rule": data})
    assert caught.value.key == key
    assert isinstance(caught.value, RulesError)
    for language in LANGUAGES:
        text = table(language)[f"common.custom_error.{key}"]
        text.format(**caught.value.fields)  # every field the reason names is filled in


def test_every_reason_is_translated() -> None:
    for language in LANGUAGES:
        strings = table(language)
        missing = [key for key in REASONS if f"common.custom_error.{key}" not in strings]
        assert not missing, (language, missing)
    thai = table("th")
    assert all(thai[f"common.custom_error.{key}"] != table("en")[f"common.custom_error.{key}"]
               for key in REASONS)


def test_a_rule_that_makes_no_sense_with_the_players_is_refused_at_set_up() -> None:
    jump = Rules(custom_rule=CustomRule((Step("next", "skip", 3),), "Jump"))
    Game.new(4, jump, 0)
    with pytest.raises(CustomRuleError) as caught:
        Game.new(3, jump, 0)
    assert caught.value.key == "skip_too_many" and caught.value.fields["players"] == 3
    back = Rules(custom_rule=CustomRule((Step("everyone", "reverse"), Step("next", "skip")), "B"))
    Game.new(3, back, 0)
    with pytest.raises(CustomRuleError):
        Game.new(2, back, 0)
    Game.new(2, Rules(custom_rule=back.custom_rule, two_player_reverse_skips=False), 0)
    Game.new(2, Rules(custom_rule="skip", custom_count=5), 0)  # a preset as before


def test_a_preset_object_in_rules_is_refused() -> None:
    with pytest.raises(RulesError, match="by its name"):
        Rules(custom_rule=preset("skip", 2))


def test_scenario_command_reads_a_familys_rule() -> None:
    result = run_scenario({"rules": {"custom_rule": GRANDMA}, "state": {
        "players": 3, "hands": [["WC", "G1"], ["Y1"], ["B1"]], "draw_pile": ["G2", "G3"],
        "discard_pile": ["R5"], "color": "R"}, "actions": [[0, "play WC B"]]})
    assert result.error is None and result.game.turn == 2


@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard"])
def test_bots_play_legal_moves_under_random_family_rules(level: str) -> None:
    """Every move goes through push(), which refuses an illegal one."""
    rng = random.Random(level)
    for index in range(6 if level == "hard" else 20):
        rule = _random_rule(rng)
        game = Game.new(4, Rules(custom_rule=rule, hand_size=5), index)
        bots = [HardBot(index * 10 + seat, budget=300, rollout_plies=15) if level == "hard"
                else make_bot(level, index * 10 + seat) for seat in range(4)]
        bots_play_round(game, bots)
        assert game.winner is not None


def _random_rule(rng: random.Random) -> CustomRule:
    """A valid random rule for 4 players (bounded draws), built as composed_rules does."""
    return composed_rule(rng, 4, True, most=2)


# ----------------------------------------------------------------- properties, family rules only

FAMILY = setups(("none",), "any")
"""Setups whose custom rule is a family's rule about half the time (else a plain wild)."""


def _family_only(setup: Setup) -> bool:
    return isinstance(setup.rules.custom_rule, CustomRule)


@settings(max_examples=60, deadline=None)
@given(FAMILY.filter(_family_only))
def test_family_rules_conserve_the_cards(setup: Setup) -> None:
    prop_cards_conserved_dealt(setup)


@settings(max_examples=40, deadline=None)
@given(setups(("none",), "bounded").filter(_family_only))
def test_family_rules_rounds_end(setup: Setup) -> None:
    prop_rounds_end(setup)


@settings(max_examples=40, deadline=None)
@given(FAMILY.filter(_family_only))
def test_family_rules_views_never_leak(setup: Setup) -> None:
    prop_views(setup)


@settings(max_examples=25, deadline=None)
@given(FAMILY.filter(_family_only))
def test_family_rules_legal_moves(setup: Setup) -> None:
    prop_legal_moves(setup)


@settings(max_examples=25, deadline=None)
@given(FAMILY.filter(_family_only))
def test_family_rules_replay(setup: Setup) -> None:
    prop_replays(setup)


def test_views_never_leak_with_the_wc_played_at_every_chance() -> None:
    """Every rule with every step kind, the Wild Customizable played whenever held: no view
    or event shows a card it should not (a reveal shows a hand by design)."""
    rules = [CustomRule((Step("others", "reveal"), Step("chosen", "give")), "a"),
             CustomRule((Step("everyone", "draw", 2), Step("next", "swap")), "b"),
             CustomRule((Step("self", "discard_color"), Step("everyone", "pass_hands")), "c"),
             CustomRule((Step("everyone", "reverse"), Step("next", "skip", 2)), "d"),
             CustomRule((Step("next", "give"), Step("self", "reveal"),
                         Step("self", "play_again")), "e")]
    for rule in rules:
        played = 0
        for seed in range(8):
            game = Game.new(5, Rules(custom_rule=rule, hand_size=5), seed)
            rng = random.Random(seed)
            before = game.position()
            for _ in range(300):
                if game.winner is not None:
                    break
                legal = game.legal_moves()
                wc = [move for move in legal if move.card_code == "WC"]
                move = rng.choice(wc or legal)
                played += bool(wc)
                events = game.push(game.turn, move)
                after = game.position()
                check_events(events, before, after)
                check_views(game)
                before = after
        assert played >= 5, rule


@pytest.mark.parametrize(("steps", "plays_wc"), [
    ((Step("others", "draw", 2), Step("next", "skip")), True),
    ((Step("self", "draw", 3),), False),
])
def test_the_medium_bot_weighs_a_familys_rule(steps: tuple[Step, ...], plays_wc: bool) -> None:
    """Others drawing and a skip make the WC worth playing; drawing three oneself does not."""
    rules = Rules(custom_rule=CustomRule(steps, "r"))
    game = Game.from_position({"players": 3, "hands": [["WC", "R1", "G5", "B7"], ["Y1", "Y2"],
                                                       ["B1", "B2", "B3"]],
                               "draw_pile": ["G1", "G2", "G3", "G4", "G6"],
                               "discard_pile": ["R5"], "color": "R"}, rules)
    bot = make_bot("medium", 1)
    bot.new_round(0, game.view(0), rules)
    move = bot.choose(game.view(0), game.legal_moves(0))
    assert (move.card_code == "WC") is plays_wc, move


def test_the_environment_observes_a_familys_rule_without_failing() -> None:
    """Found merging main: the observation's rules section looked the rule up among the
    presets (KeyError). A family's rule sets no preset flag; N and the rest are kept."""
    pytest.importorskip("numpy")
    from unogame.engine.rules import CUSTOM_RULES
    from unogame.env.observation import RULE_FLAGS, rules_features

    family = rules_features(Rules.from_dict({"custom_rule": GRANDMA}))
    preset_skip = rules_features(Rules(custom_rule="skip"))
    flags = slice(len(RULE_FLAGS), len(RULE_FLAGS) + len(CUSTOM_RULES))
    assert family[flags].sum() == 0 and preset_skip[flags].sum() == 1
