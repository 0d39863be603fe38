"""Hints for the children's helper: a bot per person seat that hears only that seat's
events and, asked, suggests a move from that seat's view and legal moves.

A helper bot is told exactly what the seat's own bot would be (``new_round`` with the
seat's view, then every event as ``Event.for_seat(seat)``), so a hint never depends on a
card the seat cannot see. A request thinks on a copy of the helper, anywhere (a worker
thread too), while the table goes on telling the helper what happens.

Most seats never ask for a hint, so :class:`SeatHelpers` builds a seat's helper only when
it is first asked for: it keeps the seat's view at the round's start (as compact JSON) and
the round's events, and replays them into a fresh helper, which then gives exactly the
hints a helper told everything from the start would give (issue 22).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..bots import Bot, make_bot
from ..engine import Event, Move, Rules
from ..engine.state import PlayableGame
from .random_states import rng_state, set_rng_state
from .seats import derived_seed

HINT_LEVEL: Final = "medium"
"""The bot that suggests moves (deterministic for a view and its events, and quick)."""

KEPT_EVENTS: Final = 600
"""A round's events kept for helpers not yet built, at most: past it (a round far longer
than most, ~100 events) every helper is built, so a table never holds more than it did
with every helper built from the start."""


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


class SeatHelpers:
    """The helper bots of a table's person seats, each built when first asked for.

    Until then a seat costs its view at the round's start (JSON, about 300 bytes) and a
    share of the round's event list; no helper hears anything. A built helper is told the
    round so far (the same ``new_round`` view, the same events in order) and from then on
    hears every event live. Its random generator is seeded as it always was, or set to the
    state a restored table was given: a helper's generator changes only when it decides,
    and the table's helpers never decide (a hint decides on a copy).
    """

    __slots__ = ("_built", "_events", "_rules", "_seats", "_seed", "_starts", "_states")

    def __init__(self, seed: int, seats: Iterable[int]) -> None:
        self._seed = seed
        self._seats = set(seats)
        """The seats that have a helper (built or not)."""
        self._built: dict[int, Bot] = {}
        self._starts: dict[int, str] = {}
        """Each seat not yet built: its view at the round's start, as JSON."""
        self._events: list[Event] = []
        """The round's events the helpers hear (kept while a seat is not yet built; the
        table's own log may keep fewer, ``TableSettings.log_keep``)."""
        self._rules: Rules | None = None
        self._states: dict[int, tuple[Any, ...]] = {}
        """Random states set for seats not yet built, that differ from a fresh helper's."""

    def __contains__(self, seat: object) -> bool:
        return seat in self._seats

    @property
    def built(self) -> list[int]:
        """The seats whose helper is built (asked for at least once), in order."""
        return sorted(self._built)

    def new_round(self, game: PlayableGame) -> None:
        """A round starts (or the table does): the built helpers are told so; for the
        others, their seat's view is kept."""
        rules = self._rules = game.rules
        for seat, helper in self._built.items():
            helper.new_round(seat, game.view(seat), rules)
        self._starts = {seat: json.dumps(game.view(seat), separators=(",", ":"))
                        for seat in self._seats if seat not in self._built}
        self._events = []

    def hear(self, event: Event) -> None:
        """One event of the round (not a table's own kind)."""
        if self._starts:
            if len(self._events) < KEPT_EVENTS:
                self._events.append(event)
            else:  # a very long round: build them all, told the round so far
                for seat in list(self._starts):
                    self.helper(seat)
        for seat, helper in self._built.items():
            helper.observe(event.for_seat(seat))

    def helper(self, seat: int) -> Bot | None:
        """``seat``'s helper, built now if it was not (``None``: the seat has none)."""
        helper = self._built.get(seat)
        if helper is not None or seat not in self._seats:
            return helper
        helper = helper_bot(derived_seed(self._seed, seat, "hint"))
        state = self._states.pop(seat, None)
        if state is not None:
            helper.rng.setstate(state)
        start = self._starts.pop(seat, None)
        if start is not None:  # None: no round started yet (never, at a table)
            helper.new_round(seat, json.loads(start), self._rules)
            for event in self._events:
                helper.observe(event.for_seat(seat))
        if not self._starts:
            self._events = []  # every helper is built: they all hear events live
        self._built[seat] = helper
        return helper

    def drop(self, seat: int) -> None:
        """``seat`` has no helper any more (a bot took it for good)."""
        self._seats.discard(seat)
        self._built.pop(seat, None)
        self._starts.pop(seat, None)
        self._states.pop(seat, None)
        if not self._starts:
            self._events = []

    def random_states(self) -> dict[str, Any]:
        """The helpers' random states that are not a fresh helper's, built or not (a seat
        missing here has a fresh helper's state): the same whichever helpers were built."""
        states: dict[str, Any] = {}
        for seat in sorted(self._seats):
            helper = self._built.get(seat)
            state = helper.rng.getstate() if helper is not None else self._states.get(seat)
            if state is not None and state != self._fresh(seat):
                states[str(seat)] = rng_state(_generator(state))
        return states

    def set_random_states(self, states: Mapping[str, Any]) -> None:
        """Set what :meth:`random_states` gave (``ValueError`` if it does not fit); states
        of seats without a helper are ignored."""
        for index, value in states.items():
            seat = int(index)
            if seat not in self._seats:
                continue
            helper = self._built.get(seat)
            if helper is not None:
                set_rng_state(helper.rng, value)
                continue
            scratch = random.Random()
            set_rng_state(scratch, value)
            state = scratch.getstate()
            if state == self._fresh(seat):  # what a save from before issue 22 holds
                self._states.pop(seat, None)
            else:
                self._states[seat] = state

    def _fresh(self, seat: int) -> tuple[Any, ...]:
        """The random state of ``seat``'s helper as made (not kept: 2.5 KiB a seat)."""
        return helper_bot(derived_seed(self._seed, seat, "hint")).rng.getstate()


def _generator(state: tuple[Any, ...]) -> random.Random:
    rng = random.Random()
    rng.setstate(state)
    return rng


__all__ = ["HINT_LEVEL", "HintRequest", "SeatHelpers", "helper_bot", "hint_request"]
