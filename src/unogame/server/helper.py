"""The children's helper and the round replay, as the server answers them.

- ``hint``: a move suggested to a seat whose helper is on, by the table's helper bot (the
  medium bot, hearing only that seat's events), computed in the bots' worker threads
  (:data:`~.flow.THINKERS`), never on the event loop; one per :data:`HINT_GAP` seconds.
- ``replay``: a finished round rebuilt from the stored move log (``replay.py``), for the
  asking seat only, one page at a time (``replay_pages.py``: built once off the loop, one
  build at a time for the whole server, kept in a bounded cache); a build takes one from
  the connection's allowance (one per :data:`REPLAY_GAP` seconds), a page already built
  does not.
"""

from __future__ import annotations

import asyncio
import functools
import json
import time
from typing import Any, Final

from .commits import off_loop
from .flow import THINKERS
from .replay import ReplayError
from .replay_pages import ReplayBusy, ReplayPages, build_pages
from .rooms import Room
from .seats import ROUND_MOVE_CAP, RoomError

HINT_GAP: Final = 3.0
"""Seconds between two hints of one connection."""
REPLAY_GAP: Final = 2.0
"""Seconds between two replays built for one connection."""


class Gap:
    """One request per ``gap`` seconds; the caller gives the time."""

    def __init__(self, gap: float) -> None:
        self.gap = gap
        self.last: float | None = None

    def take(self, now: float) -> bool:
        if self.last is not None and now - self.last < self.gap:
            return False
        self.last = now
        return True

    def check(self, code: str, message: str) -> None:
        """Take one now, or raise RoomError ``code``."""
        if not self.take(time.monotonic()):
            raise RoomError(code, message)


def _seated_person(room: Room, seat: int | None) -> int:
    if seat is None or not 0 <= seat < len(room.seats) or room.seats[seat].kind != "human":
        raise RoomError("not_seated", "only a player at the table may ask this")
    return seat


async def hint(room: Room, seat: int | None, allowance: Gap) -> dict[str, Any]:
    """The ``hint`` message for ``seat``: ``move`` (a legal move's text, or null when the
    helper has nothing to suggest) for the position ``version``. A hint computed takes one
    from ``allowance`` (a refused request does not)."""
    seat = _seated_person(room, seat)
    if not room.seats[seat].helper:
        raise RoomError("helper_off", "turn the helper on to get hints")
    table = room.table
    if table is None or room.current is None:
        raise RoomError("not_started", "the game has not started")
    room.current.sync()
    version = room.version
    request = table.hint(seat)
    if request is None:
        raise RoomError("no_hint", "there is no move to make now")
    allowance.check("hint_limited", "one hint every three seconds")
    move = await asyncio.get_running_loop().run_in_executor(THINKERS, request.decide)
    return {"type": "hint", "version": version, "move": move.text if move else None}


async def replay(room: Room, seat: int | None, game_no: Any, round_no: Any, page: Any,
                 allowance: Gap, pages: ReplayPages) -> str:
    """The ``replay`` message (its JSON text): page ``page`` (0, 1, ...) of the steps of a
    finished round as ``seat`` saw them, with ``pages`` (how many), ``first`` (the number
    of its first step) and ``total`` (steps in the round)."""
    seat = _seated_person(room, seat)
    if page is None:
        page = 0
    if type(page) is not int or page < 0:
        raise RoomError("no_replay", "page: a number from 0")
    players, seed, deal = room.replay_source(game_no, round_no)
    if seat >= players:
        raise RoomError("no_replay", "this seat was not at the table in that game")
    key = (room.code, game_no, seed, round_no, seat)
    build = functools.partial(build_pages, players, room.rules, seed, deal,
                              round_no=round_no, seat=seat, round_cap=ROUND_MOVE_CAP)
    try:
        built = await pages.get(
            key, functools.partial(off_loop, room.storage.load_moves, room.code, game_no),
            build, functools.partial(allowance.check, "replay_limited",
                                     "one replay every two seconds"))
    except ReplayError as error:
        raise RoomError("no_replay", str(error)) from None
    except ReplayBusy as error:
        raise RoomError("replay_busy", str(error)) from None
    if page >= len(built.pages):
        raise RoomError("no_replay", f"this replay has {len(built.pages)} pages")
    first, steps = built.pages[page]
    head = json.dumps({"type": "replay", "game_no": game_no, "round": round_no, "seat": seat,
                       "page": page, "pages": len(built.pages), "first": first,
                       "total": built.steps}, separators=(",", ":"))
    return head[:-1] + ',"steps":' + steps + "}"


__all__ = ["HINT_GAP", "REPLAY_GAP", "Gap", "hint", "replay"]
