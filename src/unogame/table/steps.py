"""What a table hands a front end: decision requests, accepted bot moves, the next round,
the bot failures it logged and the seats as everyone sees them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from ..bots import Bot
from ..engine import Move

PLAYING: Final = "playing"
ROUND_OVER: Final = "round_over"
MATCH_OVER: Final = "match_over"

STAND_IN_MOVE: Final = "stand_in_move"
"""A table event, logged just before the events of a move a bot made for a person:
``{"type": "stand_in_move", "seat": 1, "name": "Ann"}`` ("bot played for Ann")."""
ROUND_CAPPED: Final = "round_capped"
"""A table event, after the move that brought a round to ``TableSettings.round_cap`` moves:
``{"type": "round_capped", "moves": 10000}``; the match is over, with no winner."""
TABLE_EVENT_KINDS: Final = (STAND_IN_MOVE, ROUND_CAPPED)
"""Event kinds the table adds to the engine's; bots are never sent them."""


@dataclass(slots=True, eq=False)  # not frozen: built for every decision, frozen is slower
class DecisionRequest:
    """A bot's decision the table wants: run ``bot.choose(view, legal)`` anywhere (a worker
    thread too), then hand the answer to :meth:`Table.resolve`.

    Until then the table calls nothing on ``bot`` (events for it wait) and hands out no other
    request, so the bot may think on another thread.
    """

    seat: int
    version: int
    """The table's version when asked: an answer for an older version is dropped."""
    view: dict[str, Any]
    """``Game.view(seat)``: all the bot may know (empty when ``legal`` is)."""
    legal: tuple[Move, ...]
    """The seat's legal moves; off turn possibly none: the table asks every bot of the
    reaction window (what every seat sees), so that which requests come, and when, never
    tells whether a bot could jump in."""
    bot: Bot
    on_turn: bool
    """Its own turn (it must move) or an off-turn reaction (UNO, catch, jump-in; optional)."""
    stand_in: bool
    """A bot playing for a person (gone past the grace, handed over, or out of time)."""
    opened: float
    """The table time at which this position appeared."""
    delay: float
    """Pacing hint: how long after ``opened`` a front end that shows the play to people runs
    this request. Off turn: the longest reaction delay of the bots offered this position's
    reactions so far, this one included (a bot's ``reaction_delay``, or its ``catch_delay``
    when longer and a catch is legal); on turn: that of every bot in the reaction window
    (0 when none; the front end waits its own think time if longer). The window is what
    every seat sees (:func:`~unogame.table.order.reaction_window`), so when a request comes
    never tells whether a bot could jump in."""

    def decide(self) -> tuple[Move | None, BaseException | None]:
        """Ask the bot (what a worker runs); an exception is returned, not raised. With no
        legal move (a seat of the reaction window that may not react now) the answer is
        ``None`` at once and the bot is not asked."""
        if not self.legal:
            return None, None
        try:
            return self.bot.choose(self.view, self.legal), None
        except Exception as error:  # a faulty bot must not stop the table
            return None, error


@dataclass(frozen=True, slots=True)
class BotPlay:
    """A bot's move the table accepted (or the legal move that replaced a bad one): store it
    if the front end stores moves, then :meth:`Table.apply` it."""

    seat: int
    move: Move
    version: int
    stand_in: bool
    failure: str | None = None
    """Why the bot's own answer was replaced (``None``: it was its own, legal move)."""


@dataclass(frozen=True, slots=True)
class NextRound:
    """The table has decided to deal the next round: store that, then :meth:`Table.next_round`.

    ``reason``: ``"ready"`` (every connected person pressed it), ``"countdown"`` (the
    scoreboard's time ran out) or ``"nobody"`` (no person is connected)."""

    version: int
    reason: str


@dataclass(frozen=True, slots=True)
class BotFailure:
    """A bot's answer the table refused: the policy is the same for every front end."""

    seat: int
    level: str
    version: int
    on_turn: bool
    reason: str
    replaced_by: str | None
    """The legal turn move played instead (``None`` off turn: the reaction is dropped)."""


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat as everyone may see it."""

    name: str
    bot: str | None
    """The bot level of a bot seat (``None``: a person's seat)."""
    present: bool
    """A person connected (always ``True`` for a bot seat)."""
    stand_in: bool
    """A bot plays this person's seat until they come back."""
    handed: bool
    """The host handed the seat to a bot."""
    hidden: bool = False
    """The person is connected with their page hidden (away from the screen)."""


Step = DecisionRequest | NextRound | None


__all__ = ["MATCH_OVER", "PLAYING", "ROUND_CAPPED", "ROUND_OVER", "STAND_IN_MOVE",
           "TABLE_EVENT_KINDS", "BotFailure", "BotPlay", "DecisionRequest", "NextRound",
           "SeatInfo", "Step"]
