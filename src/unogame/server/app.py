"""The ASGI app: static pages, a small JSON API and the WebSocket protocol.

The protocol (its message types, their fields, the error codes) is declared once in
``protocol.py``, which ``docs/protocol.md`` prints; the server dispatches only the client
types declared there (``handle_text``), each handler checking its own fields. The limits
on message size, message rate and seats per connection are here; every string of a message
must be valid Unicode.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import i18n
from .admission import WebSocketCount, admitted, seat_mark
from .assets import REVALIDATE, Assets, Body
from .clients import Connection, valid_text
from .cluster import backends
from .commits import close_storage, off_loop
from .emotes import EMOTES
from .headers import SecurityHeaders
from .heartbeat import Heard, sweep_silent
from .helper import hint, replay
from .limits import Allowance
from .log_limits import LogLimiter
from .manager import Limits, RoomManager, meta
from .protocol import CLIENT_TYPES
from .pwa import manifest, service_worker
from .qr import QrBusy, QrCodes
from .replay_pages import ReplayPages
from .rooms import Room, Timing
from .seats import RoomError
from .storage import Storage, StorageError

log = logging.getLogger("unogame.server")

STATIC_DIR = Path(str(resources.files("unogame.server") / "static"))
ROOM_GONE = "this room no longer exists (the server lost it); start or join another room"


async def allowed(allowance: Allowance, address: str) -> bool:
    """One request of ``address``'s allowance (a shared one is asked off the loop)."""
    if allowance.remote:
        return await off_loop(allowance.take, address)
    return allowance.take(address)


@dataclass
class Server:
    manager: RoomManager
    allowed_origins: frozenset[str] = frozenset()
    """Origins of pages (besides the server's own) whose WebSockets are accepted."""
    connections: set[Connection] = field(default_factory=set)
    websocket_count: WebSocketCount = field(init=False)
    replays: ReplayPages = field(default_factory=ReplayPages)
    creations: Allowance = field(init=False)
    lookups: Allowance = field(init=False)

    def __post_init__(self) -> None:
        limits = self.manager.limits
        storage = self.manager.storage  # several processes: one allowance for all
        self.creations = storage.allowance("create", *limits.rooms_per_address)
        self.lookups = storage.allowance("lookup", *limits.lookups_per_address)
        self.websocket_count = WebSocketCount(limits.websockets_per_address)
        self.manager.on_gone = self.room_gone

    # ------------------------------------------------------------ dispatch

    async def handle_text(self, conn: Connection, text: str) -> None:
        """One message of the connection (the next is read once this one is answered; a
        change waits for the room's change before it, off the loop)."""
        conn.heard = time.monotonic()
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
        if not valid_text(message):
            conn.error("bad_text", "text must be valid Unicode (no lone surrogates)")
            return
        handler = getattr(self, "on_" + message["type"], None)
        if handler is None or message["type"] not in CLIENT_TYPES:
            conn.error("unknown_type", f"unknown message type {message['type'][:40]!r}")
            return
        try:
            done = handler(conn, message)
            if inspect.isawaitable(done):
                await done
        except RoomError as error:
            conn.error(error.code, error.message, error.details)
        except StorageError as error:  # nothing was stored, so nothing changed
            log.warning("%s not saved: %s", message["type"], error)
            conn.error("not_saved", "the game could not be saved; nothing changed, try again")

    def _room(self, conn: Connection) -> Room:
        if conn.room is None:
            raise RoomError("no_room", "join a room first")
        if conn.room.closed:  # gone from storage while this connection had it open
            self.leave(conn)
            raise RoomError("room_gone", ROOM_GONE)
        return conn.room

    def room_gone(self, room: Room) -> None:
        """The room is not in storage any more: everyone who has it open here is told
        (the page says so and goes home) and leaves it."""
        for conn in [conn for conn in self.connections if conn.room is room]:
            conn.error("room_gone", ROOM_GONE)
            self.leave(conn)

    def _host(self, conn: Connection) -> Room:
        room = self._room(conn)
        if conn.seat is None or conn.seat != room.host:
            raise RoomError("not_host", "only the host may do this")
        return room

    async def _lookup(self, conn: Connection, code: Any, token: Any = None) -> Room:
        """The room of ``code``, as the address's allowance permits. When it is spent, a
        seat's own token still opens its room (once a second per connection); any other
        answer is the same refusal, so a spent allowance tells a guesser nothing."""
        if await allowed(self.lookups, conn.address):
            return await self.manager.find(code)
        limited = RoomError("lookup_limited", "too many room codes tried; wait a minute")
        if not isinstance(token, str) or not token \
                or not conn.token_lookups.take(time.monotonic()):
            raise limited
        try:
            room = await self.manager.find(code)
        except RoomError:
            raise limited from None
        if room.find_token(token) is None:
            raise limited
        return room

    def _make_way(self, conn: Connection, room: Room, seat: int | None) -> None:
        """Spectators have their own cap; a seat's owner always gets in (its oldest extra
        connections make way)."""
        limits = self.manager.limits
        others = [c for c in self.manager.hub.clients(room.code) if c is not conn]
        if seat is None:
            # with several processes, the other processes' clients count too
            watching = sum(1 for c in others if c.seat is None) + room.watchers() \
                - room.spectators
            if watching >= limits.max_spectators_per_room \
                    or len(others) + room.clients_elsewhere() >= limits.max_clients_per_room:
                raise RoomError("room_crowded", "too many people are watching this room")
            return
        same_seat = [c for c in others if c.seat == seat and isinstance(c, Connection)]
        for old in same_seat[:max(0, len(same_seat) - limits.max_connections_per_seat + 1)]:
            old.error("replaced", "this seat was opened somewhere else")
            self.leave(old)
            old.close()

    def _enter(self, conn: Connection, room: Room, seat: int | None, token: str | None) -> None:
        self._make_way(conn, room, seat)
        self.leave(conn)
        conn.room = room
        conn.seat = seat
        self.manager.hub.attach(room.code, conn)
        conn.hidden = False  # a page says again if it is hidden, after joined
        joined = {"type": "joined", "room": room.code, "seat": seat, "token": token}
        if self.manager.hub.process is not None:  # which process (a proxy picks one)
            joined["server"] = self.manager.hub.process
        conn.send(joined)
        room.connected(seat)
        conn.send(room.room_message(seat))
        conn.send(room.state_message(seat))

    def leave(self, conn: Connection) -> None:
        room = conn.room
        if room is not None:
            self.manager.hub.detach(room.code, conn)
            conn.room = None
            room.disconnected(conn.seat, conn.hidden)
            conn.seat = None

    def _may_take_seat(self, conn: Connection) -> None:
        if len(conn.seats_taken) >= self.manager.limits.max_seats_per_connection:
            raise RoomError("too_many_rooms", "this connection has taken enough seats")

    async def on_create(self, conn: Connection, message: dict[str, Any]) -> None:
        self._may_take_seat(conn)
        if not await allowed(self.creations, conn.address):
            raise RoomError("create_limited", "too many rooms created from here; wait a minute")
        room, seat, token = await self.manager.create(message.get("settings", {}),
                                                message.get("name"), message.get("bots", []))
        conn.seats_taken.add(room.code)
        self._enter(conn, room, seat, token)

    async def on_join(self, conn: Connection, message: dict[str, Any]) -> None:
        room = await self._lookup(conn, message.get("room"), message.get("token"))
        owned = room.find_token(message.get("token"))
        if owned is not None:  # this browser has a seat here already: back into it
            self._enter(conn, room, owned, None)
            return
        if room.code in conn.seats_taken:
            raise RoomError("already_seated", "you already have a seat in this room")
        self._may_take_seat(conn)
        seat, token = await room.join(message.get("name"), seat_mark(room.code, conn.address),
                                      self.manager.limits.joined_seats_per_address)
        conn.seats_taken.add(room.code)
        self._enter(conn, room, seat, token)

    async def on_resume(self, conn: Connection, message: dict[str, Any]) -> None:
        room = await self._lookup(conn, message.get("room"), message.get("token"))
        seat = room.find_token(message.get("token"))
        if seat is None:
            raise RoomError("bad_token", "this seat token is not valid here; you may watch")
        self._enter(conn, room, seat, None)

    async def on_watch(self, conn: Connection, message: dict[str, Any]) -> None:
        room = await self._lookup(conn, message.get("room"))
        self._enter(conn, room, None, None)

    async def on_start(self, conn: Connection, message: dict[str, Any]) -> None:
        await self._host(conn).start()

    async def on_add_bot(self, conn: Connection, message: dict[str, Any]) -> None:
        await self._host(conn).add_bot(message.get("level"))

    async def on_remove(self, conn: Connection, message: dict[str, Any]) -> None:
        room = self._host(conn)
        for client in await room.remove_seat(message.get("seat")):
            if isinstance(client, Connection):
                client.seats_taken.discard(room.code)  # no seat here: the room decides
                client.send({"type": "removed"})
                client.send(room.room_message(None))
                client.send(room.state_message(None))

    async def on_move(self, conn: Connection, message: dict[str, Any]) -> None:
        await self._room(conn).play(conn.seat, message.get("move"), message.get("version"))

    async def on_next_round(self, conn: Connection, message: dict[str, Any]) -> None:
        await self._room(conn).next_round(conn.seat, message.get("version"))

    async def on_hand_to_bot(self, conn: Connection, message: dict[str, Any]) -> None:
        room = self._host(conn)
        await room.hand_to_bot(conn.seat, message.get("seat"))

    async def on_rematch(self, conn: Connection, message: dict[str, Any]) -> None:
        await self._host(conn).rematch()

    async def on_unban(self, conn: Connection, message: dict[str, Any]) -> None:
        await self._host(conn).unban()

    def on_emote(self, conn: Connection, message: dict[str, Any]) -> None:
        """A seated player's quick reaction, from the fixed set, to everyone in the room."""
        room = self._room(conn)
        emote = message.get("emote")
        if conn.seat is None:
            raise RoomError("not_seated", "spectators do not react")
        if emote not in EMOTES:
            raise RoomError("bad_emote", f"reactions are one of {list(EMOTES)}")
        if not conn.emotes.take(time.monotonic()):
            raise RoomError("emote_limited", "one reaction every two seconds")
        seat = conn.seat
        room.hub.publish(room.code, lambda _: {"type": "emote", "seat": seat, "emote": emote})

    async def on_helper(self, conn: Connection, message: dict[str, Any]) -> None:
        await self._room(conn).set_helper(conn.seat, message.get("on"))

    async def on_hint(self, conn: Connection, message: dict[str, Any]) -> None:
        conn.send(await hint(self._room(conn), conn.seat, conn.hints))

    async def on_replay(self, conn: Connection, message: dict[str, Any]) -> None:
        conn.send_text(await replay(self._room(conn), conn.seat, message.get("game_no"),
                                    message.get("round"), message.get("page"), conn.replays,
                                    self.replays))

    def on_why(self, conn: Connection, message: dict[str, Any]) -> None:
        conn.send(self._room(conn).why_message(conn.seat, message.get("card")))

    def on_ping(self, conn: Connection, message: dict[str, Any]) -> None:
        if message.get("beat") is True:
            conn.beat = True
        conn.send({"type": "pong"})

    def on_visibility(self, conn: Connection, message: dict[str, Any]) -> None:
        hidden = message.get("hidden")
        if type(hidden) is not bool:
            raise RoomError("bad_visibility", "hidden: true or false")
        if hidden == conn.hidden:
            return
        conn.hidden = hidden
        if conn.room is not None:
            conn.room.visibility(conn.seat, hidden)
            self.manager.hub.refresh_presence(conn.room.code)

    def drop_silent(self, heard: Heard) -> None:
        """A page's heartbeat stopped (a dead link): it leaves its room now (its grace
        starts) and is closed; whatever it still sends is not read."""
        if not isinstance(heard, Connection) or heard.closing:
            return
        log.info("connection %s: silent for too long; closing it", heard.address)
        self.leave(heard)
        heard.close()

    # ------------------------------------------------------------ transport

    async def websocket(self, websocket: WebSocket) -> None:
        address = await admitted(websocket, self.allowed_origins, self.websocket_count)
        if address is None:
            return
        try:
            await self._websocket(websocket)
        finally:
            self.websocket_count.leave(address)

    async def _websocket(self, websocket: WebSocket) -> None:
        await websocket.accept()
        conn = Connection(websocket, self.manager.limits)
        self.connections.add(conn)
        # The connection ending (dropped, closed, a failed send) stops a receive in
        # progress: one task reads, with no task or wait made per message.
        reading = asyncio.current_task()
        stopped = False

        def connection_ended() -> None:
            nonlocal stopped
            if conn.receiving and reading is not None and not stopped:
                stopped = True
                reading.cancel()

        conn.on_end = connection_ended
        try:
            while not conn.ended:
                conn.receiving = True
                try:
                    message = await websocket.receive()
                except asyncio.CancelledError:
                    if not stopped:  # cancelled from outside (shutdown): not ours to keep
                        raise
                    if reading is not None:
                        reading.uncancel()
                    break
                finally:
                    conn.receiving = False
                if message["type"] == "websocket.disconnect" or conn.closing:
                    break
                text = message.get("text")
                if text is None:
                    conn.error("bad_message", "send JSON text frames")
                    continue
                try:
                    await self.handle_text(conn, text)
                except Exception:  # never let one message end the connection or the room
                    log.exception("message failed")
                    conn.error("server_error", "the server could not handle this message")
        except WebSocketDisconnect:
            pass
        finally:
            conn.on_end = None
            self.connections.discard(conn)
            self.leave(conn)
            await conn.finish()


def create_app(storage: Storage | str | Path | None = None, *, timing: Timing | None = None,
               limits: Limits | None = None, lan_url: str | None = None,
               lan_problem: str | None = None,
               redis_url: str | None = None, lease_seconds: float = 5.0,
               allowed_origins: frozenset[str] = frozenset()) -> Starlette:
    """The app over a storage (a SQLite path, or ``:memory:`` by default).

    ``lan_url``: the address phones on the network use; invite links opened on the
    server's own machine (localhost) point there instead. ``lan_problem``: why there is
    none (``"local"``: the server listens on this computer only; ``"no_network"``: it
    listens on the network but found no address of its own there). ``redis_url``: rooms live in
    Redis, shared with every other process started with it (``storage`` is ignored);
    ``lease_seconds``: how long a process that stopped renewing still drives its rooms.
    ``allowed_origins``: pages of other origins whose WebSockets are accepted (``*``: any).
    """
    backend, hub, join = backends(storage, redis_url, lease_seconds)
    manager = RoomManager(backend, hub, timing or Timing(), limits or Limits())
    cluster = join(manager)  # None: one process, the cluster of one
    manager.load()
    server = Server(manager, allowed_origins)
    log_limiter = LogLimiter()
    qr_codes = QrCodes()
    assets = Assets(STATIC_DIR)
    pages = {"manifest": manifest(assets), "sw": service_worker(assets),
             "meta": json_body({**meta(), "lan_url": lan_url, "lan_problem": lan_problem}),
             **{f"i18n/{language}": json_body(page_strings(language))
                for language in i18n.LANGUAGES}}

    async def index(request: Request) -> Response:
        return assets.index(request, REVALIDATE)

    async def api_meta(request: Request) -> Response:
        return pages["meta"].response(request, REVALIDATE)

    async def api_i18n(request: Request) -> Response:
        language = request.path_params["lang"]
        if language not in i18n.LANGUAGES:
            return JSONResponse({"error": "unknown language"}, status_code=404)
        return pages[f"i18n/{language}"].response(request, REVALIDATE)

    async def web_manifest(request: Request) -> Response:
        return pages["manifest"].response(request, REVALIDATE)

    async def worker(request: Request) -> Response:
        return pages["sw"].response(request, REVALIDATE)

    async def versioned(request: Request) -> Response:
        return assets.versioned(request)

    async def static(request: Request) -> Response:
        return assets.plain(request)

    async def api_qr(request: Request) -> Response:
        data = request.query_params.get("data", "")
        refusal = qr_codes.refusal(data)
        if refusal is not None:
            return Response(refusal, status_code=400)
        try:
            svg = await qr_codes.svg(data)
        except QrBusy as error:
            return Response(str(error), status_code=503, headers={"Retry-After": "1"})
        return Response(svg, media_type="image/svg+xml",
                        headers={"Cache-Control": "max-age=3600"})

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True, "rooms": len(manager.rooms),
                             "connections": len(server.connections),
                             "redis": None if cluster is None else cluster.hub.link_up})

    async def sweep() -> None:
        while True:
            await asyncio.sleep(manager.limits.sweep_seconds)
            try:
                await manager.expire_lobbies()
            except Exception as error:  # storage trouble: try again next time
                log.warning("expiring lobbies failed: %s", error)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        log_limiter.install()  # what clients can make the server say is bounded
        manager.storage.start_checkpoints(every=0.25)
        if cluster is not None:
            cluster.start()
        manager.resume_all()
        sweeper = asyncio.create_task(sweep())
        heartbeat = asyncio.create_task(sweep_silent(lambda: server.connections,
                                                     manager.limits.silent_seconds,
                                                     server.drop_silent))
        yield
        sweeper.cancel()
        heartbeat.cancel()
        if cluster is not None:
            await cluster.stop()
        manager.close()
        await close_storage(manager.storage)
        log_limiter.uninstall()

    app = Starlette(
        middleware=[Middleware(SecurityHeaders)],
        routes=[
            Route("/", index),
            Route("/r/{code}", index),
            Route("/api/meta", api_meta),
            Route("/api/i18n/{lang}", api_i18n),
            Route("/api/qr.svg", api_qr),
            Route("/healthz", health),
            Route("/manifest.webmanifest", web_manifest),
            Route("/sw.js", worker),
            Route("/v/{version}/{name}", versioned),
            Route("/static/{name}", static),
            WebSocketRoute("/ws", server.websocket),
        ],
        lifespan=lifespan,
    )
    app.state.server = server
    app.state.manager = manager
    app.state.qr_codes = qr_codes
    app.state.assets = assets
    return app


PAGE_PARTS = ("web", "common", "rules")
"""The i18n parts the page uses (not the terminal's, nor the command line's)."""


def page_strings(language: str) -> dict[str, str]:
    return {key: text for key, text in i18n.table(language).items()
            if key.partition(".")[0] in PAGE_PARTS}


def json_body(document: Any) -> Body:
    return Body.of(json.dumps(document, ensure_ascii=False).encode("utf-8"), "application/json")
