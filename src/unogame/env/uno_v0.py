"""PettingZoo AEC environment of UNO with the full rules (``uno_v0``), as PettingZoo's
classic games are built: ``env(...)`` is ``raw_env(...)`` in the standard wrappers.

Agents are ``player_0`` .. ``player_{n-1}`` (seat numbers). Every agent observes a dict
with ``observation`` (docs/ENV.md, "Observation") and ``action_mask`` (the legal actions of
the agent selected; all zeros for the others). Off-turn reactions are steps of their own
(docs/ENV.md, "Turns and reactions"). An illegal action raises ``ValueError`` and changes
nothing. ``actions="compact"`` acts in the compact space (:mod:`unogame.env.compact`);
``round_cap=N`` ends an undecided round after N decisions (:mod:`unogame.env.cap`).

>>> from unogame.env import uno_v0
>>> env = uno_v0.env(players=3, rules={"jump_in": True})
>>> env.reset(seed=7)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0])
...     env.step(action)
>>> env.agents
[]
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv

from ..engine import Rules
from .actions import ACTION_NAMES, NUM_ACTIONS
from .compact import ACTION_SPACES, ActionSpaceKind, CompactActions
from .core import MAX_STEPS, RewardKind, UnoCore
from .observation import HIGH, SIZE
from .render import render
from .wrapper import OrderEnforcing

ObsDict = dict[str, npt.NDArray[Any]]


def env(**kwargs: Any) -> AECEnv[str, ObsDict, int]:
    """The environment in PettingZoo's order-enforcing wrapper (the raw environment itself
    refuses an action out of bounds or illegal with ``ValueError``); the wrapper is
    :class:`~unogame.env.wrapper.OrderEnforcing`, PettingZoo's with its per-step
    attributes forwarded directly."""
    wrapped: Any = OrderEnforcing(raw_env(**kwargs))
    result: AECEnv[str, ObsDict, int] = wrapped
    return result


def make_rules(rules: Rules | dict[str, Any] | None) -> Rules:
    """Rules from a :class:`Rules`, a dict of options (as in a scenario) or ``None``."""
    if rules is None or isinstance(rules, Rules):
        return rules if rules is not None else Rules()
    return Rules.from_dict(rules)


class raw_env(AECEnv[str, ObsDict, int], EzPickle):  # type: ignore[misc]
    """UNO for 2-10 agents: one round, or a match to ``target_score`` with ``match=True``."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": "uno_v0",
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, players: int = 2, rules: Rules | dict[str, Any] | None = None,
                 match: bool = False, reward: RewardKind = "share",
                 render_mode: str | None = None, max_steps: int = MAX_STEPS,
                 actions: ActionSpaceKind = "full", round_cap: int | None = None) -> None:
        EzPickle.__init__(self, players, rules, match, reward, render_mode, max_steps, actions,
                          round_cap)
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        if actions not in ACTION_SPACES:
            raise ValueError(f"actions must be one of {ACTION_SPACES}, not {actions!r}")
        self.core = UnoCore(players, make_rules(rules), match, reward, max_steps,
                            round_cap=round_cap)
        self.compact = CompactActions(self.core.rules, players) if actions == "compact" else None
        """The compact space's maps (``actions="compact"``), else ``None``."""
        size = NUM_ACTIONS if self.compact is None else self.compact.size
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = self.possible_agents[:]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation = spaces.Dict({
            "observation": spaces.Box(0.0, HIGH, shape=(SIZE,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(size,), dtype=np.int8),
        })
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(size)
                              for agent in self.possible_agents}
        self._rng = random.Random()
        self._rewarded = False
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.core.reset(self._rng.getrandbits(48))
        self._rewarded = False
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.core.seat]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> ObsDict:
        seat = self._seat[agent]
        core = self.core
        compact = self.compact
        if agent == self.agent_selection and not core.over:
            mask = core.action_mask()
            if compact is not None:
                mask = compact.mask(mask)
        else:
            mask = np.zeros(NUM_ACTIONS if compact is None else compact.size, dtype=np.int8)
        return {"observation": core.observe(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for a finished agent")
        core = self.core
        core.step(int(action) if self.compact is None else self.compact.to_full(int(action)))
        self._cumulative_rewards[agent] = 0.0
        if core.over or self._rewarded:  # rewards are paid at the end only (all 0 before)
            self._rewarded = core.over
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = core.rewards[seat]
            self._accumulate_rewards()
        if core.over:
            flags = self.truncations if core.truncated else self.terminations
            for name in self.agents:
                flags[name] = True
        else:
            self.agent_selection = self.possible_agents[core.seat]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        return render(self.core, self.render_mode)

    def close(self) -> None:
        pass

    def action_name(self, action: int) -> str:
        """The documented name of an action id of this env's space (relative seats written
        ``+k``)."""
        return ACTION_NAMES[action if self.compact is None else self.compact.to_full(action)]
