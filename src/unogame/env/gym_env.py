"""Gymnasium environment: one seat learns, the other seats are bots.

The learner's observation is the array of docs/ENV.md; ``action_masks()`` (as sb3-contrib's
``MaskablePPO`` asks) and ``info["action_mask"]`` give its legal actions. Opponents are
:mod:`unogame.bots` level names, :class:`~unogame.bots.Bot` objects, or callables
``(observation, action_mask) -> action`` that act in the env's own action space (a policy
playing itself needs no file). Bots see only their own views and events, like every bot;
a callable sees only its seat's observation and mask.

Every action of the space is accepted, as Gymnasium expects (``check_env`` passes): by
default (``illegal_action="lose"``) an illegal action ends the episode with the lowest
reward (``-1`` with ``reward="share"``) and ``info["illegal_action"]``;
``illegal_action="raise"`` raises ``ValueError`` and changes nothing instead.

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

import copy
from collections.abc import Callable, Sequence
from typing import Any, Literal

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..bots import Bot, make_bot
from .actions import NO_REACTION, NUM_ACTIONS, move_to_action
from .compact import ACTION_SPACES, ActionSpaceKind, CompactActions
from .core import MAX_STEPS, RewardKind, UnoCore
from .observation import HIGH, SIZE
from .render import render, render_text
from .uno_v0 import make_rules

Obs = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]
PolicyFunction = Callable[[Obs, Mask], Any]
"""An opponent as a function: its seat's observation and mask (in the env's action
space) to an action id of that space."""
Opponent = str | Bot | PolicyFunction


class SingleAgentUno(gym.Env[Obs, np.int64]):
    """UNO from one seat (``seat``, or a random seat each episode when ``None``)."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012 (Gymnasium's)

    def __init__(self, players: int = 2, opponents: Sequence[Opponent] = ("random",),
                 rules: Any = None, seat: int | None = None, match: bool = False,
                 reward: RewardKind = "share", illegal_action: Literal["raise", "lose"] = "lose",
                 render_mode: str | None = None, max_steps: int = MAX_STEPS,
                 actions: ActionSpaceKind = "full", round_cap: int | None = None) -> None:
        if isinstance(opponents, str) or len(opponents) not in (1, players - 1):
            raise ValueError(f"opponents: one opponent for all, or {players - 1} of them")
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be from 0 to {players - 1}")
        if illegal_action not in ("raise", "lose"):
            raise ValueError("illegal_action must be 'raise' or 'lose'")
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        if actions not in ACTION_SPACES:
            raise ValueError(f"actions must be one of {ACTION_SPACES}, not {actions!r}")
        for opponent in opponents:
            if isinstance(opponent, str):
                make_bot(opponent)  # an unknown level fails here, not in the first episode
            elif not isinstance(opponent, Bot) and not callable(opponent):
                raise ValueError(f"an opponent is a level name, a Bot or a callable, "
                                 f"not {opponent!r}")
        self.core = UnoCore(players, make_rules(rules), match, reward, max_steps,
                            round_cap=round_cap)
        self.opponents: list[Opponent] = (
            [opponents[0]] + [copy.deepcopy(opponents[0]) if isinstance(opponents[0], Bot)
                              else opponents[0] for _ in range(players - 2)]
            if len(opponents) == 1 else list(opponents))
        self.levels = [opponent if isinstance(opponent, str) else
                       opponent.level if isinstance(opponent, Bot) else "function"
                       for opponent in self.opponents]
        self.fixed_seat = seat
        self.seat = seat if seat is not None else 0
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.compact = CompactActions(self.core.rules, players) if actions == "compact" else None
        """The compact space's maps (``actions="compact"``), else ``None``."""
        self.observation_space = spaces.Box(0.0, HIGH, shape=(SIZE,), dtype=np.float32)
        self.actions = NUM_ACTIONS if self.compact is None else self.compact.size
        """The size of the action space."""
        self.action_space = spaces.Discrete(self.actions)
        self._bots: dict[int, Bot] = {}
        self._functions: dict[int, PolicyFunction] = {}
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
        self._bots, self._functions = {}, {}
        for other, opponent in zip(others, self.opponents, strict=True):
            bot_seed = int(rng.integers(2**31))
            if isinstance(opponent, str):
                self._bots[other] = make_bot(opponent, seed=bot_seed)
            elif isinstance(opponent, Bot):
                opponent.seat = None  # it may have sat elsewhere last episode
                self._bots[other] = opponent
            else:
                self._functions[other] = opponent
        self.core.reset(int(rng.integers(2**48)))
        self._round = 0
        self._told = 0
        self._play_bots()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        core = self.core
        if core.over:
            raise ValueError("the episode is over: reset first")
        full = self._full_action(action)
        if full not in core.legal_actions():
            if self.illegal_action == "raise":
                raise ValueError(f"illegal action {action}; legal: {self._legal()}")
            core.over = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self._lowest, True, False, info
        core.step(full)
        reward = core.rewards[self.seat] + self._play_bots()
        if self.render_mode == "human":
            print(render_text(core))
        return self._observation(), reward, core.over and not core.truncated, core.truncated, \
            self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions now (all false once the episode is over)."""
        if self.core.over:
            return np.zeros(self.actions, dtype=np.bool_)
        return self._mask().astype(bool)

    def render(self) -> str | None:
        return render(self.core, self.render_mode)

    def _full_action(self, action: Any) -> int:
        """A full action id from one of this env's space (-1: outside the space)."""
        try:
            action = int(action)
        except (TypeError, ValueError):
            return -1
        if not 0 <= action < self.actions:
            return -1
        return action if self.compact is None else self.compact.to_full(action)

    def _legal(self) -> list[int]:
        legal = self.core.legal_actions()
        return legal if self.compact is None else [self.compact.from_full(a) for a in legal]

    def _mask(self) -> Mask:
        mask = self.core.action_mask()
        return mask if self.compact is None else self.compact.mask(mask)

    def _observation(self) -> Obs:
        return self.core.observe(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "seat": self.seat}

    def _play_bots(self) -> float:
        """Opponents decide until it is the learner's decision or the episode is over;
        returns the learner's reward meanwhile."""
        core = self.core
        reward = 0.0
        while not core.over and core.seat != self.seat:
            self._tell_bots()
            seat = core.seat
            function = self._functions.get(seat)
            if function is not None:
                action = self._full_action(function(core.observe(seat), self._mask()))
                if action not in core.legal_actions():
                    raise ValueError(f"the opponent function at seat {seat} chose an illegal "
                                     f"action; legal: {self._legal()}")
            else:
                bot = self._bots[seat]
                game = core.game
                move = bot.choose(game.view(seat), core.legal_moves())
                if move is None:
                    if core.on_turn:
                        raise RuntimeError(f"{bot.level} bot at seat {seat} did not move on "
                                           "its turn")
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
