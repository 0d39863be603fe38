"""Scenarios (NOTATION "Scenario"): a start (position or stacked deal), rules, seed, actions.

:func:`run_scenario` plays the actions in order; it does no I/O (the ``uno scenario``
command prints its result).

>>> result = run_scenario({"state": {"players": 2, "hands": [["R1", "R2"], ["G3"]],
...     "draw_pile": [], "discard_pile": ["R5"], "color": "R"},
...     "actions": [[0, "play R1"], [1, "draw"]]})
>>> result.error is None, result.game.turn, result.game.catchable
(True, 1, [])
>>> run_scenario({"state": {"players": 2, "hands": [["R1"], ["G3"]], "draw_pile": [],
...     "discard_pile": ["R5"], "color": "R"}, "actions": [[1, "draw"]]}).error["error"]
"'draw' by seat 1: R4.1: it is seat 0's turn, not seat 1's"
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import NotationError
from .errors import IllegalMoveError, PositionError, RulesError
from .game import Game
from .moves import Move
from .rules import Rules


class ScenarioError(ValueError):
    """A malformed scenario document (bad structure, bad position, bad action pair)."""


@dataclass
class ScenarioResult:
    """The game after the actions, and the refusal object if an action was refused."""

    game: Game
    error: dict[str, Any] | None = None


def load_scenario(document: Any) -> tuple[Game, list[tuple[int, str]]]:
    """The starting game and the action list of a scenario document."""
    if not isinstance(document, dict):
        raise ScenarioError("a scenario must be a JSON object")
    try:
        rules = Rules.from_dict(document.get("rules"))
    except (RulesError, TypeError) as error:
        raise ScenarioError(f"rules: {error}") from None
    seed = document.get("seed", 0)
    if type(seed) is not int:
        raise ScenarioError("'seed' must be a whole number")
    has_state, has_deal = "state" in document, "deal" in document
    if has_state == has_deal:
        raise ScenarioError("a scenario needs exactly one of 'state' and 'deal'")
    try:
        if has_state:
            game = Game.from_position(document["state"], rules, seed)
        else:
            deal = document["deal"]
            if not isinstance(deal, dict) or not {"players", "deck"} <= deal.keys():
                raise ScenarioError("'deal' must be an object with 'players' and 'deck'")
            players = deal["players"]
            if type(players) is not int:
                raise ScenarioError("deal 'players' must be a whole number")
            game = Game.deal(players, deal.get("dealer", players - 1), deal["deck"], rules, seed)
    except PositionError as error:
        raise ScenarioError(f"{'state' if has_state else 'deal'}: {error}") from None
    except RulesError as error:  # a custom rule that makes no sense with these players
        raise ScenarioError(f"rules: {error}") from None
    actions = document.get("actions", [])
    if not isinstance(actions, list):
        raise ScenarioError("'actions' must be a list of [seat, \"move\"] pairs")
    pairs: list[tuple[int, str]] = []
    for index, action in enumerate(actions):
        if (not isinstance(action, list) or len(action) != 2 or type(action[0]) is not int
                or not isinstance(action[1], str)):
            raise ScenarioError(f"action {index} is not a [seat, \"move\"] pair: {action!r}")
        pairs.append((action[0], action[1]))
    return game, pairs


def run_scenario(document: Any) -> ScenarioResult:
    """Play a scenario; stop at the first refused action (NOTATION "scenario command")."""
    game, actions = load_scenario(document)
    for index, (seat, text) in enumerate(actions):
        try:
            game.push(seat, Move.parse(text))
        except (NotationError, IllegalMoveError) as error:
            message = str(error)
            if isinstance(error, NotationError):
                message = f"not understood: {message}"
            return ScenarioResult(game, {"error": message, "action": index,
                                         "state": game.position()})
    return ScenarioResult(game)
