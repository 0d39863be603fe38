"""unogame.env (issue 11): the action table, observations, the PettingZoo and Gymnasium
environments under their libraries' own checks, and a long random run through the env."""

from __future__ import annotations

import dataclasses
import random
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import composed_rules, rules_for

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from unogame.bots.ismcts import determinize, public_game
from unogame.engine import CUSTOM_RULES, Game, Move, Rules
from unogame.engine.cards import CARD_CODE, COLORS
from unogame.engine.custom import MAX_STEPS, CustomRule
from unogame.engine.moves import DRAW, PLAY
from unogame.env import (
    ACTION_NAMES,
    NO_REACTION,
    NUM_ACTIONS,
    SingleAgentUno,
    UnoCore,
    action_to_move,
    move_to_action,
    uno_v0,
)
from unogame.env.actions import WC_BASE, actions_table_markdown
from unogame.env.observation import (
    SIZE,
    SLICES,
    STEP_WIDTH,
    SeatMemory,
    custom_rule_features,
    encode,
    read_custom_rule,
)

HOUSE = {"jump_in": True, "seven_zero": True, "stacking": True, "custom_rule": "chosen_draw",
         "hand_size": 5}
MIXED = [
    (2, {"jump_in": True, "stacking": True, "custom_rule": "discard_color"}),
    (4, HOUSE),
    (10, {"seven_zero": True, "draw_until_playable": True, "custom_rule": "pass_hands",
          "challenge": False, "hand_size": 4}),
]
GIVE_RULE = {"name": "Gift", "text": "give a card, discard a colour, skip the next",
             "steps": [{"who": "chosen", "what": "give"}, {"who": "self", "what": "discard_color"},
                       {"who": "next", "what": "skip"}]}
"""A family's rule whose move names every argument: ``play WC C D SEAT CARD`` (D18)."""
COMPOSED = [
    (3, {"jump_in": True, "custom_rule": GIVE_RULE, "hand_size": 5}),
    (5, {"stacking": True, "custom_rule": {"name": "Show", "steps": [
        {"who": "next", "what": "give"}, {"who": "others", "what": "reveal"},
        {"who": "self", "what": "play_again"}]}, "hand_size": 4}),
]


def rules_strategy() -> st.SearchStrategy[Rules]:
    return st.builds(
        Rules, hand_size=st.integers(1, 8), stacking=st.booleans(), challenge=st.booleans(),
        must_play_drawn=st.booleans(), seven_zero=st.booleans(), jump_in=st.booleans(),
        draw_until_playable=st.booleans(), custom_rule=st.sampled_from(sorted(CUSTOM_RULES)),
        two_player_reverse_skips=st.booleans(), uno_penalty=st.integers(0, 4))


def playable_first(actions: list[int], core: UnoCore, rng: random.Random) -> int:
    """A random legal action, drawing only when no card can be played (as RLCard's random
    agents do; voluntary draws make random rounds very long)."""
    moves = {move_to_action(move, core.seat, core.players): move for move in core.legal_moves()}
    plays = [action for action in actions if action in moves and moves[action].kind == PLAY]
    others = [action for action in actions
              if action not in moves or moves[action].kind != DRAW]
    return rng.choice(plays if core.on_turn and plays else others or actions)


# ------------------------------------------------------------------ the action table

def test_every_action_has_a_name_and_a_move_in_a_ten_player_game() -> None:
    assert len(set(ACTION_NAMES)) == NUM_ACTIONS == 283 + 4 * 5 * 10 * 57 * 2
    for action in range(NUM_ACTIONS):
        move = action_to_move(action, seat=3, players=10)
        if action == NO_REACTION:
            assert move is None
        else:
            assert move is not None and move_to_action(move, 3, 10) == action


def test_documented_table_matches_the_code() -> None:
    from pathlib import Path

    doc = (Path(__file__).parent.parent / "docs" / "ENV.md").read_text(encoding="utf-8")
    assert actions_table_markdown() in doc


def test_the_wild_customizable_block_follows_its_documented_formula() -> None:
    """docs/ENV.md: id = 283 + 5700 C + 1140 D + 114 k + 2 CARD + uno, position 0 of D,
    k and CARD meaning none (checked here by arithmetic written apart from the code)."""
    assert WC_BASE == 283 and NO_REACTION == 282
    seen = 0
    for color in range(4):
        for discard in range(5):
            for offset in range(10):
                for gift in range(57):
                    for uno in range(2):
                        action = 283 + 5700 * color + 1140 * discard + 114 * offset \
                            + 2 * gift + uno
                        words = ["play", "WC", COLORS[color]]
                        words += [COLORS[discard - 1]] if discard else []
                        words += [f"+{offset}"] if offset else []
                        words += [CARD_CODE[gift - 1]] if gift else []
                        words += ["uno"] if uno else []
                        assert ACTION_NAMES[action] == " ".join(words)
                        seen += 1
    assert seen == NUM_ACTIONS - WC_BASE


def test_a_wc_naming_a_discard_a_seat_and_a_card_has_its_action() -> None:
    """The gap of issue 11/14: before, a ``give`` rule's move had no action (ValueError)."""
    game = Game.from_position({
        "players": 3, "hands": [["WC", "R7", "G1", "G2", "Y9"], ["Y3", "Y4"], ["B5", "B6"]],
        "draw_pile": ["B9", "B8", "R1"], "discard_pile": ["R5"], "color": "R", "turn": 0},
        Rules.from_dict({"custom_rule": GIVE_RULE}))
    move = Move.parse("play WC B G 2 R7 uno")  # give R7 to seat 2, discard G1 G2: Y9 left
    assert move in game.legal_moves(0)
    action = move_to_action(move, seat=0, players=3)
    assert ACTION_NAMES[action] == "play WC B G +2 R7 uno"
    assert action_to_move(action, seat=0, players=3) is move
    wcs = [m for m in game.legal_moves(0) if m.card_code == "WC"]
    plain = {m for m in wcs if not m.uno}
    assert len(plain) == 4 * 4 * 2 * 4  # colour x discarded colour x seat x card given
    assert len({move_to_action(m, 0, 3) for m in wcs}) == len(wcs)
    core = UnoCore(3, game.rules)
    core.start_from(game)
    core.step(action)
    assert core.game.hands[0] == ["Y9"]
    assert "R7" in core.game.hands[2] and 0 in core.game.uno


def test_bad_action_ids_are_refused() -> None:
    with pytest.raises(ValueError, match="not in"):
        action_to_move(NUM_ACTIONS, 0, 2)
    seven_to_seat_5 = ACTION_NAMES.index("play R7 +5")
    with pytest.raises(ValueError, match="does not have"):
        action_to_move(seven_to_seat_5, 0, 3)


def round_trip_every_legal_move(players: int, rules: Rules, seed: int, moves: int) -> None:
    game = Game.new(players, rules, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.winner is not None:
            break
        for seat in range(players):
            legal = game.legal_moves(seat)
            actions = [move_to_action(move, seat, players) for move in legal]
            assert len(set(actions)) == len(actions)  # one action per move
            assert NO_REACTION not in actions
            for move, action in zip(legal, actions, strict=True):
                assert action_to_move(action, seat, players) is move
        seat = rng.choice([s for s in range(players) if game.legal_moves(s)])
        game.push(seat, rng.choice(game.legal_moves(seat)))


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 10), rules=rules_strategy(), seed=st.integers(0, 10**6),
       moves=st.integers(0, 120))
def test_moves_and_actions_round_trip_for_every_legal_move(
        players: int, rules: Rules, seed: int, moves: int) -> None:
    if players * rules.hand_size + 1 > 112:
        return
    round_trip_every_legal_move(players, rules, seed, moves)


@st.composite
def composed_setups(draw: st.DrawFn) -> tuple[int, Rules]:
    """2-10 players and house rules whose Wild Customizable is a random family's rule."""
    players = draw(st.integers(2, 10))
    rules = draw(rules_for(players, composed="none"))
    rule = draw(composed_rules(players, rules.two_player_reverse_skips))
    return players, dataclasses.replace(rules, custom_rule=rule)


@settings(max_examples=60, deadline=None)
@given(setup=composed_setups(), seed=st.integers(0, 10**6), moves=st.integers(0, 120))
def test_moves_and_actions_round_trip_under_random_composed_rules(
        setup: tuple[int, Rules], seed: int, moves: int) -> None:
    """Every legal move (a WC naming a discarded colour, a seat, a card given) has one
    action of its own, which stands for it again; random moves play WC often, as each WC
    comes in many variants."""
    players, rules = setup
    round_trip_every_legal_move(players, rules, seed, moves)


# ------------------------------------------------------------------ observations

def test_observation_depends_only_on_the_seats_view_and_events() -> None:
    """Re-dealing every card a seat cannot see, consistently with its view, leaves its
    observations unchanged all along a game (and so does the game's seed). A resample may
    give back the same hands when the seat knows nearly all of them (a 7 swap, a 0 pass):
    most resamples must differ, not each one."""
    rng = random.Random(5)
    resamples = differ = 0
    for players, options in MIXED:
        core = UnoCore(players, Rules.from_dict(options))
        core.reset(seed=11)
        for _ in range(150):
            if core.over:
                break
            for seat in range(players):
                obs = core.observe(seat)
                other = core.resample(seat, random.Random(rng.random()))
                resamples += 1
                differ += other.game.hands != core.game.hands
                assert np.array_equal(other.observe(seat), obs)
                assert other.game.view(seat) == core.game.view(seat)
            core.step(playable_first(core.legal_actions(), core, rng))
    assert differ >= 0.9 * resamples, (differ, resamples)


def test_observation_encoder_reads_a_view_and_nothing_else() -> None:
    game = Game.new(4, Rules(jump_in=True), seed=2)
    for _ in range(12):
        game.push(game.turn, game.legal_moves()[0])
    memory = SeatMemory(1, 4)
    view = game.view(1)
    memory.new_round(view)
    template = public_game(view, 1, game.rules)
    world = determinize(view, memory.tracker, template, memory.tracker.unseen(view),
                        random.Random(3))
    assert world.hands[1] == game.hands[1] and world.hands[0] != game.hands[0]
    first = encode(game.view(1), memory, game.rules)
    assert np.array_equal(first, encode(world.view(1), memory, game.rules))
    assert first.shape == (SIZE,)
    assert first[SLICES["hand"]].sum() == len(game.hands[1])
    to_act = first[SLICES["to_act"]]
    assert to_act[(game.turn - 1) % 4] == 1 and to_act.sum() == 1


@settings(max_examples=80, deadline=None)
@given(setup=composed_setups())
def test_the_observation_encodes_the_custom_rule(setup: tuple[int, Rules]) -> None:
    """Issue 14: each step's who, what and count, unused steps zero, the table flag; the
    section of every seat's observation reads back as the rule's steps."""
    players, rules = setup
    rule = rules.custom
    core = UnoCore(players, rules)
    core.reset(seed=1)
    for seat in range(players):
        section = core.observe(seat)[SLICES["custom_rule"]]
        assert read_custom_rule(section) == (rule.steps, not rule.steps)
        assert section[len(rule.steps) * STEP_WIDTH:-1].sum() == 0
        assert section.sum() == pytest.approx(
            2 * len(rule.steps) + sum(step.count for step in rule.steps) / 20 + (not rule.steps))


@pytest.mark.parametrize("name", sorted(CUSTOM_RULES))
def test_a_preset_is_encoded_as_its_steps_and_a_table_rule_by_its_flag(name: str) -> None:
    rules = Rules(custom_rule=name, custom_count=3)
    section = custom_rule_features(rules.custom)
    assert read_custom_rule(section) == (rules.custom.steps, False)
    text = "x" if name == "none" else ""
    family = Rules(custom_rule=CustomRule(rules.custom.steps, "ours", text))
    same = custom_rule_features(family.custom)
    assert np.array_equal(same[:-1], section[:-1])  # same steps, same encoding
    assert same[-1] == (name == "none")  # no steps: for a family, a table rule


def test_two_rules_give_two_observations_and_nothing_else_changes() -> None:
    """The rule is in the observation (before issue 14's encoding, a family's rule and the
    plain wild looked the same), and it is the only difference."""
    grandma = Rules.from_dict({"custom_rule": {"name": "Grandma", "steps": [
        {"who": "others", "what": "draw", "count": 1}, {"who": "next", "what": "skip"}]}})
    table = Rules.from_dict({"custom_rule": {"name": "Claps", "text": "everyone claps"}})
    observations = []
    for rules in (grandma, table, Rules()):
        core = UnoCore(3, rules)
        core.reset(seed=4)
        observations.append(core.observe(0))
    section = SLICES["custom_rule"]
    for first, second in ((0, 1), (0, 2), (1, 2)):
        a, b = observations[first], observations[second]
        assert not np.array_equal(a[section], b[section])
        assert np.array_equal(np.delete(a, np.r_[section, SLICES["rules"]]),
                              np.delete(b, np.r_[section, SLICES["rules"]]))
    assert observations[1][section][-1] == 1 and observations[1][section].sum() == 1
    assert section.stop - section.start == MAX_STEPS * STEP_WIDTH + 1


def test_known_cards_come_from_the_seats_own_events() -> None:
    """A 7 under seven_zero swaps hands: the seats that swapped know each other's cards,
    the others know nothing."""
    game = Game.from_position({
        "players": 3, "hands": [["R7", "G1", "B2"], ["Y3", "Y4"], ["G5", "G6"]],
        "draw_pile": ["B9", "B8"], "discard_pile": ["R5"], "color": "R", "turn": 0},
        Rules(seven_zero=True))
    memories = [SeatMemory(seat, 3) for seat in range(3)]
    for seat, memory in enumerate(memories):
        memory.new_round(game.view(seat))
    for event in game.push(0, "play R7 1"):
        for seat, memory in enumerate(memories):
            memory.observe(event.for_seat(seat))
    known = SLICES["known"].start
    obs_1 = encode(game.view(1), memories[1], game.rules)
    cards_of_seat_0 = obs_1[known + 56: known + 112]  # seat 0 is two seats after seat 1
    assert cards_of_seat_0.sum() == 2  # G1 and B2, which seat 1 held a moment ago
    obs_2 = encode(game.view(2), memories[2], game.rules)
    assert obs_2[SLICES["known"]].sum() == 0


def test_revealed_and_given_cards_are_known_to_the_seats_that_saw_them() -> None:
    """A family's rule that gives a card to the next seat and then shows the hands of the
    others (D17): every seat knows the revealed hands; only the giver and the receiver know
    the given card went to the receiver; nobody "knows" its own hand."""
    rules = Rules.from_dict({"custom_rule": {"name": "Show", "steps": [
        {"who": "next", "what": "give"}, {"who": "others", "what": "reveal"}]}})
    game = Game.from_position({
        "players": 3, "hands": [["WC", "R1", "B2"], ["Y3", "Y4"], ["G5", "G6", "B7"]],
        "draw_pile": ["B9", "B8"], "discard_pile": ["R5"], "color": "R", "turn": 0}, rules)
    memories = [SeatMemory(seat, 3) for seat in range(3)]
    for seat, memory in enumerate(memories):
        memory.new_round(game.view(seat))
    for event in game.push(0, "play WC G R1"):
        for seat, memory in enumerate(memories):
            memory.observe(event.for_seat(seat))
    for seat, memory in enumerate(memories):
        memory.tracker.sync(game.view(seat))

    def known(seat: int, offset: int) -> list[str]:
        obs = encode(game.view(seat), memories[seat], game.rules)
        at = SLICES["known"].start + (offset - 1) * 56
        counts = obs[at:at + 56]
        return sorted(CARD_CODE[card] for card in np.flatnonzero(counts)
                      for _ in range(int(counts[card])))

    assert known(0, 1) == ["R1", "Y3", "Y4"] and known(0, 2) == ["B7", "G5", "G6"]
    assert known(2, 2) == ["R1", "Y3", "Y4"]  # seat 1 is two seats after seat 2
    assert known(1, 1) == ["B7", "G5", "G6"] and known(1, 2) == []  # B2 was not shown
    assert known(2, 1) == []  # seat 0 revealed nothing, and gave a card seat 2 did not see


# ------------------------------------------------------------------ PettingZoo

@pytest.mark.parametrize(("players", "options"), MIXED + COMPOSED)
def test_pettingzoo_api_test(players: int, options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the library's advice for dict observations
        api_test(uno_v0.env(players=players, rules=options), num_cycles=300)


@pytest.mark.parametrize(("players", "options"), MIXED)
def test_pettingzoo_seed_test(players: int, options: dict[str, Any]) -> None:
    seed_test(lambda: uno_v0.env(players=players, rules=options), num_cycles=200)


def test_pettingzoo_match_mode_pays_at_match_end() -> None:
    env = uno_v0.raw_env(players=3, rules={"target_score": 250}, match=True)
    env.reset(seed=4)
    rng = random.Random(4)
    paid: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    rounds_seen = set()
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        paid[agent] += reward
        rounds_seen.add(env.core.round)
        if terminated or truncated:
            env.step(None)
            continue
        assert reward == 0.0  # nothing is paid before the match ends
        actions = list(np.flatnonzero(obs["action_mask"]))
        env.step(playable_first(actions, env.core, rng))
    assert len(rounds_seen) > 1
    winner = env.core.game.game_winner
    assert paid == {name: (1.0 if seat == winner else -0.5)
                    for seat, name in enumerate(env.possible_agents)}


def test_pettingzoo_illegal_action_raises_and_changes_nothing() -> None:
    env = uno_v0.env(players=2)
    env.reset(seed=1)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.unwrapped.core.game.position()
    with pytest.raises(ValueError, match="illegal action"):
        env.step(illegal)
    assert env.unwrapped.core.game.position() == before


def test_render_shows_only_the_deciding_seats_hand() -> None:
    env = uno_v0.raw_env(players=3, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert text is not None
    seat = env.core.seat
    assert f"seat {seat}" in text and " ".join(env.core.game.hands[seat]) in text
    for other in range(3):
        if other != seat:
            assert " ".join(env.core.game.hands[other]) not in text


# ------------------------------------------------------------------ off-turn reactions

def test_reactions_come_in_reaction_order_with_no_reaction_offered() -> None:
    """Seat 0 plays its second-last card without UNO; seat 1 is to act. Seats 2 (may catch
    seat 0) and 0 (may say UNO) get one step each, in that order, with "no reaction"."""
    core = UnoCore(3)
    core.start_from(Game.from_position({
        "players": 3, "hands": [["R7", "G1"], ["Y3", "Y4"], ["G5", "G6"]],
        "draw_pile": ["B9", "B8"], "discard_pile": ["R5"], "color": "R", "turn": 0}))
    assert core.seat == 0 and core.on_turn
    core.step(ACTION_NAMES.index("play R7"))
    assert (core.seat, core.on_turn) == (2, False)
    assert [ACTION_NAMES[a] for a in core.legal_actions()] == ["catch +1", "no reaction"]
    core.step(NO_REACTION)
    assert (core.seat, core.on_turn) == (0, False)
    assert [ACTION_NAMES[a] for a in core.legal_actions()] == ["uno", "no reaction"]
    core.step(NO_REACTION)
    assert (core.seat, core.on_turn) == (1, True)
    assert "catch +2" in [ACTION_NAMES[a] for a in core.legal_actions()]  # on its turn
    assert NO_REACTION not in core.legal_actions()
    core.step(ACTION_NAMES.index("draw"))  # a turn move closes the catch window (D1)
    assert core.game.catchable == []


def test_a_reaction_is_applied_and_the_others_still_get_their_step() -> None:
    core = UnoCore(3)
    core.start_from(Game.from_position({
        "players": 3, "hands": [["R7", "G1"], ["Y3", "Y4"], ["G5", "G6"]],
        "draw_pile": ["B9", "B8", "B7"], "discard_pile": ["R5"], "color": "R", "turn": 0}))
    core.step(ACTION_NAMES.index("play R7"))
    core.step(ACTION_NAMES.index("catch +1"))  # seat 2 catches seat 0
    assert core.game.hand_sizes()[0] == 3
    assert (core.seat, core.on_turn) == (1, True)  # seat 0 has nothing left to react with


def test_always_no_reaction_plays_the_turn_only_game() -> None:
    """An agent that always declines to react plays exactly the game in which nobody
    reacts: the same turns as a game driven with turn moves only."""
    rules = Rules(jump_in=True, seven_zero=True)
    core = UnoCore(4, rules)
    core.reset(seed=9)
    reference = Game.new(4, rules, core.game.seed)
    rng = random.Random(2)
    while not core.over:
        if not core.on_turn:
            core.step(NO_REACTION)
            continue
        action = playable_first(core.legal_actions(), core, rng)
        move = action_to_move(action, core.seat, 4)
        assert move is not None
        assert move in reference.legal_moves(reference.turn) and core.seat == reference.turn
        reference.push(reference.turn, move)
        core.step(action)
    assert reference.winner == core.game.winner


# ------------------------------------------------------------------ Gymnasium

def test_gymnasium_check_env() -> None:
    """Gymnasium's own checker passes on the default env (issue 23: it raised "illegal
    action" when every action of the space was not accepted)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(SingleAgentUno())
        check_env(SingleAgentUno(players=4, opponents=["medium", "easy", "random"],
                                 rules=HOUSE))


def test_gymnasium_masks_match_the_learners_legal_moves() -> None:
    env = SingleAgentUno(players=3, opponents=["easy"], rules={"jump_in": True})
    rng = random.Random(0)
    for episode in range(5):
        _, info = env.reset(seed=episode)
        done = False
        while not done:
            mask = env.action_masks()
            assert np.array_equal(mask, info["action_mask"])
            core = env.core
            assert core.seat == env.seat
            expected = {move_to_action(move, env.seat, 3) for move in core.legal_moves()}
            if not core.on_turn:
                expected.add(NO_REACTION)
            assert set(np.flatnonzero(mask)) == expected
            action = playable_first(list(np.flatnonzero(mask)), core, rng)
            _, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        assert reward in (1.0, -0.5)


def test_gymnasium_illegal_action_loses_by_default_or_raises_as_an_option() -> None:
    env = SingleAgentUno(players=2)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert not env.action_masks().any()
    env = SingleAgentUno(players=2, illegal_action="raise")
    env.reset(seed=0)
    before = env.core.legal_actions()
    with pytest.raises(ValueError, match="illegal action"):
        env.step(illegal)
    assert env.core.legal_actions() == before and not env.core.over


# ------------------------------------------------------------------ a long random run

def test_thousand_random_rounds_keep_the_engines_invariants() -> None:
    """1,000 rounds (2, 4 and 10 players, mixed rules) of random agents through the env:
    the 112 cards are conserved, masks are the engine's legal moves, every round ends
    with one winner and the returns sum to zero."""
    rng = random.Random(1)
    configs = [UnoCore(players, Rules.from_dict(options)) for players, options in MIXED]
    for number in range(1000):
        core = configs[number % len(configs)]
        core.reset(seed=number)
        while not core.over:
            game = core.game
            position = game.position()  # an engine Game or the core's NativeGame
            assert sum(game.hand_sizes()) + len(position["draw_pile"]) + len(
                position["discard_pile"]) == 112
            actions = core.legal_actions()
            assert actions and (core.on_turn or actions[-1] == NO_REACTION)
            core.step(playable_first(actions, core, rng))
        assert not core.truncated and core.game.winner is not None
        assert abs(sum(core.returns)) < 1e-9 and max(core.returns) == 1.0


# ------------------------------------------------------------------ policy:PATH bots

def test_plugin_levels_refuse_unknown_names_and_missing_models(tmp_path: Any) -> None:
    from unogame.bots import make_bot

    with pytest.raises(ValueError, match="no 'wizard' bot plugin"):
        make_bot("wizard:3")
    with pytest.raises(ValueError, match="policy"):
        make_bot(f"policy:{tmp_path / 'missing.zip'}")


def test_uno_sim_refuses_a_policy_without_a_model(tmp_path: Any,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from unogame.cli import main

    code = main(["sim", "--players", "2", "--bots", f"policy:{tmp_path / 'no.zip'},random",
                 "--games", "1", "--no-progress"])
    assert code == 1 and "policy" in capsys.readouterr().err


def test_a_saved_maskable_ppo_model_plays_as_a_bot_level(tmp_path: Any) -> None:
    """The policy bot builds the same observation as the environment (a model saved
    untrained is enough to check the wiring); it plays whole rounds in the simulator."""
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from unogame.sim.runner import SimConfig, run_rounds

    model = sb3_contrib.MaskablePPO("MlpPolicy", SingleAgentUno(players=2), n_steps=64,
                                    batch_size=64, policy_kwargs={"net_arch": [16]}, seed=0)
    path = tmp_path / "model.zip"
    model.save(path)
    config = SimConfig(2, (f"policy:{path}", "medium"), games=4, seed=1,
                       rules=Rules(jump_in=True))
    results = run_rounds(config, workers=1)
    assert len(results) == 4 and all(result.turns > 0 for result in results)


@pytest.mark.parametrize("native", [False, None])
def test_a_resample_keeps_the_reacting_seat_and_offers_only_legal_actions(
        native: bool | None) -> None:
    """Whether a seat may jump in depends on its hidden hand, but whether it gets a
    reaction step does not (issue 23: every seat reacts while a jump-in may be open): in a
    world resampled for another seat the same seat decides, and every action it offers is
    legal there (a copy used to keep the old world's actions, which its engine refused)."""
    moved_on = 0
    for seed in range(30):
        core = UnoCore(5, Rules(jump_in=True), native=native)
        core.reset(seed=seed)
        rng = random.Random(seed)
        while not core.over and core.steps < 150:
            if not core.on_turn:
                for observer in range(5):
                    if observer == core.seat:
                        continue
                    sample = core.resample(observer, random.Random(observer))
                    moved_on += sample.seat != core.seat or sample.on_turn
                    for action in sample.legal_actions():
                        sample.clone().step(action)  # every action it offers is legal
            core.step(rng.choice(core.legal_actions()))
    assert moved_on == 0


def test_env_keeps_the_order_enforcing_wrappers_checks(caplog: pytest.LogCaptureFixture) -> None:
    """``env()``'s wrapper forwards the per-step attributes without ``__getattr__`` but
    refuses what PettingZoo's wrapper refuses, in the same words."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    env = uno_v0.env(players=3)
    assert isinstance(env, OrderEnforcingWrapper)
    for name in ("agent_selection", "agents", "terminations", "truncations", "infos",
                 "rewards"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(env, name)
    with pytest.raises(AttributeError, match="agent_selection cannot be accessed"):
        env.last()
    with pytest.raises(AssertionError, match="reset"):
        env.step(0)
    with pytest.raises(AssertionError, match="reset"):
        env.observe("player_0")
    env.reset(seed=3)
    raw = env.unwrapped
    for _ in range(2):  # reset rebinds the dicts: the wrapper reads the new ones
        assert env.agent_selection == raw.agent_selection
        assert env.terminations is raw.terminations and env.infos is raw.infos
        assert env._cumulative_rewards is raw._cumulative_rewards
        assert env.last()[0]["action_mask"].tolist() == raw.observe(raw.agent_selection)[
            "action_mask"].tolist()
        env.reset(seed=4)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        assert agent == raw.agent_selection
        env.step(None if terminated or truncated else int(obs["action_mask"].argmax()))
    assert env.agents == [] and raw.agents == []
    env.step(None)
    assert "step() called after all agents are terminated" in caplog.text
