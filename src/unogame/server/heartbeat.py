"""Dead links found within seconds: the page's heartbeat, heard by the server.

A phone whose Wi-Fi holds every packet keeps its TCP connection "open" for minutes: nothing
is closed, so the server went on counting the person as there (48 s before uvicorn's own
ping gave up), and the page went on showing the table as live. The page (``connection.js``)
sends ``{"type": "ping", "beat": true}`` every :data:`BEAT_SECONDS`; from its first such
ping on, a connection that is silent for ``Limits.silent_seconds`` (15 s by default) is
taken for dead: it leaves its room at once (the person's grace starts) and is closed.

A page that is hidden (a phone in the background) is exempt: the browser slows its timers
there, and its pings may come once a minute. Its link is still watched by the WebSocket
layer's own pings (``uno serve`` runs uvicorn with :data:`WS_PING_INTERVAL` and
:data:`WS_PING_TIMEOUT`, which browsers answer even for a frozen page), as is every
connection that never sent a beat (scripts, tests, older pages).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable
from typing import Final, Protocol

log = logging.getLogger("unogame.server")

BEAT_SECONDS: Final = 2.0
"""How often the page pings (it takes the link for lost when a ping is not answered in
``connection.js``'s ``SILENT_MS``)."""
SILENT_SECONDS: Final = 15.0
"""A beating connection silent this long is dead (``Limits.silent_seconds``)."""
SWEEP_SECONDS: Final = 1.0
"""How often silent connections are looked for."""
WS_PING_INTERVAL: Final = 5.0
WS_PING_TIMEOUT: Final = 10.0
"""The WebSocket layer's own keepalive (``uno serve``): a link that does not answer a ping
within 10 s of it is closed. A client heard from within the interval is not pinged then,
but at least once in ``connections.PINGED_ANYWAY`` intervals (20 s): a link gone silent is
found within 15 s of its last bytes, one whose bytes come but whose pongs do not (dead in
one direction, a client that ignores pings) within 30 s of its last pong."""


class Heard(Protocol):
    """A connection as the heartbeat sees it."""

    beat: bool
    """It promised a ping every :data:`BEAT_SECONDS` (the page does)."""
    hidden: bool
    """Its page is hidden (its pings may be slowed by the browser)."""
    heard: float
    """When its last message came (``time.monotonic``)."""


def silent(connections: Iterable[Heard], limit: float, now: float) -> list[Heard]:
    """The beating, visible connections heard from last more than ``limit`` s ago.

    >>> class C:
    ...     def __init__(self, beat, hidden, heard):
    ...         self.beat, self.hidden, self.heard = beat, hidden, heard
    >>> old, quiet, hidden, fresh = C(False, False, 0), C(True, False, 0), C(True, True, 0), \\
    ...     C(True, False, 10)
    >>> silent([old, quiet, hidden, fresh], 15.0, 20.0) == [quiet]
    True
    """
    return [conn for conn in connections
            if conn.beat and not conn.hidden and now - conn.heard > limit]


async def sweep_silent(connections: Callable[[], Iterable[Heard]], limit: float,
                       drop: Callable[[Heard], None]) -> None:
    """Forever: every :data:`SWEEP_SECONDS`, ``drop`` each connection silent too long."""
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        for conn in silent(list(connections()), limit, time.monotonic()):
            try:
                drop(conn)
            except Exception:  # one connection's trouble must not stop the sweep
                log.exception("dropping a silent connection failed")
