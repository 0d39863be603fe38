"""Bots: players that see only their seat's view and legal moves."""

from .base import BOT_LEVELS, Bot, RandomBot, bot_move, make_bot

__all__ = ["BOT_LEVELS", "Bot", "RandomBot", "bot_move", "make_bot"]
