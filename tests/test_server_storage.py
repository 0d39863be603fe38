"""Storage: the SQLite log and the rebuild of a room from it (issue 4, section 1)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from test_server_support import ServerThread, autoplay, create_room, join, run

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
