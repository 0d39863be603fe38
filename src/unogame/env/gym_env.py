"""Gymnasium environment: one seat learns, the other seats are :mod:`unogame.bots` levels.

The learner's observation is the array of docs/ENV.md; ``action_masks()`` (as sb3-contrib's
``MaskablePPO`` asks) and ``info["action_mask"]`` give its legal actions. The bots see
only their own views and events, like every bot. By default an illegal action raises
``ValueError`` and changes nothing; ``illegal_action="lose"`` ends the episode with the
lowest reward instead (for checkers that step with unmasked random actions).

>>> from unogame.env import SingleAgentUno
>>> env = SingleAgentUno(players=2, opponents=["easy"])
>>> obs, info = env.reset(seed=1)
>>> done = False
>>> while not done:
...     action = int(env.action_masks().nonzero()[0][0])
...     obs, reward, terminated, truncated, info = env.step(action)
...     done = terminated or truncated
>>> reward in (-1.0, 1.0)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..bots import Bot, make_bot
from .actions import NO_REACTION, NUM_ACTIONS, move_to_action
from .core import RewardKind, UnoCore
from .observation import HIGH, SIZE
from .render import render, render_text
from .uno_v0 import make_rules

Obs = npt.NDArray[np.float32]


class SingleAgentUno(gym.Env[Obs, np.int64]):
    """UNO from one seat (``seat``, or a random seat each episode when ``None``)."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012 (Gymnasium's)

    def __init__(self, players: int = 2, opponents: Sequence[str] = ("random",),
                 rules: Any = None, seat: int | None = None, match: bool = False,
                 reward: RewardKind = "share", illegal_action: Literal["raise", "lose"] = "raise",
                 render_mode: str | None = None, max_steps: int = 50_000) -> None:
        if len(opponents) not in (1, players - 1):
            raise ValueError(f"opponents: one level for all, or {players - 1} levels")
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be from 0 to {players - 1}")
        if illegal_action not in ("raise", "lose"):
            raise ValueError("illegal_action must be 'raise' or 'lose'")
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        self.core = UnoCore(players, make_rules(rules), match, reward, max_steps)
        self.levels = list(opponents) * (players - 1 if len(opponents) == 1 else 1)
        for level in self.levels:
            make_bot(level)  # an unknown level fails here, not in the first episode
        self.fixed_seat = seat
        self.seat = seat if seat is not None else 0
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, HIGH, shape=(SIZE,), dtype=np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._bots: dict[int, Bot] = {}
        self._round = 0
        self._told = 0
        self._lowest = -1.0 if reward == "share" else -float(players * 200)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        players = self.core.players
        self.seat = (self.fixed_seat if self.fixed_seat is not None
                     else int(rng.integers(players)))
        others = [other for other in range(players) if other != self.seat]
        self._bots = {other: make_bot(level, seed=int(rng.integers(2**31)))
                      for other, level in zip(others, self.levels, strict=True)}
        self.core.reset(int(rng.integers(2**48)))
        self._round = 0
        self._told = 0
        self._play_bots()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        core = self.core
        if core.over:
            raise ValueError("the episode is over: reset first")
        action = int(action)
        if action not in core.legal_actions():
            if self.illegal_action == "raise":
                raise ValueError(f"illegal action {action}; legal: {core.legal_actions()}")
            core.over = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self._lowest, True, False, info
        core.step(action)
        reward = core.rewards[self.seat] + self._play_bots()
        if self.render_mode == "human":
            print(render_text(core))
        return self._observation(), reward, core.over and not core.truncated, core.truncated, \
            self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions now (all false once the episode is over)."""
        if self.core.over:
            return np.zeros(NUM_ACTIONS, dtype=bool)
        return self.core.action_mask().astype(bool)

    def render(self) -> str | None:
        return render(self.core, self.render_mode)

    def _observation(self) -> Obs:
        return self.core.observe(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "seat": self.seat}

    def _play_bots(self) -> float:
        """Bots decide until it is the learner's decision or the episode is over; returns
        the learner's reward meanwhile."""
        core = self.core
        reward = 0.0
        while not core.over and core.seat != self.seat:
            self._tell_bots()
            seat = core.seat
            bot = self._bots[seat]
            game = core.game
            move = bot.choose(game.view(seat), core.legal_moves())
            if move is None:
                if core.on_turn:
                    raise RuntimeError(f"{bot.level} bot at seat {seat} did not move on its turn")
                action = NO_REACTION
            else:
                action = move_to_action(move, seat, core.players)
            core.step(action)
            reward += core.rewards[self.seat]
        self._tell_bots()
        return reward

    def _tell_bots(self) -> None:
        """Hand each bot the events of the last step as its seat sees them (a new deal:
        ``new_round`` with its view)."""
        core = self.core
        game = core.game
        if self._round != core.round:
            self._round = core.round
            self._told = core.steps
            for seat, bot in self._bots.items():
                bot.new_round(seat, game.view(seat), game.rules)
            return
        if self._told == core.steps:
            return
        self._told = core.steps
        for event in core.events:
            for seat, bot in self._bots.items():
                bot.observe(event.for_seat(seat))
