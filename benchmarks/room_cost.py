"""A move's cost in the server's rooms, without the network (issue 22): what ``uno serve``
spends per move beyond its transport (``transport_floor.py``).

K rooms of four people are made through the room manager as the server makes them (a real
SQLite file, the storage thread, the one public update and each seat's part encoded), every
seat attached to the hub as a client that only counts what it is sent; then, room after
room, the person on turn plays a random legal move through ``Room.play``, as a message from
a socket would. Prints the process CPU time per move (the storage thread's included).
Not a test: it prints figures. ``PYTHONPATH`` picks the tree, so two trees can be
alternated:

    PYTHONPATH=src taskset -c 0 .venv/bin/python benchmarks/room_cost.py --rooms 200
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from unogame.server.flow import Timing
from unogame.server.hub import LocalHub
from unogame.server.manager import RoomManager
from unogame.server.rooms import Room
from unogame.server.seats import RoomError
from unogame.server.storage import SqliteStorage


class CountingClient:
    """A client of the hub that keeps nothing of what it is sent but its size."""

    def __init__(self, seat: int) -> None:
        self.seat: int | None = seat
        self.chars = 0

    def send_text(self, text: str) -> None:
        self.chars += len(text)


async def started_rooms(manager: RoomManager, hub: LocalHub, count: int) -> list[Room]:
    rooms = []
    for _ in range(count):
        room, _seat, _token = await manager.create({"capacity": 4}, "Ann", [])
        for name in ("Ben", "Cat", "Dan"):
            await room.join(name)
        for seat in range(4):
            hub.attach(room.code, CountingClient(seat))
            room.connected(seat)
        await room.start()
        rooms.append(room)
    return rooms


async def measure(rooms_count: int, moves: int, seed: int) -> tuple[float, int]:
    """CPU seconds per move and the moves refused (none expected)."""
    with tempfile.TemporaryDirectory() as folder:
        storage = SqliteStorage(Path(folder) / "rooms.sqlite3")
        hub = LocalHub()
        manager = RoomManager(storage, hub, Timing(think=0.0, reaction_scale=0.0))
        rooms = await started_rooms(manager, hub, rooms_count)
        rng = random.Random(seed)
        played = refused = 0
        started = time.process_time()
        while played < moves:
            for room in rooms:
                current = room.current
                assert current is not None
                table = current.table
                seat = next((s for s in range(4) if table.legal_moves(s)), None)
                if seat is None:  # between rounds: the next one is dealt by a person
                    continue
                move = rng.choice(table.legal_moves(seat)).text
                try:
                    await room.play(seat, move, room.version)
                except RoomError:
                    refused += 1
                played += 1
        cpu = time.process_time() - started
        for room in rooms:
            room.close()
        storage.close()
    return cpu / played, refused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--moves", type=int, default=4000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    figures = []
    for run in range(args.runs):
        per_move, refused = asyncio.run(measure(args.rooms, args.moves, args.seed + run))
        figures.append(per_move * 1e6)
        print(f"run {run + 1}: {per_move * 1e6:.0f} us CPU per move ({refused} refused)")
    figures.sort()
    print(f"{args.rooms} rooms, {args.moves} moves a run: median {figures[len(figures) // 2]:.0f} "
          f"us CPU per move (rooms and storage, no transport)")


if __name__ == "__main__":
    main()
