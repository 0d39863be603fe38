"""What a position is made of, below the game: the pending decision, card lists read from
notation, and the read-only face of a game that the position and explanation modules use.

Kept apart from ``game.py`` so that ``position`` and ``explain`` need not import the game
(no import circle): they read a game through :class:`GameState`.

>>> Pending("stack", amount=4).amount
4
>>> read_cards(["R1", "w+4"], "hand")
[1, 53]
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol

from .cards import (
    CARD_CODE,
    CARD_COLOR,
    CARD_COPIES,
    CARD_RANK,
    COLORS,
    NUM_CARDS,
    WILD,
    WILD_DRAW_FOUR,
    NotationError,
    card_from_code,
)
from .errors import PositionError
from .rules import Rules

if TYPE_CHECKING:
    from .events import Event
    from .moves import Move

# Kinds of pending decision (NOTATION "pending").
CHALLENGE_PENDING: Final = "challenge"
DRAWN_PENDING: Final = "drawn"
COLOR_PENDING: Final = "color"
STACK_PENDING: Final = "stack"


@dataclass(frozen=True, slots=True)
class Pending:
    """A decision the player to act owes before an ordinary turn (NOTATION "pending")."""

    kind: str
    by: int = -1
    """challenge: the seat that played the Wild Draw Four."""
    color: int = -1
    """challenge: the colour the Wild Draw Four was played on (it judges the challenge)."""
    guilty: bool = False
    """challenge: the verdict, fixed at the moment of the play (R5.4)."""
    card: int = -1
    """drawn: the playable card just drawn (R4.4)."""
    amount: int = 0
    """challenge and stack: cards to draw (4 for one Wild Draw Four; more when stacked)."""


class GameState(Protocol):
    """The public, read-only face of a :class:`~unogame.engine.Game` (cards as ints)."""

    @property
    def players(self) -> int: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def card_hands(self) -> Sequence[Sequence[int]]: ...
    @property
    def draw_cards(self) -> Sequence[int]: ...
    @property
    def discard_cards(self) -> Sequence[int]: ...
    @property
    def color_index(self) -> int: ...
    @property
    def color(self) -> str | None: ...
    @property
    def top_card(self) -> str | None: ...
    @property
    def direction(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def pending(self) -> Pending | None: ...
    @property
    def uno_seats(self) -> Set[int]: ...
    @property
    def catchable_seats(self) -> Set[int]: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def game_winner(self) -> int | None: ...

    def is_playable(self, card: int) -> bool: ...


class PlayableGame(Protocol):
    """What a table plays a match on: :class:`~unogame.engine.Game`, or the compiled core's
    ``NativeGame`` (the same rules, move for move). Moves and views, nothing private."""

    @property
    def players(self) -> int: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def seed(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def direction(self) -> int: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def game_winner(self) -> int | None: ...
    @property
    def is_round_over(self) -> bool: ...
    @property
    def is_game_over(self) -> bool: ...
    @property
    def pending(self) -> Pending | None:
        """The decision pending (its ``kind`` and whether there is one are public)."""
    @property
    def discard_cards(self) -> list[int]:
        """The discard pile, top card last (public)."""

    def view(self, seat: int | None) -> dict[str, Any]: ...
    def position(self) -> dict[str, Any]: ...
    def legal_moves(self, seat: int | None = None) -> list[Move]: ...
    def push(self, seat: int, move: Move | str, *, undo: bool = True,
             checked: bool = False) -> list[Event]: ...
    def explain_illegal(self, seat: int, move: Move) -> str: ...
    def start_events(self) -> list[Event]: ...
    def next_round(self) -> list[Event]: ...


def color_name(color_index: int) -> str | None:
    """The colour to match as its letter (``None`` while a first wild's colour is not
    chosen, index -1): a game's ``color``."""
    return COLORS[color_index] if color_index >= 0 else None


def top_code(discard_cards: Sequence[int]) -> str | None:
    """The top card of a discard pile (top card last) as its code: a game's ``top_card``."""
    return CARD_CODE[discard_cards[-1]] if discard_cards else None


def playable(card: int, color_index: int, discard_cards: Sequence[int]) -> bool:
    """Whether ``card`` matches the colour to match or the top card (R4.2, R5.5): a game's
    ``is_playable``, shared by the engine and the compiled core's exports."""
    if card >= WILD or CARD_COLOR[card] == color_index:
        return True
    return bool(discard_cards) and CARD_RANK[card] == CARD_RANK[discard_cards[-1]]


def holds_color(hand: Sequence[int], color_index: int) -> bool:
    """Whether ``hand`` holds a card of the colour to match: a Wild Draw Four may then not
    be played by the rules (R5.4; wilds have no colour, D12)."""
    return any(CARD_COLOR[card] == color_index for card in hand)


def drawn_card_allowed(card: int, hand: Sequence[int], color_index: int,
                       discard_cards: Sequence[int]) -> bool:
    """Whether a drawn ``card`` is playable for ``must_play_drawn`` and
    ``draw_until_playable`` (R4.4): it matches (R4.2), and it is not a Wild Draw Four
    while ``hand`` holds the colour to match (R5.4 forbids that play; playing it anyway
    is a bluff the player may choose, never one a rule forces)."""
    if card == WILD_DRAW_FOUR:
        return not holds_color(hand, color_index)
    return playable(card, color_index, discard_cards)


def read_cards(codes: object, what: str) -> list[int]:
    """Card codes to cards; :class:`PositionError` names ``what`` held a bad code."""
    if not isinstance(codes, list | tuple):
        raise PositionError(f"{what} must be a list of card codes")
    try:
        return [card_from_code(code) for code in codes]
    except NotationError as error:
        raise PositionError(f"{what}: {error}") from None


def check_copies(cards: Sequence[int]) -> None:
    """R1: refuse more copies of a card than the deck holds."""
    counts = [0] * NUM_CARDS
    for card in cards:
        counts[card] += 1
        if counts[card] > CARD_COPIES[card]:
            raise PositionError(
                f"R1: more than {CARD_COPIES[card]} {CARD_CODE[card]} "
                f"(the deck has {CARD_COPIES[card]})"
            )
