"""A table's memory and a round's length stay bounded (issue 21, item 2): ``log_keep``
keeps only the last events for the feed, ``round_cap`` ends a round that goes on forever
(and its match, with no winner: docs/DECISIONS.md L1), and the engine keeps no undo
record of a move pushed with ``undo=False`` (the table's moves)."""

from __future__ import annotations

import tracemalloc

import pytest

from unogame.engine import Game, Move, Rules
from unogame.sim.runner import play_table
from unogame.table import (
    MATCH_OVER,
    PLAYING,
    ROUND_CAPPED,
    DecisionRequest,
    SeatSpec,
    Table,
    TableError,
    TableSettings,
)

BOTS = [SeatSpec(f"Bot {seat}", level) for seat, level in enumerate(("random", "easy",
                                                                      "medium", "random"))]


def test_log_keep_keeps_the_last_events_and_counts_them_all() -> None:
    whole = Table(BOTS, Rules(target_score=100_000), seed=3)
    kept = Table(BOTS, Rules(target_score=100_000), seed=3,
                 settings=TableSettings(log_keep=50))
    for table in (whole, kept):
        for _ in range(3):
            play_table(table)
            table.next_round()
    assert kept.event_count == whole.event_count > 200
    assert kept.feed(1) == whole.feed(1)[-50:]
    start = whole.event_count - 20
    assert kept.feed(None, start) == whole.feed(None, start)
    assert kept.feed_rounds(2, 0) == whole.feed_rounds(2)[-50:]


def test_a_long_match_does_not_grow_the_tables_memory() -> None:
    """0.7 KiB a move before (every event of the match, the engine's undo records, its
    record of the moves); now the record of a finished round is packed (8 bytes a
    move), the rest does not grow."""
    table = Table(BOTS, Rules(target_score=10**6), seed=5,
                  settings=TableSettings(log_keep=300))

    def rounds(count: int) -> None:
        for _ in range(count):
            play_table(table)
            table.next_round()

    rounds(2)
    tracemalloc.start()
    try:
        rounds(10)
        middle, moves = tracemalloc.get_traced_memory()[0], table.version
        rounds(40)
        grown = tracemalloc.get_traced_memory()[0] - middle
        moves = table.version - moves
    finally:
        tracemalloc.stop()
    assert moves > 1000
    assert grown / moves < 60, f"{grown / moves:.0f} bytes a move"


def stall(table: Table, moves: int) -> None:
    """The players to act draw and pass (people: the table waits for them)."""
    for _ in range(moves):
        seat = table.game.turn
        legal = [move.text for move in table.legal_moves(seat)]
        table.play(seat, next((m for m in ("draw", "pass") if m in legal),
                              next(m for m in legal if not m.startswith("play"))))


def test_the_round_cap_ends_the_match_with_no_winner() -> None:
    people = [SeatSpec(name) for name in ("Ann", "Ben", "Cid")]
    table = Table(people, Rules(), seed=11, settings=TableSettings(round_cap=40))
    stall(table, 39)
    assert table.status == PLAYING and not table.capped
    seat = table.game.turn
    legal = [move.text for move in table.legal_moves(seat)]
    events = table.play(seat, "draw" if "draw" in legal else "pass")
    assert events[-1].type == ROUND_CAPPED and events[-1].public == {"moves": 40}
    assert table.status == MATCH_OVER and table.capped
    assert table.game.winner is None and table.game.game_winner is None
    assert table.results[-1] == {"winner": None, "points": [0, 0, 0],
                                 "scores": [0, 0, 0], "capped": True}
    assert table.legal_moves(seat) == [] and table.next_step() is None
    with pytest.raises(TableError):
        table.play(table.game.turn, "draw")
    with pytest.raises(TableError):
        table.next_round()
    assert table.feed(0)[-1] == {"type": ROUND_CAPPED, "moves": 40}


def test_a_capped_round_stops_the_bots_too() -> None:
    table = Table(BOTS, Rules(), seed=2, settings=TableSettings(round_cap=25))
    while table.status == PLAYING:
        step = table.next_step()
        assert isinstance(step, DecisionRequest)
        move, error = step.decide()
        play = table.resolve(step, move, error)
        if play is not None:
            table.apply(play)
    assert table.capped and table.version == 25 and table.game.winner is None
    assert table.next_step() is None


def test_a_move_pushed_without_undo_is_still_recorded_and_taken_back() -> None:
    kept, lean = Game.new(3, Rules(), 4), Game.new(3, Rules(), 4)
    for _ in range(6):
        seat = kept.turn
        move = kept.legal_moves(seat)[0]
        assert kept.push(seat, move) == lean.push(seat, Move.parse(move.text), undo=False)
    assert kept.position() == lean.position() and kept.record() == lean.record()
    assert kept.pop() == lean.pop()  # replayed from the round's start, no undo record
    assert kept.position() == lean.position()
