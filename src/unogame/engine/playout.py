"""Random playouts: the player to act picks uniformly among its legal moves, except that it
draws only when it cannot play (as RLCard's random agents do): voluntary draws make a
random round a random walk that can last for thousands of moves.

Used by ``uno random``, the engine benchmark and the property tests.

>>> import random
>>> from unogame.engine import Game
>>> game = Game.new(4, seed=3)
>>> decisions = play_random_round(game, random.Random(3))
>>> game.winner is not None and decisions > 0
True
"""

from __future__ import annotations

import random
from typing import Final

from .game import Game
from .moves import CATCH, DRAW_MOVE, UNO_MOVE, Move

_CATCHES: Final = [Move.make(CATCH, target=seat) for seat in range(10)]


def random_step(game: Game, rng: random.Random) -> int:
    """One random decision of the player to act, then the UNO calls and catches it allows.

    Each seat left catchable says UNO half the time, is caught by a random other seat a
    quarter of the time, and is left alone otherwise. Returns the number of moves made.
    """
    seat = game.turn
    moves = game.legal_moves(seat)
    move = moves[int(rng.random() * len(moves))]
    if move is DRAW_MOVE:
        plays = moves.index(DRAW_MOVE)  # the plays come first in legal_moves
        if plays:
            move = moves[int(rng.random() * plays)]
    game.push_unchecked(seat, move)
    made = 1
    catchable = game.catchable_seats
    if catchable:
        for target in sorted(catchable):
            roll = rng.random()
            if roll < 0.5:
                game.push_unchecked(target, UNO_MOVE)
                made += 1
            elif roll < 0.75:
                catcher = (target + 1 + int(rng.random() * (game.players - 1))) % game.players
                game.push_unchecked(catcher, _CATCHES[target])
                made += 1
    return made


def play_random_round(game: Game, rng: random.Random, max_moves: int = 100_000) -> int:
    """Play random moves until the round is over; returns the number of moves made."""
    made = 0
    while game.winner is None:
        made += random_step(game, rng)
        if made > max_moves:
            raise RuntimeError(f"the round did not end within {max_moves} moves")
    return made
