"""Connections at the transport, before any request: who may hold a socket, and for how long.

uvicorn keeps a socket open for as long as its client keeps it, even one that never sends a
request (or half a request line), and accepts any number from one address: 1,100 silent
sockets used up the usual 1,024 open files and locked every client out. Here:

- a connection must send a complete request head within ``request_seconds`` (from the
  connection, or from the first byte of its next request on a kept-alive connection);
  after that it is closed (``GuardedH11Protocol``);
- one address (an IPv6 client: its /64) holds at most ``sockets_per_address`` sockets,
  plain HTTP and WebSockets together; a trusted proxy's own address is not counted (the
  app counts its clients' WebSockets by their forwarded address, ``admission.py``);
- the server as a whole holds at most ``max_sockets`` (below the open-file limit, which
  :func:`raise_open_file_limit` raises to the hard limit at start); at that limit the
  oldest socket still waiting for its request makes way for the new one, and when none
  is waiting the new one is closed, so accept() never runs out of files.

"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import resource
import struct
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Final

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.frames import Frame
from websockets.http11 import Request
from websockets.protocol import State

from .admission import address_key
from .cli import WS_MAX_SIZE
from .log_limits import every_so_often

log = logging.getLogger("unogame.server")

FILES_KEPT_FREE = 200
"""Open files left to the server itself (database, Redis, threads, static files) below the
open-file limit when sockets are counted."""


def raise_open_file_limit() -> int:
    """Raise this process's soft open-file limit to its hard limit; returns the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError) as error:
            log.warning("could not raise the open-file limit from %s to %s: %s",
                        soft, hard, error)
    return int(soft) if soft != resource.RLIM_INFINITY else 1 << 20


@dataclass(frozen=True)
class ConnectionLimits:
    request_seconds: float = 5.0
    """A connection sends a complete request head within this long, or is closed."""
    sockets_per_address: int = 64
    """Open sockets of one address (IPv6: one /64), HTTP and WebSockets together."""
    max_sockets: int = 20_000
    """Open sockets in all (lowered to the open-file limit less ``FILES_KEPT_FREE``)."""


class TrustedProxies:
    """The addresses whose ``X-Forwarded-For`` is believed (``--forwarded-allow-ips``).

    >>> trusted = TrustedProxies("127.0.0.1, 10.1.0.0/16")
    >>> trusted.contains("127.0.0.1"), trusted.contains("10.1.2.3"), trusted.contains("10.2.0.1")
    (True, True, False)
    >>> TrustedProxies(None).contains("127.0.0.1"), TrustedProxies("*").contains("1.2.3.4")
    (False, True)
    """

    def __init__(self, spec: str | None) -> None:
        items = [item.strip() for item in (spec or "").split(",") if item.strip()]
        self.everyone = "*" in items
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        self.names: set[str] = set()
        for item in items:
            try:
                self.networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                self.names.add(item)  # a unix socket path or a name: matched as is

    def contains(self, host: str) -> bool:
        if self.everyone or host in self.names:
            return True
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(ip in network for network in self.networks)


class ConnectionGuard:
    """Every open socket of the server, by address; which ones still owe their request."""

    def __init__(self, limits: ConnectionLimits, trusted: TrustedProxies | None = None) -> None:
        self.limits = limits
        self.trusted = trusted or TrustedProxies(None)
        self.keys: dict[asyncio.BaseTransport, str | None] = {}
        """Open sockets and the address key they count against (None: a trusted proxy)."""
        self.per_address: Counter[str] = Counter()
        self.waiting: OrderedDict[asyncio.BaseTransport, None] = OrderedDict()
        """Sockets that have not sent a complete request head yet, oldest first."""
        self.refused_crowded = 0
        self.refused_full = 0
        self.made_way = 0
        self.timed_out = 0
        self._log_refusal = every_so_often(log, 10.0)
        self._log_timeout = every_so_often(log, 10.0)

    def __len__(self) -> int:
        return len(self.keys)

    def admit(self, transport: asyncio.BaseTransport, host: str | None) -> bool:
        """A new socket: counted and True, or False (the caller closes it)."""
        key = None if host is None or self.trusted.contains(host) else address_key(host)
        if key is not None and self.per_address[key] >= self.limits.sockets_per_address:
            self.refused_crowded += 1
            self._log_refusal(logging.WARNING, "connections refused: an address holds %d "
                              "sockets already (%s)", self.limits.sockets_per_address, key)
            return False
        if len(self.keys) >= self.limits.max_sockets:
            if not self.waiting:
                self.refused_full += 1
                self._log_refusal(logging.WARNING, "connections refused: the server holds "
                                  "%d sockets (its limit)", len(self.keys))
                return False
            oldest = next(iter(self.waiting))
            self.made_way += 1
            self.release(oldest)
            oldest.abort()  # type: ignore[attr-defined]
        self.keys[transport] = key
        if key is not None:
            self.per_address[key] += 1
        self.waiting[transport] = None
        return True

    def heard(self, transport: asyncio.BaseTransport) -> None:
        """The socket sent its request head: it no longer makes way for newcomers."""
        self.waiting.pop(transport, None)

    def owes(self, transport: asyncio.BaseTransport) -> None:
        """A kept-alive socket began its next request: it owes the head again."""
        if transport in self.keys:
            self.waiting[transport] = None

    def overdue(self, transport: asyncio.BaseTransport, host: str | None) -> None:
        self.timed_out += 1
        self._log_timeout(logging.INFO, "closed a connection that sent no complete request "
                          "in %.0f s (%s)", self.limits.request_seconds, host)

    def release(self, transport: asyncio.BaseTransport) -> None:
        """The socket is closed (called once or more: only the first counts)."""
        self.waiting.pop(transport, None)
        if transport not in self.keys:
            return
        key = self.keys.pop(transport)
        if key is not None:
            self.per_address[key] -= 1
            if self.per_address[key] <= 0:
                del self.per_address[key]

    def stats(self) -> dict[str, int]:
        return {"open": len(self.keys), "waiting": len(self.waiting),
                "refused_crowded": self.refused_crowded, "refused_full": self.refused_full,
                "made_way": self.made_way, "timed_out": self.timed_out}


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with the guard: admitted or closed at once, and closed
    when the request head does not come in time."""

    guard: ClassVar[ConnectionGuard]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self.guard.admit(transport, self.client[0] if self.client else None):
            transport.abort()
            return
        self._await_head()

    def _await_head(self) -> None:
        self._head_deadline = self.loop.call_later(self.guard.limits.request_seconds,
                                                   self._head_overdue)

    def _stop_waiting(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_overdue(self) -> None:
        self._head_deadline = None
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            return
        self.guard.overdue(self.transport, self.client[0] if self.client else None)
        self.guard.release(self.transport)
        self.transport.abort()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        upgraded = self.transport.get_protocol() is not self  # a WebSocket now
        if upgraded or self.conn.their_state is not h11.IDLE:  # the head is complete
            self._stop_waiting()
            self.guard.heard(self.transport)
        elif self._head_deadline is None and not self.transport.is_closing():
            # the first bytes of the next request on a kept-alive connection
            self.guard.owes(self.transport)
            self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        self.guard.release(self.transport)
        super().connection_lost(exc)


SEND_NOW: Final = "unogame.send_now"
"""The ASGI scope key of a WebSocket's :meth:`DirectWebSocketProtocol.send_now`."""
ANSWER_BEATS: Final = "unogame.answer_beats"
"""The ASGI scope key of a WebSocket's :meth:`DirectWebSocketProtocol.answer_beats_with`."""
BEAT_TEXT: Final = b'{"type":"ping","beat":true}'
"""The page's heartbeat as it sends it (``JSON.stringify``), every 2 s from every page."""


PINGED_ANYWAY: Final = 4
"""A client that talks is still pinged once in this many ping intervals: its pongs must
come too."""
QUEUED_MESSAGES: Final = 4
"""A client's messages received and not yet read by the app before its socket is no longer
read (until the app has read them all)."""


class DirectWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, with a text frame written at once when the socket
    takes it (``scope[SEND_NOW]``): no task woken and no ASGI message built per frame.
    uvicorn's own ``send`` does the same work (it waits only while the socket's buffer is
    full), through two more layers. Its keepalive pings only a client silent for the ping
    interval."""

    heard_at = 0.0
    """When the client's last bytes came (the loop's clock)."""
    answered_at = 0.0
    """When the client last answered a keepalive ping (or connected; the loop's clock)."""
    beat_answer: Callable[[], bool] | None = None
    """The app's answer to the page's heartbeat, given where it arrives (``True``: answered)."""

    def answer_beats_with(self, answer: Callable[[], bool] | None) -> None:
        """From now on, a heartbeat (:data:`BEAT_TEXT`) that arrives with nothing waiting
        for the app is handed to ``answer`` here, without waking the app's reading task;
        one that ``answer`` declines (``False``) goes to the app as any message."""
        self.beat_answer = answer

    def send_receive_event_to_app(self) -> None:
        answer = self.beat_answer
        # A page's beat costs a frame in and a frame out, not a queue, a task's wake-up
        # and the app's parsing (pages beat more often than their players move). Only
        # with nothing queued: it never overtakes a message the app has not read.
        if (answer is not None and self.curr_msg_data_type == "text" and len(self.frames) == 1
                and self.frames[0] == BEAT_TEXT and self.queue.empty() and not self.close_sent
                and answer()):
            self.frames = []
            return
        self._to_app()

    def _to_app(self) -> None:
        # uvicorn stops reading the socket after every message until the app takes it (two
        # epoll changes a message); here only once QUEUED_MESSAGES wait (memory stays
        # bounded: a few messages of at most ws_max_size each).
        paused, self.read_paused = self.read_paused, True
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = paused
        if not paused and self.queue.qsize() >= QUEUED_MESSAGES:
            self.read_paused = True
            self.transport.pause_reading()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.answered_at = self.loop.time()

    def data_received(self, data: bytes) -> None:
        self.heard_at = self.loop.time()
        super().data_received(data)

    def handle_pong(self, event: Frame) -> None:
        if (self.pending_ping_payload is not None
                and bytes(event.data) == self.pending_ping_payload):
            self.answered_at = self.loop.time()
        super().handle_pong(event)

    def send_keepalive_ping(self) -> None:
        # A client heard within the interval is alive: its ping waits until the interval
        # has passed since then (a page that beats every 2 s is pinged once in
        # PINGED_ANYWAY intervals, not every interval). A link that goes silent is found
        # within interval + timeout of its last bytes; one whose bytes come but whose
        # pongs do not (dead one way, or a client that ignores pings) within
        # PINGED_ANYWAY intervals + timeout.
        now = self.loop.time()
        interval = self.ping_interval or 0.0
        wait = min(self.heard_at + interval, self.answered_at + PINGED_ANYWAY * interval) - now
        if (wait > 0 and self.pending_ping_payload is None and not self.close_sent
                and not self.transport.is_closing()):
            self.ping_timer = self.loop.call_later(wait, self.send_keepalive_ping)
            return
        super().send_keepalive_ping()

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # a refused handshake has none
        if scope is not None:
            scope[SEND_NOW] = self.send_now
            scope[ANSWER_BEATS] = self.answer_beats_with

    def send_now(self, text: str) -> bool:
        """Write ``text`` as one frame now; ``False`` (nothing written) when the socket's
        buffer is full, the handshake is not done, or the connection is closing: then the
        caller sends it the ASGI way, which waits."""
        if (not self.writable.is_set() or not self.handshake_complete or self.close_sent
                or self.initial_response is not None or self.transport.is_closing()):
            return False
        conn = self.conn
        if conn.extensions or conn.expect_continuation_frame:
            try:  # a negotiated extension (permessage-deflate) makes the frame
                conn.send_text(text.encode())
            except InvalidState:
                return False
            self.transport.write(b"".join(conn.data_to_send()))
            return True
        if conn.state is not State.OPEN:
            return False
        self.transport.write(text_frame(text.encode()))
        return True


def text_frame(payload: bytes) -> bytes:
    """One unmasked, final text frame (RFC 6455 5.2): what ``websockets`` writes for a
    server's ``send_text`` with no extension, without building its ``Frame`` each time."""
    size = len(payload)
    if size < 126:
        return bytes((0x81, size)) + payload
    if size < 1 << 16:
        return struct.pack("!BBH", 0x81, 126, size) + payload
    return struct.pack("!BBQ", 0x81, 127, size) + payload


class GuardedWebSocketProtocol(DirectWebSocketProtocol):
    """uvicorn's WebSocket protocol; its socket leaves the guard's count when it closes."""

    guard: ClassVar[ConnectionGuard]

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.release(self.transport)
        super().connection_lost(exc)


def guarded_protocols(guard: ConnectionGuard) -> tuple[type[H11Protocol],
                                                       type[WebSocketsSansIOProtocol]]:
    """The HTTP and WebSocket protocol classes for ``uvicorn.Config(http=..., ws=...)``."""
    http = type("GuardedH11", (GuardedH11Protocol,), {"guard": guard})
    ws = type("GuardedWebSocket", (GuardedWebSocketProtocol,), {"guard": guard})
    return http, ws


def server_limits(open_files: int, limits: ConnectionLimits) -> ConnectionLimits:
    """``limits`` with ``max_sockets`` under the open-file limit."""
    ceiling = max(16, open_files - FILES_KEPT_FREE)
    return ConnectionLimits(request_seconds=limits.request_seconds,
                            sockets_per_address=limits.sockets_per_address,
                            max_sockets=min(limits.max_sockets, ceiling))


WS_COMPRESSION = False
"""permessage-deflate is not offered by default: on small update frames it costs more server
CPU and memory per connection than the bytes it saves are worth (figures: docs/deploy.md,
Capacity); ``uno serve --ws-compression on`` offers it."""


def uvicorn_config(app: Any, *, host: str, port: int, log_level: str = "warning",
                   forwarded_allow_ips: str | None = None,
                   limits: ConnectionLimits | None = None,
                   compression: bool = WS_COMPRESSION) -> tuple[Any, ConnectionGuard]:
    """The ``uvicorn.Config`` ``uno serve`` runs (guarded protocols, WebSocket pings, the
    proxy's forwarded address when one is trusted, permessage-deflate only when
    ``compression``), and its guard."""
    import uvicorn

    from .heartbeat import WS_PING_INTERVAL, WS_PING_TIMEOUT

    limits = server_limits(raise_open_file_limit(), limits or ConnectionLimits())
    guard = ConnectionGuard(limits, TrustedProxies(forwarded_allow_ips))
    http, ws = guarded_protocols(guard)
    config = uvicorn.Config(app, host=host, port=port, http=http, ws=ws,
                            ws_max_size=WS_MAX_SIZE, log_level=log_level,
                            ws_ping_interval=WS_PING_INTERVAL,  # a dead link is closed
                            ws_ping_timeout=WS_PING_TIMEOUT,    # within 15 s
                            ws_per_message_deflate=compression,
                            timeout_keep_alive=5,
                            proxy_headers=forwarded_allow_ips is not None,
                            forwarded_allow_ips=forwarded_allow_ips)
    return config, guard
