"""Every room of a server process: creation, lookup, limits, expiry of idle rooms."""

from __future__ import annotations

import functools
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..bots.base import level_names
from ..engine import CUSTOM_RULES, Rules
from ..engine.custom import (
    ALLOWED_WHO,
    COUNT_RANGE,
    MAX_NAME,
    MAX_STEPS,
    MAX_TEXT,
    PRESET_STEPS,
    WHAT,
    WHO,
)
from ..engine.events import event_kinds_json
from ..engine.game import MAX_PLAYERS, MIN_PLAYERS
from ..engine.moves import SEAT_PURPOSE
from ..table import MATCH_OVER as MATCH_OVER
from ..table import PLAYING as PLAYING
from ..table import ROUND_OVER as ROUND_OVER
from .commits import off_loop
from .coordination import Coordination, LocalCoordination
from .flow import Timing as Timing
from .hub import Hub
from .rooms import Room
from .seats import (
    CODE_ALPHABET,
    CODE_LENGTH,
    FAMILY_CATCH_GRACE,
    LOBBY,
    RoomError,
    Seat,
    default_bot_level,
    hash_token,
    normal_code,
    parse_settings,
    person_name,
)
from .storage import Storage, StorageError

log = logging.getLogger("unogame.server")


@dataclass
class Limits:
    max_rooms: int = 1000
    max_message_bytes: int = 4096
    messages_per_second: float = 20.0
    message_burst: int = 40
    max_clients_per_room: int = 60
    """Spectators and players together; a seat's owner always gets in."""
    max_spectators_per_room: int = 40
    max_connections_per_seat: int = 4
    """One person's tabs and devices on a seat; the oldest makes way for a new one."""
    max_seats_per_connection: int = 5
    """Rooms one connection creates or joins (it holds one seat per room)."""
    rooms_per_address: tuple[int, float] = (10, 2.0)
    """Rooms created per client address: a burst, then so many a minute."""
    lookups_per_address: tuple[int, float] = (30, 30.0)
    """Room codes looked up (join, watch, resume) per address: a burst, then per minute."""
    websockets_per_address: int = 32
    """Open WebSockets of one client address (IPv6: one /64; behind a proxy: forwarded)."""
    joined_seats_per_address: int = 4
    """Seats one address may join in a room: this many, or half a larger room's seats."""
    idle_room_seconds: float = 6 * 3600.0
    """A room nobody is connected to and nothing happened in for this long may be dropped
    when the server is at ``max_rooms``."""
    lobby_expiry_seconds: float = 300.0
    """A lobby that never started and has nobody in it is forgotten after this long."""
    sweep_seconds: float = 30.0
    """How often expired lobbies are looked for."""
    silent_seconds: float = 15.0
    """A page that beats (pings every 2 s) and is silent this long has a dead link: it
    leaves its room (its grace starts) and is closed (heartbeat.py)."""


@dataclass
class RoomManager:
    """Every room of this server, loaded from storage at start."""

    storage: Storage
    hub: Hub
    timing: Timing = field(default_factory=Timing)
    limits: Limits = field(default_factory=Limits)
    rooms: dict[str, Room] = field(default_factory=dict)
    unrestored: dict[str, str] = field(default_factory=dict)
    """Rooms in storage that could not be restored, with why (their data is kept aside)."""
    creating: set[str] = field(default_factory=set)
    """Codes of rooms being stored (they count against ``max_rooms`` already)."""
    coordination: Coordination = field(default_factory=LocalCoordination)
    """Who drives each room, what other processes did (one process: local); told of
    each room this process holds and drops."""
    on_gone: Callable[[Room], None] = lambda room: None
    """A room this process's clients have open is gone from storage (deleted by another
    process, or lost by a Redis that kept nothing): they are told, and leave it."""

    def load(self) -> None:
        """Restore every room that can be; the others are reported and kept aside."""
        unreadable: dict[str, str] = {}
        if self.storage.shared:  # several processes: rooms are loaded when asked for
            return
        for code, data in self.storage.load_rooms(unreadable).items():
            try:
                self.rooms[code] = Room.restore(code, data, self.storage, self.hub, self.timing,
                                                coordination=self.coordination)
            except Exception as error:  # a damaged or tampered record: the others still load
                unreadable[code] = f"{type(error).__name__}: {error}"[:300]
        for code, reason in sorted(unreadable.items()):
            log.warning("room %s could not be restored (kept aside): %s", code, reason)
            self.storage.set_aside(code, reason)
        self.unrestored.update(unreadable)

    def resume_all(self) -> None:
        """Start the bots of every restored room (needs the running loop)."""
        for room in self.rooms.values():
            room.schedule()

    def _nobody(self, room: Room) -> bool:
        """Nobody is in the room, here or (several processes) anywhere; only the process
        that drives a shared room deletes it."""
        return not self.hub.clients(room.code) and not self.coordination.elsewhere(room.code) \
            and room.driving

    async def evict_idle(self) -> int:
        """Drop rooms with nobody connected and no activity for ``idle_room_seconds``."""
        now = time.monotonic()
        return await self._forget(lambda room: self._nobody(room)
                                  and now - room.last_active >= self.limits.idle_room_seconds)

    async def expire_lobbies(self) -> int:
        """Forget lobbies that never started and nobody has been in for a few minutes."""
        now = time.monotonic()
        return await self._forget(
            lambda room: room.status == LOBBY and room.game_no == 0 and self._nobody(room)
            and now - room.last_active >= self.limits.lobby_expiry_seconds)

    def forget_here(self, room: Room) -> None:
        """The room is not in storage any more (another process deleted it, or Redis lost
        it): this process's copy goes too, and its clients are told."""
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            self.on_gone(room)
            self.coordination.drop(room)
            room.close()

    async def _forget(self, unwanted: Callable[[Room], bool]) -> int:
        """Delete the rooms that are ``unwanted`` (still, when their turn comes)."""
        forgotten = 0
        for code in [code for code, room in self.rooms.items() if unwanted(room)]:
            room = self.rooms.get(code)
            if room is not None and unwanted(room):
                forgotten += await self._delete(room)
        return forgotten

    async def _delete(self, room: Room) -> bool:
        """Out of reach at once, deleted from storage (after its changes already asked),
        then closed; a room that could not be deleted stays as it was."""
        code = room.code
        del self.rooms[code]
        try:
            await room.commits.run(functools.partial(off_loop, self.storage.delete_room, code))
        except StorageError as error:
            log.warning("room %s: not deleted (kept, tried again later): %s", code, error)
            self.rooms.setdefault(code, room)
            return False
        self.coordination.drop(room)
        room.close()
        return True

    async def create(self, settings: Any, host_name: Any, bots: Any) -> tuple[Room, int, str]:
        """A new room with its host in seat 0 and its bots; returns the room, seat, token.

        Checked completely and stored before it exists: a refused or unstorable room
        leaves nothing behind.
        """
        if not isinstance(settings, dict):
            raise RoomError("bad_settings", "settings must be an object")
        levels = level_names()
        if not isinstance(bots, list) or not all(isinstance(level, str) and level in levels
                                                 for level in bots):
            raise RoomError("bad_level", f"bots: a list of levels from {levels}")
        checked = parse_settings(settings)
        if len(bots) + 1 > checked["capacity"]:
            raise RoomError("bad_settings", "more bots than free seats")
        name = person_name(host_name, "Player 1")
        if await self._count() >= self.limits.max_rooms:
            await self.expire_lobbies()
            await self.evict_idle()
        if await self._count() >= self.limits.max_rooms:
            raise RoomError("too_many_rooms", "this server has no room for another room")
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms and code not in self.unrestored \
                    and code not in self.creating:
                break
        room = Room(code, checked, self.storage, self.hub, self.timing, self.coordination)
        token = secrets.token_urlsafe(18)
        room.seats = [Seat(name, "human", token_hash=hash_token(token))]
        room.seats += [Seat(f"Bot {number}", "bot", level=level)
                       for number, level in enumerate(bots, 1)]
        self.creating.add(code)
        try:
            await off_loop(self.storage.save_room, code, room.record())
        finally:
            self.creating.discard(code)
        self.rooms[code] = room
        self.coordination.hold(room)
        return room, 0, token

    async def _count(self) -> int:
        """Rooms on this server (several processes: in all of them)."""
        if self.storage.shared:
            return await off_loop(self.storage.room_count) + len(self.creating)
        return len(self.rooms) + len(self.creating)

    def get(self, code: Any) -> Room:
        room = self.rooms.get(normal_code(code)) if isinstance(code, str) else None
        if room is None:
            raise RoomError("no_room", "no room with this code")
        return room

    async def find(self, code: Any) -> Room:
        """:meth:`get`; with several processes, a room another one holds is read from the
        shared storage (off the loop) and held here too."""
        if not self.storage.shared or not isinstance(code, str) \
                or normal_code(code) in self.rooms:
            return self.get(code)
        wanted = normal_code(code)
        loaded = await off_loop(self.storage.load_room, wanted)
        if wanted in self.rooms:  # loaded meanwhile, by another client's request
            return self.rooms[wanted]
        if loaded is None:
            raise RoomError("no_room", "no room with this code")
        data, moves = loaded
        room = Room.restore(wanted, data, self.storage, self.hub, self.timing, moves,
                            self.coordination)
        self.rooms[wanted] = room
        self.coordination.hold(room)
        return room

    def close(self) -> None:
        for room in self.rooms.values():
            room.close()



def meta() -> dict[str, Any]:
    """What the create-room form offers: bot levels, custom rules, rule defaults."""
    from dataclasses import asdict

    return {"bot_levels": level_names(), "default_bot_level": default_bot_level(),
            "custom_rules": list(CUSTOM_RULES), "rules": asdict(Rules()),
            "min_seats": MIN_PLAYERS, "max_seats": MAX_PLAYERS,
            "seat_purpose": SEAT_PURPOSE, "event_kinds": event_kinds_json(),
            "custom_composer": composer_json(), "family_catch_grace": FAMILY_CATCH_GRACE}


def composer_json() -> dict[str, Any]:
    """What the Wild Customizable rule builder offers (engine/custom.py, DECISIONS.md D17):
    the steps, who each can act on, the counts, the limits, and every preset's steps
    (``count`` null where it is the rules' ``custom_count``)."""
    return {"who": list(WHO), "what": list(WHAT),
            "allowed_who": {what: list(who) for what, who in ALLOWED_WHO.items()},
            "count_range": {what: list(bounds) for what, bounds in COUNT_RANGE.items()},
            "max_steps": MAX_STEPS, "max_name": MAX_NAME, "max_text": MAX_TEXT,
            "presets": {name: [{"who": who, "what": what, "count": None if counted else 1}
                               for who, what, counted in PRESET_STEPS[name]]
                        for name in CUSTOM_RULES}}

