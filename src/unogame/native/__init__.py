"""The optional compiled core: move generation, apply and whole playouts in C.

``pip install`` builds ``unogame.native._core`` when a C compiler is present; without one
(or with the environment variable ``UNOGAME_NO_NATIVE=1``) :data:`CORE` is ``None`` and
every caller uses the pure-Python engine, which stays the reference. The core plays every
rule option of :class:`~unogame.engine.Rules` and reproduces the engine exactly: the same
legal moves in the same order, the same events, and the same chance (it seeds CPython's
Mersenne Twister from ``"seed/shuffle count"`` with SHA-512 and sorts on ``random()``
keys as the engine does, see ``docs/NATIVE.md``), so a game played through the core is
the game the engine would have played.

>>> from unogame.engine import Game, Rules
>>> game = new_game(4, Rules(), seed=7)
>>> game.position() == Game.new(4, Rules(), seed=7).position()
True
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import TYPE_CHECKING, Final

from ..engine import Game, Rules
from ..engine.rules import CUSTOM_RULES

if TYPE_CHECKING:
    from .game import NativeGame

DISABLE_VARIABLE: Final = "UNOGAME_NO_NATIVE"
"""Set to 1 to run without the compiled core (CI runs one test pass so)."""


def _load() -> ModuleType | None:
    if os.environ.get(DISABLE_VARIABLE, "") not in ("", "0"):
        return None
    try:
        from . import _core  # type: ignore[attr-defined]
    except ImportError:
        return None
    return _core  # type: ignore[no-any-return]


CORE: Final[ModuleType | None] = _load()
"""The compiled module, or ``None`` (not built, or disabled)."""

_CUSTOM_INDEX: Final = {name: index for index, name in enumerate(CUSTOM_RULES)}


def available() -> bool:
    """Whether the compiled core is loaded."""
    return CORE is not None


def rules_tuple(rules: Rules) -> tuple[int, ...] | None:
    """The rules as the core reads them, or ``None`` if the core cannot play them: a
    family's composed Wild Customizable rule (only the presets are in C), or a target score
    beyond the core's range."""
    custom = rules.custom_rule
    if not isinstance(custom, str) or custom not in _CUSTOM_INDEX \
            or rules.target_score > 1_000_000_000:
        return None
    return (rules.hand_size, rules.target_score, int(rules.must_play_drawn),
            int(rules.stacking), int(rules.challenge), rules.uno_penalty,
            int(rules.two_player_reverse_skips), _CUSTOM_INDEX[custom],
            rules.custom_count, int(rules.seven_zero), int(rules.jump_in),
            int(rules.draw_until_playable))


def supports(rules: Rules) -> bool:
    """Whether the core is loaded and plays these rules."""
    return CORE is not None and rules_tuple(rules) is not None


def new_game(players: int, rules: Rules | None = None, seed: int = 0) -> Game | NativeGame:
    """``Game.new`` through the core when it can play the rules, else the engine's."""
    from .game import NativeGame

    rules = rules if rules is not None else Rules()
    if supports(rules) and -(1 << 63) <= seed < 1 << 63:
        return NativeGame.new(players, rules, seed)
    return Game.new(players, rules, seed)


__all__ = ["CORE", "DISABLE_VARIABLE", "available", "new_game", "rules_tuple", "supports"]
