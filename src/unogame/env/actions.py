"""One ``Discrete`` action space for every move under every rule set (docs/ENV.md, "Actions").

Seats in actions are *relative*: offset ``k`` names the seat ``k`` places after the acting
seat in seat order (``(seat + k) % players``), so one policy serves every seat. An action
whose offset is not below the number of players is never legal.

Every action but the Wild Customizable plays comes first (ids below :data:`WC_BASE`); then
one block holds every ``play WC`` a rule set can ask for, composed rules included (D18:
``play WC COLOUR [DISCARD] [SEAT] [CARD] [uno]``): each colour x discarded colour or none x
seat or none x card given or none x ``uno`` or not, so the space is the same for all rules.

>>> from unogame.engine import Move
>>> action = move_to_action(Move.parse("play WS G 0 uno"), seat=3, players=4)
>>> ACTION_NAMES[action], str(action_to_move(action, seat=3, players=4))
('play WS G +1 uno', 'play WS G 0 uno')
>>> action_to_move(NO_REACTION, seat=0, players=2) is None
True
>>> ACTION_NAMES[move_to_action(Move.parse("play WC G B 2 R7 uno"), seat=1, players=3)]
'play WC G B +1 R7 uno'
"""

from __future__ import annotations

from typing import Final, NamedTuple

from ..engine import Move
from ..engine.cards import (
    CARD_CODE,
    COLORS,
    NUM_CARDS,
    WILD,
    WILD_CUSTOM,
    WILD_DRAW_FOUR,
    WILD_SWAP,
)
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
    gift: int = -1


WC_FACTORS: Final = (
    ("colour C", ("R", "Y", "G", "B")),
    ("discarded colour D", ("none", "R", "Y", "G", "B")),
    ("seat +k", ("none", *(f"+{offset}" for offset in OFFSETS))),
    ("card given", ("none", *CARD_CODE)),
    ("uno", ("no", "yes")),
)
"""The Wild Customizable block's factors, outermost first, each with its values in order."""


def _strides() -> tuple[int, ...]:
    strides = []
    stride = 1
    for _, values in reversed(WC_FACTORS):
        strides.append(stride)
        stride *= len(values)
    return tuple(reversed(strides))


WC_STRIDES: Final = _strides()
"""Id step per value of each factor: an id is ``WC_BASE`` plus each value's position times
its stride (position 0 of D, +k and the card is "none")."""
WC_BLOCK: Final = WC_STRIDES[0] * len(WC_FACTORS[0][1])


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
    table.extend(ActionSpec(kind) for kind in (DRAW, PASS, CHALLENGE, ACCEPT))
    table.extend(ActionSpec(COLOR, color=color) for color in range(4))
    table.append(ActionSpec(UNO))
    table.extend(ActionSpec(CATCH, offset=offset) for offset in OFFSETS)
    table.append(ActionSpec(NO_KIND))
    table.extend(ActionSpec(PLAY, WILD_CUSTOM, color, offset, discard, uno, gift)
                 for color in range(4) for discard in range(-1, 4)
                 for offset in (-1, *OFFSETS) for gift in range(-1, NUM_CARDS)
                 for uno in (False, True))
    return table


ACTIONS: Final[tuple[ActionSpec, ...]] = tuple(_table())
"""Every action by id."""
NUM_ACTIONS: Final = len(ACTIONS)
WC_BASE: Final = NUM_ACTIONS - WC_BLOCK
"""The first Wild Customizable play (``play WC R``); every id from it on is one."""
NO_REACTION: Final = WC_BASE - 1
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
    if spec.gift >= 0:
        parts.append(CARD_CODE[spec.gift])
    if spec.uno:
        parts.append("uno")
    return " ".join(parts)


ACTION_NAMES: Final[tuple[str, ...]] = tuple(_name(spec) for spec in ACTIONS)
"""A readable name per action; a relative seat is written ``+k``."""

_BY_KEY: Final = {
    encode(spec.kind, spec.card, spec.color, spec.offset, spec.arg, spec.uno, spec.gift):
    action
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


def code_to_action(code: int, seat: int, players: int) -> int:
    """:func:`move_to_action` of the move with this code (``Move.code``)."""
    action = _ACTIONS_BY_MOVE.get((code, seat, players))
    if action is None:
        action = move_to_action(Move.from_code(code), seat, players)
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
        move = Move.make(spec.kind, spec.card, spec.color, target, spec.arg, spec.uno,
                         spec.gift)
        _MOVES[key] = move
    return move


WC_EXAMPLES: Final = ("play WC R", "play WC G uno", "play WC Y +2", "play WC B R",
                      "play WC R G +3", "play WC Y R7", "play WC B +1 WC",
                      "play WC G B +9 Y+2 uno")
"""Wild Customizable actions docs/ENV.md shows with their ids."""


def actions_table_markdown() -> str:
    """The action table of docs/ENV.md: every id below :data:`WC_BASE` with what it stands
    for, then the Wild Customizable block's factors, their strides and a few examples."""
    lines = ["| id | action |", "| --- | --- |"]
    lines.extend(f"| {action} | `{ACTION_NAMES[action]}` |" for action in range(WC_BASE))
    lines.extend(["", f"Wild Customizable block, ids {WC_BASE}-{NUM_ACTIONS - 1}: "
                  f"id = {WC_BASE} + the sum of each value's position times its stride.", "",
                  "| factor | values, in order (position 0 first) | stride |",
                  "| --- | --- | --- |"])
    for (factor, values), stride in zip(WC_FACTORS, WC_STRIDES, strict=True):
        shown = ", ".join(values) if len(values) <= 10 else \
            f"{', '.join(values[:4])}, ..., {values[-1]} (card ints in order)"
        lines.append(f"| {factor} | {shown} | {stride} |")
    lines.extend(["", "| id | action |", "| --- | --- |"])
    lines.extend(f"| {ACTION_NAMES.index(name)} | `{name}` |" for name in WC_EXAMPLES)
    return "\n".join(lines)
