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
from collections.abc import Mapping, Sequence

from ..bots import Bot
from ..engine import Move
from ..engine.moves import CATCH
from ..engine.state import PlayableGame


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
    waiting = [seat for seat in seats if game.legal_moves(seat)]
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


__all__ = ["reaction_delay", "reaction_order"]
