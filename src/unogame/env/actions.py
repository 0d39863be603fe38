"""One ``Discrete`` action space for every move under every rule set (docs/ENV.md, "Actions").

Seats in actions are *relative*: offset ``k`` names the seat ``k`` places after the acting
seat in seat order (``(seat + k) % players``), so one policy serves every seat. An action
whose offset is not below the number of players is never legal.

>>> from unogame.engine import Move
>>> action = move_to_action(Move.parse("play WS G 0 uno"), seat=3, players=4)
>>> ACTION_NAMES[action], str(action_to_move(action, seat=3, players=4))
('play WS G +1 uno', 'play WS G 0 uno')
>>> action_to_move(NO_REACTION, seat=0, players=2) is None
True
"""

from __future__ import annotations

from typing import Final, NamedTuple

from ..engine import Move
from ..engine.cards import CARD_CODE, COLORS, WILD, WILD_CUSTOM, WILD_DRAW_FOUR, WILD_SWAP
from ..engine.moves import (
    ACCEPT,
    CATCH,
    CHALLENGE,
    COLOR,
    DRAW,
    MAX_SEATS,
    PASS,
    PLAY,
    UNO,
    encode,
)

OFFSETS: Final = range(1, MAX_SEATS)
"""Relative seats an action can name: 1 (the next seat in seat order) to 9."""
SEVENS: Final = tuple(colour * 13 + 7 for colour in range(4))
NO_KIND: Final = 8
"""The kind of the "no reaction" action (not a move of the notation)."""


class ActionSpec(NamedTuple):
    """The fields of one action; ``offset`` is a relative seat (-1: none)."""

    kind: int
    card: int = -1
    color: int = -1
    offset: int = -1
    arg: int = -1
    uno: bool = False


def _table() -> list[ActionSpec]:
    table: list[ActionSpec] = []
    for uno in (False, True):  # every coloured card, plain (a 7 without seven_zero, a jump-in)
        table.extend(ActionSpec(PLAY, card, uno=uno) for card in range(WILD))
    for card in SEVENS:  # seven_zero: play R7 SEAT
        table.extend(ActionSpec(PLAY, card, offset=offset, uno=uno)
                     for offset in OFFSETS for uno in (False, True))
    for card in (WILD, WILD_DRAW_FOUR):
        table.extend(ActionSpec(PLAY, card, color, uno=uno)
                     for color in range(4) for uno in (False, True))
    table.extend(ActionSpec(PLAY, WILD_SWAP, color, offset, uno=uno)
                 for color in range(4) for offset in OFFSETS for uno in (False, True))
    table.extend(ActionSpec(PLAY, WILD_CUSTOM, color, uno=uno)
                 for color in range(4) for uno in (False, True))
    table.extend(ActionSpec(PLAY, WILD_CUSTOM, color, offset, uno=uno)  # chosen_draw
                 for color in range(4) for offset in OFFSETS for uno in (False, True))
    table.extend(ActionSpec(PLAY, WILD_CUSTOM, color, arg=arg, uno=uno)  # discard_color
                 for color in range(4) for arg in range(4) for uno in (False, True))
    table.extend(ActionSpec(kind) for kind in (DRAW, PASS, CHALLENGE, ACCEPT))
    table.extend(ActionSpec(COLOR, color=color) for color in range(4))
    table.append(ActionSpec(UNO))
    table.extend(ActionSpec(CATCH, offset=offset) for offset in OFFSETS)
    table.append(ActionSpec(NO_KIND))
    return table


ACTIONS: Final[tuple[ActionSpec, ...]] = tuple(_table())
"""Every action by id."""
NUM_ACTIONS: Final = len(ACTIONS)
NO_REACTION: Final = NUM_ACTIONS - 1
"""Off turn only: let the moment pass (say no UNO, catch no one, jump in with nothing)."""


def _name(spec: ActionSpec) -> str:
    if spec.kind == NO_KIND:
        return "no reaction"
    if spec.kind == COLOR:
        return f"color {COLORS[spec.color]}"
    if spec.kind == CATCH:
        return f"catch +{spec.offset}"
    if spec.kind != PLAY:
        return Move.make(spec.kind).text
    parts = ["play", CARD_CODE[spec.card]]
    if spec.color >= 0:
        parts.append(COLORS[spec.color])
    if spec.arg >= 0:
        parts.append(COLORS[spec.arg])
    if spec.offset >= 0:
        parts.append(f"+{spec.offset}")
    if spec.uno:
        parts.append("uno")
    return " ".join(parts)


ACTION_NAMES: Final[tuple[str, ...]] = tuple(_name(spec) for spec in ACTIONS)
"""A readable name per action; a relative seat is written ``+k``."""

_BY_KEY: Final = {
    encode(spec.kind, spec.card, spec.color, spec.offset, spec.arg, spec.uno): action
    for action, spec in enumerate(ACTIONS) if spec.kind != NO_KIND
}
_TARGET_BITS: Final = 15 << 12
_MOVES: dict[tuple[int, int, int], Move] = {}
_ACTIONS_BY_MOVE: dict[tuple[int, int, int], int] = {}


def move_to_action(move: Move, seat: int, players: int) -> int:
    """The action of ``seat``'s ``move`` in a game of ``players`` (``ValueError`` if none)."""
    key = (move.code, seat, players)
    action = _ACTIONS_BY_MOVE.get(key)
    if action is None:
        code = move.code
        if move.target >= 0:
            offset = (move.target - seat) % players
            code = code & ~_TARGET_BITS | (offset + 1) << 12
        try:
            action = _BY_KEY[code]
        except KeyError:
            raise ValueError(f"move {move} has no action") from None
        _ACTIONS_BY_MOVE[key] = action
    return action


def action_to_move(action: int, seat: int, players: int) -> Move | None:
    """The move ``action`` stands for when ``seat`` acts (``None`` for :data:`NO_REACTION`).

    Raises ``ValueError`` for an id outside the space or a seat the game does not have.
    """
    key = (action, seat, players)
    move = _MOVES.get(key)
    if move is None:
        if not 0 <= action < NUM_ACTIONS:
            raise ValueError(f"action {action!r} is not in 0..{NUM_ACTIONS - 1}")
        spec = ACTIONS[action]
        if spec.kind == NO_KIND:
            return None
        target = -1
        if spec.offset >= 0:
            if spec.offset >= players:
                raise ValueError(f"action {ACTION_NAMES[action]!r} names a seat a "
                                 f"{players}-player game does not have")
            target = (seat + spec.offset) % players
        move = Move.make(spec.kind, spec.card, spec.color, target, spec.arg, spec.uno)
        _MOVES[key] = move
    return move


def actions_table_markdown() -> str:
    """The action table of docs/ENV.md (ids, then what each stands for)."""
    lines = ["| id | action |", "| --- | --- |"]
    lines.extend(f"| {action} | `{name}` |" for action, name in enumerate(ACTION_NAMES))
    return "\n".join(lines)
