"""``policy:PATH``: a bot level that plays a trained MaskablePPO model (extra ``[train]``).

The bot builds the learner's observation exactly as the environment does — from its view
and its own events only — and plays the legal action the model scores highest (what
``model.predict(obs, action_masks=mask, deterministic=True)`` answers), scoring only the
legal actions' rows of the action head, on one torch thread.
``make_bot("policy:artifacts/ppo/model.zip")`` and ``uno sim --bots policy:PATH,medium``
find it through the ``unogame.bots`` entry point in pyproject.toml.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..bots import Bot
from ..engine import Move, Rules
from .actions import NO_REACTION, NUM_ACTIONS, action_to_move, move_to_action
from .observation import SeatMemory, encode

_MODELS: dict[Path, Any] = {}


def _torch() -> Any:
    """torch, imported when a model is used (the [train] extra; untyped here on purpose)."""
    return importlib.import_module("torch")


def load_model(path: str | Path) -> Any:
    """The MaskablePPO model saved at ``path`` (loaded once per process)."""
    resolved = Path(path).expanduser().resolve()
    model = _MODELS.get(resolved)
    if model is None:
        if not resolved.is_file():
            raise ValueError(f"policy: no model file at {path}")
        try:
            from sb3_contrib import MaskablePPO
        except ImportError:
            raise ValueError("policy bots need the [train] extra (sb3-contrib, torch)") from None
        model = MaskablePPO.load(resolved, device="cpu")
        actions = getattr(model.action_space, "n", None)
        if actions != NUM_ACTIONS:
            raise ValueError(f"policy: {path} was trained for {actions} actions, not the "
                             f"{NUM_ACTIONS} of this version (docs/ENV.md, Actions)")
        _MODELS[resolved] = model
    return model


class PolicyBot(Bot):
    """Plays the model's most likely legal action (deterministic for a given model)."""

    level = "policy"

    def __init__(self, path: str | Path, seed: int = 0) -> None:
        super().__init__(seed)
        self.model = load_model(path)
        self.policy = self.model.policy
        self.level = f"policy:{path}"
        self.memory: SeatMemory | None = None

    def new_round(self, seat: int, view: dict[str, Any], rules: Rules | None = None) -> None:
        super().new_round(seat, view, rules)
        self.memory = SeatMemory(seat, view["players"])
        self.memory.new_round(view)

    def observe(self, event: dict[str, Any]) -> None:
        if self.memory is not None:
            self.memory.observe(event)

    def choose(self, view: dict[str, Any], legal: Sequence[Move]) -> Move | None:
        if not legal:
            return None
        seat = self.seat
        if self.memory is None or seat is None:
            raise RuntimeError("policy bot: new_round was not called")
        players = view["players"]
        self.memory.tracker.sync(view)
        obs = encode(view, self.memory, self.rules)
        actions = {move_to_action(move, seat, players) for move in legal}
        if view["turn"] != seat:
            actions.add(NO_REACTION)
        return action_to_move(self.best_action(obs, sorted(actions)), seat, players)

    def best_action(self, obs: npt.NDArray[np.float32], legal: Sequence[int]) -> int:
        """The action of ``legal`` (ascending ids) with the highest logit: the masked
        distribution's mode, ties to the lowest id like ``argmax``. One thread: a batch of
        one gains nothing from more, and their spinning cost 14 times the CPU time next
        to the simulator's other processes (2 cores); the caller's setting is restored."""
        torch = _torch()
        policy = self.policy
        head = policy.action_net
        rows = np.asarray(legal, dtype=np.int64)
        scored = getattr(policy.action_dist, "position", None)
        if scored is not None:  # a head over some actions only (ppo_policy.SubsetCategorical)
            rows = scored.numpy()[rows]
            legal = [action for action, row in zip(legal, rows, strict=True) if row >= 0]
            rows = rows[rows >= 0]
            if not legal:
                raise ValueError("policy: the model has no action for any legal move here "
                                 "(a family's rule that gives a card)")
        ids = torch.as_tensor(rows)
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            with torch.no_grad():
                features = policy.extract_features(torch.as_tensor(obs[None]),
                                                   policy.pi_features_extractor)
                latent = policy.mlp_extractor.forward_actor(features)
                scores = torch.nn.functional.linear(latent, head.weight[ids], head.bias[ids])
        finally:
            torch.set_num_threads(threads)
        return int(legal[int(scores.argmax())])


def make_policy_bot(argument: str, seed: int = 0) -> PolicyBot:
    """The entry point of ``policy:PATH``."""
    return PolicyBot(argument, seed)
