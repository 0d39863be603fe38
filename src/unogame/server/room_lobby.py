"""A room's lobby and seats: joining, bots added, a seat removed (a bot plays it on in a
game), people let back, a person's helper turned on or off. Every change is stored first
(a failed write changes nothing) and, several processes sharing the room, tried again on the
room as stored when another process changed it first (``retry.py``). Mixed into
:class:`~.rooms.Room`.
"""

from __future__ import annotations

import dataclasses
import secrets
from typing import Any

from ..bots.base import level_names
from .admission import check_join, with_ban
from .commits import Commits, one_at_a_time
from .hub import Client
from .retry import retry_stale
from .room_messages import RoomMessages
from .seats import LOBBY, RoomError, Seat, default_bot_level, hash_token, person_name


class RoomLobby(RoomMessages):
    """The seats part of a room (its attributes are set up by :class:`~.rooms.Room`)."""

    commits: Commits
    capacity: int

    @property
    def status(self) -> str:
        raise NotImplementedError

    @property
    def closed(self) -> bool:
        raise NotImplementedError

    async def refresh(self) -> None:
        raise NotImplementedError

    def record(self) -> dict[str, Any]:
        raise NotImplementedError

    async def _store(self, record: dict[str, Any]) -> None:
        raise NotImplementedError

    async def _store_seats(self, seats: list[Seat]) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------ seats

    def _blank_name(self) -> str:
        """The name of a person who gave none: numbered by the people who joined, not by
        the seat (bots do not count), never one already taken."""
        taken = {seat.name for seat in self.seats}
        number = sum(1 for seat in self.seats if seat.kind == "human") + 1
        while f"Player {number}" in taken:
            number += 1
        return f"Player {number}"

    def find_token(self, token: Any) -> int | None:
        if not isinstance(token, str) or not token:
            return None
        wanted = hash_token(token)
        for index, seat in enumerate(self.seats):
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, wanted):
                return index
        return None

    @one_at_a_time
    @retry_stale
    async def join(self, name: Any, mark: str | None = None,
                   per_address: int = 4) -> tuple[int, str]:
        """A new player takes a free seat in the lobby; returns the seat and its secret token.
        ``mark``: the hash of the address joining (``admission.check_join``)."""
        if self.status != LOBBY:
            raise RoomError("already_started", "the game has started; you may watch")
        if len(self.seats) >= self.capacity:
            raise RoomError("room_full", "every seat is taken")
        if mark is not None:
            check_join(self.seats, self.banned, mark, self.capacity, per_address)
        token = secrets.token_urlsafe(18)
        seat = Seat(person_name(name, self._blank_name()), "human",
                    token_hash=hash_token(token), joined_from=mark)
        await self._store_seats([*self.seats, seat])
        self.seats.append(seat)
        self.publish_room()
        return len(self.seats) - 1, token

    @one_at_a_time
    @retry_stale
    async def add_bot(self, level: Any) -> None:
        if self.status != LOBBY:
            raise RoomError("already_started", "bots are added before the game starts")
        if not isinstance(level, str) or level not in level_names():
            raise RoomError("bad_level", f"unknown bot level {level!r}")
        if len(self.seats) >= self.capacity:
            raise RoomError("room_full", "every seat is taken")
        number = sum(1 for seat in self.seats if seat.kind == "bot") + 1
        seat = Seat(f"Bot {number}", "bot", level=level)
        await self._store_seats([*self.seats, seat])
        self.seats.append(seat)
        self.publish_room()

    @one_at_a_time
    @retry_stale
    async def remove_seat(self, index: Any) -> list[Client]:
        """The host removes a bot or a player: gone from the lobby; in a game, a bot plays on.
        Returns the clients that had the seat (they watch now)."""
        if type(index) is not int or not 0 <= index < len(self.seats):
            raise RoomError("bad_seat", "no such seat")
        if index == self.host:
            raise RoomError("bad_seat", "the host cannot remove their own seat")
        removed = self.seats[index]
        if self.status != LOBBY and removed.kind == "bot":
            raise RoomError("bad_seat", "a bot already plays this seat")
        lobby = self.status == LOBBY
        creator = self.creator
        if creator == index:
            creator = None
        elif creator is not None and lobby and creator > index:
            creator -= 1
        banned = with_ban(self.banned, removed.joined_from)  # stays out until let back
        if lobby:
            host = self.host - 1 if self.host > index else self.host
            await self._store({
                **self.record(), "host": host, "creator": creator, "banned": banned,
                "seats": [seat.to_dict() for seat in self.seats if seat is not removed]})
            del self.seats[index]
            self.host = host
        else:
            as_bot = Seat(removed.name, "bot", level=default_bot_level())
            await self._store({**self.record(), "creator": creator, "banned": banned, "seats": [
                (as_bot if seat is removed else seat).to_dict() for seat in self.seats]})
            removed.kind = "bot"
            removed.level = as_bot.level
            removed.token_hash = None
            removed.connected = 0
            removed.hidden = 0
            assert self.current is not None
            self.current.table.seat_to_bot(index, default_bot_level())
        self.creator = creator
        self.banned = banned
        if lobby:  # the seats after the removed one moved up
            self.present = {seat - (seat > index): here for seat, here in self.present.items()
                            if seat != index}
            self.hidden_pages = {seat - (seat > index): away for seat, away
                                 in self.hidden_pages.items() if seat != index}
        unseated = [client for client in self.hub.clients(self.code) if client.seat == index]
        for client in self.hub.clients(self.code):
            if client.seat == index:
                client.seat = None
            elif lobby and client.seat is not None and client.seat > index:
                client.seat -= 1
        self.hub.refresh_presence(self.code)
        self.publish_room()
        self.publish_state()
        self.schedule()
        return unseated

    @one_at_a_time
    async def unban(self) -> None:
        """The host lets the people they removed join again (stored first)."""
        if self.banned:
            await self._store({**self.record(), "banned": []})
            self.banned = []
            self.publish_room()

    @one_at_a_time
    @retry_stale
    async def set_helper(self, seat: int | None, on: Any) -> None:
        """A person turns the children's helper on or off for their own seat (stored with
        the seats, so it survives a restart)."""
        if seat is None or not 0 <= seat < len(self.seats) or self.seats[seat].kind != "human":
            raise RoomError("not_seated", "only a player turns their helper on or off")
        if type(on) is not bool:
            raise RoomError("bad_helper", "on: true or false")
        changed = dataclasses.replace(self.seats[seat], helper=on)
        await self._store_seats([changed if index == seat else other
                                 for index, other in enumerate(self.seats)])
        self.seats[seat].helper = on
        self.publish_room()

