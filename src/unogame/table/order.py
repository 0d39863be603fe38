"""The order in which off-turn reactions (UNO, catch, jump-in) are offered (CONTRACTS.md).

>>> import random
>>> from unogame.engine import Game
>>> game = Game.from_position({
...     "players": 3, "hands": [["R7", "G2"], ["B7"], ["Y1", "Y2"]],
...     "draw_pile": ["B3", "Y9"], "discard_pile": ["R5"], "color": "R", "turn": 0,
...     "catchable": [1]})
>>> reaction_order(game)  # seat 1 may say UNO, seat 2 may catch seat 1
[1, 2]
>>> reaction_order(game, delays=[0.0, 2.5, 1.0], rng=random.Random(1))
[2, 1]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from ..bots import Bot
from ..engine import Move
from ..engine.cards import CARD_COPIES, WILD
from ..engine.moves import CATCH, UNO
from ..engine.state import PlayableGame

PUBLIC_REACTIONS: Final = frozenset({UNO, CATCH})
"""Off-turn moves whose legality every seat can see (a jump-in depends on a hand)."""


def reaction_order(game: PlayableGame,
                   delays: Mapping[int, float] | Sequence[float] | None = None,
                   rng: random.Random | None = None) -> list[int]:
    """The seats other than the player to act that have a legal move now, in the order
    their off-turn reactions are offered.

    Without ``delays`` and ``rng``: in play order from the seat after the player to act,
    following the direction. With both: sorted by ``delays[seat] + rng.random()`` (one draw
    per seat, in play order; ties keep play order). Deterministic for a given ``rng`` state.
    """
    turn = game.turn
    players = game.players
    seats = [(turn + step * game.direction) % players for step in range(1, players)]
    return _ordered([seat for seat in seats if game.legal_moves(seat)], delays, rng)


def jump_in_possible(game: PlayableGame) -> bool:
    """Whether, by what every seat sees, some seat might jump in now: jump-in is on,
    nothing is pending, the top card is coloured and not every copy of it lies on the
    discard pile.

    >>> from unogame.engine import Game, Rules
    >>> position = {"players": 2, "hands": [["R1"], ["B2"]], "draw_pile": ["Y9"],
    ...     "discard_pile": ["G5", "R7"], "color": "G", "turn": 0}
    >>> jump_in_possible(Game.from_position(position, Rules(jump_in=True)))
    True
    >>> zero = {**position, "discard_pile": ["G0", "R7"]}  # one G0 only, on the pile
    >>> jump_in_possible(Game.from_position(zero, Rules(jump_in=True)))
    False
    """
    if not game.rules.jump_in or game.pending is not None:
        return False
    pile = game.discard_cards
    if not pile:
        return False
    top = pile[-1]
    return top < WILD and pile.count(top) < CARD_COPIES[top]


def reaction_window(game: PlayableGame,
                    delays: Mapping[int, float] | Sequence[float] | None = None,
                    rng: random.Random | None = None,
                    legal: Callable[[int], Sequence[Move]] | None = None) -> list[int]:
    """The seats other than the player to act that may have an off-turn move now by what
    every seat sees, in the order their reactions are offered (as :func:`reaction_order`).

    A seat that may say UNO or catch someone is in it (public); under ``jump_in``, while a
    jump-in is possible (:func:`jump_in_possible`), every other seat is, whether or not it
    holds a copy of the top card: who is offered a reaction, how many jitter draws are
    made and so when the turn's own decision comes depend on no hidden card.

    >>> from unogame.engine import Game, Rules
    >>> position = {"players": 3, "hands": [["R7", "G2"], ["B7"], ["Y1", "Y2"]],
    ...     "draw_pile": ["B3", "Y9"], "discard_pile": ["R5"], "color": "R", "turn": 0}
    >>> reaction_window(Game.from_position(position))  # seat 1 may say UNO
    [1]
    >>> reaction_window(Game.from_position(position, Rules(jump_in=True)))  # no R5 held
    [1, 2]
    """
    turn = game.turn
    players = game.players
    seats = [(turn + step * game.direction) % players for step in range(1, players)]
    everyone = jump_in_possible(game)
    legal_moves = legal or game.legal_moves  # a table's moves of this position, if known
    waiting = [seat for seat in seats
               if everyone or any(move.kind in PUBLIC_REACTIONS for move in legal_moves(seat))]
    return _ordered(waiting, delays, rng)


def _ordered(waiting: list[int], delays: Mapping[int, float] | Sequence[float] | None,
             rng: random.Random | None) -> list[int]:
    if not waiting or delays is None or rng is None:
        return waiting
    keys = {seat: float(delays[seat]) + rng.random() for seat in waiting}
    return sorted(waiting, key=lambda seat: keys[seat])  # sorted() is stable


def reaction_delay(bot: Bot, legal: Sequence[Move]) -> float:
    """How long after a position appeared a bot's off-turn decision is run: its
    ``reaction_delay``, or its ``catch_delay`` when that is longer and it could catch
    someone (an easy bot gives a child time to say UNO).

    >>> from unogame.bots import make_bot
    >>> reaction_delay(make_bot("easy"), [Move.parse("catch 1")])
    3.5
    >>> reaction_delay(make_bot("easy"), [Move.parse("uno")])
    2.5
    """
    delay = bot.reaction_delay
    if bot.catch_delay is not None and any(move.kind == CATCH for move in legal):
        delay = max(delay, bot.catch_delay)
    return delay


__all__ = ["PUBLIC_REACTIONS", "jump_in_possible", "reaction_delay", "reaction_order",
           "reaction_window"]
