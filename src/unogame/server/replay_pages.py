"""Replays in pages: every reply bounded in size, every build bounded in CPU and in number.

A round of the longest kind (``ROUND_MOVE_CAP`` moves, about 560 bytes a step) would be
several megabytes in one message, encoded on the event loop. Instead a replay is built
once, off the loop, into pages of at most :data:`PAGE_CHARS` characters (JSON already
encoded in the builder's thread) and kept in a cache bounded in characters
(:data:`CACHE_CHARS`, least recently used dropped first); the page asks for the pages one
at a time as the viewer goes (``static/replay.js``).

Builds run in :data:`REPLAYERS` (one thread for the whole server), at most
:data:`BUILDS_WAITING` more wait for it, and a request beyond that is refused
(``replay_busy``) at once: a flood of replay requests costs the server one thread's share
of the CPU, never the event loop's time nor unbounded memory. The builder lets go of the
interpreter every :data:`YIELD_EVERY` steps so that the event loop answers meanwhile.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..engine import Rules
from .replay import encode_step, pages_of, replay_steps

PAGE_CHARS: Final = 64 * 1024
"""The most characters of steps one ``replay`` reply carries (about as many bytes: the
steps are card codes, numbers and names)."""
CACHE_CHARS: Final = 16 * 2**20
"""Characters of built pages kept for the pages asked next (the whole server)."""
BUILDS_WAITING: Final = 2
"""Replay builds that may wait for the builder thread; more are refused (``replay_busy``)."""
YIELD_EVERY: Final = 64
"""Steps the builder makes before it lets the event loop's thread run."""
REPLAYERS: Final = concurrent.futures.ThreadPoolExecutor(max_workers=1,
                                                        thread_name_prefix="replay")
"""Replays are built here, one at a time for the whole server, never on the event loop."""


class ReplayBusy(Exception):
    """Too many replays are being built: try again shortly."""


@dataclass(frozen=True, slots=True)
class Pages:
    """A built replay: its pages (first step, JSON array of steps) and its step count."""

    pages: tuple[tuple[int, str], ...]
    steps: int

    @property
    def chars(self) -> int:
        return sum(len(text) for _first, text in self.pages)


Key = tuple[str, int, int, int, int]
"""Room code, game number, the game's seed, round, seat."""


def build_pages(players: int, rules: Rules, seed: int, deal: dict[str, Any] | None,
                entries: Sequence[tuple[int, str]], round_no: int, seat: int,
                round_cap: int | None, page_chars: int = PAGE_CHARS) -> Pages:
    """The round's steps for ``seat``, encoded and cut into pages (in a worker thread)."""
    count = 0

    def encoded() -> Iterator[str]:
        nonlocal count
        for step in replay_steps(players, rules, seed, deal, entries, round_no, seat,
                                 round_cap):
            count += 1
            if count % YIELD_EVERY == 0:
                time.sleep(0)  # lets go of the GIL: the event loop's thread runs
            yield encode_step(step)

    pages = pages_of(encoded(), page_chars)
    return Pages(tuple(pages), count)


class ReplayPages:
    """One server's replay cache and its limit on builds (use it on one event loop)."""

    def __init__(self, cache_chars: int = CACHE_CHARS, waiting: int = BUILDS_WAITING) -> None:
        self.cache_chars = cache_chars
        self.waiting = waiting
        self._cache: collections.OrderedDict[Key, Pages] = collections.OrderedDict()
        self._chars = 0
        self._building: dict[Key, asyncio.Future[Pages]] = {}
        self._queued = 0
        self.built = 0
        """Replays built so far (tests and benchmarks read it)."""

    @property
    def cached_chars(self) -> int:
        return self._chars

    def cached(self, key: Key) -> Pages | None:
        pages = self._cache.get(key)
        if pages is not None:
            self._cache.move_to_end(key)
        return pages

    async def get(self, key: Key, load: Callable[[], Any],
                  build: Callable[[Sequence[tuple[int, str]]], Pages],
                  may_build: Callable[[], None]) -> Pages:
        """The pages of ``key``: from the cache, from a build of the same key under way, or
        built now: ``may_build()`` (raises to refuse: the asker's allowance), then
        ``await load()`` (the stored log) and ``build(entries)`` in the builder thread.
        Raises :class:`ReplayBusy` when too many builds wait already."""
        pages = self.cached(key)
        if pages is not None:
            return pages
        running = self._building.get(key)
        if running is not None:
            return await asyncio.shield(running)
        if self._queued >= 1 + self.waiting:  # one building, ``waiting`` more queued
            raise ReplayBusy("too many replays are being prepared; try again shortly")
        may_build()
        future: asyncio.Future[Pages] = asyncio.get_running_loop().create_future()
        self._building[key] = future
        self._queued += 1
        try:
            entries = await load()
            pages = await asyncio.get_running_loop().run_in_executor(REPLAYERS, build, entries)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved here: waiters re-raise it, none is left unread
            raise
        finally:
            self._queued -= 1
            del self._building[key]
        self.built += 1
        self._keep(key, pages)
        future.set_result(pages)
        return pages

    def _keep(self, key: Key, pages: Pages) -> None:
        chars = pages.chars
        if chars > self.cache_chars:
            return
        self._cache[key] = pages
        self._chars += chars
        while self._chars > self.cache_chars:
            _old, dropped = self._cache.popitem(last=False)
            self._chars -= dropped.chars


__all__ = ["BUILDS_WAITING", "CACHE_CHARS", "PAGE_CHARS", "REPLAYERS", "Pages", "ReplayBusy",
           "ReplayPages", "build_pages"]
