"""Engine behaviour that scenario files cannot show: dealing, rounds, events, errors, undo."""

from __future__ import annotations

import itertools
import random
import re

import pytest

from unogame.engine import (
    CARD_CODE,
    Game,
    IllegalMoveError,
    Move,
    NotationError,
    PositionError,
    Rules,
    replay,
)
from unogame.engine.cards import CARD_POINTS, card_from_code
from unogame.engine.playout import play_random_round


def points(code: str) -> int:
    return CARD_POINTS[card_from_code(code)]


@pytest.mark.parametrize("seed", range(40))
def test_r2_1_highest_card_deals_and_ties_draw_again(seed: int) -> None:
    game = Game.new(5, seed=seed)
    draws = game.dealer_draws
    assert list(draws[0]) == [0, 1, 2, 3, 4], "R2.1: every player draws"
    for earlier, later in itertools.pairwise(draws):
        best = max(points(card) for card in earlier.values())
        tied = [seat for seat, card in earlier.items() if points(card) == best]
        assert len(tied) > 1 and sorted(later) == tied, "R2.1: only tied players draw again"
    last = draws[-1]
    best = max(points(card) for card in last.values())
    assert [seat for seat, card in last.items() if points(card) == best] == [game.dealer]


def test_r2_2_deal_one_at_a_time_from_dealers_left() -> None:
    deck = [f"R{n}" for n in range(1, 10)] + [f"Y{n}" for n in range(1, 10)] + ["G5", "G6"]
    game = Game.deal(3, dealer=1, deck=deck, rules=Rules(hand_size=2))
    assert game.hands == [["R2", "R5"], ["R3", "R6"], ["R1", "R4"]]
    assert game.top_card == "R7" and game.turn == 2
    assert game.position()["draw_pile"][0] == "R8"


def test_every_new_game_holds_the_112_cards_and_seven_each() -> None:
    for players in range(2, 11):
        game = Game.new(players, seed=players)
        position = game.position()
        total = sum(len(h) for h in position["hands"]) + len(position["draw_pile"]) + len(
            position["discard_pile"])
        assert total == 112
        assert all(len(hand) >= 7 for hand in position["hands"])


def test_r7_4_next_round_next_dealer_full_deck_scores_kept() -> None:
    game = Game.new(4, seed=11)
    play_random_round(game, random.Random(11))
    assert game.winner is not None
    scores = list(game.scores)
    dealer = game.dealer
    game.next_round()
    assert game.dealer == (dealer + 1) % 4
    assert game.scores == scores and game.winner is None
    assert sum(game.hand_sizes()) + game.draw_pile_size + len(game.position()["discard_pile"]) \
        == 112


def test_a_match_is_played_to_the_target_and_then_refuses_rounds() -> None:
    game = Game.new(3, rules=Rules(target_score=150), seed=5)
    rng = random.Random(5)
    rounds = 0
    while True:
        play_random_round(game, rng)
        rounds += 1
        if game.game_winner is not None:
            break
        game.next_round()
    assert max(game.scores) >= 150 and game.scores[game.game_winner] >= 150
    with pytest.raises(IllegalMoveError, match=r"R3\.2"):
        game.next_round()
    again = replay(game.record())
    assert again.position() == game.position(), "a game record replays exactly"


def test_r5_4_the_challenged_hand_is_shown_to_the_challenger_only() -> None:
    game = Game.from_position({
        "players": 3, "hands": [["W+4", "R2", "G3"], ["B1", "B2"], ["Y1", "Y2"]],
        "draw_pile": ["B3", "B4", "B5", "B6", "B7", "B8"], "discard_pile": ["R5"],
        "color": "R"})
    game.push(0, "play W+4 G")
    events = game.push(1, "challenge")
    challenge = next(e for e in events if e.type == "challenge")
    assert challenge.for_seat(1)["hand"] == ["R2", "G3"]
    assert "hand" not in challenge.for_seat(2)
    assert "hand" not in challenge.for_seat(None)
    assert challenge.for_seat(2)["guilty"] is True
    assert game.hand(0) == ["R2", "G3", "B3", "B4", "B5", "B6"] and game.turn == 1


def test_drawn_cards_are_private_in_events_and_views() -> None:
    game = Game.from_position({
        "players": 2, "hands": [["G1"], ["B1", "B2"]], "draw_pile": ["R9", "Y1"],
        "discard_pile": ["R5"], "color": "R"})
    events = game.push(0, "draw")
    draw = next(e for e in events if e.type == "draw")
    assert draw.for_seat(0)["cards"] == ["R9"]
    assert "cards" not in draw.for_seat(1) and draw.for_seat(1)["count"] == 1
    assert game.view(0)["pending"] == {"kind": "drawn", "card": "R9"}
    assert game.view(1)["pending"] == {"kind": "drawn"}


def test_illegal_moves_cite_the_rule_and_change_nothing() -> None:
    game = Game.from_position({
        "players": 3, "hands": [["R1", "G2"], ["B1", "B2"], ["Y1", "Y2"]],
        "draw_pile": ["B3"], "discard_pile": ["R5"], "color": "R"})
    before = game.position()
    cases = {
        (0, "play G2"): "R4.2", (1, "play B1"): "R4.1", (0, "pass"): "R4.4",
        (0, "challenge"): "R5.4", (0, "catch 1"): "R6.2", (0, "play Y1"): "R4.2",
        (2, "uno"): "R6.1", (0, "color G"): "R5.8",
    }
    for (seat, text), rule in cases.items():
        with pytest.raises(IllegalMoveError, match=re.escape(rule)):
            game.push(seat, text)
        assert game.position() == before
    for text in ("play", "play X9", "play W", "fly", "catch x", "color P"):
        with pytest.raises(NotationError):
            game.push(0, text)
    assert game.position() == before


def test_impossible_positions_are_refused() -> None:
    base = {"players": 2, "hands": [["R1"], ["R2"]], "draw_pile": [], "discard_pile": ["R5"],
            "color": "R"}
    for change in ({"hands": [["R0", "R0"], ["R2"]]}, {"color": "G"}, {"hands": [[], ["R2"]]},
                   {"players": 11}, {"turn": 5}, {"catchable": [0], "uno": [0]}, {"bogus": 1}):
        with pytest.raises(PositionError):
            Game.from_position({**base, **change})


def test_pop_restores_every_position_and_copy_is_independent() -> None:
    game = Game.new(4, rules=Rules(stacking=True, seven_zero=True), seed=3)
    rng = random.Random(3)
    positions = [game.position()]
    for _ in range(60):
        if game.winner is not None:
            break
        moves = game.legal_moves(game.turn)
        game.push(game.turn, moves[rng.randrange(len(moves))])
        positions.append(game.position())
    twin = game.copy()
    while game.history:
        positions.pop()
        game.pop()
        assert game.position() == positions[-1]
    assert twin.position() != game.position() or len(positions) == 1


def test_moves_are_interned_and_round_trip() -> None:
    for text in ("play R7", "play W+4 G uno", "play WS B 2", "play WC Y R", "draw", "pass",
                 "challenge", "accept", "color B", "uno", "catch 9", "play R+2 uno"):
        move = Move.parse(text)
        assert str(move) == text and Move.parse(text.lower()) is move
        assert Move.from_code(move.code) is move
    assert CARD_CODE[card_from_code("b+2")] == "B+2"


# ----------------------------------------------------------------------------- issue 8

DRAW_TWO_FIRST = ["R1", "G1", "R2", "G2", "B+2", "Y5", "Y6", "Y7"]


def test_r5_1_draw_two_turned_up_first_is_an_event_private_to_the_drawer() -> None:
    game = Game.deal(2, 1, DRAW_TWO_FIRST, Rules(hand_size=2))
    events = game.start_events()
    assert [event.type for event in events] == ["deal", "draw", "skip"]
    deal, draw, skip = events
    assert deal.public == {"dealer": 1, "top": "B+2", "turn": 1, "direction": 1}
    assert draw.for_seat(0)["cards"] == ["Y5", "Y6"] == game.hand(0)[2:]
    assert "cards" not in draw.for_seat(1) and "cards" not in draw.for_seat(None)
    assert draw.public == {"seat": 0, "count": 2, "reason": "draw_two"}
    assert skip.public == {"seat": 0} and game.turn == 1
    assert game.start_events() == events  # asking again changes nothing


def test_first_card_skip_reverse_and_wild_in_start_events() -> None:
    def first(card: str, players: int = 3) -> Game:
        deck = [f"{colour}{n}" for colour in "RG" for n in range(1, 4)] + [card, "Y9"]
        return Game.deal(players, players - 1, deck, Rules(hand_size=2))

    skip = first("BS").start_events()
    assert [event.type for event in skip] == ["deal", "skip"] and skip[1].public == {"seat": 0}
    reverse = first("BR").start_events()
    assert [event.type for event in reverse] == ["deal"]
    assert reverse[0].public["direction"] == -1 and reverse[0].public["turn"] == 2
    wild = first("W")
    assert [event.type for event in wild.start_events()] == ["deal"]
    assert wild.pending is not None and wild.pending.kind == "color"


def test_next_round_returns_its_start_events_and_positions_have_none() -> None:
    game = Game.new(3, seed=11)
    play_random_round(game, random.Random(1))
    events = game.next_round()
    assert events == game.start_events() and events[0].type == "deal"
    assert events[0].public["dealer"] == game.dealer
    assert Game.from_position(game.position()).start_events() == []


def test_copy_pops_and_records_like_the_original() -> None:
    game = Game.new(3, Rules(seven_zero=True), seed=5)
    rng = random.Random(5)
    positions = [game.position()]
    for step in range(30):
        moves = game.legal_moves(game.turn)
        move = moves[rng.randrange(len(moves))]
        if step % 2:
            game.push(game.turn, move)
        else:
            game.push_unchecked(game.turn, move)
        positions.append(game.position())
    twin = game.copy()
    assert twin.record() == game.record()
    while twin.history:  # before issue 8, pop() on a copy raised KeyError 'shuffles'
        positions.pop()
        twin.pop()
        assert twin.position() == positions[-1]
    assert game.position() != twin.position()
    assert replay(game.copy().record()).position() == game.position()


def test_from_view_builds_a_determinization_and_checks_the_hidden_cards() -> None:
    game = Game.new(3, seed=8)
    view = game.view(1)
    hidden = {0: game.hand(0), 2: game.hand(2)}
    draw = game.position()["draw_pile"]
    world = Game.from_view(view, game.rules, game.seed, hidden, draw)
    assert world.position() == game.position()
    assert [world.legal_moves(seat) for seat in range(3)] == [
        game.legal_moves(seat) for seat in range(3)]
    template = Game.from_view(view, game.rules)
    assert template.hand_sizes() == [0, 7, 0] and template.draw_pile_size == 0
    for hands, pile, message in (
        ({0: game.hand(0)[:3], 2: game.hand(2)}, draw, "holds 7 cards, not 3"),
        ({1: game.hand(1)}, None, "not hidden"),
        ({0: ["R1"] * 7}, None, "more than 2 R1"),
        (hidden, draw[:-1], "draw pile holds"),
    ):
        with pytest.raises(PositionError, match=message):
            Game.from_view(view, game.rules, 0, hands, pile)


def test_resample_rejudges_a_hidden_challenge_verdict() -> None:
    game = Game.from_position({
        "players": 2, "hands": [["W+4", "R1", "G3"], ["B7", "B8"]], "draw_pile": [],
        "discard_pile": ["R5"], "color": "R", "turn": 0})
    game.push(0, "play W+4 B")
    view = game.view(1)
    assert "guilty" not in view["pending"]
    template = Game.from_view(view)
    innocent = template.resample({0: [card_from_code("G3"), card_from_code("Y2")]}, [], 1)
    guilty = template.resample({0: [card_from_code("R1"), card_from_code("G3")]}, [], 1)
    assert innocent.pending is not None and not innocent.pending.guilty
    assert guilty.pending is not None and guilty.pending.guilty
    assert template.hand_sizes() == [0, 2]  # the template is untouched
