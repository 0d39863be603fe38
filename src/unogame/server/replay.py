"""A finished round replayed step by step for one seat: what that seat saw, no more.

The room's game is its rules, its seed and its stored move log (``storage.py``); replaying
the log through the engine rebuilds every position. Each step of the requested round is
the seat's own view after it (``Game.view(seat)``) and the step's events as that seat saw
them (``Event.for_seat(seat)``): other seats' hidden cards, the draw pile and the move
texts (a Wild Customizable's gift names its card) never enter it. The server sends a
replay in pages of a bounded size (:func:`pages_of`, ``replay_pages.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
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


def replay_steps(players: int, rules: Rules, seed: int, deal: dict[str, Any] | None,
                 entries: Sequence[tuple[int, str]], round_no: int, seat: int,
                 round_cap: int | None = None) -> Iterator[dict[str, Any]]:
    """The steps of round ``round_no`` (1, 2, ...) of a game, as ``seat`` saw them, one at
    a time: first the deal, then one step per move (``by``: the seat that moved;
    ``stand_in``: a bot moved for that person). A round is finished when someone won it or
    when it reached ``round_cap`` moves (the match ended there, docs/DECISIONS.md L1).
    Raises :class:`ReplayError` (once the log is read) if the round did not finish."""
    if deal is not None:
        game = Game.deal(players, deal["dealer"], deal["deck"], rules, seed)
    else:
        game = Game.new(players, rules, seed)
    number = 1
    moves = 0
    if round_no == 1:
        yield _step(game, seat, None, False, game.start_events())
    for who, text in entries:
        if who < 0 and text == ROUND_BOUNDARY:
            if number == round_no:
                break
            events = game.next_round()
            number += 1
            if number == round_no:
                yield _step(game, seat, None, False, events)
            continue
        stand_in = text.startswith(STAND_IN_PREFIX)
        events = game.push(who, Move.parse(text.removeprefix(STAND_IN_PREFIX)), undo=False)
        if number == round_no:
            moves += 1
            yield _step(game, seat, who, stand_in, events)
    capped = round_cap is not None and moves >= round_cap
    if number != round_no or (game.winner is None and not capped):
        raise ReplayError(f"round {round_no} is not a finished round of this game")


def round_replay(players: int, rules: Rules, seed: int, deal: dict[str, Any] | None,
                 entries: Sequence[tuple[int, str]], round_no: int, seat: int,
                 round_cap: int | None = None) -> list[dict[str, Any]]:
    """All the steps of :func:`replay_steps` in a list."""
    return list(replay_steps(players, rules, seed, deal, entries, round_no, seat, round_cap))


def encode_step(step: dict[str, Any]) -> str:
    return json.dumps(step, ensure_ascii=False, separators=(",", ":"))


def pages_of(encoded: Iterator[str] | Sequence[str], page_chars: int) -> list[tuple[int, str]]:
    """Encoded steps grouped into pages of at most ``page_chars`` characters (a JSON
    array each; a step longer than that alone makes a page): ``(first step, text)``."""
    pages: list[tuple[int, str]] = []
    part: list[str] = []
    size = 2
    first = index = 0
    for index, text in enumerate(encoded):
        if part and size + len(text) + 1 > page_chars:
            pages.append((first, "[" + ",".join(part) + "]"))
            part, size, first = [], 2, index
        part.append(text)
        size += len(text) + 1
    if part:
        pages.append((first, "[" + ",".join(part) + "]"))
    return pages


__all__ = ["ReplayError", "encode_step", "pages_of", "replay_steps", "round_replay"]
