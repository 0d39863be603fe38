"""A move's update: one public part for the whole room, encoded once, and each seat's small
private part (issue 22).

Every client of a room hears the same public update: what changed in the position as a
spectator sees it since the position before (every client holds that one, from the
``state`` it joined with or the updates since), the events' public parts, and the
countdowns. A seated player's frame adds ``you``: its seat, its hand, its legal moves, what
it alone may see of the pending decision, and its private parts of the events (the cards
it drew). The public JSON is encoded once per move and shared by every socket of the room;
a seat's frame is that text with ``"you"`` spliced in before its last brace.

What changed: the fields of the game part (``status``, ``results``, ``round``, ``ready``)
and of the ``view`` that differ from the position before, each whole, except the discard
pile, whose new cards on top come as ``discard_add`` when the rest of it is as it was, and
the pending decision, said whenever there is one. The countdowns (``timer_left``,
``next_round_left``) run with the clock: each update says them, an absent one is null.

:func:`merge_update` is what a client makes of an update and the game message before it
(``static/update.js`` does the same in the page): the whole update that seat was sent
before issue 22.

>>> from unogame.engine import Event
>>> before = {"version": 1, "status": "playing", "results": [], "round": 1, "ready": [],
...           "view": {"hands": [2, 2], "discard_pile": ["R3"], "pending": None}}
>>> now = {**before, "version": 2, "timer_left": None, "next_round_left": None,
...        "view": {"hands": [2, 1], "discard_pile": ["R5", "R3"], "pending": None}}
>>> public = public_update(before, now, [Event("play", {"seat": 1, "card": "R5"})])
>>> public["view"], sorted(public)
({'hands': [2, 1], 'discard_add': ['R5']}, ['events', 'type', 'version', 'view'])
>>> text = with_part(encode(public), {"seat": 1, "hand": ["G2"], "legal": []})
>>> merged = merge_update(json.loads(text), {"type": "state", **before, "legal": ["play R5"]})
>>> merged["view"], merged["legal"], merged["status"], merged["timer_left"]
({'hands': [2, ['G2']], 'discard_pile': ['R5', 'R3'], 'pending': None}, [], 'playing', None)
"""

from __future__ import annotations

import json
from typing import Any

from ..engine import Event, Game
from ..engine.position import seat_pending
from ..engine.state import PlayableGame
from .hub import encode

GAME_FIELDS = ("status", "results", "round", "ready")
"""The game part's fields an update carries when they changed (``view`` apart)."""
COUNTDOWNS = ("timer_left", "next_round_left")
"""Said by every update that has them running (absent: null)."""


def public_update(before: dict[str, Any] | None, now: dict[str, Any],
                  events: list[Event]) -> dict[str, Any]:
    """The public update from the game part every client holds (``before``; ``None``:
    unknown, everything is sent) to ``now`` (``version``, the game fields, the countdowns
    and the spectator's ``view``)."""
    update: dict[str, Any] = {"type": "update", "version": now["version"]}
    for key in GAME_FIELDS:
        if before is None or before.get(key) != now[key]:
            update[key] = now[key]
    old_view = before.get("view") if before is not None else None
    view = now["view"]
    if not isinstance(old_view, dict):
        update["view"] = view
    else:
        changed = {key: value for key, value in view.items() if old_view.get(key) != value}
        pile, old_pile = view["discard_pile"], old_view.get("discard_pile")
        if "discard_pile" in changed and isinstance(old_pile, list) \
                and len(pile) > len(old_pile) and pile[len(pile) - len(old_pile):] == old_pile:
            del changed["discard_pile"]
            changed["discard_add"] = pile[:len(pile) - len(old_pile)]
        if view["pending"] is not None:  # said while there is one: a seat's own view of
            changed["pending"] = view["pending"]  # it (``you``) is then read over it
        update["view"] = changed
    for key in COUNTDOWNS:
        if now[key] is not None:
            update[key] = now[key]
    update["events"] = [event.for_seat(None) for event in events]
    return update


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


def merge_update(message: dict[str, Any], before: dict[str, Any] | None) -> dict[str, Any]:
    """An update as its seat reads it, from the game message it had before (the ``state``
    or the merged update; ``None``: none): the whole position and game part, the seat's
    hand, pending decision and events' private parts put in, its legal moves (none: a
    spectator)."""
    before = before or {}
    merged: dict[str, Any] = {"type": "update", "version": message["version"]}
    for key in GAME_FIELDS:
        merged[key] = message[key] if key in message else before.get(key)
    view = {**(before.get("view") or {}), **message.get("view", {})}
    added = view.pop("discard_add", None)
    if added is not None:
        view["discard_pile"] = [*added, *view.get("discard_pile", [])]
    for key in COUNTDOWNS:
        merged[key] = message.get(key)
    part = message.get("you")
    merged["legal"] = []
    merged["events"] = [dict(event) for event in message["events"]]
    if isinstance(part, dict):
        hands = list(view["hands"])
        hands[part["seat"]] = part["hand"]
        view["hands"] = hands
        if "pending" in part:
            view["pending"] = part["pending"]
        merged["legal"] = part["legal"]
        for index, fields in part.get("events", {}).items():
            merged["events"][int(index)].update(fields)
    merged["view"] = view
    return merged


def read_message(text: str | bytes, before: dict[str, Any] | None = None) -> dict[str, Any]:
    """A server message as a client reads it: an update merged with the game message the
    client had ``before`` (its last ``state`` or merged ``update``)."""
    message: dict[str, Any] = json.loads(text)
    return merge_update(message, before) if message.get("type") == "update" else message


class GameReader:
    """One connection's reading of the server's messages: each update merged with the game
    message before it (a client of the protocol keeps one per connection)."""

    def __init__(self) -> None:
        self.game: dict[str, Any] | None = None
        """The last ``state`` or merged ``update``."""

    def read(self, text: str | bytes) -> dict[str, Any]:
        message = read_message(text, self.game)
        if message.get("type") in ("state", "update"):
            self.game = message
        return message


__all__ = ["COUNTDOWNS", "GAME_FIELDS", "GameReader", "merge_update", "public_update",
           "read_message", "seat_part", "with_part"]
