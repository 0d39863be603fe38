"""Storage calls off the event loop, and each room's stored changes one at a time.

A :class:`~.storage.Storage` is synchronous and may wait: for a lock another process holds
on the SQLite file, for a slow or full disk. After start-up the server makes every storage
call through :func:`off_loop`, which runs it in :data:`STORAGE_THREAD` (one thread, so the
calls keep the order they were made in) while the event loop goes on serving every other
room and every ping.

A move log entry is appended through :func:`append_entry`: the entries asked in one turn of
the event loop, and in every turn while the storage's last group is being written (every
room's), go to the storage thread together and are written in one commit
(:meth:`~.storage.Storage.append_moves`), one thread hop per group, not per move; a group
that cannot be written refuses each of its moves (nothing of them is stored, so nothing of
them happens). The thread's answers come back in one wake-up of the loop for all the calls
it ran back to back (:class:`StorageThread`).

A room's changes go through its :class:`Commits`: each change (check, store, apply, tell)
runs alone, so a message that arrives while a write is in flight is checked against the
position that write leaves (a move made for the old version is ``stale``). People's
messages, bots' moves, deals and timers take the same path. A change runs in a task of its
own, so a caller that goes away mid-write never leaves a stored change unapplied; after
every change, stored or not, the room plans its next step.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import functools
import logging
import queue
import threading
import time
import weakref
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Concatenate, Final, ParamSpec, Protocol, TypeVar

from .storage import LogEntry, Storage, StorageError

log = logging.getLogger("unogame.server")

P = ParamSpec("P")
T = TypeVar("T")
Reply = Callable[[Any, BaseException | None], None]
"""Told, on the event loop, a call's result (or what it raised)."""


class StorageThread:
    """One thread that makes every storage call, in the order they were asked.

    A call's answer goes back to the event loop that asked it; the answers of calls that
    ran back to back (the thread had more waiting) go in one wake-up of that loop, not one
    each: under load the loop is woken once for many rooms' writes. (A thread pool's
    futures cost a wake-up, two chained futures and their callbacks per call.)
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[
            tuple[Callable[[], Any], asyncio.AbstractEventLoop | None, Reply] | None
        ] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()

    def call(self, loop: asyncio.AbstractEventLoop | None, job: Callable[[], Any],
             reply: Reply) -> None:
        """Run ``job()`` in the thread; ``reply(result, error)`` on ``loop`` after (or in
        the thread itself when ``loop`` is None)."""
        if self._thread is None:
            self._start()
        self._jobs.put((job, loop, reply))

    def submit(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs
               ) -> concurrent.futures.Future[T]:
        """``call(*args, **kwargs)`` in the thread, for a caller off the loop (a test)."""
        future: concurrent.futures.Future[T] = concurrent.futures.Future()

        def settle(result: T, error: BaseException | None) -> None:
            if error is None:
                future.set_result(result)
            else:
                future.set_exception(error)

        self.call(None, lambda: call(*args, **kwargs), settle)
        return future

    def _start(self) -> None:
        with self._starting:
            if self._thread is None:
                thread = threading.Thread(target=self._serve, name="storage", daemon=True)
                thread.start()
                self._thread = thread
                atexit.register(self._stop)

    def _stop(self) -> None:
        """At exit: the calls already asked still run (a write is never cut half-way)."""
        thread = self._thread
        if thread is not None and thread.is_alive():
            self._jobs.put(None)
            thread.join()

    def _serve(self) -> None:
        answers: dict[asyncio.AbstractEventLoop, list[tuple[Reply, Any, BaseException | None]]] = {}
        while True:
            item = self._jobs.get()
            if item is None:
                return
            job, loop, reply = item
            result: Any = None
            error: BaseException | None = None
            try:
                result = job()
            except BaseException as raised:  # the asker decides; the thread goes on
                error = raised
            if loop is None:
                reply(result, error)
            else:
                answers.setdefault(loop, []).append((reply, result, error))
            if answers and self._jobs.empty():
                for each, replies in answers.items():
                    with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits
                        each.call_soon_threadsafe(_tell, replies)
                answers = {}


def _tell(replies: list[tuple[Reply, Any, BaseException | None]]) -> None:
    for reply, result, error in replies:
        try:
            reply(result, error)
        except Exception:
            log.exception("a storage answer could not be told")


STORAGE_THREAD: Final = StorageThread()
"""Every storage call of the running server, in order, one at a time."""
START_WITHIN: Final = 2.0
"""A call that could not start this many seconds after it was asked (the thread still busy
with other rooms' writes, each waiting for a locked file) is refused without running: it
raises :class:`StorageError`, nothing was stored. A room's wait stays bounded however many
rooms write."""


async def off_loop(call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``call(*args, **kwargs)`` in the storage thread: its result, or what it raised."""
    asked = time.monotonic()

    def run() -> T:
        if time.monotonic() - asked > START_WITHIN:
            raise StorageError(f"storage busy: the call did not start within "
                               f"{START_WITHIN:g} s")
        return call(*args, **kwargs)

    return await _ask(run)


class _LogWrites:
    """The log entries gathered for one storage, and their waiters."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.entries: list[LogEntry] = []
        self.waiters: list[asyncio.Future[None]] = []
        self.asked = time.monotonic()


class _LogWriter:
    """One storage's log writes: the group in the storage thread, the next one gathering.

    Both belong to the loop that asked them: a server stopped mid-write (its loop closed,
    the answer never told) leaves nothing that holds back a server started after it."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.gathering: _LogWrites | None = None
        self.writing_on: asyncio.AbstractEventLoop | None = None
        """The loop whose group is in the storage thread: the next group waits for it (one
        commit for all that arrived meanwhile, not one per turn of the loop)."""


_writers: weakref.WeakKeyDictionary[Storage, _LogWriter] = weakref.WeakKeyDictionary()


async def append_entry(storage: Storage, entry: LogEntry) -> None:
    """Append one move log entry, together with the others asked while the storage's last
    group was written (one commit, one hop to the storage thread); raises what refused it
    (``StorageError``: nothing of it was stored)."""
    loop = asyncio.get_running_loop()
    writer = _writers.get(storage)
    if writer is None:
        writer = _writers[storage] = _LogWriter(storage)
    group = writer.gathering
    if group is None or group.loop is not loop:
        group = writer.gathering = _LogWrites(loop)
        if writer.writing_on is not loop:
            loop.call_soon(_write_group, writer)  # after every callback of this turn
    waiter: asyncio.Future[None] = loop.create_future()
    group.entries.append(entry)
    group.waiters.append(waiter)
    await waiter


def _write_group(writer: _LogWriter) -> None:
    group = writer.gathering
    if group is None:
        return
    writer.gathering = None
    writer.writing_on = group.loop
    storage = writer.storage

    def run() -> list[Exception | None]:
        if time.monotonic() - group.asked > START_WITHIN:
            busy = f"storage busy: the write did not start within {START_WITHIN:g} s"
            return [StorageError(busy) for _entry in group.entries]
        return storage.append_moves(group.entries)

    def written(outcome: list[Exception | None] | None, error: BaseException | None) -> None:
        writer.writing_on = None
        if error is not None or outcome is None:  # the backend failed otherwise: nothing stored
            reason = f"{type(error).__name__}: {error}"
            results: list[BaseException | None] = [StorageError(reason)
                                                   for _waiter in group.waiters]
        else:
            results = list(outcome)
        for waiter, result in zip(group.waiters, results, strict=True):
            _settle(waiter, None, result)
        _write_group(writer)  # what gathered meanwhile

    STORAGE_THREAD.call(group.loop, run, written)


async def close_storage(storage: Storage) -> None:
    """Close the storage once every call asked before has run (at shutdown)."""
    await _ask(storage.close)


def _ask(job: Callable[[], T]) -> asyncio.Future[T]:
    """``job()`` in the storage thread; its outcome on a future of the running loop."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[T] = loop.create_future()
    STORAGE_THREAD.call(loop, job, functools.partial(_settle, answer))
    return answer


def _settle(future: asyncio.Future[T], result: T, error: BaseException | None) -> None:
    if future.done():  # its asker was cancelled
        return
    if error is None:
        future.set_result(result)
    else:
        future.set_exception(error)


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
