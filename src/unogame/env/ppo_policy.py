"""A MaskablePPO policy whose action head scores the preset rules' actions only (``[train]``).

The action space stays ``Discrete(23083)`` (docs/ENV.md, "Actions"), but only
:data:`PRESET_ACTIONS` can be legal under the printed rules, the house rules and every Wild
Customizable preset: all but the ``play WC`` plays that give a card (only a family's own
rule has a ``give`` step). The head has one logit per such action (683, not 23,083): the
head's product, masked softmax, entropy and their gradients were most of MaskablePPO's time
on this space, and 4,096 steps of the training example took 8 times less CPU with it.
(:class:`~unogame.env.compact.CompactActions`, ``actions="compact"`` in every env, is the
same idea for any algorithm: the space of one rule set and table size.) Models saved with
it load with ``MaskablePPO.load`` and play as ``policy:PATH`` (this module
is imported by reference from the saved file).

>>> PRESET_ACTIONS.size, int(PRESET_ACTIONS[-1])
(683, 22970)
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import numpy.typing as npt

from .actions import NUM_ACTIONS
from .compact import PRESET_ACTIONS

th: Any = importlib.import_module("torch")
_distributions: Any = importlib.import_module("sb3_contrib.common.maskable.distributions")
_policies: Any = importlib.import_module("sb3_contrib.common.maskable.policies")



class SubsetCategorical(_distributions.MaskableCategoricalDistribution):  # type: ignore[misc]
    """A masked categorical over ``actions`` (ascending ids of a ``Discrete(size)``): it
    takes and gives full action ids and masks of ``size``; the others have probability 0."""

    def __init__(self, actions: npt.NDArray[np.int64], size: int = NUM_ACTIONS) -> None:
        super().__init__(len(actions))
        self.actions = th.as_tensor(actions, dtype=th.long)
        position = np.full(size, -1, dtype=np.int64)
        position[actions] = np.arange(len(actions))
        self.position = th.as_tensor(position)
        self.size = size

    def apply_masking(self, masks: Any) -> None:
        if masks is not None:
            masks = th.as_tensor(masks).reshape(-1, self.size)[:, self.actions].bool()
        self.distribution.apply_masking(masks)

    def log_prob(self, actions: Any) -> Any:
        return self.distribution.log_prob(self.position[actions.long()])

    def sample(self) -> Any:
        return self.actions[self.distribution.sample()]

    def mode(self) -> Any:
        return self.actions[th.argmax(self.distribution.probs, dim=1)]


class PresetActionsPolicy(_policies.MaskableActorCriticPolicy):  # type: ignore[misc]
    """``MaskableActorCriticPolicy`` with the head of :class:`SubsetCategorical` over
    :data:`PRESET_ACTIONS` (``MaskablePPO(PresetActionsPolicy, env, ...)``)."""

    def _build(self, lr_schedule: Any) -> None:
        self.action_dist = SubsetCategorical(PRESET_ACTIONS, self.action_space.n)
        super()._build(lr_schedule)
