"""Bots: players that see only their seat's view and legal moves."""

from .base import Bot, RandomBot, bot_move

__all__ = ["Bot", "RandomBot", "bot_move"]
