"""Why a move or a card is refused, as the engine's stable codes with parameters, for the
page to say in the player's language (the rule number stays visible)."""

from __future__ import annotations

from typing import Any

from ..engine import Game
from ..engine.errors import NotationError
from ..engine.explain import refusal
from ..engine.moves import Move
from ..engine.state import PlayableGame


def move_refusal(game: PlayableGame, seat: int, text: str) -> dict[str, Any] | None:
    """The engine's reason that ``text`` by ``seat`` is refused (None: no reason to give,
    e.g. the text is not a move in the notation)."""
    if not isinstance(game, Game):  # the server's tables always hold the engine's Game
        return None
    try:
        move = Move.parse(text)
    except NotationError:
        return None
    if game.winner is None and move in game.legal_moves(seat):
        return None
    return refusal(game, seat, move).to_json()


def card_refusals(game: PlayableGame, seat: int, hand: list[str],
                  legal: list[str]) -> dict[str, Any]:
    """For each card of ``seat``'s hand with no legal play now, why it cannot be played:
    what the page says when that card is tapped. Only what the page translates (code, rule,
    parameters): no English text, and no ``card`` parameter, the key already names it; sent
    with every update, so kept small (issue 22)."""
    if not isinstance(game, Game):  # the server's tables always hold the engine's Game
        return {}
    playable = {text.split(" ")[1] for text in legal if text.startswith("play ")}
    # the engine's legal moves once per seat, not once per card (as move_refusal would)
    engine_legal = set(game.legal_moves(seat)) if game.winner is None else set()
    reasons: dict[str, Any] = {}
    for code in hand:
        if code in playable or code in reasons:
            continue
        text = f"play {code} R" if code.startswith("W") else f"play {code}"
        try:
            move = Move.parse(text)
        except NotationError:
            continue
        if move in engine_legal:
            continue
        found = refusal(game, seat, move)
        params = {name: value for name, value in found.params.items()
                  if not (name == "card" and value == code)}
        reasons[code] = {"code": found.code, "rule": found.rule, "params": params}
    return reasons
