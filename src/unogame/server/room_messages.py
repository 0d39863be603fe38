"""A room's messages: the room and state each client is sent, the update after each change
(one public part for the whole room, encoded once, and each seat's own part:
``updates.py``), a tapped card's refusal. Mixed into :class:`~.rooms.Room`, which sets up
the attributes."""

from __future__ import annotations

import time
from typing import Any

from ..engine import Event
from ..table import Table
from .flow import RoomGame
from .hub import Hub, encode
from .presence import RoomPresence
from .seats import FAMILY_CATCH_GRACE, LOG_KEEP, RoomError, Seat
from .updates import public_update, seat_part, with_part
from .why import card_refusals


class RoomMessages(RoomPresence):
    """The messages part of a room (its attributes are set up by :class:`~.rooms.Room`;
    who is there: :class:`~.presence.RoomPresence`)."""

    code: str
    name: str
    capacity: int
    rules_dict: dict[str, Any]
    timer: int
    grace: int
    fill: str | None
    family: bool
    seats: list[Seat]
    host: int
    game_no: int
    version_base: int
    matches: list[dict[str, Any]]
    banned: list[Any]
    hub: Hub
    current: RoomGame | None
    last_active: float
    _shown: dict[str, Any] | None
    """The game part every client of the room holds (the last one published)."""

    @property
    def version(self) -> int:
        raise NotImplementedError

    @property
    def status(self) -> str:
        raise NotImplementedError

    def _running(self) -> RoomGame:
        raise NotImplementedError

    def standings_now(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def room_message(self, seat: int | None) -> dict[str, Any]:
        table = self.table
        infos = table.seats() if table is not None else None
        return {
            "type": "room", "room": self.code, "name": self.name, "capacity": self.capacity,
            "rules": self.rules_dict, "timer": self.timer, "grace": self.grace,
            "fill": self.fill, "status": self.status,
            "family": self.family,
            "catch_grace": FAMILY_CATCH_GRACE if self.family else None,
            "host": self.host, "you": seat, "spectators": self.watchers(),
            "game_no": self.game_no, "matches": self.matches, "removed": len(self.banned),
            "standings": self.standings_now(),
            "helper": seat is not None and 0 <= seat < len(self.seats)
            and self.seats[seat].helper,
            "seats": [{"name": info.name, "kind": info.kind, "level": info.level,
                       "connected": info.kind == "bot" or self.present_anywhere(index),
                       "hidden": info.kind == "human" and self.away_anywhere(index),
                       "away": infos is not None and index < len(infos)
                       and infos[index].stand_in,
                       "handed": infos is not None and index < len(infos)
                       and infos[index].handed}
                      for index, info in enumerate(self.seats)],
        }

    def _game_part(self, seat: int | None) -> dict[str, Any]:
        current = self.current
        assert current is not None
        current.sync()
        table = current.table
        playing = seat is not None and seat < table.players
        return {
            "version": self.version, "status": self.status,
            "view": table.view(seat if playing else None),
            "legal": [move.text for move in table.legal_moves(seat)] if playing else [],
            **self._shared_part(table),
        }

    def _shared_part(self, table: Table) -> dict[str, Any]:
        return {"results": list(table.results), "round": table.round,  # a copy: the
                # table appends to its own list, and the next update compares with this
                "ready": sorted(table.ready),
                "timer_left": _seconds(table.turn_remaining()),
                "next_round_left": _seconds(table.next_round_remaining())}

    def state_message(self, seat: int | None) -> dict[str, Any]:
        """Everything a (re)joining client needs: its view, legal moves, log, scoreboard,
        and the time left on the turn timer and the scoreboard's countdown."""
        table = self.table
        if table is None:
            return {"type": "state", "version": self.version, "status": self.status,
                    "view": None, "legal": [], "results": [], "log": [], "round": 0,
                    "ready": [], "timer_left": None, "next_round_left": None}
        last = table.last_move(seat)
        return {"type": "state", **self._game_part(seat),
                "log": table.feed(seat, table.event_count - LOG_KEEP),
                "last_move": None if last is None else
                {"version": self.version_base + last[0], "move": last[1]}}

    def publish_room(self) -> None:
        self.last_active = time.monotonic()
        self.hub.publish(self.code, self.room_message)

    def publish_state(self) -> None:
        table = self.table
        self._shown = self._public_part(table) if table is not None else None
        self.hub.publish(self.code, self.state_message)

    def _public_part(self, table: Table) -> dict[str, Any]:
        """The game part as a spectator sees it: what every client of the room holds once
        it is sent (the base of the next update)."""
        return {"version": self.version, "status": self.status, "view": table.view(None),
                **self._shared_part(table)}

    def publish_update(self, events: list[Event]) -> None:
        """One public update for the room, encoded once: what changed since the position
        every client holds; a seated player's frame adds its own small part
        (``updates.py``)."""
        self.last_active = time.monotonic()
        current = self.current
        assert current is not None
        current.sync()
        table = current.table
        now = self._public_part(table)
        public_text = encode(public_update(self._shown, now, events))
        self._shown = now
        pending = now["view"]["pending"]

        def text_for(seat: int | None) -> str:
            if seat is None or not 0 <= seat < table.players:
                return public_text
            legal = [move.text for move in table.legal_moves(seat)]
            return with_part(public_text, seat_part(table.game, seat, legal, pending, events))

        self.hub.publish(self.code, text_for)

    def why_message(self, seat: int | None, card: Any) -> dict[str, Any]:
        """Why ``seat`` cannot play ``card`` of its hand now (the page asks when the card is
        tapped): the engine's code, rule and parameters, or ``null`` when it can."""
        current = self._running()
        table = current.table
        if seat is None or not 0 <= seat < table.players:
            raise RoomError("not_seated", "spectators hold no cards")
        if not isinstance(card, str) or len(card) > 8:
            raise RoomError("bad_card", "card: a card code of your hand")
        current.sync()
        hand = table.view(seat)["hands"][seat]
        if not isinstance(hand, list) or card not in hand:
            raise RoomError("bad_card", "card: a card code of your hand")
        legal = [move.text for move in table.legal_moves(seat)]
        reason = card_refusals(table.game, seat, [card], legal).get(card)
        return {"type": "why", "card": card, "version": self.version, "refusal": reason}



def _seconds(value: float | None) -> float | None:
    return None if value is None else round(value, 1)

