"""Every cost a client can cause is bounded (issue 21, item 2), against a real ``uno serve``
process on a real SQLite file: a long round's replay comes in pages under a byte bound,
replay requests from many sockets leave a victim's ping fast, a client that never reads is
dropped once its outbox passes a byte bound (the server's memory stays bounded), the QR
endpoint refuses oversized data and serves cached codes, a target score above the maximum
is refused, and the round-length cap ends a round (and its match).

A long round is made the way four seats can make it: drawing and passing for thousands of
moves (then playing out, so that it is a finished round with a winner). It is stored in the
room's log directly (the same rows a server writes), then the server restarts on the file.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import socket
import struct
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from test_server_support import (
    Client,
    ServerProcess,
    ServerThread,
    create_room,
    free_port,
    join,
    run,
)

from unogame.engine import Game, Move, Rules
from unogame.i18n import table as strings
from unogame.server.outbox import OUTBOX_BYTES
from unogame.server.qr import QR_MAX_BYTES
from unogame.server.replay import round_replay
from unogame.server.replay_pages import PAGE_CHARS
from unogame.server.seats import MAX_TARGET_SCORE, ROUND_MOVE_CAP
from unogame.server.storage import SqliteStorage

REPLY_BOUND = PAGE_CHARS + 1024
"""The most bytes one replay reply may take: a page of steps and its few header fields."""


# ---------------------------------------------------------------- a long round, stored


def long_round(players: int, rules: Rules, seed: int, stalling: int,
               finish: bool = True) -> list[tuple[int, str]]:
    """A round's log: every seat draws (and passes) for ``stalling`` moves; then, with
    ``finish``, each plays a card whenever it can (saying UNO) until someone wins."""
    game = Game.new(players, rules, seed)
    entries: list[tuple[int, str]] = []
    while game.winner is None:
        seat = game.turn
        legal = [move.text for move in game.legal_moves(seat)]
        if len(entries) < stalling:
            quiet = [m for m in legal if not m.startswith(("play", "catch", "uno"))]
            move = next((m for m in ("draw", "pass") if m in legal), (quiet or legal)[0])
        elif not finish:
            break
        else:
            plays = [m for m in legal if m.startswith("play")]
            unos = [m for m in plays if m.endswith(" uno")]
            others = [m for m in legal if not m.startswith("catch")]
            move = (unos or plays or others or legal)[0]
        game.push(seat, Move.parse(move), undo=False)
        entries.append((seat, move))
    return entries


@dataclass
class StoredRoom:
    db: Path
    code: str
    tokens: list[str]
    rules: Rules
    seed: int
    entries: list[tuple[int, str]]


def stored_long_round(tmp_path: Path, stalling: int, finish: bool = True) -> StoredRoom:
    """A room of four people whose first round is ``long_round(...)``, in a SQLite file."""
    db = tmp_path / "rooms.sqlite3"

    async def seated(url: str) -> tuple[str, list[str]]:
        host = await create_room(url, "Ann", seats=4)
        others = [await join(url, host.room or "", name) for name in ("Ben", "Cid", "Dee")]
        await host.request({"type": "start"}, "state")
        clients = [host, *others]
        for client in clients:
            await client.close()
        return host.room or "", [client.token or "" for client in clients]

    with ServerThread(db) as server:
        code, tokens = run(seated(server.ws_url))
    storage = SqliteStorage(db)
    try:
        data = storage.load_rooms()[code]
        assert storage.load_moves(code, data["game_no"]) == []  # nobody moved yet
        rules = Rules.from_dict(data["rules"])
        entries = long_round(4, rules, data["game_seed"], stalling, finish)
        for index, (seat, move) in enumerate(entries):
            storage.append_move(code, data["game_no"], index, seat, move)
    finally:
        storage.close()
    return StoredRoom(db, code, tokens, rules, data["game_seed"], entries)


class UnoServe(ServerProcess):
    """``uno serve`` in a subprocess on a free port, started at once (per-address allowances
    lifted: every test client comes from 127.0.0.1; its log beside the database)."""

    def __init__(self, db: Path) -> None:
        super().__init__(db, free_port(), bot_think=0, extra=["--per-address", "100000"],
                         log=db.with_suffix(".log"))
        self.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def health(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.url + "/healthz", timeout=30) as response:
            data: dict[str, Any] = json.loads(response.read())
            return data

    def rss_mib(self) -> float:
        assert self.process is not None
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise LookupError("VmRSS")

    def __enter__(self) -> UnoServe:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


async def resumed(url: str, room: StoredRoom, seat: int) -> Client:
    client = await Client.connect(url)
    await client.request({"type": "resume", "room": room.code, "token": room.tokens[seat]},
                         "state", timeout=60)
    return client


async def whole_replay(client: Client, game_no: int, round_no: int
                       ) -> tuple[list[dict[str, Any]], list[int]]:
    """Every page of a replay, asked for one after the other: the steps and each reply's
    size in bytes (as sent)."""
    steps: list[dict[str, Any]] = []
    sizes: list[int] = []
    page = 0
    while True:
        start = len(client.messages)
        await client.send({"type": "replay", "game_no": game_no, "round": round_no,
                           "page": page})
        answer = await client.wait_for(lambda m: m.get("type") in ("replay", "error"), 60,
                                       start)
        if answer.get("code") == "rate_limited":
            await asyncio.sleep(0.5)
            continue
        assert answer["type"] == "replay", answer
        raw = client.raw[client.messages.index(answer)]
        sizes.append(len(raw.encode("utf-8")))
        assert sizes[-1] <= REPLY_BOUND, f"a replay reply of {sizes[-1]} bytes"
        assert answer["page"] == page and answer["first"] == len(steps)
        steps += answer["steps"]
        page += 1
        if page == answer["pages"]:
            assert len(steps) == answer["total"]
            return steps, sizes


# ---------------------------------------------------------------- replays in pages


def test_a_long_rounds_replay_comes_in_pages_each_under_the_byte_bound(tmp_path: Path) -> None:
    room = stored_long_round(tmp_path, stalling=3000)
    truth = round_replay(4, room.rules, room.seed, None, room.entries, 1, seat=2)
    assert len(json.dumps(truth)) > 20 * PAGE_CHARS  # megabytes in one piece

    async def scenario(server: UnoServe) -> None:
        client = await resumed(server.ws_url, room, 2)
        steps, sizes = await whole_replay(client, 1, 1)
        assert steps == truth  # every step, in order, as seat 2 saw it
        assert len(sizes) > 20 and max(sizes) <= REPLY_BOUND, (len(sizes), max(sizes))
        await client.close()

    with UnoServe(room.db) as server:
        run(scenario(server))


async def ping_times(client: Client, seconds: float, every: float = 0.1) -> list[float]:
    """Round trips of ``ping`` -> ``pong`` for ``seconds``."""
    times: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.monotonic()
        await client.request({"type": "ping"}, "pong", timeout=60)
        times.append(time.monotonic() - start)
        await asyncio.sleep(every)
    return times


async def flood_replays(client: Client, stop: asyncio.Event, every: float = 2.0) -> int:
    """Ask for a replay every ``every`` seconds (as a page would), reading the answers."""
    asked = 0
    while not stop.is_set():
        await client.send({"type": "replay", "game_no": 1, "round": 1})
        asked += 1
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every)
    return asked


def victim_ping_under_replay_flood(tmp_path: Path, stalling: int, flooders: int,
                                   seconds: float) -> list[float]:
    room = stored_long_round(tmp_path, stalling)

    async def scenario(server: UnoServe) -> list[float]:
        victim_room = await create_room(server.ws_url, "Vic", seats=2, bots=["easy"])
        clients = [await resumed(server.ws_url, room, index % 4) for index in range(flooders)]
        stop = asyncio.Event()
        floods = [asyncio.create_task(flood_replays(client, stop)) for client in clients]
        await asyncio.sleep(1.0)  # the flood is on
        times = await ping_times(victim_room, seconds)
        stop.set()
        await asyncio.gather(*floods)
        replies = sum(1 for client in clients for m in client.messages if m["type"] == "replay")
        assert replies >= flooders  # the flood was answered, not refused
        for client in [*clients, victim_room]:
            await client.close()
        return times

    with UnoServe(room.db) as server:
        result: list[float] = run(scenario(server))
        return result


def test_replay_requests_from_many_sockets_leave_a_victims_ping_fast(tmp_path: Path) -> None:
    times = victim_ping_under_replay_flood(tmp_path, stalling=3000, flooders=12, seconds=8)
    assert max(times) < 1.0, f"slowest ping {max(times):.2f} s (of {len(times)})"


@pytest.mark.slow
def test_replay_flood_at_the_issues_sizes_leaves_a_victims_ping_fast(tmp_path: Path) -> None:
    """Issue 21's figures: a round of ~7,000 steps, 16 connections asking every 2 s."""
    times = victim_ping_under_replay_flood(tmp_path, stalling=7000, flooders=16, seconds=40)
    assert max(times) < 1.0, f"slowest ping {max(times):.2f} s (of {len(times)})"


# ---------------------------------------------------------------- clients that never read


def websocket_frame(text: str) -> bytes:
    """A client's masked text frame."""
    payload = text.encode()
    mask = os.urandom(4)
    head = bytes([0x81])
    if len(payload) < 126:
        head += bytes([0x80 | len(payload)])
    else:
        head += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def non_reading_websocket(port: int) -> socket.socket:
    """A WebSocket that takes its handshake answer and then never reads again (a tiny
    receive buffer: the server's bytes stay on the server's side)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                 f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                 f"Sec-WebSocket-Version: 13\r\n\r\n".encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    sock.settimeout(2)
    return sock


def test_a_client_that_never_reads_is_dropped_and_the_server_stays_small(
        tmp_path: Path) -> None:
    room = stored_long_round(tmp_path, stalling=3000)
    with UnoServe(room.db) as server:
        async def warm() -> None:  # the replay is built once (and cached) before measuring
            client = await resumed(server.ws_url, room, 0)
            await client.request({"type": "replay", "game_no": 1, "round": 1}, "replay", 60)
            await client.close()

        run(warm())
        before = server.rss_mib()
        sockets = [non_reading_websocket(server.port) for _ in range(4)]
        for seat, sock in enumerate(sockets):
            sock.sendall(websocket_frame(json.dumps(
                {"type": "resume", "room": room.code, "token": room.tokens[seat]})))
        assert server.health()["connections"] == 4
        sent = 0
        deadline = time.monotonic() + 60
        pages = 0
        while time.monotonic() < deadline and server.health()["connections"] > 0:
            for sock in sockets:  # 10 requests a second each: under the message rate
                with contextlib.suppress(OSError):
                    sock.sendall(websocket_frame(json.dumps(
                        {"type": "replay", "game_no": 1, "round": 1, "page": pages % 20})))
                    sent += 1
            pages += 1
            time.sleep(0.1)
        connections = server.health()["connections"]
        grown = server.rss_mib() - before
        for sock in sockets:
            sock.close()
        assert connections == 0, f"{connections} non-reading clients still connected"
        # each page is about 64 KiB: each socket asked for more than its outbox may hold (a
        # fast drop means fewer asks: the loop stops when the server has dropped them all)
        assert sent * PAGE_CHARS > len(sockets) * OUTBOX_BYTES
        assert grown < 40, f"the server grew {grown:.0f} MiB"


# ---------------------------------------------------------------- the QR code


def http_get(url: str) -> tuple[int, bytes, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read(), response.headers.get("Cache-Control", "")
    except urllib.error.HTTPError as error:
        return error.code, error.read(), ""


def test_the_qr_code_refuses_oversized_data_and_serves_cached_codes(tmp_path: Path) -> None:
    link = "http://192.168.1.20:8000/r/HK7P3RXD"
    with ServerThread(tmp_path / "q.sqlite3") as server:
        emoji = urllib.parse.quote("😀" * 300)
        status, body, _ = http_get(f"{server.url}/api/qr.svg?data={emoji}")
        assert status == 400 and str(QR_MAX_BYTES).encode() in body
        qr = server.app.state.qr_codes
        status, first, caching = http_get(f"{server.url}/api/qr.svg?data={link}")
        assert status == 200 and first.startswith(b"<?xml") and "max-age" in caching
        for _ in range(20):
            assert http_get(f"{server.url}/api/qr.svg?data={link}")[1] == first
        assert qr.made == 1  # made once, served from the cache 20 times
        longest = "x" * QR_MAX_BYTES
        assert http_get(f"{server.url}/api/qr.svg?data={longest}")[0] == 200
        assert http_get(f"{server.url}/api/qr.svg?data={longest}x")[0] == 400
        assert qr.made == 2


# ---------------------------------------------------------------- the length of a match


def test_a_target_score_above_the_maximum_is_refused_in_both_languages(tmp_path: Path) -> None:
    async def scenario(server: ServerThread) -> None:
        client = await Client.connect(server.ws_url)
        refused = await client.request(
            {"type": "create", "name": "Ann", "settings": {
                "seats": 2, "rules": {"target_score": MAX_TARGET_SCORE + 1}}}, ("error", "joined"))
        assert refused["type"] == "error" and refused["code"] == "target_too_high", refused
        assert str(MAX_TARGET_SCORE) in refused["message"]
        assert not server.manager.rooms  # nothing stored
        await client.request({"type": "create", "name": "Ann", "settings": {
            "seats": 2, "rules": {"target_score": MAX_TARGET_SCORE}}}, "joined")
        await client.close()

    with ServerThread(tmp_path / "t.sqlite3") as server:
        run(scenario(server))
    english, thai = strings("en")["web.error.target_too_high"], \
        strings("th")["web.error.target_too_high"]
    assert str(MAX_TARGET_SCORE) in english and str(MAX_TARGET_SCORE) in thai
    assert english != thai


def test_the_round_length_cap_ends_the_round_and_its_match(tmp_path: Path) -> None:
    room = stored_long_round(tmp_path, stalling=ROUND_MOVE_CAP - 2, finish=False)
    assert len(room.entries) == ROUND_MOVE_CAP - 2

    async def play_to_the_cap(server: UnoServe) -> dict[str, Any]:
        clients = [await resumed(server.ws_url, room, seat) for seat in range(4)]
        for _ in range(2):
            game = clients[0].game()
            mover = clients[game["view"]["turn"]]
            legal = mover.game()["legal"]
            move = next((m for m in ("draw", "pass") if m in legal), legal[0])
            await mover.request({"type": "move", "move": move,
                                 "version": mover.game()["version"]}, "update")
            for client in clients:
                await client.wait_for(lambda m, v=game["version"]: m.get("type") == "update"
                                      and m["version"] > v, 30)
        over = clients[1].game()
        assert over["status"] == "match_over" and over["legal"] == []
        assert over["events"][-1] == {"type": "round_capped", "moves": ROUND_MOVE_CAP}
        assert over["results"][-1]["winner"] is None and over["results"][-1]["capped"]
        assert over["view"]["game_winner"] is None
        refused = await clients[0].request({"type": "move", "move": "draw",
                                            "version": over["version"]}, "error")
        assert refused["code"] == "illegal"
        for client in clients:
            await client.close()
        return over

    async def after_restart(server: UnoServe, over: dict[str, Any]) -> None:
        clients = [await resumed(server.ws_url, room, seat) for seat in range(4)]
        state = clients[0].last("state")
        assert state["status"] == "match_over" and state["version"] == over["version"]
        assert any(event["type"] == "round_capped" for event in state["log"])
        host = clients[clients[0].last("room")["host"]]  # the host role may have moved
        again = await host.request({"type": "rematch"}, "state", timeout=30)
        assert again["status"] == "playing" and again["round"] == 1
        for client in clients:
            await client.close()

    with UnoServe(room.db) as server:
        over = run(play_to_the_cap(server))
    with UnoServe(room.db) as server:
        run(after_restart(server, over))

