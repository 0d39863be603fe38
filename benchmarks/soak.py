"""Memory soak of the web server (issue 9, item 9). Not a test: it prints the RSS curve.

R rooms play for M minutes against one server process (SQLite on a fresh file), each
watched by S spectators. Three seats of each room are bots; its host plays the fourth with
the first legal move, deals each next round and asks for a rematch when a match is over (a
room with nobody there pauses, so someone must stay). The matches are long
(``--target-score``, 2000 by default: a match outlasts a 20-minute run, so the memory a
match keeps until it ends shows as growth). Every 30 seconds the server's resident memory
(VmRSS), open file descriptors and threads are printed with the rooms, connections and
moves so far; at the end the growth over the second half and over the last 10 minutes.
Goal (issue 21): RSS growth under 5 MiB over the last 10 minutes of a 20-minute run, file
descriptors and threads flat.

    nice -n 10 .venv/bin/python benchmarks/soak.py --rooms 200 --spectators 2 --minutes 20

``--trace``: the server runs in this process under tracemalloc instead, and the lines
whose allocations grew most between the first and last samples are printed (to find what
grows).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
import urllib.request
from collections.abc import AsyncIterator
from typing import Any

import websockets
from server_load import free_port, rss_kib  # this folder's load benchmark

try:  # updates merged for their seat (issue 22)
    from unogame.server.updates import GameReader
except ImportError:  # a tree from before issue 22 sends each update whole
    class GameReader:  # type: ignore[no-redef]
        def read(self, text: str | bytes) -> dict[str, Any]:
            return json.loads(text)  # type: ignore[no-any-return]

UNLIMITED = {"rooms_per_address": (10**6, 10**6), "lookups_per_address": (10**6, 10**6),
             "max_seats_per_connection": 10**6, "max_rooms": 10**5,
             "websockets_per_address": 10**6, "joined_seats_per_address": 10**6}
"""Every soak client comes from 127.0.0.1."""


def rss_mib(pid: int) -> float:
    return rss_kib(pid) / 1024


def fds_and_threads(pid: int) -> tuple[int, int]:
    """The process's open file descriptors and threads (from /proc)."""
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    threads = 0
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("Threads:"):
                threads = int(line.split()[1])
    return fds, threads


async def messages(ws: Any, stop: asyncio.Event) -> AsyncIterator[dict[str, Any]]:
    """A connection's messages until ``stop`` is set."""
    reader = GameReader()
    while not stop.is_set():
        try:
            text = await asyncio.wait_for(ws.recv(), 1.0)
        except TimeoutError:
            continue
        message: dict[str, Any] = reader.read(text)
        yield message


def make_app(db: str, think: float) -> Any:
    from unogame.server import Limits, Timing, create_app

    known = {key: value for key, value in UNLIMITED.items()  # older servers: fewer limits
             if key in Limits.__dataclass_fields__}
    return create_app(db, timing=Timing(think=think), limits=Limits(**known))  # type: ignore[arg-type]


def serve(port: int, db: str, think: float) -> None:
    """The server process (``--serve``): ``uno serve`` with the per-address limits lifted."""
    import uvicorn

    from unogame.server.cli import WS_MAX_SIZE
    try:
        from unogame.server.collector import start_collector
    except ImportError:  # a tree from before the collector's freezing
        from unogame.server.cli import tune_gc as start_collector  # type: ignore[attr-defined,no-redef]

    app = make_app(db, think)
    start_collector()
    uvicorn.run(app, host="127.0.0.1", port=port, ws_max_size=WS_MAX_SIZE, log_level="warning",
                ws_ping_interval=20, ws_ping_timeout=30)


class Soak:
    def __init__(self, url: str, rooms: int, spectators: int, target_score: int) -> None:
        self.url = url
        self.target_score = target_score
        self.rooms = rooms
        self.spectators = spectators
        self.moves = 0
        self.matches = 0
        self.errors: list[str] = []

    async def room(self, index: int, stop: asyncio.Event) -> None:
        await asyncio.sleep(index * 0.05)  # do not create them all in one burst
        async with websockets.connect(self.url, max_size=2**22) as host:
            rules = {"target_score": self.target_score}
            await host.send(json.dumps({"type": "create", "name": f"Host {index}",
                                        "bots": ["random", "easy", "medium"],
                                        "settings": {"seats": 4, "rules": rules}}))
            code = None
            while code is None:
                message = json.loads(await host.recv())
                if message["type"] == "joined":
                    code = message["room"]
            await host.send(json.dumps({"type": "start"}))
            watchers = [asyncio.create_task(self.watch(code, stop))
                        for _ in range(self.spectators)]
            await self.play(host, stop)
            await asyncio.gather(*watchers)

    async def play(self, host: Any, stop: asyncio.Event) -> None:
        """The host plays its own seat (the first legal move), deals the next round and
        asks for a rematch when a match is over; the three other seats are bots."""
        async for message in messages(host, stop):
            if message["type"] == "error":
                self.errors.append(message["code"])
            if message["type"] not in ("state", "update") or message["view"] is None:
                continue
            view, version = message["view"], message["version"]
            if message["status"] == "match_over":
                self.matches += 1
                await host.send(json.dumps({"type": "rematch"}))
            elif message["status"] == "round_over":
                await host.send(json.dumps({"type": "next_round", "version": version}))
            elif view["turn"] == 0 and message["legal"]:
                move = next((m for m in message["legal"] if not m.startswith("catch")),
                            message["legal"][0])
                await host.send(json.dumps({"type": "move", "move": move, "version": version}))

    async def watch(self, code: str, stop: asyncio.Event) -> None:
        """A spectator: reads everything, sends nothing."""
        async with websockets.connect(self.url, max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "watch", "room": code}))
            async for message in messages(ws, stop):
                if message["type"] == "update":
                    self.moves += 1


def health(base: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{base}/healthz", timeout=60) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


Sample = tuple[float, float, int, int]
"""minute, RSS MiB, file descriptors, threads (-1: not known)."""


async def drive(args: argparse.Namespace, base: str, memory: Any,
                resources: Any = None) -> list[Sample]:
    soak = Soak(base.replace("http", "ws") + "/ws", args.rooms, args.spectators,
                args.target_score)
    stop = asyncio.Event()
    tasks = [asyncio.create_task(soak.room(i, stop)) for i in range(args.rooms)]
    start = time.monotonic()
    curve: list[Sample] = []
    print(f"{'minute':>6} {'RSS MiB':>8} {'fds':>5} {'thr':>4} {'rooms':>6} {'conns':>6} "
          f"{'updates':>8} {'matches':>7}", flush=True)
    while (elapsed := time.monotonic() - start) < args.minutes * 60:
        await asyncio.sleep(min(args.every, args.minutes * 60 - elapsed))
        minute = (time.monotonic() - start) / 60
        mib = memory()
        fds, threads = resources() if resources is not None else (-1, -1)
        state = await asyncio.to_thread(health, base)
        curve.append((minute, mib, fds, threads))
        print(f"{minute:6.1f} {mib:8.1f} {fds:5d} {threads:4d} {state['rooms']:6d} "
              f"{state['connections']:6d} {soak.moves:8d} {soak.matches:7d}", flush=True)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    if soak.errors:
        counts = {code: soak.errors.count(code) for code in set(soak.errors)}
        print(f"client-side errors: {counts}")
    return curve


def report(curve: list[Sample]) -> None:
    if not curve:
        return
    end = curve[-1][0]
    for label, since in (("second half", end / 2), ("last 10 minutes", end - 10)):
        part = [sample for sample in curve if sample[0] >= since]
        if len(part) < 2 or (label == "last 10 minutes" and end < 15):
            continue
        first, last = part[0], part[-1]
        print(f"{label}: RSS {first[1]:.1f} -> {last[1]:.1f} MiB ({last[1] - first[1]:+.1f} "
              f"MiB, max {max(s[1] for s in part):.1f}); fds {first[2]} -> {last[2]} "
              f"(max {max(s[2] for s in part)}); threads {first[3]} -> {last[3]} "
              f"(max {max(s[3] for s in part)})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--spectators", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--every", type=float, default=30.0, help="seconds between samples")
    parser.add_argument("--think", type=float, default=0.3, help="bot think seconds")
    parser.add_argument("--target-score", type=int, default=2000,
                        help="each match's target score (long matches)")
    parser.add_argument("--trace", action="store_true", help="tracemalloc, in-process server")
    parser.add_argument("--serve", nargs=2, metavar=("PORT", "DB"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(int(args.serve[0]), args.serve[1], args.think)
        return 0
    db = os.path.join(tempfile.mkdtemp(prefix="uno-soak-"), "soak.sqlite3")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    print(f"soak: {args.rooms} bot rooms, {args.spectators} spectators each, "
          f"{args.minutes:g} min, bot think {args.think} s, target score "
          f"{args.target_score}, db {db}")
    if args.trace:
        return trace(args, port, db, base)
    server = subprocess.Popen([sys.executable, __file__, "--think", str(args.think),
                               "--serve", str(port), db])
    try:
        wait_up(base)
        curve = asyncio.run(drive(args, base, lambda: rss_mib(server.pid),
                                  lambda: fds_and_threads(server.pid)))
    finally:
        server.terminate()
        server.wait(20)
    report(curve)
    return 0


def wait_up(base: str) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            health(base)
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def trace(args: argparse.Namespace, port: int, db: str, base: str) -> int:
    import uvicorn

    tracemalloc.start(1)
    config = uvicorn.Config(make_app(db, args.think), host="127.0.0.1", port=port,
                            log_level="warning", ws_ping_interval=20, ws_ping_timeout=30)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_up(base)
    snapshots: list[tracemalloc.Snapshot] = []

    def memory() -> float:
        snapshots.append(tracemalloc.take_snapshot())
        return tracemalloc.get_traced_memory()[0] / 2**20

    curve = asyncio.run(drive(args, base, memory, lambda: fds_and_threads(os.getpid())))
    server.should_exit = True
    thread.join(20)
    report(curve)
    if len(snapshots) >= 3:
        print("grew most between the second and the last sample (traced Python memory):")
        ignore = [tracemalloc.Filter(False, pattern)
                  for pattern in (tracemalloc.__file__, "<frozen importlib._bootstrap*>")]
        last, first = (snapshot.filter_traces(ignore) for snapshot in (snapshots[-1], snapshots[1]))
        for stat in last.compare_to(first, "lineno")[:15]:
            frame = stat.traceback[0]
            print(f"  {stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks  "
                  f"{frame.filename}:{frame.lineno}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
