"""The transport's own CPU per move (issue 22): the traffic of ``server_load.py`` with no game.

A "null room" server (uvicorn and Starlette, as ``uno serve`` runs them: the same WebSocket
protocol class, no compression, the same keepalive pings) in which every message a client
sends is parsed as JSON and answered by one frame of ``--frame`` bytes to each of the room's
four sockets; nothing is stored, no game is played. K rooms of four clients take turns, one
message per turn after a think time, as ``server_load.py``'s bots do. What the server spends
here per message is the floor under ``uno serve``'s CPU per move on the same machine: what a
move costs beyond it is the game, the room and storage.

    .venv/bin/python benchmarks/transport_floor.py --rooms 500 --server-cpus 0 --client-cpus 1

``--send asgi`` sends through Starlette's ``send_text`` (uvicorn's ASGI send, one await a
frame) instead of the protocol's direct write, for comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
import urllib.request
from typing import Any

import websockets
from server_load import cpu_seconds, cpu_split, free_port, parse_cpus, percentile, pinnable, rss_kib

SERVER = r'''
import json, sys
import uvicorn
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from unogame.server.connections import SEND_NOW, DirectWebSocketProtocol
from unogame.server.heartbeat import WS_PING_INTERVAL, WS_PING_TIMEOUT

port, frame_bytes, direct = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "direct"
rooms = {}
frame = json.dumps({"type": "update", "pad": "x" * max(0, frame_bytes - 30)})

async def ws(websocket):
    await websocket.accept()
    room = websocket.query_params["room"]
    members = rooms.setdefault(room, [])
    send_now = websocket.scope.get(SEND_NOW) if direct else None
    members.append((websocket, send_now))
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            data = json.loads(message["text"])
            if data.get("type") != "move":
                continue
            for other, now in members:
                if now is None or not now(frame):
                    await other.send_text(frame)
    finally:
        members.remove((websocket, send_now))

async def healthz(request):
    return PlainTextResponse("ok")

app = Starlette(routes=[Route("/healthz", healthz), WebSocketRoute("/ws", ws)])
uvicorn.run(app, host="127.0.0.1", port=port, ws=DirectWebSocketProtocol, log_level="error",
            ws_ping_interval=WS_PING_INTERVAL, ws_ping_timeout=WS_PING_TIMEOUT,
            ws_per_message_deflate=False, ws_max_size=65536)
'''


async def room(url: str, think: float, seed: int, stats: dict[str, Any],
               stop: asyncio.Event) -> None:
    rng = random.Random(seed)
    clients = [await websockets.connect(url, ping_interval=None) for _ in range(4)]
    turn = 0
    try:
        while not stop.is_set():
            await asyncio.sleep(think * (0.5 + rng.random()))
            sent = time.perf_counter()
            await clients[turn].send(json.dumps({"type": "move", "move": "draw",
                                                 "version": stats["moves"]}))
            for client in clients:  # each seat gets the room's frame
                await client.recv()
            if stats["measuring"]:
                stats["moves"] += 1
                stats["latencies"].append(time.perf_counter() - sent)
            turn = (turn + 1) % 4
    finally:
        for client in clients:
            await client.close()


async def run(args: argparse.Namespace) -> None:
    server_cpus = pinnable(parse_cpus(args.server_cpus), "the server")
    client_cpus = pinnable(parse_cpus(args.client_cpus), "the load generator")
    port = free_port()

    def pin() -> None:
        if server_cpus is not None:
            os.sched_setaffinity(0, server_cpus)

    server = subprocess.Popen([sys.executable, "-c", SERVER, str(port), str(args.frame),
                               args.send], preexec_fn=pin)
    if client_cpus is not None:
        os.sched_setaffinity(0, client_cpus)
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).close()
                break
            except OSError:
                await asyncio.sleep(0.05)
        os.nice(9)
        rss_idle = rss_kib(server.pid)
        stats: dict[str, Any] = {"moves": 0, "latencies": [], "measuring": False}
        stop = asyncio.Event()
        url = f"ws://127.0.0.1:{port}/ws"
        tasks = []
        for index in range(args.rooms):
            tasks.append(asyncio.create_task(room(f"{url}?room=r{index}", args.think, index,
                                                  stats, stop)))
            if index % 50 == 49:
                await asyncio.sleep(0.05)
        await asyncio.sleep(args.warmup)
        rss_before = rss_kib(server.pid)
        cpu_before = cpu_seconds(server.pid)
        kernel_before = cpu_split(server.pid)[1]
        stats["measuring"] = True
        started = time.perf_counter()
        await asyncio.sleep(args.seconds)
        stats["measuring"] = False
        elapsed = time.perf_counter() - started
        cpu = cpu_seconds(server.pid) - cpu_before
        kernel = cpu_split(server.pid)[1] - kernel_before
        moves, latencies = stats["moves"], stats["latencies"]
        stop.set()
        print(f"null rooms: {args.rooms} x 4 connections, send {args.send}, frame {args.frame} B,"
              f" think {args.think} s")
        print(f"messages {moves}, {moves / elapsed:.0f}/s; p50 "
              f"{1000 * percentile(latencies, 0.5):.1f} ms, p99 "
              f"{1000 * percentile(latencies, 0.99):.1f} ms")
        print(f"transport CPU per move (1 message in, 4 frames out): "
              f"{1000 * cpu / max(moves, 1):.3f} ms ({1000 * kernel / max(moves, 1):.3f} in the "
              f"kernel); server CPU {100 * cpu / elapsed:.0f}% of one"
              f" core; RSS {rss_idle / 1024:.1f} MiB idle -> {rss_before / 1024:.1f} MiB, "
              f"{(rss_before - rss_idle) / (4 * args.rooms):.1f} KiB per connection "
              f"(no rooms, no games)")
        await asyncio.wait(tasks, timeout=10)
    finally:
        server.terminate()
        server.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--frame", type=int, default=260,
                        help="bytes of each frame sent (server_load.py measures ~260 per seat)")
    parser.add_argument("--send", choices=("direct", "asgi"), default="direct")
    parser.add_argument("--server-cpus")
    parser.add_argument("--client-cpus")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
