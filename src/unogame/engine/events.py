"""Events: what happened in a move, and who may see which part of it.

An event has a public part that every seat (and a spectator) sees, and private parts that
only the named seats see: the cards a player draws, the hand a challenger is shown.
:meth:`Event.for_seat` is the only way a front end should turn an event into a message.

>>> event = Event("draw", {"seat": 1, "count": 2}, {1: {"cards": ["R1", "B2"]}})
>>> event.for_seat(1)
{'type': 'draw', 'seat': 1, 'count': 2, 'cards': ['R1', 'B2']}
>>> event.for_seat(0)
{'type': 'draw', 'seat': 1, 'count': 2}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened: its type, its public data and its per-seat private data."""

    type: str
    public: dict[str, Any]
    private: dict[int, dict[str, Any]] = field(default_factory=dict)

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it (``None``: a spectator, public part only)."""
        message: dict[str, Any] = {"type": self.type, **self.public}
        if seat is not None and seat in self.private:
            message.update(self.private[seat])
        return message


@dataclass(frozen=True, slots=True)
class EventKind:
    """One kind of event: its name (``Event.type``) and the fields it carries."""

    name: str
    doc: str
    fields: tuple[str, ...]
    """Public fields, always present."""
    optional: tuple[str, ...] = ()
    """Public fields present only sometimes."""
    private: tuple[str, ...] = ()
    """Fields only the seats named in ``Event.private`` see."""


DRAW_REASONS: Final = ("turn", "draw_two", "wild_draw_four", "stack", "challenge", "custom",
                       "uno_penalty")
"""Why a ``draw`` event's seat drew: its own turn (R4.3), a Draw Two (R5.1, also the first
card), a Wild Draw Four (accepted), a stack taken, a challenge (R5.4), a Wild Customizable
rule (R5.7), a catch (R6.2)."""

EVENT_KINDS: Final[tuple[EventKind, ...]] = (
    EventKind("deal", "a round is dealt and its first card turned up (R2); the seat to act "
              "and the direction are after the first card's effect (direction -1: a "
              "Reverse, R5.2)", ("dealer", "top", "turn", "direction")),
    EventKind("play", "a card is played: its code, the move text, the colour to match now; "
              "jump_in: out of turn. A card a family's rule gives is left out of the move "
              "text; only the player's own copy of the event names it (D20)",
              ("seat", "card", "move", "color"), ("jump_in",), ("move",)),
    EventKind("draw", "a seat draws count cards (fewer when the piles run out, R4.5); the "
              "seat itself sees the cards", ("seat", "count", "reason"), (), ("cards",)),
    EventKind("pass", "a seat keeps the playable card it drew (R4.4)", ("seat",)),
    EventKind("challenge", "a seat challenges the Wild Draw Four of seat by (R5.4); the "
              "challenger is shown that hand", ("seat", "by", "guilty"), (), ("hand",)),
    EventKind("accept", "a seat accepts a Wild Draw Four without challenging", ("seat",)),
    EventKind("color", "the first player names the colour of a wild turned up (R5.8)",
              ("seat", "color")),
    EventKind("uno", "a seat says UNO (R6.1)", ("seat",)),
    EventKind("catch", "a seat catches seat target, who did not say UNO (R6.2)",
              ("seat", "target")),
    EventKind("skip", "a seat loses its turn", ("seat",)),
    EventKind("swap", "two seats swap hands (R5.6, seven_zero 7)", ("seats",)),
    EventKind("pass_hands", "every hand moves on in the direction of play (seven_zero 0, "
              "pass_hands)", ("direction",)),
    EventKind("custom", "a Wild Customizable's rule takes effect (R5.7): rule is the preset "
              "name, or composed / table for a family's rule, announced with its name, text "
              "and steps (DECISIONS.md D20)", ("seat", "rule"), ("name", "text", "steps")),
    EventKind("reverse", "a family's rule reverses the direction of play (D17)",
              ("seat", "direction")),
    EventKind("reveal", "a family's rule shows a seat's hand to everyone (D17: public by "
              "design)", ("seat", "hand")),
    EventKind("give", "a family's rule: seat gives one card to seat to; only those two see "
              "which card (D17)", ("seat", "to", "count"), (), ("card",)),
    EventKind("discard", "a seat discards every card of the colour it named (discard_color)",
              ("seat", "cards")),
    EventKind("reshuffle", "the discard pile but its top card becomes the draw pile (R4.5)",
              ("count",)),
    EventKind("round_over", "a seat has gone out: each hand's points, the scores, every hand "
              "shown, and the game winner if the target is reached (R7, R3.2)",
              ("winner", "points", "scores", "hands", "game_winner")),
)
"""Every kind of event the engine makes, in one place (front ends read it from here)."""

EVENT_KIND: Final[dict[str, EventKind]] = {kind.name: kind for kind in EVENT_KINDS}
"""The kinds by name.

>>> EVENT_KIND["draw"].private
('cards',)
"""


def event_kinds_json() -> dict[str, dict[str, Any]]:
    """:data:`EVENT_KINDS` as JSON, by name (for front ends that get it over the wire).

    >>> event_kinds_json()["catch"]["fields"]
    ['seat', 'target']
    """
    return {kind.name: {"doc": kind.doc, "fields": list(kind.fields),
                        "optional": list(kind.optional), "private": list(kind.private)}
            for kind in EVENT_KINDS}
