"""The order of off-turn reactions.

``unogame.table.reaction_order`` (CONTRACTS.md) is the project's one definition. Until the
table package provides it, this is a stand-in with exactly the contract's behaviour without
delays; the environment takes ``reaction_order`` from here only.

>>> from unogame.engine import Game
>>> game = Game.from_position({"players": 3, "hands": [["R1"], ["G2", "R2"], ["B3"]],
...     "draw_pile": ["Y9"], "discard_pile": ["R5"], "color": "R", "turn": 1})
>>> reaction_order(game)
[2, 0]
"""

from __future__ import annotations

from ..engine import Game


def reaction_order(game: Game) -> list[int]:
    """The seats other than the player to act that have a legal move now, in play order
    from the seat after the player to act, following the direction (deterministic)."""
    turn = game.turn
    players = game.players
    direction = game.direction
    seats = ((turn + step * direction) % players for step in range(1, players))
    return [seat for seat in seats if game.legal_moves(seat)]


__all__ = ["reaction_order"]
