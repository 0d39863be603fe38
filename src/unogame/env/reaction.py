"""The order of off-turn reactions: the table's (CONTRACTS.md), without delays; under
``jump_in`` the env adds every seat while a jump-in may be open (:func:`jump_window`).

>>> from unogame.engine import Game
>>> game = Game.from_position({"players": 3, "hands": [["R1"], ["G2", "R2"], ["B3"]],
...     "draw_pile": ["Y9"], "discard_pile": ["R5"], "color": "R", "turn": 1})
>>> reaction_order(game)
[2, 0]
"""

from __future__ import annotations

from typing import Any

from ..engine.cards import WILD
from ..table.order import reaction_order

__all__ = ["jump_window", "reaction_order"]


def jump_window(game: Any, state: Any = None) -> bool:
    """Whether a jump-in may be open now under ``jump_in``, read from public fields only
    (the round goes on, nothing pending, a coloured card on top). The env then gives every
    other seat its reaction step, so that the order of decisions never shows who holds
    the top card's twin (docs/ENV.md, "Turns and reactions"). ``state``: the core state
    of a ``NativeGame`` (its discard pile is read from it).

    >>> from unogame.engine import Game
    >>> jump_window(Game.from_position({"players": 2, "hands": [["R1"], ["G2"]],
    ...     "draw_pile": ["Y9"], "discard_pile": ["R5"], "color": "R", "turn": 1}))
    True
    """
    discard = state.export()["discard"] if state is not None else game.discard_cards
    return bool(game.winner is None and game.pending is None and discard
                and discard[-1] < WILD)
