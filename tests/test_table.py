"""The table (issue 8, section 2): seats, feeds, reactions, the bot failure policy, rounds,
absent people, the host, next-round consensus, the turn timer and determinism."""

from __future__ import annotations

import concurrent.futures
import random
from collections.abc import Sequence
from typing import Any

import pytest

from unogame.bots import Bot, RandomBot
from unogame.engine import Event, Game, Move, Rules
from unogame.engine.moves import TURN_KINDS
from unogame.table import (
    MATCH_OVER,
    PLAYING,
    ROUND_OVER,
    STAND_IN_MOVE,
    DecisionRequest,
    NextRound,
    SeatSpec,
    Table,
    TableError,
    TableSettings,
    fill_empty_seats,
    reaction_order,
)

ANN, BEN, CAT = SeatSpec("Ann"), SeatSpec("Ben"), SeatSpec("Cat")


def position(**fields: Any) -> Game:
    base: dict[str, Any] = {"draw_pile": ["B3", "Y9", "G5", "R2", "B8", "Y4"],
                            "discard_pile": ["R5"], "color": "R", "turn": 0}
    return Game.from_position({**base, **fields})


def run_bots(table: Table, limit: int = 5000) -> int:
    """Drive the table's bot decisions inline until it waits for someone; returns moves."""
    moves = 0
    for _ in range(limit):
        step = table.next_step()
        if not isinstance(step, DecisionRequest):
            return moves
        play = table.resolve(step, *step.decide())
        if play is not None:
            table.apply(play)
            moves += 1
    raise AssertionError("the bots did not stop")


def play_match(table: Table) -> None:
    while True:
        run_bots(table)
        if table.status == MATCH_OVER:
            return
        step = table.next_step()
        assert isinstance(step, NextRound), step
        table.next_round()


# ----------------------------------------------------------------------------- reaction order

def test_reaction_order_follows_play_order_and_direction() -> None:
    game = position(players=4, hands=[["R7", "G2"], ["B7"], ["Y1", "Y2"], ["G7"]],
                    catchable=[1, 3], turn=2)
    assert reaction_order(game) == [3, 0, 1]
    backwards = position(players=4, hands=[["R7", "G2"], ["B7"], ["Y1", "Y2"], ["G7"]],
                         catchable=[1, 3], turn=2, direction=-1)
    assert reaction_order(backwards) == [1, 0, 3]
    nothing = position(players=3, hands=[["R7", "G2"], ["B7", "B1"], ["Y1", "Y2"]])
    assert reaction_order(nothing) == []


def test_reaction_order_with_delays_is_sorted_and_deterministic() -> None:
    game = position(players=4, hands=[["R7", "G2"], ["B7"], ["Y1", "Y2"], ["G7"]],
                    catchable=[1, 3], turn=2)
    delays = [0.0, 5.0, 0.0, 2.0]  # seat 0 first, then 3, then 1, whatever the jitter
    assert reaction_order(game, delays, random.Random(3)) == [0, 3, 1]
    orders = {tuple(reaction_order(game, [1.0] * 4, random.Random(seed))) for seed in range(30)}
    assert len(orders) > 1  # the jitter reorders close delays
    for seed in range(5):
        assert reaction_order(game, [1.0] * 4, random.Random(seed)) == \
            reaction_order(game, [1.0] * 4, random.Random(seed))

    class Equal(random.Random):
        def random(self) -> float:
            return 0.5

    assert reaction_order(game, [1.0] * 4, Equal()) == [3, 0, 1]  # ties: play order


# ----------------------------------------------------------------------------- seats and bots

def test_bots_fill_the_empty_seats_and_play_a_match() -> None:
    seats = fill_empty_seats([SeatSpec("Bot 1", "easy")], 4, level="random")
    assert [(s.name, s.bot) for s in seats] == [("Bot 1", "easy"), ("Bot 2", "random"),
                                                 ("Bot 3", "random"), ("Bot 4", "random")]
    table = Table(seats, Rules(target_score=150), seed=2)
    play_match(table)
    assert table.status == MATCH_OVER and table.round == len(table.results) > 1
    assert table.results[-1]["scores"][table.game.game_winner or 0] >= 150
    assert table.host is None and table.bot_failures == []
    with pytest.raises(ValueError):
        fill_empty_seats([], 2, level="genius")


def test_round_one_starts_with_its_events_in_every_feed() -> None:
    table = Table([ANN, SeatSpec("Bot", "random")], seed=1)
    for seat in (0, 1, None):
        first = table.feed(seat)[0]
        assert first["type"] == "deal" and first["top"] == table.game.top_card


def test_a_draw_two_turned_up_in_round_one_is_in_the_feed() -> None:
    deck = ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "B1", "B2", "B3", "B4", "B5", "B6",
            "B7", "R+2", "G1", "G2", "G3", "G4", "G5", "G6", "G7"]
    game = Game.deal(2, 1, deck)
    table = Table([ANN, BEN], game=game)
    kinds = [event["type"] for event in table.feed(0)]
    assert kinds[:2] == ["deal", "draw"]
    assert table.feed(0)[1]["seat"] == 0 and len(table.feed(0)[1]["cards"]) == 2
    assert "cards" not in table.feed(1)[1]


class Faulty(Bot):
    """A bot that fails in a chosen way."""

    level = "faulty"

    def __init__(self, mode: str) -> None:
        super().__init__(0)
        self.mode = mode

    def choose(self, view: dict[str, Any], legal: Sequence[Move]) -> Move | None:
        if self.mode == "raise":
            raise RuntimeError("boom")
        if self.mode == "none":
            return None
        return Move.parse("catch 5")  # never legal here


@pytest.mark.parametrize("mode", ["raise", "none", "illegal"])
def test_a_failing_bot_is_logged_and_replaced_by_a_legal_turn_move(mode: str) -> None:
    game = position(players=2, hands=[["R7", "G2"], ["B7", "B1"]])
    table = Table([SeatSpec("Bot", "faulty"), BEN], game=game, bots={0: Faulty(mode)})
    step = table.next_step()
    assert isinstance(step, DecisionRequest) and step.on_turn and step.seat == 0
    play = table.resolve(step, *step.decide())
    assert play is not None and play.move in step.legal and play.move.kind in TURN_KINDS
    assert play.failure is not None
    [failure] = table.bot_failures
    assert failure.seat == 0 and failure.on_turn and failure.replaced_by == play.move.text
    assert failure.level == "faulty"
    table.apply(play)
    assert table.version == 1 and table.game.turn == 1


def test_a_failing_bot_off_turn_is_logged_and_its_reaction_dropped() -> None:
    game = position(players=2, hands=[["R7", "G2"], ["B7"]], catchable=[1])
    table = Table([ANN, SeatSpec("Bot", "faulty")], game=game, bots={1: Faulty("raise")})
    step = table.next_step()
    assert isinstance(step, DecisionRequest) and not step.on_turn and step.seat == 1
    assert table.resolve(step, *step.decide()) is None
    assert table.bot_failures[0].replaced_by is None and not table.bot_failures[0].on_turn
    assert "boom" in table.bot_failures[0].reason
    assert table.version == 0 and table.next_step() is None  # asked once per position


# ----------------------------------------------------------------------------- absent people

def two_people(**settings: Any) -> Table:
    game = position(players=2, hands=[["R7", "G2", "B1"], ["B7", "B2", "Y3"]])
    return Table([ANN, BEN], game=game, settings=TableSettings(**settings))


def test_an_absent_seat_gets_a_stand_in_after_the_grace_and_the_log_says_so() -> None:
    table = two_people(grace=20.0)
    assert table.next_step() is None  # Ann's turn: a person
    table.set_present(0, False)
    table.advance(19.0)
    assert table.next_step() is None and not table.seat(0).stand_in
    assert table.wake_at() == 20.0
    table.advance(1.0)
    step = table.next_step()
    assert isinstance(step, DecisionRequest) and step.seat == 0 and step.stand_in
    assert table.seat(0).stand_in
    play = table.resolve(step, *step.decide())
    assert play is not None
    events = table.apply(play)
    assert events[0].type == STAND_IN_MOVE and events[0].public == {"seat": 0, "name": "Ann"}
    # (a game from a position has no deal event: the marker comes first)
    assert table.feed(1)[0] == {"type": STAND_IN_MOVE, "seat": 0, "name": "Ann"}


def test_the_grace_applies_without_a_turn_timer_and_counts_from_leaving() -> None:
    table = two_people(grace=5.0)
    assert table.settings.turn_timer is None
    table.set_present(1, False)  # Ben leaves off his turn
    table.advance(6.0)
    table.play(0, "play R7")
    step = table.next_step()  # Ben has been gone for longer than the grace: at once
    assert isinstance(step, DecisionRequest) and step.seat == 1 and step.stand_in


def test_a_person_who_returns_takes_the_seat_back() -> None:
    table = two_people(grace=1.0)
    table.set_present(0, False)
    table.advance(2.0)
    step = table.next_step()
    assert isinstance(step, DecisionRequest) and step.stand_in
    table.set_present(0, True)  # back while the stand-in thinks
    assert table.resolve(step, *step.decide()) is None  # its answer is dropped
    assert table.version == 0 and not table.seat(0).stand_in
    assert table.next_step() is None  # Ann plays herself again
    table.play(0, "draw")
    assert table.version == 1


def test_the_host_hands_a_disconnected_seat_to_a_bot() -> None:
    table = two_people(grace=60.0)
    assert table.host == 0
    with pytest.raises(TableError) as error:
        table.hand_to_bot(0, 1)
    assert error.value.code == "present"
    table.set_present(0, False)  # the host leaves: Ben hosts now
    assert table.host == 1
    with pytest.raises(TableError) as error:
        table.hand_to_bot(0, 0)
    assert error.value.code == "not_host"
    table.hand_to_bot(1, 0)
    assert table.seat(0).handed and table.seat(0).stand_in
    step = table.next_step()
    assert isinstance(step, DecisionRequest) and step.seat == 0 and step.stand_in
    table.resolve(step, None, None)  # (answered: the turn policy plays a legal move)
    table.set_present(0, True)
    assert not table.seat(0).handed and table.host == 1


def test_the_host_role_passes_to_the_next_connected_person() -> None:
    game = position(players=4, hands=[["R7", "G2"], ["B7", "B1"], ["Y1", "Y2"], ["G7", "G8"]])
    table = Table([ANN, SeatSpec("Bot", "easy"), BEN, CAT], game=game)
    assert table.host == 0
    table.set_present(2, False)
    table.set_present(0, False)
    assert table.host == 3  # not the bot, not Ben who is gone
    table.set_present(3, False)
    assert table.host == 3  # nobody to pass it to
    table.set_present(2, True)
    table.set_present(3, True)
    table.set_present(3, False)
    assert table.host == 2
    with pytest.raises(TableError):
        table.set_present(1, False)  # a bot's seat


def test_a_hidden_page_on_its_turn_gets_a_stand_in_after_the_grace() -> None:
    """Issue 21, item 5: a phone put in the background on its turn (no turn timer) froze the
    table; hidden on one's turn now counts like gone."""
    table = two_people(grace=20.0)
    assert table.settings.turn_timer is None
    table.set_hidden(0, True)  # Ann's turn, her page goes to the background
    assert table.seat(0).hidden and table.seat(0).present
    table.advance(19.0)
    assert table.next_step() is None and not table.seat(0).stand_in
    assert table.wake_at() == 20.0
    table.advance(1.0)
    step = table.next_step()
    assert isinstance(step, DecisionRequest) and step.seat == 0 and step.stand_in
    assert step.on_turn and table.seat(0).stand_in
    play = table.resolve(step, *step.decide())
    assert play is not None
    assert table.apply(play)[0].type == STAND_IN_MOVE


def test_a_hidden_page_off_its_turn_is_not_replaced_and_its_grace_starts_with_its_turn(
        ) -> None:
    table = two_people(grace=5.0)
    table.set_hidden(1, True)  # Ben hides while it is Ann's turn
    table.advance(30.0)
    assert table.next_step() is None and not table.seat(1).stand_in
    table.play(0, "play R7")  # Ben's turn now: his grace starts here, not when he hid
    assert table.next_step() is None and table.wake_at() == 35.0
    table.advance(4.9)
    assert table.next_step() is None
    table.advance(0.1)
    step = table.next_step()
    assert isinstance(step, DecisionRequest) and step.seat == 1 and step.stand_in


def test_a_page_visible_again_takes_the_turn_back_and_the_host_may_hand_a_hidden_seat() -> None:
    table = two_people(grace=60.0)
    with pytest.raises(TableError) as error:
        table.hand_to_bot(0, 1)
    assert error.value.code == "present"
    table.play(0, "play R7")  # Ben's turn
    table.set_hidden(1, True)
    assert table.next_step() is None  # the grace is a minute
    assert table.host == 0  # a hidden page keeps its role (only leaving passes it)
    table.hand_to_bot(0, 1)  # the host lets a bot play for Ben, who is away
    assert table.seat(1).handed and table.seat(1).stand_in
    step = table.next_step()
    assert isinstance(step, DecisionRequest) and step.seat == 1 and step.stand_in
    table.set_hidden(1, False)  # Ben looks again while the bot thinks
    assert table.resolve(step, *step.decide()) is None  # its answer is dropped
    assert not table.seat(1).handed and not table.seat(1).stand_in
    assert table.next_step() is None and table.version == 1  # Ben plays himself


def test_the_creator_gets_the_host_role_back() -> None:
    table = two_people()
    table.set_present(0, False)
    assert table.host == 1
    table.set_present(0, True)
    table.set_host(0)
    assert table.host == 0


# ----------------------------------------------------------------------------- the turn timer

def test_the_turn_timer_counts_down_and_a_stand_in_makes_one_move() -> None:
    table = two_people(turn_timer=10.0)
    assert table.turn_remaining() == 10.0
    table.advance(4.0)
    assert table.turn_remaining() == 6.0 and table.next_step() is None
    assert table.wake_at() == 10.0
    table.advance(6.0)
    step = table.next_step()
    assert isinstance(step, DecisionRequest) and step.seat == 0 and step.stand_in
    play = table.resolve(step, *step.decide())
    assert play is not None
    table.apply(play)
    seat = table.game.turn
    assert table.turn_remaining() == 10.0  # the next decision has its full time
    assert not table.seat(0).stand_in  # Ann is here: the bot made that one move only
    if seat == 0:  # Ann drew a playable card: her decision, not the bot's
        assert table.next_step() is None


# ----------------------------------------------------------------------------- next round

def round_ending_table(countdown: float | None = 30.0) -> Table:
    game = position(players=4, hands=[["R7"], ["B7", "B1"], ["Y1", "Y2"], ["G7", "G8"]],
                    uno=[0])
    table = Table([ANN, BEN, SeatSpec("Bot", "random"), CAT], game=game,
                  settings=TableSettings(next_round_countdown=countdown))
    table.play(0, "play R7")
    assert table.status == ROUND_OVER
    return table


def test_next_round_waits_for_every_connected_person() -> None:
    table = round_ending_table()
    assert table.results[0]["winner"] == 0
    table.set_present(3, False)  # Cat is gone: nobody waits for her
    table.press_next(0)
    assert table.next_step() is None and table.ready == {0}
    with pytest.raises(TableError):
        table.press_next(2)  # a bot does not press
    table.press_next(1)
    step = table.next_step()
    assert step == NextRound(1, "ready")
    events = table.next_round()
    assert events[0].type == "deal" and table.round == 2 and table.ready == set()
    assert table.status == PLAYING and table.version == 2
    with pytest.raises(TableError):
        table.press_next(0)


def test_next_round_comes_when_the_countdown_runs_out() -> None:
    table = round_ending_table(countdown=15.0)
    table.press_next(1)
    assert table.next_round_remaining() == 15.0 and table.wake_at() == 15.0
    table.advance(14.0)
    assert table.next_step() is None and table.next_round_remaining() == 1.0
    table.advance(1.0)
    assert table.next_step() == NextRound(1, "countdown")
    without = round_ending_table(countdown=None)
    without.advance(1000.0)
    assert without.next_step() is None and without.wake_at() is None


# ----------------------------------------------------------------------------- bots elsewhere

def test_a_bot_thinks_on_another_thread_and_hears_events_afterwards() -> None:
    class Recording(RandomBot):
        def __init__(self) -> None:
            super().__init__(1)
            self.heard: list[str] = []

        def observe(self, event: dict[str, Any]) -> None:
            self.heard.append(event["type"])

    game = position(players=3, hands=[["R7", "G2"], ["B7", "B1"], ["Y1", "Y2"]], turn=1)
    bot = Recording()
    table = Table([ANN, SeatSpec("Bot", "random"), CAT], game=game, bots={1: bot})
    bot.heard.clear()
    step = table.next_step()
    assert isinstance(step, DecisionRequest) and step.bot is bot
    assert table.next_step() is None  # one request out at a time
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        future = pool.submit(step.decide)
        table.set_present(0, False)
        move, error = future.result()
    assert error is None and bot.heard == []
    play = table.resolve(step, move, error)
    assert play is not None
    table.apply(play)
    assert bot.heard and bot.heard[0] in ("play", "draw")


def test_an_answer_for_an_old_position_is_dropped() -> None:
    game = position(players=2, hands=[["R7", "G2"], ["B7"]], catchable=[1])
    table = Table([ANN, SeatSpec("Bot", "random")], game=game)
    step = table.next_step()
    assert isinstance(step, DecisionRequest) and step.seat == 1 and not step.on_turn
    table.play(0, "catch 1")  # Ann was quicker
    assert table.resolve(step, step.legal[0]) is None and table.version == 1
    with pytest.raises(TableError):
        table.resolve(step, None)  # answered already


# ----------------------------------------------------------------------------- determinism

def feeds(table: Table) -> list[list[dict[str, Any]]]:
    return [table.feed(seat) for seat in range(table.players)]


@pytest.mark.parametrize("levels", [("hard", "medium", "easy"), ("random", "easy", "medium",
                                                                 "random")])
def test_same_seed_and_levels_give_the_same_round_whatever_the_pacing(
        levels: tuple[str, ...]) -> None:
    rules = Rules(jump_in=True)
    seats = [SeatSpec(f"B{i}", level) for i, level in enumerate(levels)]
    quick = Table(seats, rules, seed=11)
    run_bots(quick)
    slow = Table(seats, rules, seed=11)
    rng = random.Random(5)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        while slow.status == PLAYING:
            step = slow.next_step()
            assert isinstance(step, DecisionRequest)
            slow.advance(step.delay * rng.random() + rng.random())  # a front end's pacing
            play = slow.resolve(step, *pool.submit(step.decide).result())
            if play is not None:
                slow.apply(play)
    assert quick.status == ROUND_OVER
    assert feeds(quick) == feeds(slow) and quick.version == slow.version
    other = Table(seats, rules, seed=12)
    run_bots(other)
    assert feeds(other) != feeds(quick)


# ----------------------------------------------------------------------------- hidden information

def test_feeds_views_and_bots_see_only_their_seat() -> None:
    seen: dict[int, list[dict[str, Any]]] = {}

    class Spy(RandomBot):
        def new_round(self, seat: int, view: dict[str, Any], rules: Rules | None = None) -> None:
            super().new_round(seat, view, rules)
            check_view(seat, view)

        def observe(self, event: dict[str, Any]) -> None:
            assert self.seat is not None
            seen.setdefault(self.seat, []).append(event)

        def choose(self, view: dict[str, Any], legal: Sequence[Move]) -> Move | None:
            assert self.seat is not None
            check_view(self.seat, view)
            return super().choose(view, legal)

    def check_view(seat: int, view: dict[str, Any]) -> None:
        for other, hand in enumerate(view["hands"]):
            assert isinstance(hand, list) == (other == seat)

    table = Table([ANN, SeatSpec("Bot", "random"), SeatSpec("Bot", "random"), BEN],
                  Rules(seven_zero=True), seed=3, bots={1: Spy(1), 2: Spy(2)})
    table.set_present(0, False)
    table.set_present(3, False)
    table.advance(100.0)
    run_bots(table)
    assert table.status == ROUND_OVER
    log: list[Event] = [event for _n, event in table._log]  # the truth
    for seat in range(4):
        mine = table.feed(seat)
        assert mine == [event.for_seat(seat) for event in log]
        for event, truth in zip(mine, log, strict=True):
            for owner, private in truth.private.items():
                if owner != seat:
                    for key in private:
                        assert key not in event or key in truth.public
    assert table.feed(None) == [{"type": e.type, **e.public} for e in log]
    for seat in (1, 2):
        engine_events = [e for e in log if e.type != STAND_IN_MOVE]
        assert seen[seat] == [e.for_seat(seat) for e in engine_events][-len(seen[seat]):]
    assert table.view(None)["hands"] == [len(hand) for hand in table.game.hands]
    assert table.legal_moves(None) == [] and table.legal_moves(0) == []


def test_a_removed_person_s_seat_becomes_a_bot_s_and_a_cancelled_request_is_asked_again() -> None:
    table = two_people()
    table.seat_to_bot(0, "random")
    assert table.seat(0).bot == "random" and table.host == 1
    step = table.next_step()
    assert isinstance(step, DecisionRequest) and step.seat == 0 and not step.stand_in
    assert table.outstanding is step
    table.cancel(step)
    assert table.outstanding is None
    again = table.next_step()
    assert isinstance(again, DecisionRequest) and again.seat == 0 and again is not step
    with pytest.raises(TableError):
        table.seat_to_bot(0, "easy")


class CountedGame(Game):
    """The engine's game, counting how often each seat's legal moves are worked out."""

    asked: list[int]

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        self.asked.append(self.turn if seat is None else seat)
        return super().legal_moves(seat)


def test_a_persons_move_is_checked_once_and_each_seats_moves_worked_out_once() -> None:
    """Issue 22: a front end checks a move, stores it, plays it and sends every seat its
    legal moves; the engine works out each seat's legal moves once per position (not once
    in check(), again in play() and again in its own push())."""
    game = CountedGame.new(3, Rules(), 11)
    game.asked = []
    table = Table([ANN, BEN, CAT], Rules(), 11, TableSettings(), game=game)
    rng = random.Random(3)
    for _ in range(30):
        if table.status != PLAYING:
            break
        seat = table.game.turn
        legal = table.legal_moves(seat)
        game.asked.clear()
        move = table.check(seat, rng.choice(legal).text)
        table.play(seat, move)
        for other in range(table.players):  # every seat's update
            table.legal_moves(other)
        table.next_step()
        assert sorted(game.asked) == sorted(set(game.asked)), game.asked
        assert set(game.asked) <= set(range(table.players))
    with pytest.raises(TableError):  # a move not legal now is still refused
        table.check(table.game.turn, "play W+4 R uno")
