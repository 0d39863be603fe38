"""A room's game on a :class:`~unogame.table.Table`: stored entries, bots in threads, timers.

The room (``rooms.py``) keeps seats, tokens, settings and messages; the table decides the
game flow (who is asked what, stand-ins, the turn timer, the next round). This module
connects the two on the server's event loop:

- every change is stored before it is applied and before anyone hears of it: a move is
  appended to the log, then the table applies it, then ``on_change`` tells the room; the
  write runs off the loop, as one of the room's changes (``commits.py``): a bot's answer or
  a deal waits for the change before it and is checked against the position it left;
- the table's bot decisions run in :data:`THINKERS` (a searching bot thinks 50-150 ms,
  which would hold up every other room), paced by :class:`Timing`;
- the table's time is the loop's monotonic clock, reported with ``Table.advance``;
- whatever happens (a bot's exception, a failing storage write), a next step stays
  scheduled: a failed write is retried after :data:`RETRY_SECONDS`, and no step is planned
  while a change is being stored (the room plans once it is).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

from ..engine import Event, Move
from ..table import BotPlay, DecisionRequest, NextRound, Table, TableError
from .commits import Commits, append_entry
from .storage import ROUND_BOUNDARY, Storage

log = logging.getLogger("unogame.server")

THINKERS: Final = concurrent.futures.ThreadPoolExecutor(max_workers=2,
                                                       thread_name_prefix="bot-think")
"""Bots choose their moves here, not in the event loop."""
RETRY_SECONDS: Final = 1.0
"""After a failed storage write, the next step is tried again this much later."""
STAND_IN_PREFIX: Final = "bot:"
"""Before a stored move a bot made for a person ("bot:draw"), so that the log replayed
after a restart still says "bot played for NAME"."""


@dataclass
class Timing:
    """Delays of the server-side bots, in seconds (tests and benchmarks shorten them)."""

    think: float = 0.9
    """A bot's own turn."""
    reaction_scale: float = 1.0
    """Multiplies each bot's ``reaction_delay`` (off-turn UNO, catch, jump-in)."""
    next_round: float = 30.0
    """The scoreboard between rounds stays at most this long."""


class RoomGame:
    """One game of a room: its table, its move log and its scheduled next step."""

    def __init__(self, code: str, game_no: int, table: Table, storage: Storage,
                 timing: Timing, on_change: Callable[[list[Event]], None],
                 on_seats: Callable[[], None],
                 on_not_saved: Callable[[Exception], None], commits: Commits) -> None:
        self.code = code
        self.game_no = game_no
        self.table = table
        self.storage = storage
        self.timing = timing
        self.on_change = on_change
        """Called with a change's events once it is stored and applied (the room tells
        everyone, saves its record if the status changed, and calls :meth:`schedule`)."""
        self.on_seats = on_seats
        """Called when a bot starts or stops standing in for someone."""
        self.on_not_saved = on_not_saved
        """Called when a bot's move or a deal could not be stored (it is tried again)."""
        self.commits = commits
        """The room's changes, one at a time (shared by the room's games)."""
        self._retry_at = 0.0
        """After a bot's or a deal's failed write, no step before this time (the clock of
        ``time.monotonic``)."""
        self._clock = time.monotonic()
        self._timers: list[asyncio.TimerHandle] = []
        self._waiting: DecisionRequest | None = None
        """A request handed out whose bot has not started thinking yet (its timer runs)."""
        self.paused = False
        """Nobody is there: no step is planned (the room sets it)."""
        self._failures_logged = 0
        self._stand_ins = self._stand_in_seats()
        self._closed = False

    # ------------------------------------------------------------ replay and time

    def replay(self, entries: list[tuple[int, str]]) -> None:
        """Apply a stored log (at restore): moves and round boundaries, checked again."""
        for seat, text in entries:
            self._apply_entry(seat, text)
        self._stand_ins = self._stand_in_seats()

    def apply_entries(self, entries: list[tuple[int, str]]) -> list[Event]:
        """Entries another server process stored: the position's step planned for the old
        position is dropped, the entries applied; their events."""
        self._cancel_timers()
        self.sync()
        events: list[Event] = []
        for seat, text in entries:
            events += self._apply_entry(seat, text)
        return events

    def _apply_entry(self, seat: int, text: str) -> list[Event]:
        if seat < 0 and text == ROUND_BOUNDARY:
            return self.table.next_round()
        if text.startswith(STAND_IN_PREFIX):  # checked by the engine in apply()
            move = Move.parse(text.removeprefix(STAND_IN_PREFIX))
            return self.table.apply(BotPlay(seat, move, self.table.version, stand_in=True))
        return self.table.play(seat, Move.parse(text))

    def sync(self) -> None:
        """Report the time passed since the last call to the table."""
        now = time.monotonic()
        self.table.advance(now - self._clock)
        self._clock = now

    # ------------------------------------------------------------ stored changes

    async def store_and_play(self, seat: int, move: Move) -> list[Event]:
        """A person's move, checked within one of the room's changes: stored (a failed
        write raises and changes nothing), then applied."""
        await self._store(seat, move.text)
        return self.table.play(seat, move)

    async def _store(self, seat: int, text: str) -> None:
        """Append the next entry of the log, off the loop (the table waits: no step of the
        position being left is taken meanwhile)."""
        self._cancel_timers()
        try:
            await append_entry(self.storage, (self.code, self.game_no, self.table.version,
                                              seat, text))
        finally:
            self.sync()

    async def _store_and_apply(self, seat: int, move: Move | None,
                               apply: Callable[[], list[Event]], stand_in: bool = False) -> None:
        """Store a bot's move (``None``: a round boundary), apply it, tell the room; a failed
        write changes nothing and the step is tried again later."""
        text = move.text if move is not None else ROUND_BOUNDARY
        if stand_in:
            text = STAND_IN_PREFIX + text
        try:
            await self._store(seat if move is not None else -1, text)
        except Exception as error:  # StorageError, or anything else the backend raised
            self._retry_at = time.monotonic() + RETRY_SECONDS
            self.on_not_saved(error)
            return
        self.on_change(apply())

    # ------------------------------------------------------------ scheduling

    def schedule(self) -> None:
        """Plan the next step of the table for the current position (needs the loop)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        if self._closed:
            return
        self._cancel_timers()
        if self.commits.busy:  # a change is being stored: planned again once it is
            return
        if self.paused:
            return
        backoff = self._retry_at - time.monotonic()
        if backoff > 0:  # a write just failed: not again before RETRY_SECONDS
            self._later(backoff, self.schedule)
            return
        self.sync()
        self._announce()
        table = self.table
        step = table.next_step()
        if isinstance(step, DecisionRequest):
            window = step.delay * self.timing.reaction_scale  # the reactions' window
            pace = max(self.timing.think, window) if step.on_turn else window
            self._waiting = step
            self._later(pace - (table.now - step.opened), self._think, step)
        elif isinstance(step, NextRound):
            self._later(0.0, self._deal, step)
        elif table.outstanding is None:  # waiting for people: wake up when something is due
            wake = table.wake_at()
            if wake is not None:
                self._later(wake - table.now + 0.02, self.schedule)

    def _announce(self) -> None:
        seats = self._stand_in_seats()
        if seats != self._stand_ins:
            self._stand_ins = seats
            self.on_seats()

    def _stand_in_seats(self) -> list[bool]:
        return [info.stand_in for info in self.table.seats()]

    def _think(self, request: DecisionRequest) -> None:
        self._waiting = None
        if self.table.outstanding is not request:
            return
        future = asyncio.get_running_loop().run_in_executor(THINKERS, request.decide)
        future.add_done_callback(functools.partial(self._answered, request))

    def _answered(self, request: DecisionRequest,
                  future: asyncio.Future[tuple[Move | None, BaseException | None]]) -> None:
        if self._closed:
            return
        try:
            move, error = future.result()
        except Exception as failure:  # the worker itself failed
            move, error = None, failure
        self._change(self._play_answer, request, move, error)

    async def _play_answer(self, request: DecisionRequest, move: Move | None,
                           error: BaseException | None) -> None:
        """A bot's answer, as one of the room's changes: checked against the position now
        (a change stored meanwhile makes it stale), stored, applied. The room plans the
        next step after it."""
        if self._closed:
            return
        self.sync()
        try:
            play = self.table.resolve(request, move, error)
        except TableError:
            play = None
        self._log_failures()
        if play is not None:
            await self._store_and_apply(play.seat, play.move,
                                        functools.partial(self.table.apply, play),
                                        play.stand_in)

    def _deal(self, step: NextRound) -> None:
        self._change(self._deal_now, step)

    async def _deal_now(self, step: NextRound) -> None:
        if self._closed:
            return
        self.sync()
        if step.version == self.table.version and isinstance(self.table.next_step(),
                                                             NextRound):
            await self._store_and_apply(-1, None, self.table.next_round)

    def _change(self, step: Callable[..., Awaitable[None]], *args: Any) -> None:
        """Run a step of the table as one of the room's changes (from a callback)."""
        async def guarded() -> None:
            try:
                await step(*args)
            except Exception:  # a step's mistake must not stop the room: planned again later
                log.exception("room %s: a game step failed", self.code)
                self._retry_at = time.monotonic() + RETRY_SECONDS

        self.commits.start(guarded)

    def _log_failures(self) -> None:
        failures = self.table.bot_failures
        for failure in failures[self._failures_logged:]:
            log.warning("room %s: %s bot at seat %d: %s (played instead: %s)", self.code,
                        failure.level, failure.seat, failure.reason, failure.replaced_by)
        self._failures_logged = len(failures)

    def _later(self, delay: float, callback: Callable[..., None], *args: Any) -> None:
        loop = asyncio.get_running_loop()
        self._timers.append(loop.call_later(max(0.0, delay), self._guarded, callback, *args))

    def _guarded(self, callback: Callable[..., None], *args: Any) -> None:
        try:
            callback(*args)
        except Exception:  # a step's mistake must not stop the room: plan again
            log.exception("room %s: a game step failed", self.code)
            if not self._closed:
                self._cancel_timers()
                self._later(RETRY_SECONDS, self.schedule)

    def _cancel_timers(self) -> None:
        for handle in self._timers:
            handle.cancel()
        self._timers.clear()
        waiting, self._waiting = self._waiting, None
        if waiting is not None:
            self.table.cancel(waiting)

    def close(self) -> None:
        self._closed = True
        self._cancel_timers()


__all__ = ["RETRY_SECONDS", "STAND_IN_PREFIX", "THINKERS", "RoomGame", "Timing"]
