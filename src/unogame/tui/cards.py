"""How cards look in the terminal: readable without colour (letters and symbols), coloured
where the terminal can.

>>> card_label("R7"), card_label("GS"), card_label("BR"), card_label("Y+2"), card_label("WS")
('R7', 'G⊘', 'B⇄', 'Y+2', 'W⇆')
>>> sort_key("R1") < sort_key("R+2") < sort_key("Y0") < sort_key("W")
True
"""

from __future__ import annotations

from typing import Final

from rich.style import Style
from rich.text import Text

COLOR_ORDER: Final = "RYGB"
RANK_SYMBOLS: Final = {"S": "⊘", "R": "⇄", "+2": "+2"}
WILD_LABELS: Final = {"W": "W", "W+4": "W+4", "WS": "W⇆", "WC": "W★"}
WILD_ORDER: Final = ("W", "W+4", "WS", "WC")

COLOR_STYLES: Final = {
    "R": Style(color="bright_white", bgcolor="red3", bold=True),
    "Y": Style(color="black", bgcolor="yellow3", bold=True),
    "G": Style(color="bright_white", bgcolor="green4", bold=True),
    # not blue3: under NO_COLOR (grey levels) it was as dark as the background
    "B": Style(color="bright_white", bgcolor="dodger_blue3", bold=True),
}
WILD_STYLE: Final = Style(color="bright_white", bgcolor="grey23", bold=True)
SWATCH_STYLES: Final = {letter: Style(color=style.bgcolor, bold=True)
                        for letter, style in COLOR_STYLES.items()}
COLOR_SYMBOLS: Final = {"R": "●", "Y": "▲", "G": "■", "B": "◆"}
"""A shape per colour, the same as the web game's, for players who do not see colours."""


def card_label(code: str) -> str:
    """The short face of a card: colour letter and rank, symbols for Skip and Reverse."""
    if code in WILD_LABELS:
        return WILD_LABELS[code]
    return code[0] + RANK_SYMBOLS.get(code[1:], code[1:])


def card_style(code: str) -> Style:
    """The colours of a card's face (wild cards are dark)."""
    return WILD_STYLE if code in WILD_LABELS else COLOR_STYLES[code[0]]


def card_text(code: str, *, dim: bool = False, selected: bool = False) -> Text:
    """A card as styled text, `` R7 `` or, selected, ``[R7]`` (visible without colour)."""
    label = card_label(code)
    style = card_style(code)
    if dim:
        style = style + Style(dim=True, bold=False)
    if selected:
        style = style + Style(underline=True, reverse=False)
        return Text.assemble(("[", "bold"), (label, style), ("]", "bold"))
    return Text.assemble(" ", (label, style), " ")


def color_text(letter: str, name: str) -> Text:
    """A colour shown as its shape, letter and name: ``● R red``."""
    return Text.assemble((f"{COLOR_SYMBOLS[letter]} ", SWATCH_STYLES[letter]),
                         (f"{letter} {name}", "bold"))


def sort_key(code: str) -> tuple[int, int, str]:
    """Hand order: by colour (R, Y, G, B), then rank; wild cards last."""
    if code in WILD_LABELS:
        return (4, WILD_ORDER.index(code), code)
    rank = code[1:]
    order = int(rank) if rank.isdigit() else {"S": 10, "R": 11, "+2": 12}[rank]
    return (COLOR_ORDER.index(code[0]), order, code)
