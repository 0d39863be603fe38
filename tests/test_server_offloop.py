"""Storage off the event loop (issue 9, item 5): a write that takes seconds (a slow or
locked disk) holds up only the room it is for; that room's changes still happen one at a
time, each checked against the position the stored change before it left.

The slow disk is :class:`SlowStorage`: a real SQLite file whose move writes wait two
seconds and then write. Every test here failed before storage calls left the event loop
(the loop slept with the write: every ping of every room waited for it).
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from test_server_support import (
    LOCKER,
    Client,
    ServerThread,
    create_room,
    join,
    run,
    stored_and_applied,
)

from unogame.server import Timing, commits
from unogame.server.storage import SqliteStorage

SLOW_SECONDS = 2.0
QUICK = SLOW_SECONDS / 2
"""A ping or a spectator's state while a write is pending comes within this (seconds): well
under the write's own time (a loop held up by it waits all of it), with room for a loaded
machine."""


class SlowStorage(SqliteStorage):
    """A real SQLite file on a slow disk: while ``slow`` is set, a move write first waits
    :data:`SLOW_SECONDS`, then writes; ``writing`` is set while it waits and writes."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.slow = threading.Event()
        self.writing = threading.Event()
        self.slow_writes = 0
        self.only_seat: int | None = None
        """Only this seat's writes are slow (``None``: every seat's)."""

    def append_move(self, code: str, game_no: int, index: int, seat: int, move: str) -> None:
        if not self.slow.is_set() or self.only_seat not in (None, seat):
            super().append_move(code, game_no, index, seat, move)
            return
        self.writing.set()
        try:
            time.sleep(SLOW_SECONDS)
            super().append_move(code, game_no, index, seat, move)
            self.slow_writes += 1
        finally:
            self.writing.clear()


async def _pending(storage: SlowStorage, timeout: float = 10.0) -> None:
    """Until a slow write has started."""
    deadline = time.monotonic() + timeout
    while not storage.writing.is_set():
        assert time.monotonic() < deadline, "no slow write started"
        await asyncio.sleep(0.005)


async def _two_people(server: ServerThread) -> tuple[Client, Client]:
    host = await create_room(server.ws_url, seats=2)
    guest = await join(server.ws_url, host.room or "", "Guest")
    await host.request({"type": "start"}, "state")
    await guest.wait_for(lambda m: m["type"] == "state" and m["status"] == "playing")
    return host, guest


def _on_turn(*clients: Client) -> Client:
    return next(c for c in clients if c.game()["view"]["turn"] == c.seat)


def _a_move(game: dict[str, Any]) -> str:
    legal: list[str] = game["legal"]
    return "draw" if "draw" in legal else legal[0]


async def _quick_while_pending(storage: SlowStorage, pinger: Client, code: str,
                               server: ServerThread) -> None:
    """Pings from another room, and a spectator arriving there, while the slow write is
    pending, are answered within :data:`QUICK`."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    watcher = await Client.connect(server.ws_url)
    await watcher.request({"type": "watch", "room": code}, "state", timeout=5)
    slowest = loop.time() - started
    assert slowest < QUICK, f"a spectator of another room waited {slowest:.2f} s"
    pings = 0
    while storage.writing.is_set():
        started = loop.time()
        await pinger.request({"type": "ping"}, "pong", timeout=5)
        slowest = max(slowest, loop.time() - started)
        pings += 1
        await asyncio.sleep(0.05)
    assert slowest < QUICK, f"a ping of another room waited {slowest:.2f} s for the write"
    assert pings >= 3, f"only {pings} pings while the write was pending"
    await watcher.close()


def test_a_slow_write_delays_no_other_room_and_the_move_lands_after_it(tmp_path: Path) -> None:
    storage = SlowStorage(tmp_path / "rooms.sqlite3")
    with ServerThread(storage) as server:
        async def scenario() -> None:
            loop = asyncio.get_running_loop()
            host, guest = await _two_people(server)
            other = await create_room(server.ws_url, name="Other", seats=3)
            room = server.manager.rooms[host.room]
            mover = _on_turn(host, guest)
            before = mover.game()
            version, move = before["version"], _a_move(before)
            storage.slow.set()
            sent = loop.time()
            await mover.send({"type": "move", "move": move, "version": version})
            await _pending(storage)
            assert room.version == version  # nothing changes before it is stored
            await _quick_while_pending(storage, other, other.room or "", server)
            landed = await mover.wait_for(lambda m: m["type"] == "update"
                                          and m["version"] == version + 1, timeout=10)
            assert loop.time() - sent >= SLOW_SECONDS * 0.95  # applied after it was stored
            assert landed["events"] and room.version == version + 1
            stored = storage.load_moves(room.code, room.game_no)
            assert len(stored) == room.log_length and stored[-1] == (mover.seat, move)
            assert storage.slow_writes == 1
            for client in (host, guest, other):
                await client.close()

        run(scenario())


def test_two_moves_for_one_version_during_a_slow_write_one_is_stale(tmp_path: Path) -> None:
    storage = SlowStorage(tmp_path / "rooms.sqlite3")
    with ServerThread(storage) as server:
        async def scenario() -> None:
            host, guest = await _two_people(server)
            room = server.manager.rooms[host.room]
            mover = _on_turn(host, guest)
            twin = await Client.connect(server.ws_url)  # the same seat in a second tab
            await twin.request({"type": "resume", "room": host.room, "token": mover.token},
                               "state")
            before = mover.game()
            version = before["version"]
            storage.slow.set()
            await mover.send({"type": "move", "move": _a_move(before), "version": version})
            await _pending(storage)
            start = len(twin.messages)
            await twin.send({"type": "move", "move": before["legal"][-1], "version": version})
            refused = await twin.wait_for(lambda m: m["type"] == "error", timeout=10,
                                          start=start)
            assert refused["code"] == "stale", refused
            # The second move was checked against the position the first one left.
            after = twin.messages[start:]
            landed = next(i for i, m in enumerate(after) if m["type"] == "update"
                          and m["version"] == version + 1)
            assert landed < after.index(refused)
            await mover.wait_for(lambda m: m["type"] == "update"
                                 and m["version"] == version + 1)
            assert room.version == version + 1
            assert len(storage.load_moves(room.code, room.game_no)) == room.log_length
            assert storage.slow_writes == 1
            for client in (host, guest, twin):
                await client.close()

        run(scenario())


def test_a_bots_slow_write_goes_through_the_same_path(tmp_path: Path) -> None:
    """A bot's move waits for its write like a person's: other rooms are not held up, and a
    person's move for the position before it is refused as stale once it is stored."""
    storage = SlowStorage(tmp_path / "rooms.sqlite3")
    with ServerThread(storage, timing=Timing(think=0.3, reaction_scale=0.0)) as server:
        async def scenario() -> None:
            host = await create_room(server.ws_url, seats=2, bots=["random"])
            await host.request({"type": "start"}, "state")
            other = await create_room(server.ws_url, name="Other", seats=3)
            storage.only_seat = 1  # the bot's writes are slow from now on, the host's not
            storage.slow.set()
            while host.game()["view"]["turn"] == host.seat:  # play until it is the bot's turn
                game = host.game()
                await host.request({"type": "move", "move": _a_move(game),
                                    "version": game["version"]}, ("update", "error"))
            await _pending(storage)
            version = host.game()["version"]  # the position the bot's pending write is for
            start = len(host.messages)
            await host.send({"type": "move", "move": "draw", "version": version})
            await _quick_while_pending(storage, other, other.room or "", server)
            refused = await host.wait_for(lambda m: m["type"] == "error", timeout=10,
                                          start=start)
            assert refused["code"] == "stale", refused
            assert any(m["type"] == "update" and m["version"] == version + 1
                       for m in host.messages[start:host.messages.index(refused)])
            storage.slow.clear()
            for client in (host, other):
                await client.close()
            moves, length = await server.at_rest_async(host.room or "", stored_and_applied)
            assert len(moves) == length  # nobody is left: the room stops, nothing half-done

        run(scenario())


def test_a_short_lock_by_another_process_is_waited_out(tmp_path: Path) -> None:
    """Off the loop a write can wait for a lock (up to ``BUSY_MS``): a move made while
    another process holds the file for a fifth of a second lands instead of being refused."""
    db = tmp_path / "rooms.sqlite3"
    with ServerThread(db) as server:
        async def scenario() -> None:
            host, guest = await _two_people(server)
            room = server.manager.rooms[host.room]
            mover = _on_turn(host, guest)
            before = mover.game()
            locker = await asyncio.create_subprocess_exec(
                sys.executable, "-c", LOCKER, str(db), "0.2", stdout=asyncio.subprocess.PIPE)
            assert locker.stdout is not None
            assert (await locker.stdout.readline()).strip() == b"locked"
            answer = await mover.request({"type": "move", "move": _a_move(before),
                                          "version": before["version"]}, ("update", "error"))
            await locker.wait()
            assert answer["type"] == "update", answer
            assert room.version == before["version"] + 1
            assert len(server.manager.storage.load_moves(room.code, room.game_no)) == \
                room.log_length
            for client in (host, guest):
                await client.close()

        run(scenario())


def test_a_write_that_cannot_start_in_time_is_refused_cleanly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The storage thread is busy with one room's slow write: another room's move, still
    waiting for the thread after ``START_WITHIN``, is refused as not saved (nothing changes)
    instead of waiting behind every other room's writes; sent again, it lands."""
    monkeypatch.setattr(commits, "START_WITHIN", 0.5)
    storage = SlowStorage(tmp_path / "rooms.sqlite3")
    with ServerThread(storage) as server:
        async def scenario() -> None:
            first_room = await _two_people(server)
            first = _on_turn(*first_room)
            second_room = await _two_people(server)
            second = _on_turn(*second_room)
            room = server.manager.rooms[second.room]
            storage.slow.set()
            game = first.game()
            await first.send({"type": "move", "move": _a_move(game),
                              "version": game["version"]})
            await _pending(storage)
            before = second.game()
            move = {"type": "move", "move": _a_move(before), "version": before["version"]}
            refused = await second.request(move, ("update", "error"))
            assert refused["code"] == "not_saved", refused
            assert room.version == before["version"] and second.game() is before
            storage.slow.clear()
            await first.wait_for(lambda m: m["type"] == "update"
                                 and m["version"] == game["version"] + 1)
            landed = await second.request(move, ("update", "error"))
            assert landed["type"] == "update" and room.version == before["version"] + 1
            assert len(storage.load_moves(room.code, room.game_no)) == room.log_length
            for client in (*first_room, *second_room):
                await client.close()

        run(scenario())
