"""Several server processes sharing rooms: keeping this process's copy of each room it holds
in step with Redis.

A process holds a room while it has clients of it (or drives it). Its copy changes only
from what Redis stored: its own changes (committed by the storage's Lua scripts before they
are applied) and the other processes' (heard on the room's channel, applied in order as one
of the room's changes, ``commits.py``). A move heard out of order, a record that changed,
a refused stale change or a link that was down makes the room catch up: it reads its record
and log from Redis (in the storage thread) and applies what it missed, so no client sees a
gap. The lease (``redis_hub.py``) says which process drives the room's bots and timers.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from ..table import TableError
from .commits import off_loop
from .coordination import Coordination
from .flow import RETRY_SECONDS
from .hub import Hub, LocalHub
from .manager import RoomManager
from .redis_hub import RedisHub
from .redis_store import RedisStorage
from .rooms import Room
from .storage import SqliteStorage, Storage, StorageError

log = logging.getLogger("unogame.server")

RECONNECTING = {"type": "error", "code": "reconnecting",
                "message": "the game's database is out of reach; reconnecting"}


class Backends(NamedTuple):
    """This process's storage and hub, and how a room manager over them joins the other
    processes sharing its rooms."""

    storage: Storage
    hub: Hub
    join: Callable[[RoomManager], Cluster | None]
    """The cluster the manager keeps in step with (``None``: one process, nobody else to
    hear)."""


def backends(storage: Storage | str | Path | None, redis_url: str | None,
             lease_seconds: float) -> Backends:
    """The backends of this process: rooms in Redis shared with every process started
    with ``redis_url``, or (one process) in ``storage`` (a SQLite path, a Storage,
    ``:memory:`` by default) with local delivery. Chosen here once: nothing later asks
    which."""
    if redis_url is not None:
        process = secrets.token_hex(6)
        shared = RedisStorage(redis_url, process)
        hub = RedisHub(redis_url, process, lease_seconds)
        return Backends(shared, hub, lambda manager: Cluster(manager, hub, shared))
    if storage is None or isinstance(storage, (str, Path)):
        storage = SqliteStorage(storage or ":memory:")
    return Backends(storage, LocalHub(), _alone)


def _alone(manager: RoomManager) -> None:
    """One process: the cluster of one is nothing to join."""


class Cluster(Coordination):
    """This process's part in a group of processes sharing rooms through Redis: the
    coordination of every room it holds."""

    shared = True

    def __init__(self, manager: RoomManager, hub: RedisHub, storage: RedisStorage) -> None:
        self.manager = manager
        self.hub = hub
        self.storage = storage
        self._loop: asyncio.AbstractEventLoop | None = None
        self._driven: set[str] = set()
        """The rooms whose lease this process holds."""
        self._elsewhere: dict[str, dict[str, dict[str, Any]]] = {}
        """The other processes' clients of each room held, by room and process."""
        hub.tell(self)  # a HubListener: heard, followed, lease, link, dead; wanted, others
        manager.coordination = self

    def start(self) -> None:
        loop = self._loop = asyncio.get_running_loop()

        def stale(code: str) -> None:
            loop.call_soon_threadsafe(self.catch_up, code)

        self.storage.tell_stale(stale)
        self.hub.start()

    async def stop(self) -> None:
        self.storage.tell_stale(None)
        await self.hub.stop()

    # ------------------------------------------------------------ rooms held

    def hold(self, room: Room) -> None:
        """This process now has a copy of the room: it follows its changes and presence."""
        self._driven.discard(room.code)
        self._elsewhere.pop(room.code, None)
        self.hub.follow(room.code)
        self._read_presence(room)

    def _read_presence(self, room: Room) -> None:
        async def presence() -> None:
            for process, seen in (await self.hub.read_presence(room.code)).items():
                self.presence_elsewhere(room, process, seen)

        if self._loop is not None:
            asyncio.ensure_future(presence()).add_done_callback(_quiet)

    def followed(self, code: str) -> None:
        """The room's channel is subscribed: what another process stored or said before
        that was not heard, so the room reads it (its record, log and presence)."""
        self.catch_up(code)
        room = self.manager.rooms.get(code)
        if room is not None:
            self._read_presence(room)

    def drop(self, room: Room) -> None:
        self._driven.discard(room.code)
        self._elsewhere.pop(room.code, None)
        self.hub.unfollow(room.code)

    def drives(self, code: str) -> bool:
        return code in self._driven

    async def catch_up_now(self, room: Room) -> None:
        await self.refresh(room)

    def elsewhere(self, code: str) -> dict[str, dict[str, Any]]:
        return self._elsewhere.get(code, {})

    def presence_elsewhere(self, room: Room, process: str,
                           presence: dict[str, Any] | None) -> None:
        """Another process's clients of the room (``None``: it has none, or died)."""
        if self.manager.rooms.get(room.code) is not room:
            return  # dropped meanwhile
        known = self._elsewhere.setdefault(room.code, {})
        before = known.get(process)
        if presence is None:
            known.pop(process, None)
        elif before is None or presence.get("seq", 0) >= before.get("seq", 0):
            known[process] = presence
        room.presence_changed()

    def wanted(self) -> dict[str, bool]:
        """Rooms to renew or take the lease of: those with clients here are wanted."""
        return {code: bool(self.hub.clients(code)) or room.driving
                for code, room in self.manager.rooms.items()}

    def others(self) -> set[str]:
        return {process for known in self._elsewhere.values() for process in known}

    # ------------------------------------------------------------ what other processes did

    def heard(self, code: str, payload: dict[str, Any]) -> None:
        room = self.manager.rooms.get(code)
        if room is None:
            return
        kind = payload.get("k")
        if kind == "m":
            room.commits.start(lambda: self._move(room, payload))
        elif kind == "rec":
            if int(payload.get("rev", 0)) > self.storage.known_rev(code):
                self.catch_up(code)
        elif kind == "del":
            self.manager.forget_here(room)
        elif kind == "pres":
            process, seen = payload.get("p"), payload.get("pres")
            if isinstance(process, str) and isinstance(seen, dict):
                self.presence_elsewhere(room, process, seen if seen.get("seats") or
                                        seen.get("watchers") else None)
        elif kind in ("ready", "hand"):
            room.commits.start(lambda: self._shared(room, payload))

    async def _move(self, room: Room, payload: dict[str, Any]) -> None:
        index = payload.get("i")
        if payload.get("g") != room.game_no or not isinstance(index, int) \
                or index > room.log_length:
            await self.refresh(room)  # out of order: read what was missed
        elif index == room.log_length:
            room.apply_entries([(int(payload["s"]), str(payload["t"]))])

    async def _shared(self, room: Room, payload: dict[str, Any]) -> None:
        """"Next round" pressed, a seat handed to a bot, in another process."""
        table = room.table
        if table is None or payload.get("v") != room.version or room.current is None:
            return
        room.current.sync()
        try:
            if payload["k"] == "ready":
                table.press_next(int(payload["seat"]))
            else:
                by = payload.get("by")
                table.hand_to_bot(by if isinstance(by, int) else None, int(payload["seat"]))
        except (TableError, KeyError, TypeError, ValueError):
            return
        room.publish_room()
        room.publish_state()

    def catch_up(self, code: str) -> None:
        room = self.manager.rooms.get(code)
        if room is not None:
            room.commits.start(lambda: self.refresh(room))

    async def refresh(self, room: Room) -> None:
        """Read the room from Redis and apply what this copy missed (tried again shortly
        if Redis cannot be read now)."""
        try:
            loaded = await off_loop(self.storage.load_room, room.code)
        except StorageError as error:
            log.info("room %s: catching up failed, trying again: %s", room.code, error)
            if self._loop is not None:
                self._loop.call_later(RETRY_SECONDS, self.catch_up, room.code)
            return
        if loaded is None:
            self.manager.forget_here(room)
            return
        data, moves = loaded
        if data["game_no"] == room.game_no and room.same_record(data) \
                and len(moves) >= room.log_length:
            room.apply_entries(moves[room.log_length:])
            return
        room.load_record(data, moves)
        for client in self.hub.clients(room.code):
            if client.seat is not None and (client.seat >= len(room.seats)
                                            or room.seats[client.seat].kind != "human"):
                client.seat = None  # the seat was removed elsewhere: watching now
        room.publish_room()
        room.publish_state()

    # ------------------------------------------------------------ lease, link, processes

    def lease(self, code: str, held: bool, stored: tuple[int, int, int] | None) -> None:
        room = self.manager.rooms.get(code)
        if room is None:
            return
        log.info("room %s: %s", code, "driven here" if held else "no longer driven here")
        if held:
            self._driven.add(code)
        else:
            self._driven.discard(code)
        if held and stored != (self.storage.known_rev(code), room.game_no, room.log_length):
            self.catch_up(code)  # the process that drove it moved last: read what it did
        else:
            room.schedule()

    def link(self, up: bool) -> None:
        if not up:
            for code in list(self.manager.rooms):
                self.hub.publish(code, lambda seat: RECONNECTING)
            return
        for code in list(self.manager.rooms):
            self.catch_up(code)
            self.hub.refresh_presence(code)
            room = self.manager.rooms.get(code)
            if room is not None:  # everyone's position again, even if nothing was missed
                self._read_presence(room)  # what the others said while the link was down
                room.publish_room()
                room.publish_state()

    def dead(self, processes: set[str]) -> None:
        for room in list(self.manager.rooms.values()):
            for process in processes & set(self.elsewhere(room.code)):
                self.presence_elsewhere(room, process, None)


def _quiet(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.info("reading presence failed: %s", task.exception())


__all__ = ["RECONNECTING", "Backends", "Cluster", "backends"]
