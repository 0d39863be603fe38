"""Storage: the SQLite log and the rebuild of a room from it (issue 4, section 1)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from test_server_support import LOCKER, ServerThread, autoplay, create_room, join, run

from unogame.server.commits import append_entry
from unogame.server.hub import LocalHub
from unogame.server.rooms import Room, Timing
from unogame.server.storage import SqliteStorage, StorageError


def test_log_refuses_a_duplicate_entry(tmp_path: Path) -> None:
    store = SqliteStorage(tmp_path / "db.sqlite3")
    store.append_move("ROOM1", 1, 0, 0, "draw")
    with pytest.raises(StorageError):
        store.append_move("ROOM1", 1, 0, 1, "draw")
    assert store.load_moves("ROOM1", 1) == [(0, "draw")]
    store.delete_room("ROOM1")
    assert store.load_moves("ROOM1", 1) == []


def test_a_room_is_rebuilt_from_its_log(tmp_path: Path) -> None:
    """Rounds, scores and the position come back from rules + seed + log alone."""
    db = tmp_path / "rooms.sqlite3"

    async def scenario(url: str) -> str:
        host = await create_room(url, seats=3, bots=["random"], rules={"target_score": 200})
        guest = await join(url, host.room or "", "Guest")
        await host.request({"type": "start"}, "state")

        def two_rounds(message: dict[str, object]) -> bool:
            return len(message.get("results", [])) >= 2  # type: ignore[arg-type]

        await asyncio.gather(autoplay(host, seed=1, deal=True, until=two_rounds),
                             autoplay(guest, seed=2, deal=True, until=two_rounds))
        await guest.close()
        await host.close()
        return host.room or ""

    def read(live: Room, moves: list[tuple[int, str]]) -> tuple[Any, ...]:
        assert live.game is not None and live.table is not None
        return (live.game.position(), live.game.record(), live.version, live.table.results,
                live.status, live.table.feed(0))

    with ServerThread(db) as server:
        code = run(scenario(server.ws_url))
        # Its people gone, the room stops (its bot too): read it on the server's loop then.
        position, record, version, results, status, log = server.at_rest(code, read)
    store = SqliteStorage(db)
    rebuilt = Room.restore(code, store.load_rooms()[code], store, LocalHub(), Timing())
    assert rebuilt.game is not None and rebuilt.table is not None
    assert rebuilt.game.position() == position
    assert rebuilt.game.record() == record
    assert (rebuilt.version, rebuilt.table.results, rebuilt.status) == (version, results, status)
    assert rebuilt.table.feed(0) == log
    assert [seat.name for seat in rebuilt.seats] == ["Host", "Bot 1", "Guest"]


# ------------------------------------------------ one commit per loop turn (issue 22)


class CountedStorage(SqliteStorage):
    """A real SQLite file that counts its group writes (one commit each)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.groups: list[int] = []

    def append_moves(self, entries: Any) -> list[Exception | None]:
        self.groups.append(len(entries))
        return super().append_moves(entries)


def _append_together(store: SqliteStorage, entries: list[Any]) -> list[BaseException | None]:
    """``entries`` appended from one turn of a loop (as three rooms' moves would be); what
    each append raised."""
    async def together() -> list[BaseException | None]:
        outcomes = await asyncio.gather(*(append_entry(store, entry) for entry in entries),
                                        return_exceptions=True)
        return [outcome if isinstance(outcome, BaseException) else None
                for outcome in outcomes]

    return asyncio.run(together())


def test_the_moves_of_one_loop_turn_are_one_commit(tmp_path: Path) -> None:
    store = CountedStorage(tmp_path / "db.sqlite3")
    entries = [(f"ROOM{n}", 1, 0, n, "draw") for n in range(3)]
    assert _append_together(store, entries) == [None, None, None]
    assert store.groups == [3]
    assert [store.load_moves(f"ROOM{n}", 1) for n in range(3)] == [[(n, "draw")] for n in range(3)]
    # one entry refused for itself (a duplicate index): the others are still stored
    again = [("ROOM0", 1, 1, 0, "pass"), ("ROOM1", 1, 0, 1, "draw"), ("ROOM2", 1, 1, 2, "pass")]
    outcomes = _append_together(store, again)
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], StorageError)
    assert store.load_moves("ROOM0", 1) == [(0, "draw"), (0, "pass")]
    assert store.load_moves("ROOM1", 1) == [(1, "draw")]


def test_a_group_that_cannot_be_written_refuses_each_of_its_moves(tmp_path: Path) -> None:
    """The file is locked by another process past the write's wait: every move of the
    group is refused (not saved) and none of them is in the log, then or after the lock."""
    db = tmp_path / "db.sqlite3"
    store = CountedStorage(db)
    locker = subprocess.Popen([sys.executable, "-c", LOCKER, str(db), "3"],
                              stdout=subprocess.PIPE)
    try:
        assert locker.stdout is not None and locker.stdout.readline().strip() == b"locked"
        entries = [(f"ROOM{n}", 1, 0, n, "draw") for n in range(3)]
        outcomes = _append_together(store, entries)
        assert store.groups == [3]
        assert all(isinstance(outcome, StorageError) for outcome in outcomes), outcomes
        assert len({id(outcome) for outcome in outcomes}) == 3  # each its own error
    finally:
        locker.wait(10)
    assert [store.load_moves(f"ROOM{n}", 1) for n in range(3)] == [[], [], []]
    assert _append_together(store, entries) == [None, None, None]  # the lock gone: stored


class HeldStorage(CountedStorage):
    """Its first group write waits until the test lets it go (a slow disk, a held lock)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.held = threading.Event()
        self.release = threading.Event()

    def append_moves(self, entries: Any) -> list[Exception | None]:
        if not self.groups:
            self.held.set()
            self.release.wait(10)
        return super().append_moves(entries)


def test_moves_asked_while_a_write_is_in_flight_are_one_commit_after_it(tmp_path: Path) -> None:
    """Group commit: what arrives in later turns of the loop while the storage thread writes
    waits for that write and goes in one commit with the rest (it was one commit per turn)."""
    store = HeldStorage(tmp_path / "db.sqlite3")

    async def scenario() -> list[None]:
        first = asyncio.ensure_future(append_entry(store, ("ROOM0", 1, 0, 0, "draw")))
        while not store.held.is_set():
            await asyncio.sleep(0.01)
        later = []
        for n in range(1, 5):  # four turns of the loop, one move each
            later.append(asyncio.ensure_future(append_entry(store, (f"ROOM{n}", 1, 0, n, "draw"))))
            await asyncio.sleep(0.01)
        store.release.set()
        return await asyncio.gather(first, *later)

    assert asyncio.run(scenario()) == [None] * 5
    assert store.groups == [1, 4]
    assert [store.load_moves(f"ROOM{n}", 1) for n in range(5)] == [[(n, "draw")] for n in range(5)]


def test_a_loop_closed_mid_write_holds_back_nothing_after_it(tmp_path: Path) -> None:
    """A server stopped while its write was in the storage thread (the answer never told):
    the next server in the same process, on the same storage, still writes at once."""
    store = HeldStorage(tmp_path / "db.sqlite3")

    async def stopped() -> None:
        write = asyncio.ensure_future(append_entry(store, ("ROOM0", 1, 0, 0, "draw")))
        while not store.held.is_set():
            await asyncio.sleep(0.01)
        assert not write.done()

    asyncio.run(stopped())  # the loop is gone with the write in flight
    store.release.set()

    async def next_server() -> None:
        await asyncio.wait_for(append_entry(store, ("ROOM1", 1, 0, 1, "draw")), 5)

    asyncio.run(next_server())
    assert store.load_moves("ROOM1", 1) == [(1, "draw")]


def test_answers_of_calls_run_back_to_back_wake_the_loop_once(tmp_path: Path) -> None:
    """The storage thread tells the loop the answers of every call it ran without a pause in
    one wake-up (a thread pool woke it once per call)."""
    from unogame.server.commits import off_loop

    gate = threading.Event()
    wakeups = 0

    async def scenario() -> list[int]:
        nonlocal wakeups
        loop = asyncio.get_running_loop()
        told = loop.call_soon_threadsafe

        def counted(callback: Any, *args: Any) -> Any:
            nonlocal wakeups
            wakeups += 1
            return told(callback, *args)

        loop.call_soon_threadsafe = counted  # type: ignore[method-assign]
        held = asyncio.ensure_future(off_loop(gate.wait, 10))
        await asyncio.sleep(0.05)
        calls = [asyncio.ensure_future(off_loop(int, str(n))) for n in range(20)]
        await asyncio.sleep(0.05)  # all twenty queued behind the held call
        gate.set()
        await held
        return await asyncio.gather(*calls)

    assert asyncio.run(scenario()) == list(range(20))
    assert wakeups <= 2, wakeups
