"""Storage calls off the event loop, and each room's stored changes one at a time.

A :class:`~.storage.Storage` is synchronous and may wait: for a lock another process holds
on the SQLite file, for a slow or full disk. After start-up the server makes every storage
call through :func:`off_loop`, which runs it in :data:`STORAGE_THREAD` (one thread, so the
calls keep the order they were made in) while the event loop goes on serving every other
room and every ping.

A move log entry is appended through :func:`append_entry`: the entries asked in one turn of
the event loop (every room's) go to the storage thread together and are written in one
commit (:meth:`~.storage.Storage.append_moves`), one thread hop per group, not per move; a
group that cannot be written refuses each of its moves (nothing of them is stored, so
nothing of them happens).

A room's changes go through its :class:`Commits`: each change (check, store, apply, tell)
runs alone, so a message that arrives while a write is in flight is checked against the
position that write leaves (a move made for the old version is ``stale``). People's
messages, bots' moves, deals and timers take the same path. A change runs in a task of its
own, so a caller that goes away mid-write never leaves a stored change unapplied; after
every change, stored or not, the room plans its next step.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Concatenate, Final, ParamSpec, Protocol, TypeVar

from .storage import LogEntry, Storage, StorageError

log = logging.getLogger("unogame.server")

STORAGE_THREAD: Final = concurrent.futures.ThreadPoolExecutor(max_workers=1,
                                                             thread_name_prefix="storage")
"""Every storage call of the running server, in order, one at a time."""
START_WITHIN: Final = 2.0
"""A call that could not start this many seconds after it was asked (the thread still busy
with other rooms' writes, each waiting for a locked file) is refused without running: it
raises :class:`StorageError`, nothing was stored. A room's wait stays bounded however many
rooms write."""

P = ParamSpec("P")
T = TypeVar("T")


async def off_loop(call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``call(*args, **kwargs)`` in the storage thread: its result, or what it raised."""
    asked = time.monotonic()

    def run() -> T:
        if time.monotonic() - asked > START_WITHIN:
            raise StorageError(f"storage busy: the call did not start within "
                               f"{START_WITHIN:g} s")
        return call(*args, **kwargs)

    return await asyncio.get_running_loop().run_in_executor(STORAGE_THREAD, run)


class _LogWrites:
    """The log entries asked in this turn of the loop, for one storage, and their waiters."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.entries: list[LogEntry] = []
        self.waiters: list[asyncio.Future[None]] = []
        self.asked = time.monotonic()


_pending: dict[int, _LogWrites] = {}
"""Per storage (by id), the group of this loop turn not yet handed to the storage thread."""


async def append_entry(storage: Storage, entry: LogEntry) -> None:
    """Append one move log entry, together with the others asked in this turn of the loop
    (one commit, one hop to the storage thread); raises what refused it (``StorageError``:
    nothing of it was stored)."""
    loop = asyncio.get_running_loop()
    group = _pending.get(id(storage))
    if group is None:
        group = _pending[id(storage)] = _LogWrites(storage)
        loop.call_soon(_write_group, group)  # after every callback of this turn
    waiter: asyncio.Future[None] = loop.create_future()
    group.entries.append(entry)
    group.waiters.append(waiter)
    await waiter


def _write_group(group: _LogWrites) -> None:
    if _pending.get(id(group.storage)) is group:
        del _pending[id(group.storage)]

    def run() -> list[Exception | None]:
        if time.monotonic() - group.asked > START_WITHIN:
            busy = f"storage busy: the write did not start within {START_WITHIN:g} s"
            return [StorageError(busy) for _entry in group.entries]
        return group.storage.append_moves(group.entries)

    def written(job: asyncio.Future[list[Exception | None]]) -> None:
        try:
            results: list[BaseException | None] = list(job.result())
        except Exception as error:  # the backend failed otherwise: nothing is taken as stored
            results = [StorageError(f"{type(error).__name__}: {error}")
                       for _waiter in group.waiters]
        for waiter, result in zip(group.waiters, results, strict=True):
            if waiter.done():
                continue
            if result is None:
                waiter.set_result(None)
            else:
                waiter.set_exception(result)

    asyncio.get_running_loop().run_in_executor(STORAGE_THREAD, run).add_done_callback(written)


async def close_storage(storage: Storage) -> None:
    """Close the storage once every call asked before has run (at shutdown)."""
    await asyncio.get_running_loop().run_in_executor(STORAGE_THREAD, storage.close)


class Commits:
    """One room's changes, each run alone, in the order they were asked."""

    def __init__(self, after: Callable[[], None]) -> None:
        self._lock = asyncio.Lock()
        self._after = after
        """Called after every change (the room plans its next step)."""
        self.busy = False
        """A change is running (its write may be in flight): no next step is planned."""

    async def run(self, change: Callable[[], Awaitable[T]]) -> T:
        """Run ``change`` once the changes asked before it are done; its result or error."""
        task = asyncio.ensure_future(self._alone(change))
        task.add_done_callback(_retrieve)
        return await asyncio.shield(task)

    def start(self, change: Callable[[], Awaitable[None]]) -> None:
        """:meth:`run` from a callback (a bot's answer, a timer): nobody waits for it."""
        asyncio.ensure_future(self._alone(change)).add_done_callback(_log_failure)

    async def _alone(self, change: Callable[[], Awaitable[T]]) -> T:
        async with self._lock:
            self.busy = True
            try:
                return await change()
            finally:
                self.busy = False
                try:
                    self._after()
                except Exception:  # planning must not hide the change's own outcome
                    log.exception("planning the next step failed")


class HasCommits(Protocol):
    commits: Commits


S = TypeVar("S", bound=HasCommits)


def one_at_a_time(method: Callable[Concatenate[S, P], Coroutine[Any, Any, T]]
                  ) -> Callable[Concatenate[S, P], Coroutine[Any, Any, T]]:
    """A room's method that runs as one of its changes (:meth:`Commits.run`)."""

    @functools.wraps(method)
    async def alone(self: S, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await self.commits.run(functools.partial(method, self, *args, **kwargs))

    return alone


def _retrieve(task: asyncio.Task[object]) -> None:
    """Its caller may have gone (cancelled): the outcome is still taken."""
    if not task.cancelled():
        task.exception()


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("a room's change failed", exc_info=task.exception())


__all__ = ["START_WITHIN", "STORAGE_THREAD", "Commits", "append_entry", "close_storage",
           "off_loop",
           "one_at_a_time"]
