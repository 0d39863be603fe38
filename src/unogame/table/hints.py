"""Hints for the children's helper: a bot per person seat that hears only that seat's
events and, asked, suggests a move from that seat's view and legal moves.

A helper bot is told exactly what the seat's own bot would be (``new_round`` with the
seat's view, then every event as ``Event.for_seat(seat)``), so a hint never depends on a
card the seat cannot see. A request thinks on a copy of the helper, anywhere (a worker
thread too), while the table goes on telling the helper what happens.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Final

from ..bots import Bot, make_bot
from ..engine import Move

HINT_LEVEL: Final = "medium"
"""The bot that suggests moves (deterministic for a view and its events, and quick)."""


@dataclass(slots=True, eq=False)
class HintRequest:
    """A hint to compute for ``seat`` at the table's ``version``: run :meth:`decide`."""

    seat: int
    version: int
    view: dict[str, Any]
    legal: tuple[Move, ...]
    bot: Bot
    """A copy of the seat's helper bot, for this request only."""

    def decide(self) -> Move | None:
        """The suggested move (one of ``legal``), or ``None``: nothing to suggest."""
        try:
            move = self.bot.choose(self.view, self.legal)
        except Exception:  # a hint is a courtesy: a failing bot suggests nothing
            return None
        return move if isinstance(move, Move) and move in self.legal else None


def helper_bot(seed: int) -> Bot:
    return make_bot(HINT_LEVEL, seed)


def hint_request(seat: int, version: int, view: dict[str, Any], legal: list[Move],
                 helper: Bot) -> HintRequest:
    return HintRequest(seat, version, view, tuple(legal), copy.deepcopy(helper))


__all__ = ["HINT_LEVEL", "HintRequest", "helper_bot", "hint_request"]
