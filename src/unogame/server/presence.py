"""Who has a room open: this process's connections and (several processes) the others'.

A person counts as present while any of their connections, in any server process, is open:
coming back sends a bot standing in for them away, the last one leaving starts their grace
(the table's rules), and a host who leaves the lobby hands the role on; the room's creator
gets it back on their return (a reload). A present person whose every page is hidden (a
phone in the background) is *away*: on their turn that counts like gone (the table's
rules). Each process reports per seat its connections (``seats``) and how many of them are
hidden (``hidden``; missing: none), so the same holds with several processes: the room's
coordination (``coordination.py``) knows the other processes' counts. Mixed into
:class:`~.rooms.Room`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from ..table import Table
from .coordination import Coordination
from .seats import Seat


class RoomPresence:
    """The presence part of a room (its attributes are set up by :class:`~.rooms.Room`)."""

    seats: list[Seat]
    host: int
    spectators: int
    code: str
    coordination: Coordination
    """Knows the other server processes' clients of the room (one process: none)."""
    present: dict[int, bool]
    """Whether each seat was present when last looked at."""
    hidden_pages: dict[int, bool]
    """Whether each seat, when last present, had every page hidden."""
    creator: int | None
    """The seat of the person who created the room (``None``: removed); they host again
    whenever they come back."""

    @property
    def table(self) -> Table | None:
        raise NotImplementedError

    def sync_clock(self) -> None:
        """Report the time passed to the game's table."""
        raise NotImplementedError

    def publish_room(self) -> None:
        raise NotImplementedError

    def schedule(self) -> None:
        raise NotImplementedError

    def save_later(self, what: str) -> None:
        raise NotImplementedError

    def connected(self, seat: int | None) -> None:
        if seat is None:
            self.spectators += 1
        else:
            self.seats[seat].connected += 1
            self.seats[seat].gone_since = None
        self._presence()

    def disconnected(self, seat: int | None, hidden: bool = False) -> None:
        """A connection of ``seat`` closed (``hidden``: its page was hidden)."""
        if seat is None:
            self.spectators = max(0, self.spectators - 1)
        elif 0 <= seat < len(self.seats):
            info = self.seats[seat]
            info.connected = max(0, info.connected - 1)
            if hidden:
                info.hidden = max(0, info.hidden - 1)
        self._presence()

    def visibility(self, seat: int | None, hidden: bool) -> None:
        """A connection of ``seat`` (this process's) now has its page hidden or visible."""
        if seat is None or not 0 <= seat < len(self.seats):
            return
        info = self.seats[seat]
        info.hidden = min(info.connected, max(0, info.hidden + (1 if hidden else -1)))
        self._presence()

    def _others(self) -> Iterable[dict[str, Any]]:
        """The other processes' presence in the room (one process: none)."""
        return self.coordination.elsewhere(self.code).values()

    def visible_anywhere(self, seat: int) -> bool:
        """Someone has the seat open on a page that is not hidden, here or elsewhere."""
        key = str(seat)
        info = self.seats[seat]
        return info.connected - info.hidden > 0 or any(
            presence.get("seats", {}).get(key, 0) - presence.get("hidden", {}).get(key, 0) > 0
            for presence in self._others())

    def away_anywhere(self, seat: int) -> bool:
        """The seat is open, but only on hidden pages."""
        return self.present_anywhere(seat) and not self.visible_anywhere(seat)

    def present_anywhere(self, seat: int) -> bool:
        """Someone has the seat open, in this process or another."""
        key = str(seat)
        return self.seats[seat].connected > 0 or any(
            presence.get("seats", {}).get(key, 0) > 0 for presence in self._others())

    def watchers(self) -> int:
        """Spectators in every process."""
        return self.spectators + sum(int(presence.get("watchers", 0))
                                     for presence in self._others())

    def clients_elsewhere(self) -> int:
        """Connections to the room in the other processes (seats and spectators)."""
        return sum(int(presence.get("watchers", 0)) + sum(presence.get("seats", {}).values())
                   for presence in self._others())

    def presence_changed(self) -> None:
        """Another process's clients of the room changed (its coordination heard it)."""
        self._presence()

    def _presence(self) -> None:
        """Seats opened or left anywhere: a person back sends their stand-in away, a person
        gone starts their grace."""
        table = self.table
        if table is not None:
            self.sync_clock()
        for index, info in enumerate(self.seats):
            self._away(index, info.kind == "human")
            now = self.present_anywhere(index)
            if now == self.present.get(index, False):
                continue
            self.present[index] = now
            if now:
                info.gone_since = None
                if table is not None and info.kind == "human":
                    table.set_present(index, True)  # back: a bot standing in leaves
                if index == self.creator and self.host != index and info.kind == "human":
                    self._host_back(index)
            else:
                info.gone_since = time.monotonic()
                if info.kind == "human":
                    self._gone(index)
        self.publish_room()
        self.schedule()

    def _away(self, seat: int, person: bool) -> None:
        """The seat's pages all hidden, or one visible again: the table is told. (Gone
        altogether: the table's grace for the absent applies; this is left as it was.)"""
        if not self.present_anywhere(seat):
            return
        away = not self.visible_anywhere(seat)
        if away == self.hidden_pages.get(seat, False):
            return
        self.hidden_pages[seat] = away
        table = self.table
        if table is not None and person and seat < table.players:
            table.set_hidden(seat, away)

    def _host_back(self, seat: int) -> None:
        """The room's creator is back: they host again (a reload must not hand the role to
        someone else for good)."""
        table = self.table
        if table is not None:
            table.set_host(seat)
        self.host = seat
        self.save_later("the host back")

    def _gone(self, seat: int) -> None:
        """A person's last connection closed: the table starts their grace; a host who
        leaves hands the role to the next connected person."""
        table = self.table
        if table is not None:
            self.sync_clock()
            table.set_present(seat, False)
            host = table.host if table.host is not None else self.host
        elif seat == self.host:  # the lobby: the next connected person hosts
            count = len(self.seats)
            following = [(seat + step) % count for step in range(1, count)]
            host = next((index for index in following if self.seats[index].kind == "human"
                         and self.present_anywhere(index)), self.host)
        else:
            return
        if host != self.host:
            self.host = host
            self.save_later("the new host")  # if it fails, a restart keeps the former host

