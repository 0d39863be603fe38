"""IS-MCTS determinizations agree with everything the seat has seen (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from unogame.bots.ismcts import determinize, public_game
from unogame.bots.knowledge import CardTracker
from unogame.engine import Game, Rules
from unogame.engine.cards import CARD_COLOR, card_from_code
from unogame.engine.playout import random_step

rules_strategy = st.builds(
    Rules,
    stacking=st.booleans(),
    seven_zero=st.booleans(),
    jump_in=st.booleans(),
    draw_until_playable=st.booleans(),
    custom_rule=st.sampled_from(["none", "pass_hands", "discard_color", "others_draw",
                                 "chosen_draw"]),
    hand_size=st.integers(3, 9),
)


@settings(max_examples=100, deadline=None)
@given(players=st.integers(2, 10), rules=rules_strategy, seed=st.integers(0, 10**6),
       steps=st.integers(0, 150), seat_pick=st.integers(0, 9))
def test_determinizations_match_the_view(players: int, rules: Rules, seed: int, steps: int,
                                         seat_pick: int) -> None:
    game = Game.new(players, rules, seed)
    seat = seat_pick % players
    tracker = CardTracker(seat, players)
    tracker.reset(seat, game.view(seat)["hands"][seat], players)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.winner is not None:
            break
        mover = game.turn
        move = game.legal_moves(mover)[int(rng.random() * len(game.legal_moves(mover)))]
        for event in game.push(mover, move):
            tracker.observe(event.for_seat(seat))
        if rng.random() < 0.3 and game.winner is None:
            random_step(game, rng)  # UNO calls and catches too; it reports no events,
            tracker = _rebuild(game, seat)  # so the seat's events are replayed
    if game.winner is not None:
        return
    view = game.view(seat)
    tracker.sync(view)
    truth = game.hands
    for other, known in enumerate(tracker.known):  # what the seat knows is true
        if other != seat:
            assert not Counter(known) - Counter(card_from_code(c) for c in truth[other])
    template = public_game(view, seat, game.rules)
    pool = tracker.unseen(view)
    for sample in range(3):
        world = determinize(view, tracker, template, pool, random.Random(sample))
        assert world.view(seat)["hands"][seat] == view["hands"][seat]
        assert world.hand_sizes() == game.hand_sizes()
        assert world.draw_pile_size == game.draw_pile_size
        assert world.position()["discard_pile"] == view["discard_pile"]
        assert (world.color, world.turn, world.direction) == (game.color, game.turn,
                                                              game.direction)
        assert world.uno == game.uno and world.catchable == game.catchable
        everything = Counter(c for hand in world.hands for c in hand)
        everything.update(world.position()["draw_pile"] + view["discard_pile"])
        real = Counter(c for hand in truth for c in hand)
        real.update(game.position()["draw_pile"] + view["discard_pile"])
        assert everything == real  # the same cards, only placed differently
        for other, known in enumerate(tracker.known):
            if other != seat:
                assert not Counter(known) - Counter(world.card_hands[other])
        public = game.view(seat)
        if public["pending"] is not None and public["pending"]["kind"] == "challenge":
            pending = world.pending
            assert pending is not None and pending.kind == "challenge"
            if "guilty" not in public["pending"]:
                by_hand = world.card_hands[pending.by]
                assert pending.guilty == any(CARD_COLOR[c] == pending.color for c in by_hand)
        assert world.legal_moves(seat) == game.legal_moves(seat)


def _rebuild(game: Game, seat: int) -> CardTracker:
    """A tracker fed the events of the round so far (the game replayed with events)."""
    record = game.record()
    replayed = Game.new(game.players, game.rules, game.seed)
    tracker = CardTracker(seat, game.players)
    tracker.reset(seat, replayed.view(seat)["hands"][seat], game.players)
    for mover, move in record["rounds"][0]:
        for event in replayed.push(mover, move):
            tracker.observe(event.for_seat(seat))
    return tracker


def test_tracker_infers_missing_colours_and_named_colours() -> None:
    tracker = CardTracker(seat=0, players=3)
    tracker.reset(0, ["R1", "G2"], 3)
    tracker.color = 0  # red to match
    tracker.observe({"type": "draw", "seat": 1, "count": 1, "reason": "turn"})
    assert tracker.allowance[1][0] == 1 and tracker.allowance[1][4] == 1  # red, wilds
    assert tracker.allowance[1][1] is None
    tracker.observe({"type": "play", "seat": 1, "card": "R5", "color": "R"})
    assert tracker.allowance[1][0] == 0  # the drawn card was that red
    tracker.observe({"type": "play", "seat": 2, "card": "W", "color": "B"})
    assert tracker.named[2] == 3
    tracker.observe({"type": "swap", "seats": [1, 2]})
    assert tracker.named[1] == 3 and tracker.allowance[2][0] == 0
    tracker.observe({"type": "play", "seat": 1, "card": "B7", "color": "B"})
    assert tracker.named[1] == -1


def test_determinization_respects_inferences() -> None:
    game = Game.from_position({
        "players": 2, "hands": [["R1", "G2"], ["Y1", "Y2", "B3", "B4", "G5"]],
        "draw_pile": ["R2", "R3", "R4", "R6", "Y7", "W", "RS"], "discard_pile": ["R5"],
        "color": "R", "turn": 0})
    view = game.view(0)
    tracker = CardTracker(0, 2)
    tracker.reset(0, view["hands"][0], 2)
    tracker.allowance[1] = [0, None, None, None, 0]  # drew on red: no red, no wild
    tracker.named[1] = 1  # named yellow
    template = public_game(view, 0, game.rules)
    pool = tracker.unseen(view)
    for sample in range(20):
        world = determinize(view, tracker, template, pool, random.Random(sample))
        hand = world.card_hands[1]
        assert len(hand) == 5
        assert not any(CARD_COLOR[card] in (0, 4) for card in hand)
        assert any(CARD_COLOR[card] == 1 for card in hand)


def test_tracker_keeps_the_void_after_a_draw_that_was_not_played() -> None:
    tracker = CardTracker(seat=0, players=3)
    tracker.reset(0, ["R1", "G2"], 3)
    tracker.color = 0  # red to match
    tracker.observe({"type": "draw", "seat": 1, "count": 1, "reason": "turn"})
    tracker.observe({"type": "play", "seat": 2, "card": "R7", "color": "R"})  # seat 1's turn ended
    assert tracker.allowance[1][0] == 0 and tracker.allowance[1][4] == 0
    assert tracker.allowance[1][1] is None
    tracker.observe({"type": "draw", "seat": 1, "count": 1, "reason": "turn"})
    tracker.observe({"type": "pass", "seat": 1})  # it kept a playable card: red or wild
    tracker.observe({"type": "play", "seat": 2, "card": "R8", "color": "R"})
    assert tracker.allowance[1][0] == 1 and tracker.allowance[1][4] == 1


def test_tracker_takes_a_wild_for_a_void_in_the_colour_it_replaced() -> None:
    tracker = CardTracker(seat=0, players=3)
    tracker.reset(0, ["R1", "G2"], 3)
    tracker.observe({"type": "play", "seat": 2, "card": "Y3", "color": "Y"})
    tracker.observe({"type": "play", "seat": 1, "card": "W", "color": "B"})
    assert tracker.allowance[1][1] == 0 and tracker.allowance[1][0] is None
    assert tracker.named[1] == 3 and tracker.color == 3
    tracker.observe({"type": "play", "seat": 0, "card": "W", "color": "G"})
    assert tracker.allowance[0] == [None] * 5  # this seat's own play says nothing
    tracker.observe({"type": "play", "seat": 2, "card": "W+4", "color": "R"})
    assert tracker.allowance[2][2] is None  # a Wild Draw Four may be a bluff: judged on samples


def test_rollout_policy_stops_a_next_seat_close_to_going_out() -> None:
    from unogame.bots.rollout import fast_rollout_move

    def rollout_choice(hand: list[str], next_hand: list[str]) -> str:
        game = Game.from_position({
            "players": 3, "hands": [hand, next_hand, ["G1", "G2", "G3"]],
            "draw_pile": ["B7", "B8"], "discard_pile": ["R5"], "color": "R", "turn": 0})
        return str(fast_rollout_move(game, 0))

    many = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"]
    assert rollout_choice(["RS", "Y5", "Y1", "Y2", "Y3", "Y4"], many) == "play Y5"
    assert rollout_choice(["RS", "Y5", "Y1", "Y2", "Y3", "Y4"], ["G7", "G8"]) == "play RS"
    assert rollout_choice(["W", "W+4", "B1"], many).startswith("play W ")
    assert rollout_choice(["W", "W+4", "B1"], ["G7", "G8", "G9"]).startswith("play W+4")
