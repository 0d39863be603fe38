"""A finished round replayed step by step for one seat: what that seat saw, no more.

The room's game is its rules, its seed and its stored move log (``storage.py``); replaying
the log through the engine rebuilds every position. Each step of the requested round is
the seat's own view after it (``Game.view(seat)``) and the step's events as that seat saw
them (``Event.for_seat(seat)``): other seats' hidden cards, the draw pile and the move
texts (a Wild Customizable's gift names its card) never enter it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import Game, Move, Rules
from .flow import STAND_IN_PREFIX
from .storage import ROUND_BOUNDARY


class ReplayError(Exception):
    """The log holds no such finished round."""


def _step(game: Game, seat: int, by: int | None, stand_in: bool,
          events: Sequence[Any]) -> dict[str, Any]:
    return {"by": by, "stand_in": stand_in, "view": game.view(seat),
            "events": [event.for_seat(seat) for event in events]}


def round_replay(players: int, rules: Rules, seed: int, deal: dict[str, Any] | None,
                 entries: Sequence[tuple[int, str]], round_no: int,
                 seat: int) -> list[dict[str, Any]]:
    """The steps of round ``round_no`` (1, 2, ...) of a game, as ``seat`` saw them: first
    the deal, then one step per move (``by``: the seat that moved; ``stand_in``: a bot
    moved for that person). Raises :class:`ReplayError` if the round did not finish."""
    if deal is not None:
        game = Game.deal(players, deal["dealer"], deal["deck"], rules, seed)
    else:
        game = Game.new(players, rules, seed)
    number = 1
    steps: list[dict[str, Any]] = []
    if round_no == 1:
        steps.append(_step(game, seat, None, False, game.start_events()))
    for who, text in entries:
        if who < 0 and text == ROUND_BOUNDARY:
            if number == round_no:
                break
            events = game.next_round()
            number += 1
            if number == round_no:
                steps.append(_step(game, seat, None, False, events))
            continue
        stand_in = text.startswith(STAND_IN_PREFIX)
        events = game.push(who, Move.parse(text.removeprefix(STAND_IN_PREFIX)))
        if number == round_no:
            steps.append(_step(game, seat, who, stand_in, events))
    if number != round_no or game.winner is None:
        raise ReplayError(f"round {round_no} is not a finished round of this game")
    return steps


__all__ = ["ReplayError", "round_replay"]
