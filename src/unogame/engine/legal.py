"""Move generation: every legal move of a seat (R4, R5, R6), built from ready move objects
on the hot path of search."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .applying import MoveApplication
from .cards import CARD_COLOR, CARD_RANK, DRAW_TWO, NUM_CARDS, WILD, WILD_CUSTOM, WILD_DRAW_FOUR
from .custom_play import plays
from .fields import MAX_PLAYERS
from .moves import (
    ACCEPT_MOVE,
    CATCH,
    CHALLENGE_MOVE,
    COLOR,
    DRAW_MOVE,
    PASS_MOVE,
    PLAY,
    SWAP_SEAT,
    UNO_MOVE,
    Move,
    play_arguments_table,
)
from .rules import Rules
from .state import (
    CHALLENGE_PENDING,
    COLOR_PENDING,
    DRAWN_PENDING,
    STACK_PENDING,
    drawn_card_allowed,
)

_PLAIN_PLAYS: Final = [Move.make(PLAY, card) for card in range(NUM_CARDS)]
_PLAIN_PLAYS_UNO: Final = [Move.make(PLAY, card, uno=True) for card in range(NUM_CARDS)]
_WILD_PLAYS: Final = [tuple(Move.make(PLAY, card, color) for color in range(4))
                      for card in range(NUM_CARDS)]
_WILD_PLAYS_UNO: Final = [tuple(Move.make(PLAY, card, color, uno=True) for color in range(4))
                          for card in range(NUM_CARDS)]
_COLOR_MOVES: Final = [Move.make(COLOR, color=color) for color in range(4)]
_CATCH_MOVES: Final = [Move.make(CATCH, target=seat) for seat in range(MAX_PLAYERS)]

# How a card's plays are listed under given rules: one move, four colours, or worked out.
_PLAIN: Final = 0
_COLOR_ONLY: Final = 1
_SPECIAL: Final = 2
_SHAPES: dict[Rules, tuple[int, ...]] = {}


def play_shapes(rules: Rules) -> tuple[int, ...]:
    """How each card's plays are listed under ``rules`` (computed once per rule set)."""
    shapes = _SHAPES.get(rules)
    if shapes is None:
        def shape(card: int) -> int:
            arguments = play_arguments_table(rules)[card]
            if not arguments.simple:
                return _SPECIAL  # a seat or colour argument, or an UNO that depends on it
            return _COLOR_ONLY if arguments.color else _PLAIN

        shapes = _SHAPES[rules] = tuple(shape(card) for card in range(NUM_CARDS))
    return shapes


class MoveGeneration(MoveApplication):
    """Legal moves (see :class:`~unogame.engine.Game`)."""

    __slots__ = ()

    _size_by_copy: Callable[[int, Move], int]
    """A seat's hand size after a move, played on a copy (the game builds copies)."""

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        """Every move ``seat`` may make now (default: the player to act).

        Includes the moves that are not on one's turn: ``uno``, ``catch`` and, under
        ``jump_in``, playing an identical card.
        """
        if seat is None:
            seat = self.turn
        if self.winner is not None or not 0 <= seat < self.players:
            return []
        moves: list[Move] = []
        hand = self.card_hands[seat]
        pending = self.pending
        if seat == self.turn:
            self._turn_moves(seat, moves)
        elif pending is None and self.rules.jump_in and self.discard_cards:
            top = self.discard_cards[-1]
            if top < WILD and top in hand:
                self._play_variants(seat, top, moves)
        size = len(hand)
        if size <= 2 and seat not in self.uno_seats and (size == 1 or (
            seat == self.turn
            and (pending is None or pending.kind not in (CHALLENGE_PENDING, STACK_PENDING))
        )):
            moves.append(UNO_MOVE)
        if self.catchable_seats:
            # In seat order: a set's order depends on its history, which a position
            # read back from its notation does not have.
            for target in sorted(self.catchable_seats):
                if target != seat:
                    moves.append(_CATCH_MOVES[target])
        return moves

    def _turn_moves(self, seat: int, moves: list[Move]) -> None:
        hand = self.card_hands[seat]
        pending = self.pending
        if pending is None:
            color = self.color_index
            top_rank = CARD_RANK[self.discard_cards[-1]] if self.discard_cards else -1
            two = len(hand) == 2
            shapes = self._shapes
            for card in set(hand):
                if card >= WILD or CARD_COLOR[card] == color or CARD_RANK[card] == top_rank:
                    shape = shapes[card]
                    if shape == _PLAIN:  # the hot path: one move, plus its UNO variant
                        moves.append(_PLAIN_PLAYS[card])
                        if two:
                            moves.append(_PLAIN_PLAYS_UNO[card])
                    elif shape == _COLOR_ONLY:
                        moves.extend(_WILD_PLAYS[card])
                        if two:
                            moves.extend(_WILD_PLAYS_UNO[card])
                    else:
                        self._play_variants(seat, card, moves)
            moves.append(DRAW_MOVE)
        elif pending.kind == DRAWN_PENDING:
            self._play_variants(seat, pending.card, moves)
            if not self.rules.must_play_drawn or not drawn_card_allowed(
                    pending.card, hand, self.color_index, self.discard_cards):
                moves.append(PASS_MOVE)  # a forbidden Wild Draw Four is never forced (R5.4)
        elif pending.kind == CHALLENGE_PENDING:
            moves.append(CHALLENGE_MOVE)
            moves.append(ACCEPT_MOVE)
            if self.rules.stacking and WILD_DRAW_FOUR in hand:
                self._play_variants(seat, WILD_DRAW_FOUR, moves)
        elif pending.kind == COLOR_PENDING:
            moves.extend(_COLOR_MOVES)
        else:  # a stack of Draw Twos or (without challenge) Wild Draw Fours
            top = self.discard_cards[-1]
            for card in set(hand):
                if card == top or (top < WILD and CARD_RANK[card] == DRAW_TWO):
                    self._play_variants(seat, card, moves)
            moves.append(DRAW_MOVE)

    def _play_variants(self, seat: int, card: int, moves: list[Move]) -> None:
        """Every way to play ``card``: colours, seats, arguments and the ``uno`` suffix (D3)."""
        arguments = self._arguments[card]
        hands = self.card_hands
        hand = hands[seat]
        size = len(hand)
        if arguments.simple:  # the common case: the move objects are ready
            if card < WILD:
                moves.append(_PLAIN_PLAYS[card])
                if size == 2:
                    moves.append(_PLAIN_PLAYS_UNO[card])
            else:
                moves.extend(_WILD_PLAYS[card])
                if size == 2:
                    moves.extend(_WILD_PLAYS_UNO[card])
            return
        if card == WILD_CUSTOM:  # its rule's steps say what the play names (custom_play.py)
            for move, after in plays(self.rules.custom, self.players, self.direction,
                                     self.card_hands, seat,
                                     len(self.draw_cards) + len(self.discard_cards),
                                     self._size_by_copy):
                self._add(moves, move, after)
            return
        colors = range(4) if arguments.color else (-1,)
        if arguments.seat is not None:
            swap = arguments.seat == SWAP_SEAT
            after = size - 1
            for color in colors:
                for target in range(self.players):
                    if target != seat:
                        if swap and size > 1:
                            after = len(hands[target])
                        self._add(moves, Move.make(PLAY, card, color, target), after)
            return
        if arguments.discard_color:
            for color in colors:
                for discarded in range(4):
                    after = size - 1
                    if size > 1:
                        after -= sum(1 for c in hand if CARD_COLOR[c] == discarded)
                    self._add(moves, Move.make(PLAY, card, color, arg=discarded), after)
            return
        after = size - 1
        if arguments.passes_hands and size > 1:
            after = len(hands[(seat - self.direction) % self.players])
        for color in colors:
            self._add(moves, Move.make(PLAY, card, color), after)

    @staticmethod
    def _add(moves: list[Move], move: Move, after: int) -> None:
        moves.append(move)
        if after == 1:
            moves.append(Move.from_code(move.code | 1 << 19))
