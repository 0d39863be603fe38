"""The cycle collector of ``uno serve`` (issue 22: p99 at 2,000 rooms was held up by
collections that walked every room's objects, 100 ms every few seconds, ~900 ms a minute)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from unogame.server.collector import THRESHOLDS, Collector, tune_gc


@pytest.fixture
def own_gc() -> Iterator[None]:
    """The test process's collector as it was, after."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)
    gc.collect()


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref[Node]:
    """Two objects that hold each other (only a cycle collection frees them)."""
    first, second = Node(), Node()
    first.other, second.other = second, first
    return weakref.ref(first)


def test_start_freezes_what_is_loaded_and_keeps_the_young_generations_small(own_gc: None) -> None:
    tune_gc()
    assert gc.get_threshold() == THRESHOLDS
    assert THRESHOLDS[0] <= 1000  # a pause near a millisecond, not 100 ms
    assert gc.get_freeze_count() > 0


def test_a_tick_takes_what_lives_out_of_the_collector_s_walks(own_gc: None) -> None:
    tune_gc()
    collector = Collector(reclaim_every=3600)
    kept = [Node() for _ in range(1000)]
    before = gc.get_freeze_count()
    assert collector.tick(now=collector.last_pass + 1) is False  # no full pass yet
    assert gc.get_freeze_count() >= before + 1000
    assert all(len(gc.get_objects(generation)) < 1000 for generation in range(3))
    del kept


def test_a_cycle_that_died_frozen_is_freed_by_the_next_full_pass_only(own_gc: None) -> None:
    tune_gc()
    collector = Collector(reclaim_every=900)
    dead = cycle()
    collector.tick(now=collector.last_pass + 10)  # frozen while alive, then dropped
    gc.collect()
    assert dead() is not None  # waits (frozen), as the module says
    assert collector.tick(now=collector.last_pass + 900) is True
    assert dead() is None
    assert collector.full_passes == 1 and collector.freed >= 2
    assert gc.get_freeze_count() > 0  # frozen again after the pass
