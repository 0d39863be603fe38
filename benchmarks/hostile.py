"""Hostile clients against a real ``uno serve`` (issue 21, items 1 and 4). Not a test: it
prints figures. Each subcommand starts its own server (a fresh SQLite file, loopback only),
is bounded in time, and stops the server. ``--src DIR`` runs the server from another source
tree (e.g. ``/work/main/src`` for the code before the change) with the same client.

    python benchmarks/hostile.py silent --sockets 1100 --nofile 1024 --hold 30
        N sockets that send nothing (``--half``: half a request line), from ``--addresses``
        loopback addresses; meanwhile a new client tries every second (the page, then a
        WebSocket that answers a ping) and a running game (a person and three bots) counts
        its updates.
        Prints the time until a new client got in, updates per 10 s, how many silent
        sockets the server closed and when, and the bytes the server logged.
    python benchmarks/hostile.py idle-ws --sockets 900
        N WebSockets from one address that say nothing: how many were accepted, and the
        server's memory before and after.
    python benchmarks/hostile.py resume --seconds 60 --tries 12
        A neighbour behind the same address spends the room-lookup allowance, while a
        player resumes their seat every few seconds: resumes refused.
    python benchmarks/hostile.py lobby
        9 sockets from one address join a 10-seat lobby; the host removes one, which tries
        to join again: seats taken, rejoin refused or not.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import websockets

try:  # updates merged for their seat (issue 22)
    from unogame.server.updates import GameReader
except ImportError:  # a tree from before issue 22 sends each update whole
    class GameReader:  # type: ignore[no-redef]
        def read(self, text: str | bytes) -> dict[str, Any]:
            return json.loads(text)  # type: ignore[no-any-return]

HERE = Path(__file__).resolve().parent
DEFAULT_SRC = HERE.parent / "src"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


@contextlib.contextmanager
def server(src: Path, nofile: int | None, extra: list[str]) -> Iterator[tuple[int, int, Path]]:
    """``uno serve`` from ``src``: yields its port, pid and log file."""
    port = free_port()
    workdir = Path(tempfile.mkdtemp(prefix="hostile-"))
    log = workdir / "server.log"

    def limit() -> None:
        if nofile:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    env = {**os.environ, "PYTHONPATH": str(src)}
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "unogame", "serve", "--port", str(port), "--db",
             str(workdir / "games.sqlite3"), *extra],
            stdout=out, stderr=subprocess.STDOUT, env=env, preexec_fn=limit)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(log.read_text()) from None
                time.sleep(0.1)
        yield port, process.pid, log
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


async def ws_connect(port: int, source: str = "127.0.0.1", timeout: float = 3.0) -> Any:
    return await asyncio.wait_for(websockets.connect(
        f"ws://127.0.0.1:{port}/ws", local_addr=(source, 0), max_size=2**22,
        open_timeout=timeout), timeout)


async def receive_until(ws: Any, kind: str, timeout: float) -> dict[str, Any]:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        remaining = deadline - asyncio.get_running_loop().time()
        message = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, remaining)))
        if message.get("type") == kind or message.get("type") == "error":
            return message  # type: ignore[no-any-return]


def page_loads(port: int, timeout: float) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=timeout) as page:
            return page.status == 200
    except OSError:
        return False


async def new_client_gets_in(port: int, timeout: float = 3.0) -> bool:
    """A new person: the page, then a WebSocket answering a ping, within ``timeout`` each."""
    try:
        if not await asyncio.to_thread(page_loads, port, timeout):
            return False
        ws = await ws_connect(port, timeout=timeout)
        try:
            await ws.send(json.dumps({"type": "ping"}))
            message = await receive_until(ws, "pong", timeout)
            return message.get("type") == "pong"
        finally:
            await ws.close()
    except (OSError, TimeoutError, websockets.WebSocketException) as error:
        if os.environ.get("HOSTILE_DEBUG"):
            print("new client:", repr(error))
        return False


async def running_game(port: int, updates: list[float], stop: asyncio.Event) -> None:
    """A person with three bots; the person says UNO, else plays, else draws, else the first
    legal move (a challenge, a pass) on its turn. Twenty cards each: few round ends (and
    their countdowns) in a window."""
    ws = await ws_connect(port)
    await ws.send(json.dumps({"type": "create", "name": "Ann", "bots": ["random"] * 3,
                              "settings": {"seats": 4, "rules": {"hand_size": 20}}}))
    await receive_until(ws, "state", 10)
    await ws.send(json.dumps({"type": "start"}))
    seat = 0
    reader = GameReader()
    with contextlib.suppress(websockets.WebSocketException, TimeoutError, OSError):
        while not stop.is_set():
            try:
                message = reader.read(await asyncio.wait_for(ws.recv(), 1.0))
            except TimeoutError:
                continue
            if message.get("type") not in ("state", "update") or message.get("view") is None:
                continue
            updates.append(time.monotonic())
            legal = message.get("legal") or []
            if message["status"] == "round_over":
                await ws.send(json.dumps({"type": "next_round",
                                          "version": message["version"]}))
                continue
            mine = message["view"]["turn"] == seat
            preferred = sorted((m for m in legal if not m.startswith("catch")),
                               key=lambda m: (not m.startswith("play"), m != "draw"))
            choice = "uno" if "uno" in legal else preferred[0] if mine and preferred else None
            if choice is not None:
                await ws.send(json.dumps({"type": "move", "move": choice,
                                          "version": message["version"]}))
    await ws.close()


def open_silent(port: int, count: int, addresses: int, half: bool) -> list[socket.socket]:
    sockets = []
    for index in range(count):
        sock = socket.socket()
        sock.bind((f"127.0.{10 + index % addresses // 250}.{2 + index % addresses % 250}", 0))
        sock.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            sock.connect(("127.0.0.1", port))
        sockets.append(sock)
    if half:
        time.sleep(0.5)
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.send(b"GET / HT")
    return sockets


def closed_by_server(sock: socket.socket) -> bool:
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


async def silent(args: argparse.Namespace) -> None:
    extra = ["--request-timeout", str(args.request_timeout)] if args.request_timeout else []
    with server(args.src, args.nofile, extra) as (port, pid, log):
        stop = asyncio.Event()
        updates: list[float] = []
        game = asyncio.create_task(running_game(port, updates, stop))
        await asyncio.sleep(10)
        before = sum(1 for at in updates if at >= time.monotonic() - 10)
        log_before = log.stat().st_size
        started = time.monotonic()
        sockets = open_silent(port, args.sockets, args.addresses, args.half)
        opened = time.monotonic() - started
        first_in: float | None = None
        tries = fails = 0
        took: list[float] = []
        closed_at: dict[int, float] = {}
        while time.monotonic() - started < args.hold:
            tries += 1
            began = time.monotonic()
            if await new_client_gets_in(port):
                took.append(time.monotonic() - began)
                if first_in is None:
                    first_in = time.monotonic() - started
            else:
                fails += 1
            for index, sock in enumerate(sockets):
                if index not in closed_at and closed_by_server(sock):
                    closed_at[index] = time.monotonic() - started
            await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - started) % 1.0))
        during = [at for at in updates if started <= at < started + args.hold]
        log_bytes = log.stat().st_size - log_before
        rss = rss_kib(pid)
        for sock in sockets:
            sock.close()
        stop.set()
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(game, 5)
    print(f"server from {args.src}; {args.sockets} silent sockets"
          f"{' (half a request line)' if args.half else ''} from {args.addresses} "
          f"address(es); server open-file limit {args.nofile or 'as inherited'}; "
          f"held {args.hold:.0f} s (opened in {opened:.1f} s)")
    print(f"  new client (the page, then a WebSocket's ping answered, 3 s each): first in "
          f"after "
          f"{'never' if first_in is None else f'{first_in:.1f} s'}; "
          f"{fails} of {tries} tries failed"
          + (f"; a successful try took {sorted(took)[len(took) // 2]:.2f} s (median), "
             f"{max(took):.2f} s (max)" if took else ""))
    print(f"  running game: {before} updates in the 10 s before, "
          f"{len(during) * 10 / args.hold:.1f} per 10 s during")
    times = sorted(closed_at.values())
    print(f"  silent sockets closed by the server: {len(times)} of {args.sockets}"
          + (f" (median at {times[len(times) // 2]:.1f} s, last at {times[-1]:.1f} s)"
             if times else ""))
    print(f"  server log: {log_bytes} bytes during the attack; RSS {rss / 1024:.0f} MiB")


async def idle_ws(args: argparse.Namespace) -> None:
    with server(args.src, args.nofile, []) as (port, pid, _log):
        await asyncio.sleep(1)
        before = rss_kib(pid)
        opened = []
        refused = 0
        for _ in range(args.sockets):
            try:
                opened.append(await ws_connect(port, source="127.0.0.2"))
            except (OSError, TimeoutError, websockets.WebSocketException):
                refused += 1
        await asyncio.sleep(2)
        after = rss_kib(pid)
        got_in = await new_client_gets_in(port)
        for ws in opened:
            with contextlib.suppress(Exception):
                await ws.close()
    print(f"server from {args.src}; {args.sockets} idle WebSockets from one address: "
          f"{len(opened)} accepted, {refused} refused; RSS {before / 1024:.0f} -> "
          f"{after / 1024:.0f} MiB; a client from another address gets in: {got_in}")


async def resume(args: argparse.Namespace) -> None:
    with server(args.src, None, []) as (port, _pid, _log):
        host = await ws_connect(port)
        await host.send(json.dumps({"type": "create", "name": "Ann", "bots": ["random"],
                                    "settings": {"seats": 4}}))
        joined = await receive_until(host, "joined", 10)
        code, token = joined["room"], joined["token"]
        stop = asyncio.Event()

        async def neighbour() -> None:  # guesses codes as fast as it is answered
            ws = await ws_connect(port)
            with contextlib.suppress(websockets.WebSocketException):
                while not stop.is_set():
                    await ws.send(json.dumps({"type": "watch", "room": "ZZZZZZZZ"}))
                    await receive_until(ws, "error", 5)
                    await asyncio.sleep(0.1)
            await ws.close()

        guesser = asyncio.create_task(neighbour())
        await asyncio.sleep(2)
        refused = 0
        for _ in range(args.tries):
            ws = await ws_connect(port)
            await ws.send(json.dumps({"type": "resume", "room": code, "token": token}))
            answer = await receive_until(ws, "joined", 10)
            refused += answer.get("type") != "joined"
            await ws.close()
            await asyncio.sleep(args.seconds / args.tries)
        stop.set()
        await guesser
        await host.close()
    print(f"server from {args.src}; a neighbour spends the lookups of 127.0.0.1: "
          f"{refused} of {args.tries} resumes with a valid token refused over "
          f"{args.seconds:.0f} s")


async def lobby(args: argparse.Namespace) -> None:
    with server(args.src, None, []) as (port, _pid, _log):
        host = await ws_connect(port)
        await host.send(json.dumps({"type": "create", "name": "Ann", "bots": [],
                                    "settings": {"seats": 10}}))
        code = (await receive_until(host, "joined", 10))["room"]
        intruders = []
        seated = 0
        for number in range(9):
            ws = await ws_connect(port, source="127.0.0.3")
            await ws.send(json.dumps({"type": "join", "room": code, "name": f"X{number}"}))
            seated += (await receive_until(ws, "joined", 10)).get("type") == "joined"
            intruders.append(ws)
        await host.send(json.dumps({"type": "remove", "seat": 1}))
        await asyncio.sleep(1)
        again = await ws_connect(port, source="127.0.0.3")
        await again.send(json.dumps({"type": "join", "room": code, "name": "Back"}))
        answer = await receive_until(again, "joined", 10)
        for ws in [*intruders, again, host]:
            await ws.close()
    rejoin = f"refused ({answer.get('code')})" if answer["type"] == "error" else "seated"
    print(f"server from {args.src}; 9 sockets of one address join a 10-seat lobby: "
          f"{seated} seated; after the host removes one, joining again: {rejoin}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--src", type=Path, default=DEFAULT_SRC,
                        help="the source tree the server runs from")
    commands = parser.add_subparsers(dest="command", required=True)
    one = commands.add_parser("silent")
    one.add_argument("--sockets", type=int, default=1100)
    one.add_argument("--addresses", type=int, default=1)
    one.add_argument("--nofile", type=int, default=1024)
    one.add_argument("--hold", type=float, default=30.0)
    one.add_argument("--half", action="store_true")
    one.add_argument("--request-timeout", type=float)
    two = commands.add_parser("idle-ws")
    two.add_argument("--sockets", type=int, default=900)
    two.add_argument("--nofile", type=int, default=4096)
    three = commands.add_parser("resume")
    three.add_argument("--seconds", type=float, default=60.0)
    three.add_argument("--tries", type=int, default=12)
    commands.add_parser("lobby")
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # this client's own sockets
    run = {"silent": silent, "idle-ws": idle_ws, "resume": resume, "lobby": lobby}
    asyncio.run(run[args.command](args))


if __name__ == "__main__":
    main()
