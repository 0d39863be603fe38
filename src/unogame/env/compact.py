"""A compact action space: the actions a rule set can make legal (docs/ENV.md, "Compact
actions").

The full space (:data:`~unogame.env.actions.NUM_ACTIONS`, 23,083 ids) is the same for every
rule set, but one rule set at one table size can make only a few hundred of them legal:
the seats ``+k`` with ``k`` below the number of players, the sevens with a seat only under
``seven_zero``, and of the Wild Customizable block only the arguments its rule names (a
discarded colour for ``discard_color``, a seat for a ``chosen`` step, a card for a ``give``
step). :class:`CompactActions` numbers those ``0..n-1`` in the order of their full ids and
maps ids and masks both ways; every env takes ``actions="compact"`` to act in it.

>>> from unogame.engine import Rules
>>> compact = CompactActions(Rules(), players=2)
>>> compact.size
147
>>> full = move_to_action(Move.parse("play WS G 1 uno"), seat=0, players=2)
>>> int(compact.to_full(compact.from_full(full))) == full
True
>>> CompactActions(Rules(custom_rule="chosen_draw"), players=10).size
283
"""

from __future__ import annotations

from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from ..engine import Move, Rules
from ..engine.cards import WILD_CUSTOM
from ..engine.moves import PLAY
from .actions import ACTIONS, NUM_ACTIONS, SEVENS, move_to_action

ActionSpaceKind = Literal["full", "compact"]
ACTION_SPACES: Final = ("full", "compact")
__all__ = ["ACTION_SPACES", "PRESET_ACTIONS", "ActionSpaceKind", "CompactActions",
           "compact_actions", "move_to_action"]

PRESET_ACTIONS: Final[npt.NDArray[np.int64]] = np.array(
    [action for action, spec in enumerate(ACTIONS) if spec.gift < 0], dtype=np.int64)
"""The actions some preset rule set can make legal at some table size, ascending (every
one but a card gift: only a family's own rule has a ``give`` step): the union of the
compact spaces of the presets, and the head of ``ppo_policy.PresetActionsPolicy``."""


def compact_actions(rules: Rules, players: int) -> npt.NDArray[np.int64]:
    """The full ids ``rules`` can make legal at a table of ``players``, ascending."""
    if not 2 <= players <= 10:
        raise ValueError(f"players must be from 2 to 10, not {players!r}")
    custom = rules.custom
    kept = []
    for action, spec in enumerate(ACTIONS):
        if spec.offset >= players:
            continue
        if spec.kind == PLAY and spec.card in SEVENS and spec.offset >= 0 \
                and not rules.seven_zero:
            continue
        if spec.kind == PLAY and spec.card == WILD_CUSTOM:
            if (spec.arg >= 0) != custom.needs_color:
                continue
            if (spec.offset >= 0) != custom.needs_seat:
                continue
            if spec.gift >= 0 and not custom.needs_card:  # no gift: always possible (R7.1)
                continue
        kept.append(action)
    return np.array(kept, dtype=np.int64)


class CompactActions:
    """The compact space of one rule set and table size, with its maps to the full one."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.actions = compact_actions(rules, players)
        """The full id of each compact id."""
        self.size = len(self.actions)
        self._position = np.full(NUM_ACTIONS, -1, dtype=np.int64)
        self._position[self.actions] = np.arange(self.size)

    def to_full(self, action: int) -> int:
        """The full id of compact ``action`` (``ValueError`` outside ``0..size-1``)."""
        if not 0 <= action < self.size:
            raise ValueError(f"action {action!r} is not in 0..{self.size - 1}")
        return int(self.actions[action])

    def from_full(self, action: int) -> int:
        """The compact id of full ``action`` (``ValueError`` if these rules never allow it)."""
        position = int(self._position[action]) if 0 <= action < NUM_ACTIONS else -1
        if position < 0:
            raise ValueError(f"action {action!r} is never legal under these rules")
        return position

    def mask(self, full_mask: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
        """A full mask cut to the compact space (a new array)."""
        return full_mask[self.actions]

    def move_to_action(self, move: Move, seat: int, players: int) -> int:
        """The compact id of ``seat``'s ``move``."""
        return self.from_full(move_to_action(move, seat, players))
