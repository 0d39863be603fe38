"""Who sits at a table, the table's settings, and the seeds its bots get from its seed."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..bots import BOT_LEVELS

DEFAULT_BOT_LEVEL = "medium" if "medium" in BOT_LEVELS else next(iter(BOT_LEVELS))


class TableError(Exception):
    """A request the table refuses; ``code`` is a key a front end can translate.

    Codes: ``stale``, ``illegal``, ``not_your_turn``, ``not_host``, ``bad_seat``,
    ``not_over``, ``over``, ``present``.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """One seat: a name, and a bot level (``None``: a person plays it)."""

    name: str
    bot: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.bot is not None


@dataclass(frozen=True, slots=True)
class TableSettings:
    """How the table treats time and absent people (seconds of the front end's time)."""

    grace: float = 20.0
    """A person gone this long gets a bot standing in until they come back."""
    turn_timer: float | None = None
    """A person who has not moved this long after their turn began: a stand-in makes this
    one move. ``None``: no turn timer."""
    next_round_countdown: float | None = 30.0
    """The scoreboard between rounds stays at most this long (``None``: until every
    connected person has pressed "next round")."""
    stand_in_level: str = DEFAULT_BOT_LEVEL
    """The level of the bots that stand in for people."""
    round_cap: int | None = None
    """A round that reaches this many moves ends the match with no winner (nobody scores
    that round; docs/DECISIONS.md L1). ``None``: no cap."""
    log_keep: int | None = None
    """Only the last this many events are kept for :meth:`Table.feed` (memory stays
    bounded over a long match; :attr:`Table.event_count` still counts them all).
    ``None``: the whole match is kept."""
    catch_grace: float | None = None
    """Kind to children (a family room): while a person may be caught for a forgotten UNO,
    no bot is asked anything until this long after the position appeared, so a person who
    says UNO within it is never caught by a bot (of any level, a stand-in too). Whether a
    person may be caught is public, so the wait tells nothing hidden. ``None``: off."""

    def __post_init__(self) -> None:
        if self.grace < 0:
            raise ValueError("grace must be at least 0 seconds")
        if self.turn_timer is not None and self.turn_timer <= 0:
            raise ValueError("turn_timer must be positive (or None: off)")
        if self.next_round_countdown is not None and self.next_round_countdown < 0:
            raise ValueError("next_round_countdown must be at least 0 (or None: off)")
        if self.round_cap is not None and self.round_cap < 1:
            raise ValueError("round_cap must be at least 1 move (or None: no cap)")
        if self.log_keep is not None and self.log_keep < 0:
            raise ValueError("log_keep must be at least 0 (or None: everything)")
        if self.catch_grace is not None and self.catch_grace < 0:
            raise ValueError("catch_grace must be at least 0 seconds (or None: off)")
        if self.stand_in_level not in BOT_LEVELS:
            raise ValueError(f"unknown bot level {self.stand_in_level!r}")


def fill_empty_seats(seats: Sequence[SeatSpec], capacity: int,
                     level: str = DEFAULT_BOT_LEVEL,
                     names: Sequence[str] = ()) -> list[SeatSpec]:
    """``seats`` followed by bots of ``level`` up to ``capacity`` seats.

    The bots are named from ``names`` (default ``Bot N``, numbered after the bots already
    seated).

    >>> [s.name for s in fill_empty_seats([SeatSpec("Ann"), SeatSpec("Bot 1", "easy")], 4)]
    ['Ann', 'Bot 1', 'Bot 2', 'Bot 3']
    """
    if level not in BOT_LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    filled = list(seats)
    number = sum(1 for seat in filled if seat.is_bot)
    for index in range(max(0, capacity - len(filled))):
        number += 1
        name = names[index] if index < len(names) else f"Bot {number}"
        filled.append(SeatSpec(name, level))
    return filled


def derived_seed(seed: int, *parts: object) -> int:
    """A 48-bit seed for one use (a seat's bot, a stand-in, the reaction jitter) of a
    table seeded with ``seed``: the same table seed gives every front end the same bots."""
    key = "/".join(["uno-table", str(seed), *map(str, parts)])
    return random.Random(key).getrandbits(48)


__all__ = ["DEFAULT_BOT_LEVEL", "SeatSpec", "TableError", "TableSettings", "derived_seed",
           "fill_empty_seats"]
