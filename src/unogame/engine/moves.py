"""Moves and their text notation (NOTATION.md, "Moves").

A :class:`Move` is immutable and interned: there is one object per distinct move, so
legal-move lists are cheap to build and compare. Its ``code`` is a small ``int`` that
can serve as an action id.

>>> move = Move.parse("play w+4 g uno")
>>> str(move), move.card_code, move.uno
('play W+4 G uno', 'W+4', True)
>>> Move.parse("play WS B 2") is Move.parse("play ws b 2")
True
>>> Move.parse("play W")
Traceback (most recent call last):
...
unogame.engine.cards.NotationError: 'play W': a wild card needs its colour (play W COLOUR)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Final, Literal

from .cards import (
    CARD_CODE,
    CARD_RANK,
    COLORS,
    NUM_CARDS,
    WILD,
    WILD_CUSTOM,
    WILD_SWAP,
    NotationError,
    card_from_code,
    color_from_letter,
    is_wild,
)
from .events import Event
from .rules import Rules

PLAY: Final = 0
DRAW: Final = 1
PASS: Final = 2
CHALLENGE: Final = 3
ACCEPT: Final = 4
COLOR: Final = 5
UNO: Final = 6
CATCH: Final = 7
KIND_WORDS: Final = ("play", "draw", "pass", "challenge", "accept", "color", "uno", "catch")
TURN_KINDS: Final = frozenset({PLAY, DRAW, PASS, CHALLENGE, ACCEPT, COLOR})
"""Moves that start or continue a turn; they close every catch window (D1)."""

MAX_SEATS: Final = 10
_CARD_WORDS: Final = frozenset(CARD_CODE)


def encode(kind: int, card: int = -1, color: int = -1, target: int = -1, arg: int = -1,
           uno: bool = False, gift: int = -1) -> int:
    """Pack a move into its ``code``: kind, card, colour, seat, colour argument, uno flag,
    the card a Wild Customizable rule gives."""
    return (kind | (card + 1) << 3 | (color + 1) << 9 | (target + 1) << 12 | (arg + 1) << 16
            | uno << 19 | (gift + 1) << 20)


GIFT_BITS: Final = 63 << 20
"""The bits of a move's ``code`` that hold the card a Wild Customizable rule gives."""


class Move:
    """One move of the notation: ``play R7``, ``play WS B 2 uno``, ``draw``, ``catch 1``,
    ``play WC R 2 G7`` (a custom rule giving G7 to seat 2)...

    Build moves with :meth:`parse` or :meth:`from_code`; equal moves are the same object.
    Fields are ``-1`` when a move does not have them.
    """

    __slots__ = ("arg", "card", "code", "color", "gift", "kind", "target", "text", "uno")
    _interned: ClassVar[dict[int, Move]] = {}

    code: int
    kind: int
    card: int
    color: int
    target: int
    arg: int
    uno: bool
    gift: int
    text: str

    def __init__(self, code: int) -> None:
        self.code = code
        self.kind = code & 7
        self.card = (code >> 3 & 63) - 1
        self.color = (code >> 9 & 7) - 1
        self.target = (code >> 12 & 15) - 1
        self.arg = (code >> 16 & 7) - 1
        self.uno = bool(code >> 19 & 1)
        self.gift = (code >> 20 & 63) - 1
        self.text = self._format()

    @classmethod
    def from_code(cls, code: int) -> Move:
        """The interned move for a code made by :func:`encode`."""
        move = cls._interned.get(code)
        if move is None:
            move = cls._interned[code] = cls(code)
        return move

    @classmethod
    def make(cls, kind: int, card: int = -1, color: int = -1, target: int = -1, arg: int = -1,
             uno: bool = False, gift: int = -1) -> Move:
        """The interned move with these fields."""
        return cls.from_code(encode(kind, card, color, target, arg, uno, gift))

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move in the notation; raise :class:`NotationError` if it is not one."""
        if not isinstance(text, str):
            raise NotationError(f"a move must be text, not {text!r}")
        words = text.split()
        if not words:
            raise NotationError("empty move")
        word = words[0].lower()
        args = words[1:]
        if word == "play":
            return cls._parse_play(text, args)
        if word in ("draw", "pass", "challenge", "accept", "uno"):
            if args:
                raise NotationError(f"{text!r}: '{word}' takes nothing after it")
            return cls.make(KIND_WORDS.index(word))
        if word == "color":
            if len(args) != 1:
                raise NotationError(f"{text!r}: expected 'color COLOUR'")
            return cls.make(COLOR, color=color_from_letter(args[0]))
        if word == "catch":
            if len(args) != 1:
                raise NotationError(f"{text!r}: expected 'catch SEAT'")
            return cls.make(CATCH, target=_seat(text, args[0]))
        raise NotationError(f"{text!r}: unknown move word {words[0]!r}")

    @classmethod
    def _parse_play(cls, text: str, args: list[str]) -> Move:
        if not args:
            raise NotationError(f"{text!r}: expected 'play CARD'")
        card = card_from_code(args[0])
        rest = args[1:]
        uno = bool(rest) and rest[-1].lower() == "uno"
        if uno:
            rest = rest[:-1]
        color = -1
        if is_wild(card):
            if not rest:
                raise NotationError(
                    f"{text!r}: a wild card needs its colour (play {CARD_CODE[card]} COLOUR)"
                )
            color = color_from_letter(rest[0])
            rest = rest[1:]
        target = arg = gift = -1
        for word in rest:
            if word.isdigit() and target < 0:
                target = _seat(text, word)
            elif len(word) == 1 and word.upper() in COLORS and arg < 0 and is_wild(card):
                arg = color_from_letter(word)
            elif card == WILD_CUSTOM and gift < 0 and word.upper() in _CARD_WORDS:
                gift = card_from_code(word)  # a card a custom rule gives (DECISIONS.md)
            else:
                raise NotationError(f"{text!r}: unexpected {word!r}")
        return cls.make(PLAY, card, color, target, arg, uno, gift)

    def _format(self) -> str:
        kind = self.kind
        if kind == PLAY:
            parts = ["play", CARD_CODE[self.card] if 0 <= self.card < NUM_CARDS else "?"]
            if self.color >= 0:
                parts.append(COLORS[self.color])
            if self.arg >= 0:
                parts.append(COLORS[self.arg])
            if self.target >= 0:
                parts.append(str(self.target))
            if self.gift >= 0:
                parts.append(CARD_CODE[self.gift])
            if self.uno:
                parts.append("uno")
            return " ".join(parts)
        if kind == COLOR:
            return f"color {COLORS[self.color]}"
        if kind == CATCH:
            return f"catch {self.target}"
        return KIND_WORDS[kind]

    @property
    def public_text(self) -> str:
        """The move as every seat may read it: its text without the card a family's rule
        gives (only the giver and the receiver see that card, DECISIONS.md D20).

        >>> Move.parse("play WC Y 3 B7 uno").public_text
        'play WC Y 3 uno'
        """
        if self.gift < 0:
            return self.text
        return Move.from_code(self.code & ~GIFT_BITS).text

    @property
    def card_code(self) -> str | None:
        """The code of the card a ``play`` puts down, else ``None``."""
        return CARD_CODE[self.card] if self.card >= 0 else None

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move.parse({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Move) and other.code == self.code)

    def __hash__(self) -> int:
        return self.code

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Move.from_code, (self.code,))


def _seat(text: str, word: str) -> int:
    if not word.isdigit() or int(word) >= MAX_SEATS:
        raise NotationError(f"{text!r}: {word!r} is not a seat number (0 to {MAX_SEATS - 1})")
    return int(word)


DRAW_MOVE: Final = Move.make(DRAW)
PASS_MOVE: Final = Move.make(PASS)
CHALLENGE_MOVE: Final = Move.make(CHALLENGE)
ACCEPT_MOVE: Final = Move.make(ACCEPT)
UNO_MOVE: Final = Move.make(UNO)


def play_event(seat: int, move: Move, color: str, jump_in: bool) -> Event:
    """The ``play`` event of ``move`` by ``seat`` (``color``: the colour to match now): its
    public part carries :attr:`Move.public_text`; the whole text, naming a card given, is
    the player's own (D20).

    >>> event = play_event(1, Move.parse("play WC Y 3 B7"), "Y", False)
    >>> event.for_seat(None)["move"], event.for_seat(1)["move"], event.for_seat(3)["move"]
    ('play WC Y 3', 'play WC Y 3 B7', 'play WC Y 3')
    """
    public: dict[str, object] = {"seat": seat, "card": CARD_CODE[move.card],
                                 "move": move.public_text, "color": color}
    if jump_in:
        public["jump_in"] = True
    if move.gift < 0:
        return Event("play", public)
    return Event("play", public, {seat: {"move": move.text}})


SWAP_SEAT: Final = "swap"
"""The chosen seat's hand is swapped with the player's (R5.6 Wild Swap Hands, seven_zero 7)."""
DRAW_SEAT: Final = "draw"
"""The chosen seat draws cards (R5.7 ``chosen_draw``)."""
CHOSEN_SEAT: Final = "chosen"
"""The chosen seat is acted on by a family's rule in more ways (DECISIONS.md D18)."""

SEAT_PURPOSE: Final[dict[str, str]] = {
    CARD_CODE[WILD_SWAP]: SWAP_SEAT,
    CARD_CODE[WILD_CUSTOM]: DRAW_SEAT,
    **{CARD_CODE[card]: SWAP_SEAT for card in range(WILD) if CARD_RANK[card] == 7},
}
"""What the seat argument of a card's play means, by card code, when the rules give it one
(see :func:`play_arguments`); for front ends asking the player to choose a seat."""


@dataclass(frozen=True, slots=True)
class PlayArguments:
    """What a play of a card needs besides the card (NOTATION "Moves"), under given rules."""

    color: bool
    """A colour to name: every wild card (``play W G``)."""
    seat: Literal["swap", "draw", "chosen"] | None
    """A seat to act on, and what happens to it (``SWAP_SEAT``, ``DRAW_SEAT`` or, for a
    family's rule acting on the chosen seat in other ways, ``CHOSEN_SEAT``)."""
    discard_color: bool
    """A second colour, the one to discard (``discard_color``: ``play WC G R``)."""
    passes_hands: bool
    """No argument, but every hand moves on (``seven_zero`` 0, ``pass_hands``)."""
    give_card: bool = False
    """A card to give, held besides the played card (a family's rule: ``play WC G 2 R7``)."""
    changes_hand: bool = False
    """The player's own hand changes beyond the card played (a Wild Customizable rule that
    swaps, passes, discards, gives or draws for its player): ``uno`` depends on it (D3)."""
    simple: bool = field(init=False, repr=False, compare=False)
    """No seat, no discard colour, no passing of hands, no card to give, no change of the
    player's hand: a colour at most (the hot case)."""

    def __post_init__(self) -> None:
        simple = (self.seat is None and not self.discard_color and not self.passes_hands
                  and not self.give_card and not self.changes_hand)
        object.__setattr__(self, "simple", simple)

    def to_dict(self) -> dict[str, object]:
        """The arguments as JSON (for front ends)."""
        return {"color": self.color, "seat": self.seat, "discard_color": self.discard_color,
                "passes_hands": self.passes_hands, "give_card": self.give_card}


_TABLES: dict[Rules, tuple[PlayArguments, ...]] = {}


def play_arguments(card: int, rules: Rules) -> PlayArguments:
    """The arguments a play of ``card`` takes under ``rules``: the one place that says so
    (the engine's legal moves, its explanations, the bots and the front ends use it).

    >>> from .cards import card_from_code as card
    >>> play_arguments(card("WS"), Rules())  # doctest: +NORMALIZE_WHITESPACE
    PlayArguments(color=True, seat='swap', discard_color=False, passes_hands=False,
                  give_card=False, changes_hand=False)
    >>> [play_arguments(card("R7"), rules).seat for rules in (Rules(), Rules(seven_zero=True))]
    [None, 'swap']
    >>> play_arguments(card("WC"), Rules(custom_rule="discard_color")).discard_color
    True
    >>> from .custom import CustomRule, Step
    >>> gift = Rules(custom_rule=CustomRule((Step("chosen", "give"),), "A present"))
    >>> play_arguments(card("WC"), gift).seat, play_arguments(card("WC"), gift).give_card
    ('chosen', True)
    """
    return play_arguments_table(rules)[card]


def play_arguments_table(rules: Rules) -> tuple[PlayArguments, ...]:
    """:func:`play_arguments` of every card under ``rules``, indexed by card (computed once
    per rules: the engine's hot paths index it)."""
    table = _TABLES.get(rules)
    if table is None:
        table = _TABLES[rules] = tuple(_arguments(card, rules) for card in range(NUM_CARDS))
    return table


def _arguments(card: int, rules: Rules) -> PlayArguments:
    if card == WILD_CUSTOM:
        return _custom_arguments(rules)
    rank = CARD_RANK[card]
    seat: Literal["swap"] | None = None
    if card == WILD_SWAP or (card < WILD and rules.seven_zero and rank == 7):
        seat = SWAP_SEAT
    return PlayArguments(color=card >= WILD, seat=seat, discard_color=False,
                         passes_hands=card < WILD and rules.seven_zero and rank == 0)


def _custom_arguments(rules: Rules) -> PlayArguments:
    """The Wild Customizable's arguments: what its rule's steps need (custom.py, D18)."""
    rule = rules.custom
    chosen = {step.what for step in rule.steps if step.who == "chosen"}
    seat: Literal["swap", "draw", "chosen"] | None = None
    if chosen:
        seat = SWAP_SEAT if chosen == {"swap"} else DRAW_SEAT if chosen == {"draw"} else (
            CHOSEN_SEAT)
    return PlayArguments(color=True, seat=seat, discard_color=rule.needs_color,
                         passes_hands=rule.has("pass_hands"), give_card=rule.needs_card,
                         changes_hand=rule.changes_own_hand)
