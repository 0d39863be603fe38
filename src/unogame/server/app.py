"""The ASGI app: static pages, a small JSON API and the WebSocket protocol.

Protocol (JSON text frames; every client message is an object with a ``type``):

====================  =================================================================
client -> server      meaning
====================  =================================================================
``create``            ``settings`` (name, seats, rules, timer), ``name``, ``bots`` (levels)
``join``              ``room``, ``name``: take a free seat in the lobby
``resume``            ``room``, ``token``: back into one's seat (reload, phone slept)
``watch``             ``room``: a spectator (sees no hand)
``start``             host: deal the first round
``add_bot``           host, lobby: ``level``
``remove``            host: ``seat`` (a bot plays on in a started game)
``move``              ``move`` in the notation, ``version`` of the position it was made on
``next_round``        ``version``: deal the next round after a round is over
``rematch``           host, after the match
``ping``              keeps a connection alive
====================  =================================================================

The server answers with ``joined`` (room, seat, token), ``room`` (seats, settings),
``state`` (the seat's view, legal moves, log, scoreboard), ``update`` (after each move:
the events as the seat may see them and the new view), ``removed``, ``pong`` and
``error`` (``code``, ``message``). An error changes nothing and keeps the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import segno
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import i18n
from ..bots.base import BOT_LEVELS
from .hub import LocalHub, encode
from .rooms import Limits, Room, RoomError, RoomManager, Timing, meta
from .storage import SqliteStorage, Storage

log = logging.getLogger("unogame.server")

STATIC_DIR = Path(str(resources.files("unogame.server") / "static"))
MAX_ROOMS_PER_CONNECTION = 5
OUTBOX_SIZE = 512
"""Messages waiting for a slow client before it is disconnected."""


class Connection:
    """One WebSocket client: its seat, its outbox and its message-rate allowance."""

    def __init__(self, websocket: WebSocket, limits: Limits) -> None:
        self.websocket = websocket
        self.seat: int | None = None
        self.room: Room | None = None
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(OUTBOX_SIZE)
        self.limits = limits
        self.allowance = float(limits.message_burst)
        self.last = time.monotonic()
        self.overflowed = False
        self.rooms_created = 0

    def send_text(self, text: str) -> None:
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.overflowed = True  # a client that does not read is dropped, not waited for

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message))

    def error(self, code: str, message: str) -> None:
        self.send({"type": "error", "code": code, "message": message})

    def rate_ok(self) -> bool:
        now = time.monotonic()
        self.allowance = min(float(self.limits.message_burst),
                             self.allowance + (now - self.last) * self.limits.messages_per_second)
        self.last = now
        if self.allowance < 1.0:
            return False
        self.allowance -= 1.0
        return True

    async def writer(self) -> None:
        while True:
            text = await self.outbox.get()
            if text is None or self.overflowed:
                with contextlib.suppress(Exception):
                    await self.websocket.close(1008 if self.overflowed else 1000)
                return
            await self.websocket.send_text(text)


@dataclass
class Server:
    manager: RoomManager
    connections: set[Connection] = field(default_factory=set)

    # ------------------------------------------------------------ dispatch

    def handle_text(self, conn: Connection, text: str) -> None:
        if len(text.encode("utf-8")) > self.manager.limits.max_message_bytes:
            conn.error("too_large", f"messages are limited to "
                                    f"{self.manager.limits.max_message_bytes} bytes")
            return
        if not conn.rate_ok():
            conn.error("rate_limited", "too many messages; slow down")
            return
        try:
            message = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            conn.error("bad_json", "not a JSON message")
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            conn.error("bad_message", "a message is a JSON object with a 'type'")
            return
        handler = getattr(self, "on_" + message["type"], None)
        if handler is None or message["type"] not in HANDLED:
            conn.error("unknown_type", f"unknown message type {message['type'][:40]!r}")
            return
        try:
            handler(conn, message)
        except RoomError as error:
            conn.error(error.code, error.message)

    def _room(self, conn: Connection) -> Room:
        if conn.room is None:
            raise RoomError("no_room", "join a room first")
        return conn.room

    def _host(self, conn: Connection) -> Room:
        room = self._room(conn)
        if conn.seat is None or conn.seat != room.host:
            raise RoomError("not_host", "only the host may do this")
        return room

    def _enter(self, conn: Connection, room: Room, seat: int | None, token: str | None) -> None:
        self.leave(conn)
        if len(self.manager.hub.clients(room.code)) >= self.manager.limits.max_clients_per_room:
            raise RoomError("room_crowded", "too many people are connected to this room")
        conn.room = room
        conn.seat = seat
        self.manager.hub.attach(room.code, conn)
        conn.send({"type": "joined", "room": room.code, "seat": seat, "token": token})
        room.connected(seat)
        conn.send(room.room_message(seat))
        conn.send(room.state_message(seat))

    def leave(self, conn: Connection) -> None:
        room = conn.room
        if room is not None:
            self.manager.hub.detach(room.code, conn)
            conn.room = None
            room.disconnected(conn.seat)
            conn.seat = None

    def on_create(self, conn: Connection, message: dict[str, Any]) -> None:
        settings = message.get("settings", {})
        if not isinstance(settings, dict):
            raise RoomError("bad_settings", "settings must be an object")
        bots = message.get("bots", [])
        if not isinstance(bots, list) or any(level not in BOT_LEVELS for level in bots):
            raise RoomError("bad_level", f"bots: a list of levels from {list(BOT_LEVELS)}")
        if conn.rooms_created >= MAX_ROOMS_PER_CONNECTION:
            raise RoomError("too_many_rooms", "this connection has created enough rooms")
        room = self.manager.create(settings)
        if len(bots) + 1 > room.capacity:
            del self.manager.rooms[room.code]
            raise RoomError("bad_settings", "more bots than free seats")
        seat, token = room.join(message.get("name"))
        for level in bots:
            room.add_bot(level)
        conn.rooms_created += 1
        self._enter(conn, room, seat, token)

    def on_join(self, conn: Connection, message: dict[str, Any]) -> None:
        room = self.manager.get(message.get("room"))
        seat, token = room.join(message.get("name"))
        self._enter(conn, room, seat, token)

    def on_resume(self, conn: Connection, message: dict[str, Any]) -> None:
        room = self.manager.get(message.get("room"))
        seat = room.find_token(message.get("token"))
        if seat is None:
            raise RoomError("bad_token", "this seat token is not valid here; you may watch")
        self._enter(conn, room, seat, None)

    def on_watch(self, conn: Connection, message: dict[str, Any]) -> None:
        room = self.manager.get(message.get("room"))
        self._enter(conn, room, None, None)

    def on_start(self, conn: Connection, message: dict[str, Any]) -> None:
        self._host(conn).start()

    def on_add_bot(self, conn: Connection, message: dict[str, Any]) -> None:
        self._host(conn).add_bot(message.get("level"))

    def on_remove(self, conn: Connection, message: dict[str, Any]) -> None:
        room = self._host(conn)
        removed = [c for c in self.manager.hub.clients(room.code) if c.seat == message.get("seat")]
        room.remove_seat(message.get("seat"))
        for client in removed:
            if isinstance(client, Connection):
                client.send({"type": "removed"})
                client.send(room.room_message(None))
                client.send(room.state_message(None))

    def on_move(self, conn: Connection, message: dict[str, Any]) -> None:
        self._room(conn).play(conn.seat, message.get("move"), message.get("version"))

    def on_next_round(self, conn: Connection, message: dict[str, Any]) -> None:
        self._room(conn).next_round(conn.seat, message.get("version"))

    def on_rematch(self, conn: Connection, message: dict[str, Any]) -> None:
        self._host(conn).rematch()

    def on_ping(self, conn: Connection, message: dict[str, Any]) -> None:
        conn.send({"type": "pong"})

    # ------------------------------------------------------------ transport

    async def websocket(self, websocket: WebSocket) -> None:
        await websocket.accept()
        conn = Connection(websocket, self.manager.limits)
        self.connections.add(conn)
        writer = asyncio.create_task(conn.writer())
        try:
            while not writer.done():
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    conn.error("bad_message", "send JSON text frames")
                    continue
                try:
                    self.handle_text(conn, text)
                except Exception:  # never let one message end the connection or the room
                    log.exception("message failed")
                    conn.error("server_error", "the server could not handle this message")
        except WebSocketDisconnect:
            pass
        finally:
            self.connections.discard(conn)
            self.leave(conn)
            if not writer.done():
                conn.outbox.put_nowait(None) if not conn.outbox.full() else writer.cancel()
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(writer, 1.0)


HANDLED = frozenset({"create", "join", "resume", "watch", "start", "add_bot", "remove", "move",
                     "next_round", "rematch", "ping"})


def create_app(storage: Storage | str | Path | None = None, *, timing: Timing | None = None,
               limits: Limits | None = None, lan_url: str | None = None) -> Starlette:
    """The app over a storage (a SQLite path, or ``:memory:`` by default).

    ``lan_url``: the address phones on the network use; invite links opened on the
    server's own machine (localhost) point there instead.
    """
    if storage is None or isinstance(storage, (str, Path)):
        storage = SqliteStorage(storage or ":memory:")
    manager = RoomManager(storage, LocalHub(), timing or Timing(), limits or Limits())
    manager.load()
    server = Server(manager)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    async def api_meta(request: Request) -> Response:
        return JSONResponse({**meta(), "lan_url": lan_url})

    async def api_i18n(request: Request) -> Response:
        language = request.path_params["lang"]
        if language not in i18n.LANGUAGES:
            return JSONResponse({"error": "unknown language"}, status_code=404)
        return JSONResponse(i18n.table(language))

    async def api_qr(request: Request) -> Response:
        data = request.query_params.get("data", "")
        if not data or len(data) > 300:
            return Response("data: 1 to 300 characters", status_code=400)
        buffer = io.BytesIO()
        segno.make(data, error="m").save(buffer, kind="svg", scale=4, dark="#111", light="#fff")
        return Response(buffer.getvalue(), media_type="image/svg+xml")

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True, "rooms": len(manager.rooms),
                             "connections": len(server.connections)})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        manager.storage.start_checkpoints(every=0.25)
        manager.resume_all()
        yield
        manager.close()
        manager.storage.close()

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/r/{code}", index),
            Route("/api/meta", api_meta),
            Route("/api/i18n/{lang}", api_i18n),
            Route("/api/qr.svg", api_qr),
            Route("/healthz", health),
            WebSocketRoute("/ws", server.websocket),
            Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.server = server
    app.state.manager = manager
    return app
