"""``uno play --join URL``: a seat of a ``uno serve`` room, played from the terminal over
the browser's own WebSocket protocol (``server/app.py`` documents it).

No Textual here: :class:`Link` is the connection (join or resume, heartbeat, reconnect,
moves) and :class:`RemoteMatch` the room as the seat sees it, read by the same screens as
a match at this keyboard (:class:`~unogame.tui.match.SeenMatch`). Everything the protocol
says lives in this module, so a change of the protocol is a change here.

>>> address = parse_room_url("http://192.168.1.5:8000/r/HK7P3RXD")
>>> address.ws_url, address.code
('ws://192.168.1.5:8000/ws', 'HK7P3RXD')
>>> parse_room_url("https://uno.example.org/r/hk7p-3rxd").ws_url
'wss://uno.example.org/ws'
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..engine import Move, Rules, RulesError
from ..engine.errors import NotationError
from ..server.updates import GameReader
from .match import MatchConfig, SeatConfig
from .saving import write_atomically

BEAT_SECONDS = 2.0
"""A ping this often, promising the next (``beat``): the page's heartbeat."""
BEAT: dict[str, Any] = {"type": "ping", "beat": True}
"""The ping, as the page sends it."""
QUIET_SECONDS = 2.5
"""A ping unanswered this long: the link is said to be reconnecting."""
SILENT_SECONDS = 6.0
"""... this long: the socket is given up and a new one opened (a held Wi-Fi link never
closes by itself)."""
OPEN_SECONDS = 5.0
MOVE_REFUSALS = frozenset({"stale", "illegal", "not_seated", "not_started", "bad_move",
                           "not_saved", "rate_limited", "too_large", "no_room"})
"""Errors that answer a move sent (it is not sent again)."""
LOG_KEEP = 400
"""Events kept for the log and the scoreboard (the server sends its last 300 on resume)."""
_CODE = re.compile(r"/r/([A-Za-z0-9 -]{4,20})/?$")


def wire_text(message: dict[str, Any]) -> str:
    """A message as sent: compact JSON, as the page's ``JSON.stringify`` (so :data:`BEAT` is
    the page's very text, which the server answers where it arrives)."""
    return json.dumps(message, separators=(",", ":"))


@dataclass(frozen=True)
class RoomAddress:
    """Where a room is: its server's WebSocket and its code."""

    ws_url: str
    code: str
    server: str
    """``host:port`` of the page: the key of the seat's token in :class:`SeatTokens`."""


def parse_room_url(url: str) -> RoomAddress:
    """The room of a link the lobby shows (``http://HOST:PORT/r/CODE``); ``ValueError``
    saying what is wrong otherwise."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.netloc:
        raise ValueError(f"not a room's link: {url!r} (like http://192.168.1.5:8000/r/HK7P3RXD)")
    found = _CODE.search(parts.path)
    if found is None:
        raise ValueError(f"no room code in {url!r}: the link ends in /r/CODE")
    code = re.sub(r"[ -]", "", found.group(1)).upper()
    secure = parts.scheme in ("https", "wss")
    return RoomAddress(f"{'wss' if secure else 'ws'}://{parts.netloc}/ws", code, parts.netloc)


class SeatTokens:
    """The seat tokens of rooms joined from this computer (a JSON file), so that ``uno play
    --join`` again, or after a crash, is back in the same seat (the page keeps them in its
    local storage)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @staticmethod
    def default_path() -> Path:
        base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"),
                                                                ".local", "share")
        return Path(base) / "unogame" / "seats.json"

    def _all(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}

    def get(self, address: RoomAddress) -> str | None:
        return self._all().get(f"{address.server}/{address.code}")

    def put(self, address: RoomAddress, token: str | None) -> None:
        tokens = self._all()
        key = f"{address.server}/{address.code}"
        if token is None:
            tokens.pop(key, None)
        else:
            tokens[key] = token
        write_atomically(self.path, json.dumps(tokens, indent=1))


# ---------------------------------------------------------------- the room as a seat sees it


class RemoteGame:
    """The server's latest position for one seat: its view and legal moves (what the
    screens ask of a game). Nothing hidden from the seat ever reaches it."""

    def __init__(self, seat: int | None, players: int) -> None:
        self.seat = seat
        self._view: dict[str, Any] = {"players": players, "hands": [0] * players,
                                      "turn": 0, "winner": None, "game_winner": None}
        self._legal: list[Move] = []

    def update(self, view: dict[str, Any], legal: list[str]) -> None:
        self._view = view
        moves = []
        for text in legal:
            with contextlib.suppress(NotationError):
                moves.append(Move.parse(text))
        self._legal = moves

    @property
    def players(self) -> int:
        return int(self._view["players"])

    @property
    def turn(self) -> int:
        return int(self._view["turn"])

    @property
    def winner(self) -> int | None:
        winner = self._view.get("winner")
        return None if winner is None else int(winner)

    @property
    def is_round_over(self) -> bool:
        return self.winner is not None

    @property
    def is_game_over(self) -> bool:
        return self._view.get("game_winner") is not None

    def view(self, seat: int | None) -> dict[str, Any]:
        """The seat's own view (another seat's is not known here)."""
        return self._view

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        return list(self._legal) if seat == self.seat else []


class RemoteMatch:
    """A room as one seat sees it, built from the server's ``room``, ``state`` and
    ``update`` messages (:meth:`receive`)."""

    def __init__(self, seat: int | None, room: dict[str, Any], lang: str) -> None:
        self.seat = seat
        self.code = str(room.get("room", ""))
        self.status = "lobby"
        self.lang = lang
        self.config = MatchConfig(seats=[SeatConfig("?"), SeatConfig("?")], lang=lang)
        self.names: list[str] = []
        self.humans: list[int] = [] if seat is None else [seat]
        self.seats: list[dict[str, Any]] = []
        self.host: int | None = None
        self._game = RemoteGame(seat, 2)
        self._round = 0
        self._version = 0
        self.events: list[tuple[int, dict[str, Any]]] = []
        """The events as the seat saw them, each with its round (the last :data:`LOG_KEEP`)."""
        self.last_move: dict[str, Any] | None = None
        self.set_room(room)

    @property
    def game(self) -> RemoteGame:
        return self._game

    @property
    def round(self) -> int:
        return self._round

    @property
    def version(self) -> int:
        return self._version

    @property
    def started(self) -> bool:
        return self.status != "lobby" and self._round > 0

    def set_room(self, room: dict[str, Any]) -> None:
        """The ``room`` message: seats, names, rules, host, status."""
        self.seats = [seat for seat in room.get("seats", []) if isinstance(seat, dict)]
        self.names = [str(seat.get("name", "?")) for seat in self.seats]
        self.host = room.get("host")
        self.status = str(room.get("status", self.status))
        try:
            rules = Rules.from_dict(room.get("rules") or {})
        except (RulesError, TypeError, ValueError):
            rules = Rules()
        seats = [SeatConfig(name) for name in self.names] or [SeatConfig("?"), SeatConfig("?")]
        while len(seats) < 2:
            seats.append(SeatConfig("?"))
        self.config = MatchConfig(seats=seats[:10], rules=rules, lang=self.lang)
        if room.get("you") is not None and self.seat is None:
            self.seat = int(room["you"])
            self.humans = [self.seat]
            self._game.seat = self.seat

    def receive(self, message: dict[str, Any]) -> None:
        """A ``state`` (everything, on joining) or an ``update`` (after each move)."""
        self.status = str(message.get("status", self.status))
        self._version = int(message.get("version", self._version))
        view = message.get("view")
        if view is None:  # the lobby: no game yet
            return
        number = int(message.get("round", self._round))
        if message.get("type") == "state":
            self.last_move = message.get("last_move")
            # the log of a state runs over rounds: numbered back from this one by its deals
            log = [event for event in message.get("log", []) if isinstance(event, dict)]
            of = number
            numbered: list[tuple[int, dict[str, Any]]] = []
            for event in reversed(log):
                numbered.append((max(of, 1), event))
                if event.get("type") == "deal":
                    of -= 1
            self.events = numbered[::-1]
        else:
            for event in message.get("events", []):
                if isinstance(event, dict):
                    self.events.append((number, event))
        del self.events[:-LOG_KEEP]
        self._round = number
        self._game.update(view, [str(text) for text in message.get("legal", [])])

    def log_for(self, seat: int | None, round_number: int | None = None) -> list[dict[str, Any]]:
        number = self._round if round_number is None else round_number
        return [{**event, "round": of} for of, event in self.events if of == number]

    def events_since_turn(self, seat: int, viewer: int | None) -> list[dict[str, Any]]:
        events = self.log_for(viewer)
        start = 0
        for index, event in enumerate(events):
            if event.get("seat") == seat and event["type"] in (
                    "play", "draw", "pass", "accept", "challenge", "color"):
                start = index + 1
        return events[start:]

    def last_event(self, kind: str, seat: int | None) -> dict[str, Any] | None:
        return next((event for _, event in reversed(self.events) if event.get("type") == kind),
                    None)


# ---------------------------------------------------------------- the connection


Deliver = Callable[[dict[str, Any]], None]


class Link:
    """The WebSocket to ``uno serve``, as the page keeps it: back into its seat first on
    every (re)connection (``resume`` with the seat's token, else ``join`` with ``name``),
    a ping every :data:`BEAT_SECONDS`, a silent link given up after
    :data:`SILENT_SECONDS` and a new one opened (backing off up to 5 s), a move in flight
    when the link went sent again on its version once the seat is back (applied once or
    refused ``stale``, never twice).

    ``deliver`` hears every message from the server but pongs, and a ``link`` message
    ``{"type": "link", "state": "open" | "quiet" | "down"}`` when the link changes.
    """

    def __init__(self, address: RoomAddress, name: str, tokens: SeatTokens,
                 deliver: Deliver) -> None:
        self.address = address
        self.name = name
        self.tokens = tokens
        self.deliver = deliver
        self.state = "down"
        self._ws: Any = None
        self._closing = False
        self._sent_move: dict[str, Any] | None = None
        self._queued_move: dict[str, Any] | None = None
        self._ping_at: float | None = None
        self._seated = False
        self.connections = 0
        """Sockets opened so far (a test counts the reconnections)."""

    def _tell(self, state: str) -> None:
        if state != self.state:
            self.state = state
            self.deliver({"type": "link", "state": state})

    async def run(self) -> None:
        """Connect, and connect again whenever the link goes, until :meth:`close`."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import WebSocketException

        retry = 0
        while not self._closing:
            try:
                async with connect(self.address.ws_url, open_timeout=OPEN_SECONDS,
                                   max_size=2**22, ping_interval=None) as ws:
                    self._ws = ws
                    self.connections += 1
                    retry = 0
                    await self._session(ws)
            except (OSError, TimeoutError, WebSocketException):
                pass  # the server not there (yet), or the link went: tried again below
            self._ws = None
            self._seated = False
            self._ping_at = None
            if self._sent_move is not None and self._queued_move is None:
                self._queued_move = self._sent_move
            self._sent_move = None
            if self._closing:
                break
            self._tell("down")
            await asyncio.sleep(min(5.0, 0.3 * 2 ** retry))
            retry += 1

    async def _session(self, ws: Any) -> None:
        token = self.tokens.get(self.address)
        if token:
            await self._send_now({"type": "resume", "room": self.address.code, "token": token})
        else:
            await self._send_now({"type": "join", "room": self.address.code, "name": self.name})
        await self._ping()
        reader = GameReader()  # a new link starts from the state the server sends first
        beat = asyncio.create_task(self._beat(ws))
        try:
            async for text in ws:
                if not isinstance(text, str):
                    continue
                self._ping_at = None  # anything heard: the link lives
                if self.state != "open" and self._seated:
                    self._tell("open")
                try:  # an update is the room's public part and this seat's own, merged
                    message = reader.read(text)  # with the game message before it
                except (ValueError, KeyError, TypeError, IndexError):
                    continue
                if isinstance(message, dict):
                    self._heard(message)
        finally:
            beat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await beat

    def _heard(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "pong":
            return
        if kind == "joined":
            self._seated = True
            if message.get("token"):
                self.tokens.put(self.address, str(message["token"]))
            self._tell("open")
        elif kind == "error" and message.get("code") == "bad_token":
            self.tokens.put(self.address, None)  # not a seat here (any more): join again
        if kind in ("state", "update", "error") and self._sent_move is not None:
            answered = (message.get("code") in MOVE_REFUSALS if kind == "error"
                        else int(message.get("version", -1)) > self._sent_move["version"])
            if answered:
                self._sent_move = None
        self.deliver(message)
        if kind == "state":
            self._flush(message)

    def _flush(self, state: dict[str, Any]) -> None:
        """The move made while the link was down goes now, if it still means the same
        (same position, still legal) and the server did not have it already."""
        queued, self._queued_move = self._queued_move, None
        if queued is None:
            return
        last = state.get("last_move")
        if last and last.get("version") == queued["version"] and last.get("move") == queued["move"]:
            return
        if state.get("version") == queued["version"] and queued["move"] in state.get("legal", []):
            self.send(queued)
        else:
            self.deliver({"type": "error", "code": "move_dropped", "message": "the game moved on"})

    async def _beat(self, ws: Any) -> None:
        while True:
            await asyncio.sleep(0.5)
            now = time.monotonic()
            if self._ping_at is None:
                if now - self._last_ping >= BEAT_SECONDS:
                    await self._ping()
            elif now - self._ping_at > SILENT_SECONDS:
                await ws.close()  # given up: run() opens a new one
                return
            elif now - self._ping_at > QUIET_SECONDS:
                self._tell("quiet")

    async def _ping(self) -> None:
        self._ping_at = self._last_ping = time.monotonic()
        await self._send_now(BEAT)

    async def _send_now(self, message: dict[str, Any]) -> None:
        if self._ws is not None:
            await self._ws.send(wire_text(message))

    def send(self, message: dict[str, Any]) -> bool:
        """Send ``message`` (from the event loop's thread); ``False`` if the link is down
        (a move is then kept and sent once the seat is back)."""
        if self._ws is None or not self._seated:
            if message.get("type") == "move":
                self._queued_move = message
            return False
        if message.get("type") == "move":
            self._sent_move = message
        task = asyncio.ensure_future(self._send_now(message))
        task.add_done_callback(_ignore_closed)
        return True

    def move(self, text: str, version: int) -> bool:
        return self.send({"type": "move", "move": text, "version": version})

    def drop(self) -> None:
        """Cut the socket as a dropped Wi-Fi would (a test's way to lose the link)."""
        if self._ws is not None:
            task = asyncio.ensure_future(self._ws.close())
            task.add_done_callback(_ignore_closed)

    def close(self) -> None:
        self._closing = True
        self.drop()

    _last_ping = 0.0


def _ignore_closed(task: asyncio.Future[Any]) -> None:
    """A send on a socket that closed meanwhile: the reconnection deals with it."""
    if not task.cancelled():
        task.exception()


__all__ = ["Link", "RemoteGame", "RemoteMatch", "RoomAddress", "SeatTokens",
           "parse_room_url"]
