"""The cycle collector of a busy server: short pauses, and a full pass only when it can free.

CPython's cycle collector walks every object of the generations it collects. A busy server's
rooms, games and connections (~700 objects a room of four at 2,000 rooms: 1.4 million)
are long-lived, and the default tuning walked them again and again: a young generation of
50,000 held 180,000 objects at 2,000 rooms (100 ms pauses every 4 s), and a full collection
(every minute or two under load) paused the server ~900 ms, though it found nothing to
free (``benchmarks/server_load.py --rooms 2000``; docs/deploy.md).

So: small young generations (short, frequent pauses), and every :data:`FREEZE_EVERY`
seconds what is still alive is frozen (``gc.freeze``): moved out of the collector's sight
at no cost, so a full collection only walks what became old since. Frozen objects are still
freed by reference counting when they die; only a cycle among them (which reference counting
cannot free) waits. Those are found by a full pass over everything (:meth:`Collector.tick`:
unfreeze, collect, freeze) every :data:`RECLAIM_EVERY` seconds: one ~900 ms pause a quarter
of an hour at 2,000 rooms instead of one every minute or two. (A pass when the frozen objects
grew by a quarter, CPython's own rule, made one pass after another while a busy server's
rooms filled: growth of what is alive cannot be told from garbage without a pass.)
"""

from __future__ import annotations

import gc
import threading
import time
from typing import Final

THRESHOLDS: Final = (700, 5, 1000)
"""Young generations small enough that a pause stays near a millisecond (CPython's default
for the first; the second lower: objects that survive a room's move tend to live long)."""
FREEZE_EVERY: Final = 10.0
RECLAIM_EVERY: Final = 900.0


class Collector:
    """The freezing and the full passes, one :meth:`tick` at a time."""

    def __init__(self, reclaim_every: float = RECLAIM_EVERY) -> None:
        self.reclaim_every = reclaim_every
        self.full_passes = 0
        self.freed = 0
        """Objects the full passes freed (cycles that died frozen)."""
        self.last_pass = time.monotonic()

    def tick(self, now: float | None = None) -> bool:
        """Freeze what is alive; a full pass first when one is due. True when it made one."""
        now = time.monotonic() if now is None else now
        if now - self.last_pass < self.reclaim_every:
            gc.freeze()
            return False
        gc.unfreeze()
        self.freed += gc.collect()
        gc.freeze()
        self.full_passes += 1
        self.last_pass = now
        return True


def tune_gc() -> None:
    """At start: what is loaded is frozen, and the young generations are small."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


def start_collector(every: float = FREEZE_EVERY) -> Collector:
    """:func:`tune_gc`, then :meth:`Collector.tick` every ``every`` seconds for the life of
    the process (a daemon thread: a tick holds the interpreter as a collection would)."""
    tune_gc()
    collector = Collector()

    def run() -> None:
        while True:
            time.sleep(every)
            collector.tick()

    threading.Thread(target=run, name="gc-freezer", daemon=True).start()
    return collector


__all__ = ["FREEZE_EVERY", "RECLAIM_EVERY", "THRESHOLDS", "Collector", "start_collector",
           "tune_gc"]
