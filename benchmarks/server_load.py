"""Load benchmark of the web server (issue 4, section 6). Not a test: it prints figures.

K rooms of 4 WebSocket clients each play over loopback against one ``uno serve`` process
(SQLite persistence on, a fresh database file). Every client is driven by a bot (the
``random`` level by default) that answers each new position after a think time. Prints
moves per second, the 50th and 99th percentile time from a move's send to its broadcast
reaching all four seats, and the server's memory per connection.

    .venv/bin/python benchmarks/server_load.py --rooms 500 --seconds 60

Goal: 500 rooms (2,000 connections) on one server process with p99 <= 50 ms.

Several processes sharing rooms through Redis (issue 13): ``--redis URL --processes N``
starts N ``uno serve --redis URL`` processes; each room's four clients connect to one of
them (room i to process i mod N; ``--spread``: its clients round robin over all of them, as
behind a round-robin proxy, so every process holds every room). Also printed: CPU per move
(the servers' and Redis's), Redis commands per move (INFO commandstats). The load generator
(this process) lowers its own priority (``--client-nice``) after starting the servers.

    .venv/bin/python benchmarks/server_load.py --redis redis://127.0.0.1:6390/0 \
        --processes 2 --rooms 1000

``--server-cpus 0 --client-cpus 1`` pins the servers and this load generator to those cores
(``os.sched_setaffinity``; it says so when a core asked for is not available and runs
unpinned). Bytes per move per seat: the WebSocket payloads every client receives while
measured, and the TCP payload its socket receives (the frames, compressed when
permessage-deflate is on), over moves x 4 seats.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

from unogame.bots import make_bot
from unogame.engine import Move

try:  # updates merged for their seat (issue 22)
    from unogame.server.updates import GameReader
except ImportError:  # a tree from before issue 22 sends each update whole
    class GameReader:  # type: ignore[no-redef]
        def read(self, text: str | bytes) -> dict[str, Any]:
            return json.loads(text)  # type: ignore[no-any-return]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_split(pid: int) -> tuple[float, float]:
    """A process's CPU seconds so far: (user, kernel)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def cpu_seconds(pid: int) -> float:
    return sum(cpu_split(pid))


@dataclass
class Stats:
    sent: dict[tuple[str, int], list[tuple[int, float]]] = field(default_factory=dict)
    arrivals: dict[tuple[str, int], list[float]] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    beats: int = 0  # the pages' heartbeat pings sent while measured (--beat)
    payload_bytes: int = 0  # WebSocket payloads received by all clients while measured
    errors: dict[str, int] = field(default_factory=dict)
    measuring: bool = False


class Player:
    def __init__(self, url: str, stats: Stats, level: str, think: float, seed: int) -> None:
        self.url = url
        self.stats = stats
        self.bot = make_bot(level, seed)
        self.think = think
        self.rng = random.Random(seed)
        self.ws: Any = None
        self.seat: int | None = None
        self.room = ""
        self.latest: dict[str, Any] | None = None
        self.wake = asyncio.Event()
        self.stop = False
        self.joined = asyncio.Event()
        self.started = asyncio.Event()
        self.refused = asyncio.Event()
        self.round_seen = -1
        self.game_reader = GameReader()

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def beat(self, every: float) -> None:
        """Ping as the page does (``connection.js``): every ``every`` s, the page's text."""
        await asyncio.sleep(every * self.rng.random())
        while not self.stop:
            if self.stats.measuring:
                self.stats.beats += 1
            await self.ws.send('{"type":"ping","beat":true}')
            await asyncio.sleep(every)

    async def reader(self) -> None:
        stats = self.stats
        async for text in self.ws:
            now = time.perf_counter()
            if stats.measuring:
                stats.payload_bytes += len(text) if isinstance(text, bytes) else \
                    len(text.encode())
            message = self.game_reader.read(text)
            kind = message["type"]
            if kind in ("update", "state"):
                if message.get("view") is not None:
                    self.started.set()
                self.latest = message
                self.wake.set()
                if kind == "update" and stats.measuring:
                    key = (self.room, message["version"] - 1)
                    if key in stats.sent:
                        arrivals = stats.arrivals.setdefault(key, [])
                        arrivals.append(now)
                        if len(arrivals) == 4:
                            first = message["events"][0] if message["events"] else {}
                            for seat, sent_at in stats.sent.pop(key):
                                if first.get("seat") == seat:
                                    stats.latencies.append(max(arrivals) - sent_at)
                                    break
                            del stats.arrivals[key]
            elif kind == "joined":
                self.seat = message["seat"]
                self.room = message["room"]
                self.joined.set()
            elif kind == "error":
                stats.errors[message["code"]] = stats.errors.get(message["code"], 0) + 1
                self.refused.set()

    async def play(self) -> None:
        """Answer each new position after a think time, as a person's phone would."""
        acted = -1
        while not self.stop:
            await self.wake.wait()
            self.wake.clear()
            message = self.latest
            if message is None or message.get("view") is None:
                continue
            version = message["version"]
            if version == acted:
                continue
            await asyncio.sleep(self.think * (0.5 + self.rng.random()))
            if self.latest is not message:  # the position moved on while thinking
                self.wake.set()
                continue
            acted = version
            status = message["status"]
            if status == "round_over":  # every person presses "next round" (the table waits)
                await self.send({"type": "next_round", "version": version})
                continue
            if status == "match_over":
                if self.seat == 0:
                    await self.send({"type": "rematch"})
                continue
            view = message["view"]
            if view["winner"] is None and self.round_seen != len(message["results"]):
                self.round_seen = len(message["results"])
                assert self.seat is not None
                self.bot.new_round(self.seat, view)
            legal = [Move.parse(text) for text in message["legal"]]
            if not legal:
                continue
            move = self.bot.choose(view, legal)
            if move is None:
                continue
            if self.stats.measuring:
                self.stats.sent.setdefault((self.room, version), []).append(
                    (self.seat if self.seat is not None else -1, time.perf_counter()))
                self.stats.moves += 1
            await self.send({"type": "move", "move": move.text, "version": version})


async def start_room(urls: list[str], stats: Stats, level: str, think: float,
                     seed: int) -> list[Player]:
    """A room of four clients; ``urls``: the server address of each client."""
    players = [Player(urls[i % len(urls)], stats, level, think, seed * 10 + i)
               for i in range(4)]
    for player in players:
        player.ws = await websockets.connect(player.url, max_size=2**22, ping_interval=None)
        asyncio.get_running_loop().create_task(player.reader())
    host = players[0]
    await until_joined(host, {"type": "create", "name": "host", "settings": {"seats": 4}})
    for player in players[1:]:
        await until_joined(player, {"type": "join", "room": host.room, "name": "p"})
    await until(host, {"type": "start"}, host.started)
    return players


async def until_joined(player: Player, message: dict[str, Any]) -> None:
    """Send ``message`` until the server seats the player (a loaded server may refuse it as
    not saved: its storage thread busy for more than 2 s)."""
    await until(player, message, player.joined)


async def until(player: Player, message: dict[str, Any], done: asyncio.Event) -> None:
    while not done.is_set():
        player.refused.clear()
        await player.send(message)
        waits = [asyncio.ensure_future(done.wait()), asyncio.ensure_future(player.refused.wait())]
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        for wait in waits:
            wait.cancel()
        if not done.is_set():
            await asyncio.sleep(0.5)


async def loop_lag(samples: list[float], stop: asyncio.Event) -> None:
    """How late this (client) process's event loop wakes up: its own share of latency."""
    while not stop.is_set():
        before = time.perf_counter()
        await asyncio.sleep(0.01)
        samples.append(time.perf_counter() - before - 0.01)


def tcp_bytes_received(players: list[Player]) -> int:
    """The TCP payload bytes the clients' sockets have received (the WebSocket frames as
    sent, compressed or not): Linux's TCP_INFO tcpi_bytes_received, 0 where unknown."""
    total = 0
    for player in players:
        sock = player.ws.transport.get_extra_info("socket") if player.ws else None
        if sock is None or not hasattr(socket, "TCP_INFO"):
            continue
        info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 256)
        if len(info) >= 136:
            total += int.from_bytes(info[128:136], sys.byteorder)
    return total


def parse_cpus(text: str | None) -> set[int] | None:
    return None if text is None else {int(part) for part in text.split(",") if part.strip()}


def pinnable(cpus: set[int] | None, who: str) -> set[int] | None:
    """``cpus`` when this machine lets us pin ``who`` to them, else None (and says why)."""
    if cpus is None:
        return None
    if not hasattr(os, "sched_setaffinity"):
        print(f"pinning not possible here (no sched_setaffinity): {who} not pinned")
        return None
    available = os.sched_getaffinity(0)
    if not cpus <= available:
        print(f"pinning not possible: {who} asked for cores {sorted(cpus)}, this process may "
              f"use {sorted(available)} ({os.cpu_count()} cores): {who} not pinned")
        return None
    return cpus


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def redis_info(url: str) -> dict[str, Any]:
    import redis

    with redis.Redis.from_url(url) as db:
        return {"stats": db.info("stats"), "commands": db.info("commandstats"),
                "server": db.info("server"), "memory": db.info("memory")}


def redis_calls(before: dict[str, Any], after: dict[str, Any]) -> dict[str, int]:
    calls = {name.removeprefix("cmdstat_"): int(value["calls"])
             - int(before["commands"].get(name, {}).get("calls", 0))
             for name, value in after["commands"].items()}
    return {name: count for name, count in sorted(calls.items(), key=lambda kv: -kv[1])
            if count > 0}


async def run(args: argparse.Namespace) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="uno-load-"))
    server_cpus = pinnable(parse_cpus(args.server_cpus), "the servers")
    client_cpus = pinnable(parse_cpus(args.client_cpus), "the load generator")

    def pin_server() -> None:  # in the child before exec: every thread it starts inherits
        if server_cpus is not None:
            os.sched_setaffinity(0, server_cpus)
    servers: list[subprocess.Popen[bytes]] = []
    ports = [free_port() for _ in range(args.processes)]
    for port in ports:
        backend = ["--redis", args.redis, "--lease", "5",
                   *(["--allow-volatile"] if args.allow_volatile else [])] if args.redis else \
            ["--db", str(workdir / "load.sqlite3")]
        servers.append(subprocess.Popen(
            [sys.executable, "-m", "unogame", "serve", "--port", str(port), *backend,
             "--max-rooms", str(args.rooms + 1_000_000), "--per-address", "1000000",
             "--connections-per-address", "1000000",
             *(["--ws-compression", args.ws_compression] if args.ws_compression else []),
             "--log-level", "error"],
            stdout=subprocess.DEVNULL, preexec_fn=pin_server))
    if client_cpus is not None:
        os.sched_setaffinity(0, client_cpus)
    print(f"servers on cores {sorted(server_cpus) if server_cpus else 'any (not pinned)'}, "
          f"load generator on {sorted(client_cpus) if client_cpus else 'any (not pinned)'}")
    try:
        for port in ports:
            for _ in range(600):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz",
                                           timeout=1).close()
                    break
                except OSError:
                    await asyncio.sleep(0.05)
        if args.client_nice:
            os.nice(args.client_nice)  # the servers keep their priority
        base_rss = sum(rss_kib(server.pid) for server in servers)
        urls = [f"ws://127.0.0.1:{port}/ws" for port in ports]
        stats = Stats()
        players: list[Player] = []
        started = time.perf_counter()
        batch = 25

        def room_urls(index: int) -> list[str]:
            if args.spread:
                return [urls[(index * 4 + seat) % len(urls)] for seat in range(4)]
            return [urls[index % len(urls)]]

        for first in range(0, args.rooms, batch):
            rooms = await asyncio.gather(*[
                start_room(room_urls(seed), stats, args.level, args.think, seed)
                for seed in range(first, min(args.rooms, first + batch))])
            for room in rooms:
                players.extend(room)
        gc.collect()
        gc.freeze()  # this client process is measured too: keep its pauses short as well
        gc.set_threshold(50_000, 50, 1000)
        print(f"{args.rooms} rooms, {len(players)} connections set up in "
              f"{time.perf_counter() - started:.1f} s")
        tasks = [asyncio.get_running_loop().create_task(player.play()) for player in players]
        if args.beat > 0:
            tasks += [asyncio.get_running_loop().create_task(player.beat(args.beat))
                      for player in players]
        await asyncio.sleep(args.warmup)
        stats.measuring = True
        lags: list[float] = []
        lag_stop = asyncio.Event()
        lag_task = asyncio.get_running_loop().create_task(loop_lag(lags, lag_stop))
        info0 = redis_info(args.redis) if args.redis else None
        redis_pid = int(info0["server"]["process_id"]) if info0 else None
        redis_cpu0 = cpu_seconds(redis_pid) if redis_pid else 0.0
        sys0 = sum(cpu_split(server.pid)[1] for server in servers)
        cpu0, t0 = sum(cpu_seconds(server.pid) for server in servers), time.perf_counter()
        client_cpu0 = time.process_time()
        read0 = tcp_bytes_received(players)
        await asyncio.sleep(args.seconds)
        stats.measuring = False
        lag_stop.set()
        await lag_task
        client_cpu = time.process_time() - client_cpu0
        wire_bytes = tcp_bytes_received(players) - read0
        cpu1, t1 = sum(cpu_seconds(server.pid) for server in servers), time.perf_counter()
        kernel = sum(cpu_split(server.pid)[1] for server in servers) - sys0
        redis_cpu = (cpu_seconds(redis_pid) - redis_cpu0) if redis_pid else 0.0
        info1 = redis_info(args.redis) if args.redis else None
        rss = sum(rss_kib(server.pid) for server in servers)
        for player in players:
            player.stop = True
            player.wake.set()
        for task in tasks:
            task.cancel()
        elapsed = t1 - t0
        lat = stats.latencies
        print(f"measured {elapsed:.1f} s, bots '{args.level}', think {args.think} s "
              f"(x0.5-1.5 per move)"
              + (f"; each client beats every {args.beat} s as a page does "
                 f"({stats.beats / elapsed:.0f} beats/s)" if args.beat > 0 else ""))
        print(f"moves sent {stats.moves}, {stats.moves / elapsed:.0f} moves/s; "
              f"broadcasts timed {len(lat)}")
        if lat:
            print(f"send -> broadcast at all 4 seats: p50 {percentile(lat, 0.5) * 1000:.1f} ms, "
                  f"p99 {percentile(lat, 0.99) * 1000:.1f} ms, "
                  f"max {max(lat) * 1000:.1f} ms, mean {statistics.mean(lat) * 1000:.1f} ms")
        backend = f"Redis, {args.processes} process(es)" + (", rooms spread" if args.spread
                                                              else "") \
            if args.redis else "SQLite, 1 process"
        print(f"backend: {backend}")
        moves = max(1, stats.moves)
        print(f"CPU per move: servers {1000 * (cpu1 - cpu0) / moves:.2f} ms "
              f"({1000 * (cpu1 - cpu0 - kernel) / moves:.2f} user, "
              f"{1000 * kernel / moves:.2f} kernel: system calls, loopback TCP)"
              + (f", redis-server {1000 * redis_cpu / moves:.2f} ms" if args.redis else ""))
        print(f"bytes per move per seat: {stats.payload_bytes / moves / 4:.0f} payload "
              f"(WebSocket messages as received), {wire_bytes / moves / 4:.0f} on the wire "
              f"(TCP payload the clients received, all frames)")
        if info0 is not None and info1 is not None:
            calls = redis_calls(info0, info1)
            total = sum(calls.values())
            top = ", ".join(f"{name} {count / moves:.1f}" for name, count in
                            list(calls.items())[:6])
            print(f"Redis commands per move: {total / moves:.1f} ({top}); redis-server CPU "
                  f"{100 * redis_cpu / elapsed:.0f}% of one core, used memory "
                  f"{info1['memory']['used_memory'] / 2**20:.1f} MiB")
            # a read event per batch a client sent: about one per round trip, every client's
            reads = int(info1["stats"]["total_reads_processed"]) \
                - int(info0["stats"]["total_reads_processed"])
            print(f"Redis reads per move: {reads / moves:.2f} (its read events: about one per "
                  f"round trip of any client)")
        print(f"server CPU {100 * (cpu1 - cpu0) / elapsed:.0f}% of one core (all processes); "
              f"RSS {base_rss / 1024:.1f} MiB idle -> {rss / 1024:.1f} MiB; "
              f"{(rss - base_rss) / len(players):.1f} KiB per connection (rooms and games "
              f"included)")
        print(f"client process: CPU {100 * client_cpu / elapsed:.0f}% of one core, event-loop "
              f"lag p50 {percentile(lags, 0.5) * 1000:.1f} ms, p99 "
              f"{percentile(lags, 0.99) * 1000:.1f} ms (part of the latencies above); "
              f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        refused = {code: count for code, count in stats.errors.items()}
        print(f"refusals: {refused or 'none'} (stale: another seat moved first)")
        database = workdir / "load.sqlite3"
        if database.exists():
            print(f"SQLite log: {database.stat().st_size / 1024:.0f} KiB (+ WAL "
                  f"{(workdir / 'load.sqlite3-wal').stat().st_size / 1024:.0f} KiB)")
        goal = bool(lat) and percentile(lat, 0.99) <= 0.050
        print(f"goal p99 <= 50 ms at {args.rooms} rooms: {'met' if goal else 'NOT met'}")
        for player in players:
            await player.ws.close()
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--beat", type=float, default=0.0, metavar="SECONDS",
                        help="each client also pings as the page does every SECONDS "
                             "(the page: 2); CPU per move then includes the beats")
    parser.add_argument("--think", type=float, default=1.0,
                        help="seconds a client bot waits before answering a position")
    parser.add_argument("--level", default="random", help="client bot level")
    parser.add_argument("--redis", metavar="URL",
                        help="rooms in this Redis, shared by --processes servers")
    parser.add_argument("--allow-volatile", action="store_true",
                        help="with --redis: a Redis without its append-only file is fine "
                             "for a measurement (uno serve refuses it otherwise)")
    parser.add_argument("--processes", type=int, default=1,
                        help="server processes (more than 1 needs --redis)")
    parser.add_argument("--spread", action="store_true",
                        help="each room's clients round robin over the processes")
    parser.add_argument("--client-nice", type=int, default=9,
                        help="the load generator's own niceness increment (0: none)")
    parser.add_argument("--server-cpus", metavar="LIST",
                        help="pin the server processes to these cores (e.g. 0 or 0,1)")
    parser.add_argument("--client-cpus", metavar="LIST",
                        help="pin this load generator to these cores (e.g. 1)")
    parser.add_argument("--ws-compression", choices=("on", "off"),
                        help="uno serve --ws-compression (default: the server's own)")
    args = parser.parse_args()
    if args.processes > 1 and not args.redis:
        parser.error("--processes above 1 needs --redis")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
