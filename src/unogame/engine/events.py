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
from typing import Any


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
