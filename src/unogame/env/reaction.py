"""The order of off-turn reactions: the table's (CONTRACTS.md), without delays.

>>> from unogame.engine import Game
>>> game = Game.from_position({"players": 3, "hands": [["R1"], ["G2", "R2"], ["B3"]],
...     "draw_pile": ["Y9"], "discard_pile": ["R5"], "color": "R", "turn": 1})
>>> reaction_order(game)
[2, 0]
"""

from __future__ import annotations

from ..table.order import reaction_order

__all__ = ["reaction_order"]
