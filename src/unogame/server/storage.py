"""Storage of rooms, seats and each game's move log, behind a narrow interface.

:class:`Storage` is what the server needs; :class:`SqliteStorage` fills it with one SQLite
file. A room's game is never stored as a position: it is its rules, its seed and its move
log, and is rebuilt by replaying the log through the engine. A move is appended (and
committed) before anyone hears of it, so a crash never loses a move anybody saw.

>>> store = SqliteStorage(":memory:")
>>> store.save_room("ABCDE", {"name": "Family"})
>>> store.append_move("ABCDE", 1, 0, 2, "play R7")
>>> store.load_moves("ABCDE", 1)
[(2, 'play R7')]
>>> store.load_rooms()
{'ABCDE': {'name': 'Family'}}
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from .limits import AddressAllowance, Allowance

ROUND_BOUNDARY = "next_round"
"""The log entry (seat -1) that marks the deal of the next round."""

BUSY_MS = 500
"""How long a write waits for a lock held elsewhere before it fails (and is retried or
refused). The server's writes run in its storage thread, never in its event loop
(``commits.py``): a short lock is waited out, a long one is a clean ``not_saved``."""


LogEntry = tuple[str, int, int, int, str]
"""One move log entry to append: room code, game number, index, seat, move text."""


class StorageError(Exception):
    """A write (or read) that did not happen: locked, full disk, I/O error. Nothing of it
    was stored, so the change it was for must not happen either."""


class StaleError(StorageError):
    """The change was made on a position or record that another server process has changed
    since (a shared backend): nothing was stored; the room catches up and the client is told
    the position moved on."""


@contextlib.contextmanager
def _failures() -> Iterator[None]:
    try:
        yield
    except sqlite3.Error as error:
        raise StorageError(f"{type(error).__name__}: {error}") from error


class Storage(ABC):
    """What the server persists. Another backend (Redis, a database server) fills the same
    methods; the room logic never touches SQL."""

    shared = False
    """Several server processes use this storage at once (``redis_store.RedisStorage``):
    rooms are loaded when asked for, not all at start."""

    @abstractmethod
    def save_room(self, code: str, data: dict[str, Any]) -> None:
        """Create or replace a room's record (settings, seats, status, current game)."""

    @abstractmethod
    def delete_room(self, code: str) -> None:
        """Forget a room and its logs."""

    @abstractmethod
    def load_rooms(self, unreadable: dict[str, str] | None = None) -> dict[str, dict[str, Any]]:
        """Every stored room by code; rooms that cannot be read go into ``unreadable``
        (code: why) instead of stopping the others."""

    @abstractmethod
    def set_aside(self, code: str, reason: str) -> None:
        """Move a room that cannot be restored, and its logs, out of the way: kept, never
        deleted, for someone to look at; its code is not used again while it is there."""

    @abstractmethod
    def append_move(self, code: str, game_no: int, index: int, seat: int, move: str) -> None:
        """Append entry ``index`` (0, 1, 2...) to a game's log; refuses a duplicate index."""

    def append_moves(self, entries: Sequence[LogEntry]) -> list[Exception | None]:
        """Append the entries of one turn of the server's loop (several rooms' moves): for
        each, ``None`` once stored or the error that refused it (and stored nothing of it).
        Here each on its own; a backend that can writes them in one commit."""
        results: list[Exception | None] = []
        for entry in entries:
            try:
                self.append_move(*entry)
                results.append(None)
            except Exception as error:  # this entry's own outcome, whatever raised it
                results.append(error)
        return results

    @abstractmethod
    def load_moves(self, code: str, game_no: int) -> list[tuple[int, str]]:
        """A game's log in order, as (seat, move text); seat -1 marks ROUND_BOUNDARY."""

    def load_room(self, code: str, unreadable: dict[str, str] | None = None
                  ) -> tuple[dict[str, Any], list[tuple[int, str]]] | None:
        """A room another process may have stored (a shared backend): its record and its
        current game's log; ``None`` here, where every room is loaded at start."""
        return None

    def room_count(self) -> int:
        """Rooms stored (a shared backend counts every process's)."""
        return len(self.load_rooms())

    def allowance(self, kind: str, burst: int, per_minute: float) -> Allowance:
        """A per-address allowance of ``kind`` (rooms created, codes looked up): this
        process's own; a shared backend's holds across every process."""
        return AddressAllowance(burst, per_minute)

    @abstractmethod
    def close(self) -> None:
        """Release the backend."""

    def start_checkpoints(self, every: float = 2.0) -> None:  # noqa: B027 - optional
        """Start the backend's background upkeep, if it has any."""


class SqliteStorage(Storage):
    """One SQLite file in WAL mode. Every write is its own committed transaction: a process
    killed with ``kill -9`` loses nothing that was committed (WAL keeps it in the file)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = str(path)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                   timeout=BUSY_MS / 1000)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        # Checkpoints (which wait for the disk) run in a background thread, never in the
        # server's event loop: see start_checkpoints().
        self._db.execute("PRAGMA wal_autocheckpoint=0")
        self._checkpointer: threading.Thread | None = None
        self._stop = threading.Event()
        self._db.executescript(
            """
            CREATE TABLE IF NOT EXISTS rooms (
                code TEXT PRIMARY KEY,
                data TEXT NOT NULL
            );
            CREATE TABLE IF NOT EXISTS moves (
                room TEXT NOT NULL,
                game_no INTEGER NOT NULL,
                idx INTEGER NOT NULL,
                seat INTEGER NOT NULL,
                move TEXT NOT NULL,
                PRIMARY KEY (room, game_no, idx)
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS rooms_aside (
                code TEXT NOT NULL,
                data TEXT,
                reason TEXT NOT NULL,
                at TEXT NOT NULL DEFAULT (datetime('now'))
            );
            CREATE TABLE IF NOT EXISTS moves_aside (
                room TEXT NOT NULL,
                game_no INTEGER NOT NULL,
                idx INTEGER NOT NULL,
                seat INTEGER NOT NULL,
                move TEXT NOT NULL
            );
            """
        )

    def save_room(self, code: str, data: dict[str, Any]) -> None:
        with _failures():
            self._db.execute(
                "INSERT INTO rooms (code, data) VALUES (?, ?) "
                "ON CONFLICT(code) DO UPDATE SET data = excluded.data",
                (code, json.dumps(data, ensure_ascii=False)),
            )

    def delete_room(self, code: str) -> None:
        with _failures():
            self._db.execute("BEGIN")
            try:
                self._db.execute("DELETE FROM rooms WHERE code = ?", (code,))
                self._db.execute("DELETE FROM moves WHERE room = ?", (code,))
                self._db.execute("COMMIT")
            except sqlite3.Error:
                self._db.execute("ROLLBACK")
                raise

    def load_rooms(self, unreadable: dict[str, str] | None = None) -> dict[str, dict[str, Any]]:
        broken = unreadable if unreadable is not None else {}
        try:
            codes = [code for (code,) in self._db.execute("SELECT code FROM rooms ORDER BY code")]
        except sqlite3.DatabaseError:  # a damaged index: walk the table itself
            codes = [code for (code,) in self._db.execute("SELECT code FROM rooms NOT INDEXED")]
        rooms: dict[str, dict[str, Any]] = {}
        for code in codes:
            try:
                row = self._db.execute("SELECT data FROM rooms WHERE code = ?", (code,))
                data = json.loads(row.fetchone()[0])
                if not isinstance(data, dict):
                    raise ValueError("the record is not a JSON object")
            except (sqlite3.DatabaseError, ValueError, TypeError, RecursionError) as error:
                broken[str(code)] = f"{type(error).__name__}: {error}"
                continue
            rooms[str(code)] = data
        return rooms

    def set_aside(self, code: str, reason: str) -> None:
        try:
            self._db.execute("BEGIN")
            self._db.execute("INSERT INTO rooms_aside (code, data, reason) "
                             "SELECT code, data, ? FROM rooms WHERE code = ?", (reason, code))
            self._db.execute("INSERT INTO moves_aside SELECT room, game_no, idx, seat, move "
                             "FROM moves WHERE room = ?", (code,))
            self._db.execute("DELETE FROM moves WHERE room = ?", (code,))
            self._db.execute("DELETE FROM rooms WHERE code = ?", (code,))
            self._db.execute("COMMIT")
        except sqlite3.DatabaseError:  # unreadable: leave it where it is, note the code
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("INSERT INTO rooms_aside (code, data, reason) VALUES (?, NULL, ?)",
                                 (code, reason + " (left in place: unreadable)"))

    def append_move(self, code: str, game_no: int, index: int, seat: int, move: str) -> None:
        with _failures():
            self._db.execute(
                "INSERT INTO moves (room, game_no, idx, seat, move) VALUES (?, ?, ?, ?, ?)",
                (code, game_no, index, seat, move),
            )

    def append_moves(self, entries: Sequence[LogEntry]) -> list[Exception | None]:
        """The entries in one transaction (one commit): all stored, or (locked, disk full)
        none, each refused with the same error. An entry refused for itself (a duplicate
        index) leaves the others to be written one by one."""
        if len(entries) == 1:
            return super().append_moves(entries)
        try:
            with _failures():
                self._db.execute("BEGIN")
            try:
                for entry in entries:
                    self.append_move(*entry)
                with _failures():
                    self._db.execute("COMMIT")
            except StorageError:
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
                raise
        except StorageError as error:
            if isinstance(error.__cause__, sqlite3.IntegrityError):
                return super().append_moves(entries)
            return [StorageError(str(error)) for _entry in entries]  # one each: raised apart
        return [None] * len(entries)

    def load_moves(self, code: str, game_no: int) -> list[tuple[int, str]]:
        rows = self._db.execute(
            "SELECT seat, move FROM moves WHERE room = ? AND game_no = ? ORDER BY idx",
            (code, game_no),
        ).fetchall()
        return [(int(seat), str(move)) for seat, move in rows]

    def checkpoint(self) -> None:
        """Copy the write-ahead log into the database file (without blocking writers)."""
        if self.path == ":memory:":
            return
        with sqlite3.connect(self.path) as db:
            db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        db.close()

    def start_checkpoints(self, every: float = 2.0) -> None:
        """Checkpoint every ``every`` seconds in a background thread."""
        if self._checkpointer is not None or self.path == ":memory:":
            return

        def loop() -> None:
            while not self._stop.wait(every):
                with contextlib.suppress(sqlite3.Error):  # busy now: the next one catches up
                    self.checkpoint()

        self._checkpointer = threading.Thread(target=loop, name="sqlite-checkpoint", daemon=True)
        self._checkpointer.start()

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(10)
            self._checkpointer = None
        self.checkpoint()
        self._db.close()


def default_db_path() -> Path:
    """The database file in the user's data directory (XDG_DATA_HOME, else ~/.local/share)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                            "share")
    return Path(base) / "unogame" / "server.sqlite3"
