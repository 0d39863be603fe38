"""Who may talk to the server, and who may take a seat: a WebSocket's origin, WebSockets
per client address, seats per address in a room, people the host removed.

A browser sends ``Origin`` with every WebSocket it opens, also for a script of another
site: only the page's own origin (the request's ``Host``) and the origins given with
``uno serve --allow-origin`` may open one. A client without ``Origin`` is no browser (a
script, a bot, a test) and may: it could send any ``Origin`` it liked anyway.

>>> ok = lambda origin, host, allowed=(): origin_allowed(origin, host, frozenset(allowed))
>>> ok(None, "game.home:8000"), ok("http://game.home:8000", "game.home:8000")
(True, True)
>>> ok("https://evil.example", "game.home:8000"), ok("null", "game.home:8000")
(False, False)
>>> ok("https://uno.example.org", "uno.example.org")
True
>>> ok("http://uno.example.org:80", "uno.example.org"), ok("http://game.home:8001", "game.home")
(True, False)
>>> ok("https://app.example.org", "127.0.0.1:8001", ["https://app.example.org"])
True

>>> address_key("2001:db8::1") == address_key("2001:db8::ffff:1") == "2001:db8::/64"
True
>>> address_key("::ffff:10.0.0.1"), address_key("10.0.0.1"), address_key("unknown")
('10.0.0.1', '10.0.0.1', 'unknown')
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
from collections import Counter
from urllib.parse import urlsplit

from starlette.websockets import WebSocket

from .log_limits import every_so_often
from .seats import RoomError, Seat

log = logging.getLogger("unogame.server")

DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
BANS_KEPT = 64
"""Addresses a room remembers as removed by its host (the oldest are forgotten)."""


def normal_origin(origin: str) -> str | None:
    """``scheme://host:port`` in lower case with the port always written; None: no origin
    a page can have (``null``, a file, garbage)."""
    try:
        parts = urlsplit(origin.strip().lower())
        port = parts.port or DEFAULT_PORTS.get(parts.scheme)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname or port is None:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}:{port}"


def origin_allowed(origin: str | None, host: str | None, allowed: frozenset[str]) -> bool:
    """A WebSocket from a page of ``origin`` to a server reached as ``host`` (the Host
    header): no origin, the page's own, or one of ``allowed`` (``*``: any)."""
    if origin is None:
        return True
    if "*" in allowed:
        return True
    normal = normal_origin(origin)
    if normal is None:
        return False
    if normal in {normal_origin(item) for item in allowed}:
        return True
    if not host:
        return False
    scheme = normal.split("://", 1)[0]
    return normal_origin(f"{scheme}://{host}") == normal


class WebSocketCount:
    """Open WebSockets per client address (behind a trusted proxy: the forwarded one)."""

    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self.open: Counter[str] = Counter()
        self._log = every_so_often(log, 10.0)

    def enter(self, address: str) -> bool:
        if self.open[address] >= self.per_address:
            self._log(logging.WARNING, "WebSocket refused: %s holds %d already", address,
                      self.per_address)
            return False
        self.open[address] += 1
        return True

    def leave(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


async def admitted(websocket: WebSocket, allowed: frozenset[str],
                   count: WebSocketCount) -> str | None:
    """A WebSocket from an allowed origin, within its address's count: its address key,
    counted (the caller calls ``count.leave``); None: refused before the handshake (the
    client sees HTTP 403)."""
    origin = websocket.headers.get("origin")
    if not origin_allowed(origin, websocket.headers.get("host"), allowed):
        log.info("WebSocket refused: origin %.100r", origin)
        await websocket.close(1008)
        return None
    address = client_address(websocket.client.host if websocket.client else None)
    if not count.enter(address):
        await websocket.close(1008)
        return None
    return address


def address_key(host: str) -> str:
    """What the per-address limits count: an IPv4 address, an IPv6 client's /64 (one
    household or phone gets a whole /64), the host string itself when it is no address."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def client_address(host: str | None) -> str:
    """The key a client's allowances and counts are kept under (IPv6: its /64)."""
    return address_key(host) if host else "unknown"


def seat_mark(code: str, address: str) -> str:
    """What a room stores of the address a seat was joined from: a hash, per room (a
    stored room lists no address)."""
    return hashlib.sha256(f"{code}|{address}".encode()).hexdigest()[:24]


def seats_per_address(capacity: int, least: int) -> int:
    """Seats one address may join in a room: ``least`` (a family behind one router), or
    half the seats of a larger room, so that one address cannot fill a lobby.

    >>> [seats_per_address(capacity, 4) for capacity in (2, 4, 6, 8, 10)]
    [4, 4, 4, 4, 5]
    """
    return max(least, capacity // 2)


def check_join(seats: list[Seat], banned: list[str], mark: str, capacity: int,
               least: int) -> None:
    """Refuses a join from the address ``mark`` stands for: removed by the host, or it
    holds as many seats as it may."""
    if mark in banned:
        raise RoomError("removed_by_host", "the host removed you from this room; "
                                           "ask them to let you join again")
    if sum(1 for seat in seats if seat.joined_from == mark) >= seats_per_address(capacity,
                                                                                  least):
        raise RoomError("address_full", "enough seats were taken from your network; "
                                        "ask the host to add a bot")


def with_ban(banned: list[str], mark: str | None) -> list[str]:
    """``banned`` with ``mark`` added (the newest last; a bounded list)."""
    if mark is None or mark in banned:
        return list(banned)
    return [*banned, mark][-BANS_KEPT:]
