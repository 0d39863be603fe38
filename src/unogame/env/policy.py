"""``policy:PATH``: a bot level that plays a trained MaskablePPO model (extra ``[train]``).

The bot builds the learner's observation exactly as the environment does — from its view
and its own events only — and asks the model for the best legal action.
``make_bot("policy:artifacts/ppo/model.zip")`` and ``uno sim --bots policy:PATH,medium``
find it through the ``unogame.bots`` entry point in pyproject.toml.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..bots import Bot
from ..engine import Move, Rules
from .actions import NO_REACTION, NUM_ACTIONS, action_to_move, move_to_action
from .observation import SeatMemory, encode

_MODELS: dict[Path, Any] = {}


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
        model = _MODELS[resolved] = MaskablePPO.load(resolved, device="cpu")
    return model


class PolicyBot(Bot):
    """Plays the model's most likely legal action (deterministic for a given model)."""

    level = "policy"

    def __init__(self, path: str | Path, seed: int = 0) -> None:
        super().__init__(seed)
        self.model = load_model(path)
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
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        for move in legal:
            mask[move_to_action(move, seat, players)] = True
        if view["turn"] != seat:
            mask[NO_REACTION] = True
        action, _ = self.model.predict(obs, action_masks=mask, deterministic=True)
        return action_to_move(int(action), seat, players)


def make_policy_bot(argument: str, seed: int = 0) -> PolicyBot:
    """The entry point of ``policy:PATH``."""
    return PolicyBot(argument, seed)
