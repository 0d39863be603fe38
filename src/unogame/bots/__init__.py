"""Bots: players that see only their seat's view and legal moves.

Levels (``BOT_LEVELS``): ``random``, ``rule``, ``easy``, ``medium``, ``hard``, ``learned``
(a network trained on ``hard``'s choices, :mod:`.learned`).
"""

from .base import BOT_LEVELS, Bot, RandomBot, RuleBot, bot_move, make_bot
from .heuristic import EasyBot, MediumBot
from .ismcts import HardBot
from .learned import LearnedBot

__all__ = ["BOT_LEVELS", "Bot", "EasyBot", "HardBot", "LearnedBot", "MediumBot", "RandomBot",
           "RuleBot", "bot_move", "make_bot"]
