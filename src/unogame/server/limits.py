"""Allowances per client address: room creation and room lookups (code guessing).

Each address has a token bucket per kind of request: ``burst`` requests at once, then
``per_minute`` more each minute. Buckets of addresses that went quiet are forgotten once
they are full again, and there are never more than ``max_addresses`` of them, so a flood
from many addresses cannot grow the server's memory.

>>> clock = [0.0]
>>> bucket = AddressAllowance(burst=2, per_minute=6, clock=lambda: clock[0])
>>> [bucket.take("10.0.0.1") for _ in range(3)]
[True, True, False]
>>> bucket.take("10.0.0.2")
True
>>> clock[0] = 10.0  # six a minute: one more after ten seconds
>>> bucket.take("10.0.0.1"), bucket.take("10.0.0.1")
(True, False)
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


@dataclass
class _Bucket:
    tokens: float
    last: float


class Allowance(Protocol):
    """A per-address allowance: this process's own (:class:`AddressAllowance`) or one
    shared by every process (``redis_store.SharedAllowance``: ``remote``, asked off the
    loop)."""

    remote: bool

    def take(self, address: str) -> bool: ...


class AddressAllowance:
    """A token bucket per client address, with a bounded number of addresses."""

    remote = False

    def __init__(self, burst: int, per_minute: float, *, max_addresses: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = float(burst)
        self.rate = per_minute / 60.0
        self.max_addresses = max_addresses
        self.clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, address: str) -> bool:
        """Use one request of ``address``'s allowance; False when it has none left."""
        now = self.clock()
        bucket = self._buckets.get(address)
        if bucket is None:
            self._forget_full(now)
            bucket = self._buckets[address] = _Bucket(self.burst, now)
        else:
            bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.last) * self.rate)
            bucket.last = now
            self._buckets.move_to_end(address)
        if bucket.tokens < 1.0:
            return False
        bucket.tokens -= 1.0
        return True

    def _forget_full(self, now: float) -> None:
        """Drop buckets that have refilled (they behave like new ones), then the oldest."""
        refill = (self.burst / self.rate) if self.rate > 0 else float("inf")
        while self._buckets:
            address, oldest = next(iter(self._buckets.items()))
            if now - oldest.last >= refill or len(self._buckets) >= self.max_addresses:
                del self._buckets[address]
            else:
                break
