"""A move's update: one public part for the whole room, encoded once, and each seat's small
private part (issue 22).

Every client of a room hears the same public update (the view as a spectator sees it, the
events' public parts, the scoreboard, the countdowns); a seated player's frame adds
``you``: its seat, its hand, its legal moves, what it alone may see of the pending
decision, and its private parts of the events (the cards it drew). The public JSON is
encoded once per move and shared by every socket of the room; a seat's frame is that text
with ``"you"`` spliced in before its last brace. :func:`merge_update` is what a client
makes of it (``static/update.js`` does the same in the page): the update as that seat
alone would have been sent it before.

>>> from unogame.engine import Event
>>> public = {"type": "update", "view": {"hands": [2, 1], "pending": None},
...           "events": [Event("draw", {"seat": 1, "count": 1}).for_seat(None)]}
>>> text = with_part(encode(public), {"seat": 1, "hand": ["R5"], "legal": ["play R5"],
...                                    "events": {"0": {"cards": ["R5"]}}})
>>> merged = merge_update(json.loads(text))
>>> merged["view"]["hands"], merged["legal"], merged["events"][0]["cards"]
([2, ['R5']], ['play R5'], ['R5'])
>>> merge_update(public)["legal"]
[]
"""

from __future__ import annotations

import json
from typing import Any

from ..engine import Event, Game
from ..engine.position import seat_pending
from ..engine.state import PlayableGame
from .hub import encode


def seat_part(game: PlayableGame, seat: int, legal: list[str], public_pending: Any,
              events: list[Event]) -> dict[str, Any]:
    """What ``seat`` sees beyond the public update: its hand, its legal moves, the pending
    decision where it sees more of it, its private parts of ``events`` (by index)."""
    if isinstance(game, Game):
        hand: Any = game.hand(seat)
        pending = seat_pending(game, seat)
    else:  # another PlayableGame: its own view says it
        view = game.view(seat)
        hand, pending = view["hands"][seat], view["pending"]
    part: dict[str, Any] = {"seat": seat, "hand": hand, "legal": legal}
    if pending != public_pending:
        part["pending"] = pending
    private = {str(index): event.private[seat] for index, event in enumerate(events)
               if seat in event.private}
    if private:
        part["events"] = private
    return part


def with_part(public_text: str, part: dict[str, Any]) -> str:
    """The public update's text with a seat's ``you`` part added (no re-encoding of the
    public part)."""
    return f'{public_text[:-1]},"you":{encode(part)}}}'


def merge_update(message: dict[str, Any]) -> dict[str, Any]:
    """An update as its seat reads it: the public part with the seat's hand, pending
    decision and events' private parts put in, and its legal moves (none: a spectator)."""
    merged = {key: value for key, value in message.items() if key != "you"}
    part = message.get("you")
    if not isinstance(part, dict):
        merged["legal"] = []
        return merged
    view = dict(merged["view"])
    hands = list(view["hands"])
    hands[part["seat"]] = part["hand"]
    view["hands"] = hands
    if "pending" in part:
        view["pending"] = part["pending"]
    merged["view"] = view
    merged["legal"] = part["legal"]
    events = [dict(event) for event in merged["events"]]
    for index, fields in part.get("events", {}).items():
        events[int(index)].update(fields)
    merged["events"] = events
    return merged


def read_message(text: str | bytes) -> dict[str, Any]:
    """A server message as a client reads it (an update merged for its seat)."""
    message: dict[str, Any] = json.loads(text)
    return merge_update(message) if message.get("type") == "update" else message


__all__ = ["merge_update", "read_message", "seat_part", "with_part"]
