"""Helpers for the server tests: a real uvicorn server on a free loopback port, in a thread
or in a subprocess, and an asyncio WebSocket client that keeps every message it receives."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import uvicorn
import websockets
from websockets.asyncio.client import ClientConnection

from unogame.engine import Game
from unogame.server import Limits, Timing, create_app
from unogame.server.commits import off_loop
from unogame.server.connections import DirectWebSocketProtocol
from unogame.server.flow import STAND_IN_PREFIX
from unogame.server.rooms import Room
from unogame.server.storage import ROUND_BOUNDARY, Storage
from unogame.server.updates import GameReader

Message = dict[str, Any]
Moves = list[tuple[int, str]]
T = TypeVar("T")
SETTLE_SECONDS = 30.0
"""How long a test waits for the server's loop to answer or a room to come to rest (a busy
2-core machine: generous; the wait ends as soon as the condition holds)."""

LOOPBACK: dict[str, Any] = {"rooms_per_address": (100_000, 100_000.0),
                            "lookups_per_address": (100_000, 100_000.0),
                            "websockets_per_address": 100_000,
                            "joined_seats_per_address": 100}
"""Every test client comes from 127.0.0.1: the per-address allowances and counts are lifted
unless a test is about them (see test_server_hostile.py, test_server_connections.py)."""


LOCKER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
db.execute("ROLLBACK")
"""
"""A process that holds the write lock of the SQLite file ``argv[1]`` for ``argv[2]``
seconds (it prints "locked" once it has it)."""


def loopback_limits(**fields: Any) -> Limits:
    known = Limits.__dataclass_fields__
    return Limits(**{key: value for key, value in {**LOOPBACK, **fields}.items() if key in known})


def free_socket(port: int = 0) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    return sock


def free_port() -> int:
    with free_socket() as sock:
        return int(sock.getsockname()[1])


def stop_process(process: subprocess.Popen[bytes] | None) -> None:
    """Ask a child process to end; kill it when it has not within 10 s."""
    if process is not None and process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


class ServerThread:
    """The app on uvicorn in a background thread (its own event loop)."""

    def __init__(self, db: str | Path | Storage = ":memory:", timing: Timing | None = None,
                 limits: Limits | None = None, lan_url: str | None = None,
                 port: int = 0, redis_url: str | None = None, lease: float = 1.5,
                 ws_protocol: type[DirectWebSocketProtocol] = DirectWebSocketProtocol,
                 ws_ping: tuple[float, float] | None = None, ws_deflate: bool = True) -> None:
        """``port``: 0 for a free one, or the port of a server that was stopped (a restart).
        ``redis_url``: rooms in that Redis (shared with other servers on it), not ``db``.
        ``ws_protocol``: uvicorn's WebSocket protocol class (``uno serve``'s, less the
        per-address guard, by default). ``ws_ping``: the WebSocket keepalive's interval and
        timeout (none by default). ``ws_deflate``: permessage-deflate offered (uvicorn's
        default; ``uno serve`` offers none)."""
        self.app = create_app(db if isinstance(db, Storage) else str(db),
                              timing=timing or Timing(think=0.0, reaction_scale=0.0),
                              limits=limits or loopback_limits(), lan_url=lan_url,
                              redis_url=redis_url, lease_seconds=lease)
        self.sock = free_socket(port)
        self.port = int(self.sock.getsockname()[1])
        config = uvicorn.Config(self.app, log_level="warning", ws_max_size=65536,
                                lifespan="on", ws=ws_protocol,
                                ws_ping_interval=ws_ping[0] if ws_ping else None,
                                ws_ping_timeout=ws_ping[1] if ws_ping else None,
                                ws_per_message_deflate=ws_deflate)
        self.server = uvicorn.Server(config)
        self.loop: asyncio.AbstractEventLoop | None = None
        """The server's event loop (set once it runs): every room lives on it."""
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        async def serve() -> None:
            self.loop = asyncio.get_running_loop()
            await self.server.serve(sockets=[self.sock])

        with asyncio.Runner(loop_factory=self.server.config.get_loop_factory()) as runner:
            runner.run(serve())

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def manager(self) -> Any:
        return self.app.state.manager

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()

    # Reading a room from a test. The rooms live on the server's loop (its thread) and their
    # bots keep playing: a test reads them there, as one of the room's changes (nothing is
    # being stored meanwhile, and every stored entry is applied), never from its own thread.

    def submit(self, make: Callable[[], Awaitable[T]]) -> concurrent.futures.Future[T]:
        """Run the coroutine ``make()`` on the server's loop."""
        assert self.loop is not None, "the server is not running"

        async def call() -> T:
            return await make()

        return asyncio.run_coroutine_threadsafe(call(), self.loop)

    def settled(self, code: str, read: Callable[[Room, Moves], T]) -> T:
        """``read(room, stored log of its current game)``, as one of the room's changes."""
        return self.submit(lambda: _settled(self.manager.rooms[code], read)).result(
            SETTLE_SECONDS)

    async def settled_async(self, code: str, read: Callable[[Room, Moves], T]) -> T:
        """:meth:`settled` from a test's own event loop (its clients keep reading)."""
        future = self.submit(lambda: _settled(self.manager.rooms[code], read))
        return await asyncio.wait_for(asyncio.wrap_future(future), SETTLE_SECONDS)

    def at_rest(self, code: str, read: Callable[[Room, Moves], T]) -> T:
        """Wait until the room has stopped by itself (everyone gone: no bot thinking, none
        planned, nothing being stored), then :meth:`settled`: nothing changes after it."""
        return self.submit(lambda: _at_rest(self.manager.rooms[code], read)).result(
            SETTLE_SECONDS + 5)

    async def at_rest_async(self, code: str, read: Callable[[Room, Moves], T]) -> T:
        future = self.submit(lambda: _at_rest(self.manager.rooms[code], read))
        return await asyncio.wait_for(asyncio.wrap_future(future), SETTLE_SECONDS + 5)


async def _settled(room: Room, read: Callable[[Room, Moves], T]) -> T:
    async def change() -> T:
        moves = await off_loop(room.storage.load_moves, room.code, room.game_no) \
            if room.game_no else []
        return read(room, moves)

    return await room.commits.run(change)


async def _at_rest(room: Room, read: Callable[[Room, Moves], T]) -> T:
    deadline = asyncio.get_running_loop().time() + SETTLE_SECONDS

    def resting(room: Room, moves: Moves) -> tuple[bool, T | None]:
        current = room.current
        if current is not None and not (current.paused and current.table.outstanding is None):
            return False, None
        return True, read(room, moves)

    while True:
        done, value = await _settled(room, resting)
        if done:
            return value  # type: ignore[return-value]
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"room {room.code} did not come to rest")
        await asyncio.sleep(0.02)


def stored_and_applied(room: Room, moves: Moves) -> tuple[Moves, int]:
    """A :meth:`ServerThread.settled` read: the stored log and the room's log length."""
    return moves, room.log_length


def _replayed(room: Room) -> Game:
    deal = room.deal
    if deal is not None:
        return Game.deal(len(room.seats), deal["dealer"], deal["deck"], room.rules,
                         room.game_seed)
    return Game.new(len(room.seats), room.rules, room.game_seed)


def stored_games(room: Room, moves: Moves) -> dict[int, Game]:
    """The room's current game at every version of its stored log, replayed by the engine
    alone (a :meth:`ServerThread.settled` read): what a seat was shown at a version must be
    that game's view."""
    game = _replayed(room)
    version = room.version_base
    games = {version: game.copy()}
    for seat, text in moves:
        if seat < 0 and text == ROUND_BOUNDARY:
            game.next_round()
        else:
            game.push(seat, text.removeprefix(STAND_IN_PREFIX))
        version += 1
        games[version] = game.copy()
    return games


def check_shown_was_stored(games: dict[int, Game], *clients: Client) -> int:
    """Every position each client was shown in this game is a stored one: its version is in
    the stored log and its view is the replayed game's view for the client's seat (nothing
    was broadcast that was not stored). Returns the number of positions checked."""
    base = min(games)
    checked = 0
    for client in clients:
        for message in client.messages:
            if message.get("type") not in ("state", "update") or message["view"] is None \
                    or message["version"] < base:
                continue  # the lobby, or a previous game of the room
            version = message["version"]
            assert version in games, f"version {version} was shown but not stored"
            assert message["view"] == games[version].view(client.seat), version
            checked += 1
    return checked


class ServerProcess:
    """``uno serve`` in a subprocess (for the kill -9 restart test)."""

    def __init__(self, db: Path, port: int, bot_think: float = 0.05,
                 extra: list[str] | None = None, log: Path | None = None,
                 nofile: int | None = None) -> None:
        """``extra``: more ``uno serve`` options; ``log``: its stderr goes to this file;
        ``nofile``: its open-file limit, soft and hard."""
        self.db = db
        self.port = port
        self.bot_think = bot_think
        self.extra = extra or []
        self.log = log
        self.nofile = nofile
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> None:
        nofile = self.nofile

        def limit() -> None:
            if nofile is not None:
                import resource

                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        stderr = self.log.open("ab") if self.log is not None else subprocess.PIPE
        self.process = subprocess.Popen(
            [sys.executable, "-m", "unogame", "serve", "--port", str(self.port),
             "--db", str(self.db), "--bot-think", str(self.bot_think), *self.extra],
            stdout=subprocess.DEVNULL, stderr=stderr,
            preexec_fn=limit if nofile is not None else None,
        )
        if self.log is not None:
            stderr.close()  # type: ignore[union-attr]
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz",
                                            timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                said = self.process.stderr.read() if self.process.stderr else \
                    self.log.read_bytes() if self.log is not None else b""
                raise RuntimeError("server did not start: " + said.decode(errors="replace"))
            time.sleep(0.05)

    def kill9(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        stop_process(self.process)


class Client:
    """A WebSocket client keeping every message it receives, in order."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.messages: list[Message] = []
        self.arrived: list[float] = []
        """When each message came (``time.monotonic``)."""
        self.raw: list[str] = []
        self.reader = GameReader()
        self._new = asyncio.Event()
        self._reader = asyncio.create_task(self._read())
        self.seat: int | None = None
        self.token: str | None = None
        self.room: str | None = None

    @classmethod
    async def connect(cls, url: str) -> Client:
        ws = await websockets.connect(url, max_size=2**22)
        return cls(ws)

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                assert isinstance(text, str)
                self.raw.append(text)
                message = self.reader.read(text)  # an update as its seat reads it
                self.arrived.append(time.monotonic())
                self.messages.append(message)
                if message.get("type") == "joined":
                    self.seat, self.room = message["seat"], message["room"]
                    if message.get("token"):
                        self.token = message["token"]
                self._new.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self._new.set()

    async def send(self, message: Message | str) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def wait_for(self, predicate: Callable[[Message], bool], timeout: float = 10.0,
                       start: int = 0) -> Message:
        """The first message from index ``start`` on that satisfies ``predicate``."""
        deadline = asyncio.get_running_loop().time() + timeout
        index = start
        while True:
            while index < len(self.messages):
                message = self.messages[index]
                index += 1
                if predicate(message):
                    return message
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0 or self._reader.done():
                raise TimeoutError(f"no such message; last: {self.messages[-3:]}")
            self._new.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._new.wait(), remaining)

    async def request(self, message: Message, kind: str | tuple[str, ...],
                      timeout: float = 10.0) -> Message:
        """Send and wait for the next message of type ``kind``."""
        kinds = (kind,) if isinstance(kind, str) else kind
        start = len(self.messages)
        await self.send(message)
        return await self.wait_for(lambda m: m.get("type") in kinds, timeout, start)

    async def message_at(self, index: int, timeout: float = 10.0) -> Message:
        """The message number ``index``, waiting for it to arrive."""
        deadline = asyncio.get_running_loop().time() + timeout
        while index >= len(self.messages):
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0 or self._reader.done():
                raise TimeoutError(f"message {index} did not come")
            self._new.clear()
            if index < len(self.messages):
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._new.wait(), remaining)
        return self.messages[index]

    def arrival(self, message: Message) -> float:
        """When this very message came (``time.monotonic``)."""
        return next(at for at, seen in zip(self.arrived, self.messages, strict=True)
                    if seen is message)

    def last(self, kind: str | tuple[str, ...]) -> Message:
        kinds = (kind,) if isinstance(kind, str) else kind
        for message in reversed(self.messages):
            if message.get("type") in kinds:
                return message
        raise LookupError(kind)

    def game(self) -> Message:
        """The latest state or update message."""
        return self.last(("state", "update"))

    async def close(self) -> None:
        await self.ws.close()
        await asyncio.wait_for(self._reader, 5)


async def create_room(url: str, name: str = "Host", seats: int = 4, bots: list[str] | None = None,
                      rules: dict[str, Any] | None = None, timer: int = 0,
                      **settings: Any) -> Client:
    """A room created by its host (``settings``: more room settings, e.g. grace, fill)."""
    host = await Client.connect(url)
    await host.request({"type": "create", "name": name, "bots": bots or [],
                        "settings": {"name": "Test room", "seats": seats,
                                     "rules": rules or {}, "timer": timer, **settings}},
                       "state")
    return host


async def join(url: str, room: str, name: str) -> Client:
    client = await Client.connect(url)
    await client.request({"type": "join", "room": room, "name": name}, "state")
    return client


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def choose(legal: list[str], my_turn: bool, rng: Any) -> str | None:
    """A quick client-side policy: always say UNO, catch often, play rather than draw."""
    if "uno" in legal:
        return "uno"
    catches = [move for move in legal if move.startswith("catch")]
    if catches and rng.random() < 0.7:
        return str(rng.choice(catches))
    if not my_turn:
        return None
    plays = [move for move in legal if move.startswith("play")]
    if plays and rng.random() < 0.95:
        return str(rng.choice(plays))
    others = [move for move in legal if not move.startswith("catch")]
    return str(rng.choice(others or legal))


async def autoplay(client: Client, seed: int, deal: bool = False,
                   until: Callable[[Message], bool] | None = None,
                   timeout: float = 60.0) -> Message:
    """Answer every new position with a move until the match is over (or ``until``).

    ``deal``: this client presses "next round" too (the table deals once every connected
    person has). Returns the last game message.
    """
    import random

    rng = random.Random(seed)
    index = 0
    acted: set[int] = set()
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        remaining = deadline - asyncio.get_running_loop().time()
        if remaining <= 0:
            raise TimeoutError("the game did not finish in time")
        message = await client.message_at(index, remaining)
        index += 1
        if message.get("code") == "rate_limited":  # fast bots: wait, then answer again
            await asyncio.sleep(0.25)
            message = client.game()
            acted.discard(message["version"])
        if message.get("type") not in ("state", "update") or message.get("view") is None:
            continue
        if until is not None and until(message):
            return message
        if message["status"] == "match_over":
            return message
        if any(later.get("type") in ("state", "update") for later in client.messages[index:]):
            continue  # a newer position is already here
        version = message["version"]
        if version in acted:
            continue
        if message["status"] == "round_over":
            if deal:
                acted.add(version)
                await client.send({"type": "next_round", "version": version})
            continue
        move = choose(message["legal"], message["view"]["turn"] == client.seat, rng)
        if move is not None:
            acted.add(version)
            await client.send({"type": "move", "move": move, "version": version})
