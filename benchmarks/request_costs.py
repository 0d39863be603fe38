"""What one client's requests cost the server (issue 21, item 2). Not a test: it prints figures.

Against one ``uno serve`` process on loopback (a fresh SQLite file), the three attacks of
the issue, each against a control measured in the same run:

- ``flood``: a room of four people whose first round is a long one (every seat draws and
  passes ``--stalling`` times, then plays out), then ``--flooders`` connections seated in it
  each ask for its replay every 2 s (reading the answers); a victim in another room pings
  every 100 ms. Printed: the victim's ping before and during the flood (p50, p99, max) and
  the largest reply a flooder got.
- ``nonreaders``: 4 WebSockets that never read ask for replay pages (or whole replays) 10
  times a second for ``--seconds``. Printed: the server's RSS before and after, and the
  connections still open at the end.
- ``qr``: the server's CPU time per ``/api/qr.svg`` request: 300 emoji, one invitation link
  asked again and again, and a new 200-byte link each time.

Run it with the code to measure first on ``PYTHONPATH`` (main's ``src`` for the figure
before, this tree's after):

    PYTHONPATH=src .venv/bin/python benchmarks/request_costs.py --stalling 7000 --flooders 16
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import websockets
from server_load import cpu_seconds, free_port, rss_kib  # this folder's load benchmark

from unogame.engine import Game, Move, Rules
from unogame.server.storage import SqliteStorage


class UnoServe:
    def __init__(self, db: Path) -> None:
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "unogame", "serve", "--port", str(self.port), "--db", str(db),
             "--bot-think", "0.3", "--per-address", "100000"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while True:
            try:
                self.health()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def health(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.base + "/healthz", timeout=60) as response:
            data: dict[str, Any] = json.loads(response.read())
            return data

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(20)


async def until(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(await ws.recv())
        if message["type"] == kind:
            return message


async def seated_room(url: str) -> tuple[str, list[str]]:
    """A room of four people, started; its code and the four seat tokens."""
    tokens: list[str] = []
    sockets = []
    host = await websockets.connect(url, max_size=2**24, ping_interval=None)
    sockets.append(host)
    await host.send(json.dumps({"type": "create", "name": "Ann",
                                "settings": {"seats": 4, "rules": {}}}))
    joined = await until(host, "joined")
    code = joined["room"]
    tokens.append(joined["token"])
    for name in ("Ben", "Cid", "Dee"):
        ws = await websockets.connect(url, max_size=2**24, ping_interval=None)
        sockets.append(ws)
        await ws.send(json.dumps({"type": "join", "room": code, "name": name}))
        tokens.append((await until(ws, "joined"))["token"])
    await host.send(json.dumps({"type": "start"}))
    await until(host, "state")
    for ws in sockets:
        await ws.close()
    return code, tokens


def long_round(rules: Rules, seed: int, stalling: int) -> list[tuple[int, str]]:
    """Every seat draws and passes ``stalling`` times, then plays whenever it can."""
    game = Game.new(4, rules, seed)
    entries: list[tuple[int, str]] = []
    while game.winner is None:
        seat = game.turn
        legal = [move.text for move in game.legal_moves(seat)]
        if len(entries) < stalling:
            quiet = [m for m in legal if not m.startswith(("play", "catch", "uno"))]
            move = next((m for m in ("draw", "pass") if m in legal), (quiet or legal)[0])
        else:
            plays = [m for m in legal if m.startswith("play")]
            unos = [m for m in plays if m.endswith(" uno")]
            others = [m for m in legal if not m.startswith("catch")]
            move = (unos or plays or others or legal)[0]
        game.push(seat, Move.parse(move))
        entries.append((seat, move))
    return entries


def stored_long_round(db: Path, stalling: int) -> tuple[str, list[str], int]:
    server = UnoServe(db)
    try:
        code, tokens = asyncio.run(seated_room(server.ws))
    finally:
        server.stop()
    storage = SqliteStorage(db)
    data = storage.load_rooms()[code]
    entries = long_round(Rules.from_dict(data["rules"]), data["game_seed"], stalling)
    for index, (seat, move) in enumerate(entries):
        storage.append_move(code, data["game_no"], index, seat, move)
    storage.close()
    return code, tokens, len(entries)


async def resume(url: str, code: str, token: str) -> Any:
    ws = await websockets.connect(url, max_size=2**24, ping_interval=None)
    await ws.send(json.dumps({"type": "resume", "room": code, "token": token}))
    await until(ws, "state")
    return ws


async def pings(ws: Any, seconds: float) -> list[float]:
    """Ping round trips for ``seconds``; the connection closed by the server (its keepalive
    gave up) ends them, counted as one ping of ``inf``."""
    times: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.monotonic()
        try:
            await ws.send(json.dumps({"type": "ping"}))
            await until(ws, "pong")
        except websockets.ConnectionClosed:
            times.append(float("inf"))
            break
        times.append(time.monotonic() - start)
        await asyncio.sleep(0.1)
    return times


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (f"p50 {statistics.median(ordered) * 1000:7.1f} ms  p99 {p99 * 1000:7.1f} ms  "
            f"max {ordered[-1] * 1000:7.1f} ms  ({len(ordered)} pings)")


async def flood(server: UnoServe, code: str, tokens: list[str], flooders: int,
                seconds: float) -> None:
    victim = await websockets.connect(server.ws, max_size=2**24, ping_interval=None)
    await victim.send(json.dumps({"type": "create", "name": "Vic", "bots": ["easy"],
                                  "settings": {"seats": 2, "rules": {}}}))
    await until(victim, "state")
    print(f"  victim ping, no flood:  {summary(await pings(victim, min(10.0, seconds)))}")
    clients = [await resume(server.ws, code, tokens[i % 4]) for i in range(flooders)]
    stop = asyncio.Event()
    largest = [0]
    answers = [0]

    async def read(ws: Any) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for text in ws:
                if '"type":"replay"' in text[:40]:
                    answers[0] += 1
                    largest[0] = max(largest[0], len(text.encode()))

    async def ask(ws: Any) -> None:
        while not stop.is_set():
            with contextlib.suppress(websockets.ConnectionClosed):
                await ws.send(json.dumps({"type": "replay", "game_no": 1, "round": 1}))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 2.0)

    readers = [asyncio.create_task(read(ws)) for ws in clients]
    askers = [asyncio.create_task(ask(ws)) for ws in clients]
    await asyncio.sleep(1.0)
    print(f"  victim ping, {flooders} flooders: {summary(await pings(victim, seconds))}")
    stop.set()
    await asyncio.gather(*askers, return_exceptions=True)
    for ws in [*clients, victim]:
        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.close()
    for task in readers:
        task.cancel()
    print(f"  replies to the flooders: {answers[0]}, the largest {largest[0] / 2**20:.2f} MB")


def frame(text: str) -> bytes:
    payload = text.encode()
    mask = os.urandom(4)
    head = bytes([0x81, 0x80 | len(payload)]) if len(payload) < 126 else \
        bytes([0x81, 0x80 | 126]) + struct.pack("!H", len(payload))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def non_reader(port: int) -> socket.socket:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(f"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade"
                 f"\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(1)
    sock.settimeout(2)
    return sock


def nonreaders(server: UnoServe, code: str, tokens: list[str], seconds: float) -> None:
    before = rss_kib(server.process.pid) / 1024
    sockets = [non_reader(server.port) for _ in range(4)]
    for seat, sock in enumerate(sockets):
        sock.sendall(frame(json.dumps({"type": "resume", "room": code, "token": tokens[seat]})))
    end = time.monotonic() + seconds
    tick = 0
    peak = before
    while time.monotonic() < end:
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.sendall(frame(json.dumps({"type": "replay", "game_no": 1, "round": 1,
                                               "page": tick % 20})))
        tick += 1
        peak = max(peak, rss_kib(server.process.pid) / 1024)
        time.sleep(0.1)
    after = rss_kib(server.process.pid) / 1024
    print(f"  RSS {before:.0f} -> {after:.0f} MiB (peak {peak:.0f}) over {seconds:g} s; "
          f"non-reading connections still open: {server.health()['connections']} of 4")
    for sock in sockets:
        sock.close()


def get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def qr(server: UnoServe, requests: int) -> None:
    pid = server.process.pid
    cases = {
        "300 emoji": lambda i: "😀" * 300,
        "one invitation link, again": lambda i: f"http://192.168.1.20:{server.port}/r/HK7P3RXD",
        "a new 200-byte link each time": lambda i: f"http://192.168.1.20/r/{i:06d}" + "x" * 172,
    }
    for name, data in cases.items():
        start = cpu_seconds(pid)
        statuses = [get(f"{server.base}/api/qr.svg?data={urllib.parse.quote(data(i))}")
                    for i in range(requests)]
        per = (cpu_seconds(pid) - start) / requests * 1000
        print(f"  {name:32s} {per:6.2f} ms server CPU a request "
              f"(status {sorted(set(statuses))}, {requests} requests)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stalling", type=int, default=7000, help="draw-and-pass moves")
    parser.add_argument("--flooders", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--qr-requests", type=int, default=40)
    parser.add_argument("--only", choices=("flood", "nonreaders", "qr"))
    args = parser.parse_args()
    db = Path(tempfile.mkdtemp(prefix="uno-costs-")) / "costs.sqlite3"
    code, tokens, moves = stored_long_round(db, args.stalling)
    server = UnoServe(db)
    print(f"request costs: a stored round of {moves} moves, server pid {server.process.pid}")
    try:
        if args.only in (None, "flood"):
            print("replay flood:")
            asyncio.run(flood(server, code, tokens, args.flooders, args.seconds))
        if args.only in (None, "nonreaders"):
            print("clients that never read:")
            nonreaders(server, code, tokens, args.seconds)
        if args.only in (None, "qr"):
            print("QR code:")
            qr(server, args.qr_requests)
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
