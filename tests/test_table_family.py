"""Kind to children (issue 24, item 3): with ``TableSettings.catch_grace`` no bot of any
level is asked anything while a person may be caught for a forgotten UNO, until the grace
is over; a person who says UNO within it is never caught.

The table has no clock: these tests pace its requests as the server does
(``RoomGame.schedule``) on a clock of their own, every bot really deciding.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from unogame.engine import Game, Rules
from unogame.table import PLAYING, DecisionRequest, SeatSpec, Table, TableSettings

THINK = 0.9
"""The server's default think time for a bot's own turn (``Timing.think``)."""
GRACE = 3.5

# Ann (seat 0) has just played her second-last card without UNO; seat 1 is to play.
FORGOT = {"players": 3, "hands": [["G2"], ["R1", "B2", "Y4", "G7"], ["R4", "B5", "Y6", "G8"]],
          "draw_pile": ["B3", "Y9", "G1", "R8", "B9", "Y2", "G4", "R6"],
          "discard_pile": ["R5"], "color": "R", "turn": 1, "catchable": [0]}


def table_for(level: str, grace: float | None, position: dict[str, Any] = FORGOT) -> Table:
    seats = [SeatSpec("Ann"), SeatSpec("Bot A", level), SeatSpec("Bot B", level)]
    return Table(seats, seed=7, game=Game.from_position(position, Rules()),
                 settings=TableSettings(catch_grace=grace))


def run_until(table: Table, moment: float) -> list[tuple[float, int, str]]:
    """The bots' moves, paced as the server paces them, up to table time ``moment``:
    (when, seat, move) for each move applied."""
    moves: list[tuple[float, int, str]] = []
    while table.status == PLAYING:
        step = table.next_step()
        if isinstance(step, DecisionRequest):
            pace = max(THINK, step.delay) if step.on_turn else step.delay
            when = max(table.now, step.opened + pace)
            if when > moment:
                table.cancel(step)
                break
            table.advance(when - table.now)
            play = table.resolve(step, *step.decide())
            if play is not None:
                table.apply(play)
                moves.append((round(table.now, 6), play.seat, play.move.text))
            continue
        wake = table.wake_at()
        if wake is None or wake > moment:
            break
        table.advance(wake - table.now)
    table.advance(max(0.0, moment - table.now))
    return moves


@pytest.mark.parametrize("level", ["random", "medium", "hard"])
def test_without_the_grace_a_bot_catches_a_forgotten_uno_within_three_seconds(level: str) -> None:
    moves = run_until(table_for(level, None), 3.0)
    assert any(move == "catch 0" for _, _, move in moves), moves


@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard"])
def test_with_the_grace_no_bot_is_asked_before_it_ends(level: str) -> None:
    table = table_for(level, GRACE)
    for moment in (0.0, 1.0, 2.0, 3.0, 3.49):
        table.advance(moment - table.now)
        assert table.next_step() is None, moment
        assert table.wake_at() == pytest.approx(GRACE)
    assert run_until(table, 3.49) == []


@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard"])
@pytest.mark.parametrize("said_at", [0.2, 1.5, 3.0])
def test_a_person_who_says_uno_within_the_grace_is_never_caught(level: str,
                                                                said_at: float) -> None:
    table = table_for(level, GRACE)
    assert run_until(table, said_at) == []
    table.play(0, "uno")
    moves = run_until(table, 30.0)
    assert not any(move.startswith("catch") for _, _, move in moves), moves
    assert moves, "the bots play on once UNO is said"


@pytest.mark.parametrize("level", ["medium", "hard"])  # easy catches only sometimes
def test_a_forgotten_uno_is_still_caught_after_the_grace(level: str) -> None:
    moves = run_until(table_for(level, GRACE), 10.0)
    catches = [when for when, _, move in moves if move == "catch 0"]
    assert catches and catches[0] >= GRACE, moves


def test_a_bot_that_forgot_uno_is_not_waited_for() -> None:
    """The grace is for people: a bot's forgotten UNO is caught at the bots' own pace."""
    position = {**FORGOT, "hands": [["R1", "B2", "Y4", "G7"], ["G2"], ["R4", "B5", "Y6", "G8"]],
                "turn": 2, "catchable": [1]}
    seats = [SeatSpec("Ann"), SeatSpec("Bot A", "medium"), SeatSpec("Bot B", "medium")]
    table = Table(seats, seed=7, game=Game.from_position(position, Rules()),
                  settings=TableSettings(catch_grace=GRACE))
    assert isinstance(table.next_step(), DecisionRequest)


def redealt(position: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The same position with every hand but Ann's and the draw pile dealt again."""
    hidden = [card for seat in (1, 2) for card in position["hands"][seat]]
    hidden += position["draw_pile"]
    rng.shuffle(hidden)
    hands = [list(position["hands"][0]), hidden[:4], hidden[4:8]]
    return {**position, "hands": hands, "draw_pile": hidden[8:]}


def test_the_wait_depends_on_no_hidden_card() -> None:
    """When the first bot is asked is the same for every deal of the hidden cards."""
    rng = random.Random(5)
    firsts = set()
    for _ in range(20):
        table = table_for("medium", GRACE, redealt(FORGOT, rng))
        while not isinstance(table.next_step(), DecisionRequest):
            wake = table.wake_at()
            assert wake is not None
            table.advance(wake - table.now)
        firsts.add(round(table.now, 9))
    assert firsts == {GRACE}


def test_the_grace_is_checked() -> None:
    with pytest.raises(ValueError, match="catch_grace"):
        TableSettings(catch_grace=-1.0)
