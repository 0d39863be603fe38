"""A game's fields, below its moves: the slots, reading them, views and snapshots.

:class:`GameFields` is the base of :class:`~unogame.engine.Game`; the classes between
them (``rounds``, ``applying``, ``legal``) add the rule mechanics, applying moves and
move generation, and ``game`` adds construction and the move history's public face.
"""

from __future__ import annotations

from array import array
from typing import Any, Final, NamedTuple

from .cards import CARD_CODE
from .events import Event
from .moves import Move, PlayArguments
from .position import dump_position, dump_view
from .rules import Rules
from .state import Pending, color_name, playable, top_code

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 10


class Snapshot(NamedTuple):
    """A whole position, immutable: the round's start, and each move's undo record (as
    python-chess keeps a board state per move). Shared freely between copies."""

    shuffles: int
    hands: tuple[tuple[int, ...], ...]
    draw: tuple[int, ...]
    discard: tuple[int, ...]
    color: int
    direction: int
    turn: int
    dealer: int
    scores: tuple[int, ...]
    pending: Pending | None
    uno: frozenset[int]
    catchable: frozenset[int]
    winner: int | None
    game_winner: int | None


class GameFields:
    """The state of a :class:`~unogame.engine.Game` and its reading (see ``Game``)."""

    __slots__ = (
        "_arguments",
        "_finished_rounds",
        "_history",
        "_origin",
        "_round_start",
        "_shapes",
        "_start",
        "_start_events",
        "_undo",
        "card_hands",
        "catchable_seats",
        "color_index",
        "dealer",
        "dealer_draws",
        "direction",
        "discard_cards",
        "draw_cards",
        "game_winner",
        "pending",
        "players",
        "rules",
        "scores",
        "seed",
        "shuffles",
        "turn",
        "uno_seats",
        "winner",
    )

    # The state as ints (cards of ``unogame.engine.cards``, piles with their top card
    # last), public for search and compiled cores to read without copying, as
    # python-chess's board attributes: read them; change the game only by its moves.
    rules: Rules
    seed: int
    players: int
    shuffles: int
    """How many shuffles the game has made: with ``seed`` it fixes the next one (D14)."""
    card_hands: list[list[int]]
    """Every hand as card ints, by seat."""
    draw_cards: list[int]
    """The draw pile as card ints, top card last."""
    discard_cards: list[int]
    """The discard pile as card ints, top card last."""
    color_index: int
    """The colour to match as an index into ``COLORS`` (-1: not chosen yet)."""
    direction: int
    turn: int
    dealer: int
    scores: list[int]
    pending: Pending | None
    uno_seats: set[int]
    """The seats in ``uno``."""
    catchable_seats: set[int]
    """The seats in ``catchable``."""
    winner: int | None
    game_winner: int | None
    dealer_draws: list[dict[int, str]]
    """R2.1: the cards drawn to choose the first dealer (public), one dict per drawing."""
    _shapes: tuple[int, ...]  # how each card's plays are listed (legal.play_shapes)
    _arguments: tuple[PlayArguments, ...]
    _round_start: Snapshot | None
    _origin: Snapshot | None  # how a game from a position or view began
    _start_events: list[Event]
    _history: list[tuple[int, Move]]
    _undo: list[tuple[int, Snapshot]]  # (ply, the position before it)
    _finished_rounds: list[array[int]]  # seat, move code, seat, ... (packed)
    _start: dict[str, Any] | None

    # ----------------------------------------------------------------- reading

    @property
    def hands(self) -> list[list[str]]:
        """Every hand as card codes, by seat."""
        return [[CARD_CODE[card] for card in hand] for hand in self.card_hands]

    def hand(self, seat: int) -> list[str]:
        """One seat's hand as card codes."""
        return [CARD_CODE[card] for card in self.card_hands[seat]]

    def hand_sizes(self) -> list[int]:
        """How many cards each seat holds."""
        return [len(hand) for hand in self.card_hands]

    @property
    def color(self) -> str | None:
        """The colour to match (``None`` while a first wild's colour is not chosen)."""
        return color_name(self.color_index)

    @property
    def top_card(self) -> str | None:
        """The top card of the discard pile."""
        return top_code(self.discard_cards)

    @property
    def draw_pile_size(self) -> int:
        return len(self.draw_cards)

    @property
    def uno(self) -> list[int]:
        """Seats that have said UNO for their last card (sorted)."""
        return sorted(self.uno_seats)

    @property
    def catchable(self) -> list[int]:
        """Seats that may still be caught without having said UNO (sorted, R6.2)."""
        return sorted(self.catchable_seats)

    @property
    def ply(self) -> int:
        """How many moves the current round has had."""
        return len(self._history)

    @property
    def is_round_over(self) -> bool:
        return self.winner is not None

    @property
    def is_game_over(self) -> bool:
        return self.game_winner is not None

    @property
    def history(self) -> list[tuple[int, Move]]:
        """The moves of the current round, as (seat, move)."""
        return list(self._history)

    def play_arguments(self, card: int) -> PlayArguments:
        """:func:`~unogame.engine.moves.play_arguments` of ``card`` under this game's rules.

        >>> from unogame.engine import Game
        >>> Game(2, Rules(seven_zero=True)).play_arguments(7).seat
        'swap'
        """
        return self._arguments[card]

    def start_events(self) -> list[Event]:
        """The events of the current round's start: ``deal`` (dealer, top card, the seat to
        act, direction), then the first card's effects: R5.1 the first player's forced
        draw (its cards private to that seat) and ``skip``; R5.3 ``skip``. A Reverse
        (R5.2) shows as the deal's ``direction`` -1, a wild (R5.8) as the pending colour.
        Empty for a game that began at a position or a view (nothing was dealt).

        >>> from unogame.engine import Game
        >>> [event.type for event in Game.new(3, seed=2).start_events()]
        ['deal']
        """
        return list(self._start_events)

    def position(self) -> dict[str, Any]:
        """The full position as a NOTATION JSON object."""
        return dump_position(self)

    def view(self, seat: int | None) -> dict[str, Any]:
        """The position as ``seat`` sees it (``None``: a spectator, who sees no hand)."""
        return dump_view(self, seat)

    # ----------------------------------------------------------------- matching

    def is_playable(self, card: int) -> bool:
        """Whether a card matches the colour to match or the top card (R4.2, R5.5)."""
        return playable(card, self.color_index, self.discard_cards)

    # ----------------------------------------------------------------- snapshots

    def _snapshot(self) -> Snapshot:
        return Snapshot(
            self.shuffles, tuple(map(tuple, self.card_hands)), tuple(self.draw_cards),
            tuple(self.discard_cards), self.color_index, self.direction, self.turn, self.dealer,
            tuple(self.scores), self.pending, frozenset(self.uno_seats),
            frozenset(self.catchable_seats), self.winner, self.game_winner,
        )

    def _restore(self, snap: Snapshot) -> None:
        self.shuffles = snap.shuffles
        self.card_hands = [list(hand) for hand in snap.hands]
        self.draw_cards = list(snap.draw)
        self.discard_cards = list(snap.discard)
        self.color_index = snap.color
        self.direction = snap.direction
        self.turn = snap.turn
        self.dealer = snap.dealer
        self.scores = list(snap.scores)
        self.pending = snap.pending
        self.uno_seats = set(snap.uno)
        self.catchable_seats = set(snap.catchable)
        self.winner = snap.winner
        self.game_winner = snap.game_winner
