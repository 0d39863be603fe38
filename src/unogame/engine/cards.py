"""Cards of the 112-card deck (R1) and their notation codes.

A card is a small ``int``: ``colour * 13 + rank`` for the 100 coloured cards, and
``52``-``55`` for the four kinds of wild card. Lookup tables give each card's colour,
rank, points and code, so the hot paths of the engine never parse strings.

>>> card_from_code("R7"), card_code(card_from_code("Y+2"))
(7, 'Y+2')
>>> CARD_POINTS[card_from_code("WS")], CARD_POINTS[card_from_code("B9")]
(40, 9)
>>> len(full_deck())
112
"""

from __future__ import annotations

from typing import Final

COLORS: Final = ("R", "Y", "G", "B")
"""Colour letters by colour index (R1.1)."""
NO_COLOR: Final = 4
"""The colour index of wild cards."""

SKIP: Final = 10
REVERSE: Final = 11
DRAW_TWO: Final = 12
RANK_CODES: Final = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2")

WILD: Final = 52
WILD_DRAW_FOUR: Final = 53
WILD_SWAP: Final = 54
WILD_CUSTOM: Final = 55
WILD_CODES: Final = {WILD: "W", WILD_DRAW_FOUR: "W+4", WILD_SWAP: "WS", WILD_CUSTOM: "WC"}
NUM_CARDS: Final = 56
"""Number of distinct cards (card ints are ``0 .. NUM_CARDS - 1``)."""

# Ranks of wild cards start at 13 so a wild top card never matches a rank.
CARD_COLOR: Final[tuple[int, ...]] = tuple(
    c // 13 if c < WILD else NO_COLOR for c in range(NUM_CARDS)
)
CARD_RANK: Final[tuple[int, ...]] = tuple(c % 13 if c < WILD else c - 39 for c in range(NUM_CARDS))
CARD_CODE: Final[tuple[str, ...]] = tuple(
    COLORS[c // 13] + RANK_CODES[c % 13] if c < WILD else WILD_CODES[c] for c in range(NUM_CARDS)
)
CARD_POINTS: Final[tuple[int, ...]] = tuple(
    (c % 13 if c % 13 < 10 else 20)
    if c < WILD
    else (50 if c in (WILD, WILD_DRAW_FOUR) else 40)
    for c in range(NUM_CARDS)
)
"""R7.3: numbers face value; Skip, Reverse, Draw Two 20; Wild, Wild Draw Four 50; WS, WC 40."""

# How many copies of each card the deck holds (R1.1, R1.2).
CARD_COPIES: Final[tuple[int, ...]] = tuple(
    (1 if c % 13 == 0 else 2)
    if c < WILD
    else {WILD: 4, WILD_DRAW_FOUR: 4, WILD_SWAP: 1, WILD_CUSTOM: 3}[c]
    for c in range(NUM_CARDS)
)

_BY_CODE: Final = {code: card for card, code in enumerate(CARD_CODE)}
_COLOR_BY_LETTER: Final = {letter: i for i, letter in enumerate(COLORS)}


class NotationError(ValueError):
    """A card, colour, seat or move text that the notation does not define."""


def card_from_code(code: str) -> int:
    """The card for a code such as ``"R7"``, ``"B+2"`` or ``"W+4"`` (lower case accepted)."""
    try:
        return _BY_CODE[code.upper()]
    except (KeyError, AttributeError):
        raise NotationError(f"unknown card code {code!r}") from None


def card_code(card: int) -> str:
    """The notation code of a card."""
    return CARD_CODE[card]


def color_from_letter(letter: str) -> int:
    """The colour index for ``"R"``, ``"Y"``, ``"G"`` or ``"B"`` (lower case accepted)."""
    try:
        return _COLOR_BY_LETTER[letter.upper()]
    except (KeyError, AttributeError):
        raise NotationError(f"unknown colour {letter!r} (expected R, Y, G or B)") from None


def is_wild(card: int) -> bool:
    """Whether the card is one of the twelve wild cards (R1.2)."""
    return card >= WILD


_FULL_DECK: Final = tuple(card for card in range(NUM_CARDS) for _ in range(CARD_COPIES[card]))


def full_deck() -> list[int]:
    """The 112 cards, in a fixed order (R1)."""
    return list(_FULL_DECK)
