"""The UNO rules engine: cards, rules, positions, moves, views and notation.

Pure and deterministic (all chance from the game's seed), standard library only.

>>> from unogame.engine import Game
>>> game = Game.new(players=3, seed=42)
>>> move = game.legal_moves()[0]
>>> events = game.push(game.turn, move)
>>> sum(game.hand_sizes()) + game.draw_pile_size + len(game.position()["discard_pile"])
112
"""

from .cards import CARD_CODE, COLORS, NotationError, card_code, card_from_code, full_deck
from .errors import IllegalMoveError, PositionError, RulesError
from .events import EVENT_KINDS, Event, EventKind
from .game import Game, Pending, replay
from .moves import Move, PlayArguments, play_arguments
from .rules import CUSTOM_RULES, Rules

__all__ = [
    "CARD_CODE",
    "COLORS",
    "CUSTOM_RULES",
    "EVENT_KINDS",
    "Event",
    "EventKind",
    "Game",
    "IllegalMoveError",
    "Move",
    "NotationError",
    "Pending",
    "PlayArguments",
    "PositionError",
    "Rules",
    "RulesError",
    "card_code",
    "card_from_code",
    "full_deck",
    "play_arguments",
    "replay",
]
