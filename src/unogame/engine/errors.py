"""Errors raised by the engine. Each leaves the game exactly as it was."""

from __future__ import annotations

from .cards import NotationError


class RulesError(ValueError):
    """An unknown rule option or a value it cannot take."""


class IllegalMoveError(ValueError):
    """A move the rules do not allow now; the message says why and cites the rule."""


class PositionError(ValueError):
    """A position (or deal) that is malformed or impossible (NOTATION, "Position")."""


__all__ = ["IllegalMoveError", "NotationError", "PositionError", "RulesError"]
