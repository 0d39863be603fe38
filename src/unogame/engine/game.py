"""The game: a position, its rules and seed, legal moves, and moves applied (R2-R7).

>>> game = Game.from_position({
...     "players": 2, "hands": [["R7", "G2"], ["B7", "Y1"]],
...     "draw_pile": ["B3", "Y9"], "discard_pile": ["R5"], "color": "R", "turn": 0})
>>> [str(move) for move in game.legal_moves(0)]
['play R7', 'play R7 uno', 'draw', 'uno']
>>> events = game.push(0, "play R7")
>>> game.turn, game.catchable
(1, [0])
>>> _ = game.push(1, "catch 0")
>>> game.hands[0]
['G2', 'B3', 'Y9']
>>> game.pop()
(1, Move.parse('catch 0'))
>>> _ = game.pop(); game.hands[0]
['R7', 'G2']
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final, NamedTuple

from .cards import (
    _FULL_DECK,
    CARD_CODE,
    CARD_COLOR,
    CARD_POINTS,
    CARD_RANK,
    COLORS,
    DRAW_TWO,
    NUM_CARDS,
    REVERSE,
    SKIP,
    WILD,
    WILD_CUSTOM,
    WILD_DRAW_FOUR,
    WILD_SWAP,
    full_deck,
)
from .custom_play import Mechanics, apply_rule, plays
from .errors import IllegalMoveError, PositionError
from .events import Event
from .explain import explain
from .moves import (
    ACCEPT,
    ACCEPT_MOVE,
    CATCH,
    CHALLENGE,
    CHALLENGE_MOVE,
    COLOR,
    DRAW,
    DRAW_MOVE,
    PASS,
    PASS_MOVE,
    PLAY,
    SWAP_SEAT,
    TURN_KINDS,
    UNO,
    UNO_MOVE,
    Move,
    PlayArguments,
    play_arguments_table,
)
from .position import LoadedPosition, dump_position, dump_view, load_position, load_view
from .rules import Rules
from .state import (
    CHALLENGE_PENDING,
    COLOR_PENDING,
    DRAWN_PENDING,
    STACK_PENDING,
    Pending,
    check_copies,
    color_name,
    playable,
    read_cards,
    top_code,
)

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 10

_PLAIN_PLAYS: Final = [Move.make(PLAY, card) for card in range(NUM_CARDS)]
_PLAIN_PLAYS_UNO: Final = [Move.make(PLAY, card, uno=True) for card in range(NUM_CARDS)]
_WILD_PLAYS: Final = [tuple(Move.make(PLAY, card, color) for color in range(4))
                      for card in range(NUM_CARDS)]
_WILD_PLAYS_UNO: Final = [tuple(Move.make(PLAY, card, color, uno=True) for color in range(4))
                          for card in range(NUM_CARDS)]
_COLOR_MOVES: Final = [Move.make(COLOR, color=color) for color in range(4)]

# How a card's plays are listed under given rules: one move, four colours, or worked out.
_PLAIN: Final = 0
_COLOR_ONLY: Final = 1
_SPECIAL: Final = 2
_SHAPES: dict[Rules, tuple[int, ...]] = {}


def _play_shapes(rules: Rules) -> tuple[int, ...]:
    shapes = _SHAPES.get(rules)
    if shapes is None:
        def shape(card: int) -> int:
            arguments = play_arguments_table(rules)[card]
            if not arguments.simple:
                return _SPECIAL  # a seat or colour argument, or an UNO that depends on it
            return _COLOR_ONLY if arguments.color else _PLAIN

        shapes = _SHAPES[rules] = tuple(shape(card) for card in range(NUM_CARDS))
    return shapes
_CATCH_MOVES: Final = [Move.make(CATCH, target=seat) for seat in range(MAX_PLAYERS)]


class _Snapshot(NamedTuple):
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


class Game:
    """A UNO game: the position of the current round, the match scores, rules and seed.

    Create one with :meth:`new` (dealer drawn and cards dealt from the seed),
    :meth:`from_position` (a NOTATION position), :meth:`deal` (a stacked deck) or
    :meth:`from_view` (a seat's view and the hidden cards a bot sampled).
    Moves are applied with :meth:`push` (checked, returns the events) and taken back
    with :meth:`pop`. All chance comes from ``seed``: same rules, seed and moves give
    the same game.
    """

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

    def __init__(self, players: int, rules: Rules | None = None, seed: int = 0) -> None:
        if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise PositionError(f"players must be from {MIN_PLAYERS} to {MAX_PLAYERS} (R1.3)")
        self.rules: Rules = rules if rules is not None else Rules()
        self.rules.custom.check_players(players, self.rules.two_player_reverse_skips)
        self._shapes = _play_shapes(self.rules)
        self._arguments = play_arguments_table(self.rules)
        self.seed: int = seed
        self.players: int = players
        # The state as ints (cards of ``unogame.engine.cards``, piles with their top card
        # last), public for search and compiled cores to read without copying, as
        # python-chess's board attributes: read them; change the game only by its moves.
        self.shuffles: int = 0
        """How many shuffles the game has made: with ``seed`` it fixes the next one (D14)."""
        self.card_hands: list[list[int]] = [[] for _ in range(players)]
        """Every hand as card ints, by seat."""
        self.draw_cards: list[int] = []
        """The draw pile as card ints, top card last."""
        self.discard_cards: list[int] = []
        """The discard pile as card ints, top card last."""
        self.color_index: int = -1
        """The colour to match as an index into ``COLORS`` (-1: not chosen yet)."""
        self.direction: int = 1
        self.turn: int = 0
        self.dealer: int = players - 1
        self.scores: list[int] = [0] * players
        self.pending: Pending | None = None
        self.uno_seats: set[int] = set()
        """The seats in ``uno``."""
        self.catchable_seats: set[int] = set()
        """The seats in ``catchable``."""
        self.winner: int | None = None
        self.game_winner: int | None = None
        self._round_start: _Snapshot | None = None
        self._origin: _Snapshot | None = None  # how a game from a position or view began
        self._start_events: list[Event] = []
        self._history: list[tuple[int, Move]] = []
        self._undo: list[tuple[int, _Snapshot]] = []  # (ply, the position before it)
        self._finished_rounds: list[list[tuple[int, Move]]] = []
        self._start: dict[str, Any] | None = None
        self.dealer_draws: list[dict[int, str]] = []
        """R2.1: the cards drawn to choose the first dealer (public), one dict per drawing."""

    # ----------------------------------------------------------------- creation

    @classmethod
    def new(cls, players: int, rules: Rules | None = None, seed: int = 0) -> Game:
        """A new match: the dealer is chosen by drawing (R2.1) and the first round dealt.

        >>> game = Game.new(4, seed=1)
        >>> [len(hand) for hand in game.hands], game.dealer
        ([7, 7, 7, 7], 0)
        >>> [event.type for event in game.start_events()]
        ['deal']
        """
        game = cls(players, rules, seed)
        if players * game.rules.hand_size + 1 > len(_FULL_DECK):
            raise PositionError(
                f"R2.2: {players} hands of {game.rules.hand_size} cards and a card to turn up "
                f"need more than the {len(_FULL_DECK)} cards of the deck"
            )
        game._start = {"players": players}
        rng = game._next_rng()
        game.dealer = _choose_dealer(players, rng, game.dealer_draws)
        deck = full_deck()  # R2.1: the cards go back and the deck is shuffled
        _shuffle_with(rng, deck)
        game._deal(deck)
        return game

    @classmethod
    def deal(cls, players: int, dealer: int, deck: Sequence[str], rules: Rules | None = None,
             seed: int = 0) -> Game:
        """A round dealt from a stacked deck, cards top first (R2.2, R2.3, first card R5.x).

        >>> deck = ["R1", "G1", "R2", "G2", "B+2", "Y5", "Y6"]
        >>> game = Game.deal(2, 1, deck, Rules(hand_size=2))
        >>> for event in game.start_events():
        ...     print(event.for_seat(0))
        {'type': 'deal', 'dealer': 1, 'top': 'B+2', 'turn': 1, 'direction': 1}
        {'type': 'draw', 'seat': 0, 'count': 2, 'reason': 'draw_two', 'cards': ['Y5', 'Y6']}
        {'type': 'skip', 'seat': 0}
        """
        game = cls(players, rules, seed)
        if not isinstance(dealer, int) or not 0 <= dealer < players:
            raise PositionError(f"dealer must be a seat from 0 to {players - 1}")
        cards = read_cards(deck, "deck")
        check_copies(cards)
        needed = players * game.rules.hand_size + 1
        if len(cards) < needed:
            raise PositionError(
                f"the deck holds {len(cards)} cards; dealing needs at least {needed}"
            )
        game._start = {"deal": {"players": players, "dealer": dealer, "deck": list(deck)}}
        game.dealer = dealer
        game._deal(cards)
        return game

    @classmethod
    def from_position(cls, position: dict[str, Any], rules: Rules | None = None,
                      seed: int = 0) -> Game:
        """A game at a NOTATION position; raises :class:`PositionError` if it is impossible."""
        game = cls._loaded(load_position(position), rules, seed)
        game._start = {"state": game.position()}
        return game

    @classmethod
    def from_view(cls, view: Mapping[str, Any], rules: Rules | None = None, seed: int = 0,
                  hands: Mapping[int, Sequence[str]] | None = None,
                  draw_pile: Sequence[str] | None = None) -> Game:
        """A game built from one seat's view (:meth:`view`) and the hidden cards a bot
        sampled: ``hands`` for the other seats, ``draw_pile`` top card first (a
        determinization, as OpenSpiel's ``resample_from_infostate``).

        Hidden cards left out stay empty: such a game holds the public state only, a
        template for :meth:`resample`. Given hidden cards must match the sizes the view
        shows; :class:`PositionError` names what is wrong. A hidden challenge verdict is
        judged from the sampled hand of the seat that played the Wild Draw Four.

        >>> game = Game.from_position({"players": 2, "hands": [["R1", "G2"], ["B7"]],
        ...     "draw_pile": ["Y1", "Y2"], "discard_pile": ["R5"], "color": "R"})
        >>> world = Game.from_view(game.view(0), hands={1: ["B8"]}, draw_pile=["G9", "Y3"])
        >>> world.hands, world.position()["draw_pile"]
        ([['R1', 'G2'], ['B8']], ['G9', 'Y3'])
        """
        loaded = load_view(dict(view), hands, draw_pile)
        game = cls._loaded(loaded, rules, seed)
        return game

    @classmethod
    def _loaded(cls, loaded: LoadedPosition, rules: Rules | None, seed: int) -> Game:
        game = cls(loaded.players, rules, seed)
        game.card_hands = loaded.hands
        game.draw_cards = loaded.draw
        game.discard_cards = loaded.discard
        game.color_index = loaded.color
        game.direction = loaded.direction
        game.turn = loaded.turn
        game.dealer = loaded.dealer
        game.scores = loaded.scores
        game.pending = loaded.pending
        game.uno_seats = loaded.uno
        game.catchable_seats = loaded.catchable
        game.winner = loaded.winner
        game.game_winner = loaded.game_winner
        game._round_start = game._origin = game._snapshot()
        return game

    def resample(self, hands: Mapping[int, Sequence[int]], draw_cards: Sequence[int],
                 seed: int) -> Game:
        """A copy with the hidden cards replaced: ``hands`` by seat, the draw pile
        ``draw_cards`` (top card last), and a new ``seed`` for the chance to come.

        The fast path of a determinization (IS-MCTS builds one per iteration): the cards
        are not checked, so they must come from the unseen cards of a :meth:`from_view`
        game. A pending challenge whose Wild Draw Four player's hand is replaced is judged
        again from that hand (its verdict was hidden). The copy starts a new history.

        >>> template = Game.from_view(Game.new(2, seed=5).view(0))
        >>> world = template.resample({1: list(range(7))}, [20, 21], seed=9)
        >>> world.hand_sizes(), world.draw_pile_size, template.hand_sizes()
        ([7, 7], 2, [7, 0])
        """
        game = self._clone(False)
        for seat, hand in hands.items():
            game.card_hands[seat] = list(hand)
        game.draw_cards = list(draw_cards)
        game.seed = seed
        pending = game.pending
        if pending is not None and pending.kind == CHALLENGE_PENDING and pending.by in hands:
            by_hand = game.card_hands[pending.by]
            guilty = any(CARD_COLOR[card] == pending.color for card in by_hand)
            if guilty != pending.guilty:
                game.pending = Pending(CHALLENGE_PENDING, by=pending.by, color=pending.color,
                                       guilty=guilty, amount=pending.amount)
        game._round_start = game._origin = game._snapshot()
        return game

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

    def copy(self) -> Game:
        """An independent copy of the game, history included: :meth:`pop` and
        :meth:`record` work on it as on the original.

        >>> game = Game.new(2, seed=3)
        >>> _ = game.push(game.turn, game.legal_moves()[0])
        >>> twin = game.copy()
        >>> twin.pop() == game.history[-1], twin.record()["rounds"] == [[]]
        (True, True)
        """
        return self._clone(True)

    def _clone(self, history: bool) -> Game:
        """The position, rules and seed in a new game, with the records (``history``) or
        with none (a new start)."""
        other = Game.__new__(Game)
        other.rules = self.rules
        other._shapes = self._shapes
        other._arguments = self._arguments
        other.seed = self.seed
        other.players = self.players
        other.shuffles = self.shuffles
        other.card_hands = [hand[:] for hand in self.card_hands]
        other.draw_cards = self.draw_cards[:]
        other.discard_cards = self.discard_cards[:]
        other.color_index = self.color_index
        other.direction = self.direction
        other.turn = self.turn
        other.dealer = self.dealer
        other.scores = self.scores[:]
        other.pending = self.pending
        other.uno_seats = set(self.uno_seats)
        other.catchable_seats = set(self.catchable_seats)
        other.winner = self.winner
        other.game_winner = self.game_winner
        other.dealer_draws = self.dealer_draws
        if history:
            other._round_start = self._round_start
            other._origin = self._origin
            other._start_events = self._start_events
            other._history = self._history[:]
            other._undo = self._undo[:]
            other._finished_rounds = self._finished_rounds[:]
            other._start = self._start
        else:
            other._round_start = other._origin = None
            other._start_events = []
            other._history = []
            other._undo = []
            other._finished_rounds = []
            other._start = None
        return other

    # ----------------------------------------------------------------- legal moves

    def is_playable(self, card: int) -> bool:
        """Whether a card matches the colour to match or the top card (R4.2, R5.5)."""
        return playable(card, self.color_index, self.discard_cards)

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
            for target in self.catchable_seats:
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
            if not self.rules.must_play_drawn:
                moves.append(PASS_MOVE)
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

    # ----------------------------------------------------------------- applying moves

    def push(self, seat: int, move: Move | str) -> list[Event]:
        """Apply ``seat``'s move if it is legal and return the events it caused.

        An illegal move raises :class:`IllegalMoveError` (the reason cites the rule) and
        changes nothing; a move that is not notation raises ``NotationError``.
        """
        if isinstance(move, str):
            move = Move.parse(move)
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalMoveError(f"there is no seat {seat!r} in a {self.players}-player game")
        if move not in self.legal_moves(seat):
            raise IllegalMoveError(self.explain_illegal(seat, move))
        events: list[Event] = []
        undo = (len(self._history), self._snapshot())
        self._apply(seat, move, events)
        self._history.append((seat, move))
        self._undo.append(undo)
        return events

    def push_unchecked(self, seat: int, move: Move) -> None:
        """Apply a move taken from :meth:`legal_moves` without checking it (for simulations).

        It keeps no undo record (the hot path of search): :meth:`pop` takes such a move
        back by playing the round again from its start."""
        self._apply(seat, move, None)
        self._history.append((seat, move))

    def pop(self) -> tuple[int, Move]:
        """Take back the last move of the current round and return it.

        A move made with :meth:`push` is undone from its undo record, the position it
        was made in (as python-chess does)."""
        if not self._history:
            raise IndexError("no move to take back in this round")
        last = self._history.pop()
        undo = self._undo
        if undo and undo[-1][0] == len(self._history):
            self._restore(undo.pop()[1])
            return last
        start = self._round_start
        if start is None:  # only a game built with Game(...) itself, never dealt
            self._history.append(last)
            raise IndexError("this game was never dealt: its moves cannot be taken back")
        self._restore(start)
        for seat, move in self._history:
            self._apply(seat, move, None)
        return last

    def next_round(self) -> list[Event]:
        """Deal the next round: the next dealer clockwise, a full shuffled deck (R7.4).

        Returns :meth:`start_events` of the new round."""
        if self.winner is None:
            raise IllegalMoveError("R7.4: the round is not over yet")
        if self.game_winner is not None:
            raise IllegalMoveError(f"R3.2: the game is over; seat {self.game_winner} won")
        self._finished_rounds.append(self._history)
        self._history = []
        self._undo = []
        self.dealer = (self.dealer + 1) % self.players
        deck = full_deck()
        self._shuffle(deck)
        self._deal(deck)
        return self.start_events()

    def record(self) -> dict[str, Any]:
        """The game record: rules, seed, how it started, and every round's moves.

        :func:`replay` plays it back exactly (a game from :meth:`resample` starts at its
        position, whose later reshuffles may differ, D14).
        """
        start = self._start
        if start is None:
            origin = self._origin
            if origin is None:
                raise ValueError("this game was never dealt nor set up: it has no record")
            start = {"state": dump_position(self._clone_at(origin))}
        rounds = [*self._finished_rounds, self._history]
        return {
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            **start,
            "rounds": [[[seat, str(move)] for seat, move in moves] for moves in rounds],
        }

    def explain_illegal(self, seat: int, move: Move) -> str:
        """Why ``move`` is not legal for ``seat`` now, citing the rule."""
        return explain(self, seat, move)

    # ----------------------------------------------------------------- rule mechanics

    def _apply(self, seat: int, move: Move, events: list[Event] | None) -> None:
        # NOTATION uno: a seat leaves it when it holds more than one card again, other than
        # on its own turn with two. Gaining cards is D4 (_give, _draw_move, _swap,
        # _pass_hands); a seat that said UNO with two leaves when its turn ends without a
        # play (pass, a draw that brings nothing) or when a jump-in takes the turn (_play).
        kind = move.kind
        if kind in TURN_KINDS and self.catchable_seats:
            self.catchable_seats.clear()  # D1: the player to act starts (or goes on with) a turn
        if kind == PLAY:
            self._play(seat, move, events)
        elif kind == DRAW:
            self._draw_move(seat, events)
        elif kind == PASS:
            self.pending = None
            self.uno_seats.discard(seat)  # it holds the card it drew and at least one more
            if events is not None:
                events.append(Event("pass", {"seat": seat}))
            self._advance(1)
        elif kind == CHALLENGE:
            self._challenge(seat, events)
        elif kind == ACCEPT:
            pending = self.pending
            assert pending is not None
            self.pending = None
            if events is not None:
                events.append(Event("accept", {"seat": seat}))
            self._give(seat, pending.amount, events, "wild_draw_four")
            self._skip_to_next(seat, events)
        elif kind == COLOR:
            self.pending = None
            self.color_index = move.color
            if events is not None:
                events.append(Event("color", {"seat": seat, "color": COLORS[move.color]}))
        elif kind == UNO:
            self.uno_seats.add(seat)
            self.catchable_seats.discard(seat)
            if events is not None:
                events.append(Event("uno", {"seat": seat}))
        else:  # CATCH
            target = move.target
            self.catchable_seats.discard(target)
            if events is not None:
                events.append(Event("catch", {"seat": seat, "target": target}))
            self._give(target, self.rules.uno_penalty, events, "uno_penalty")

    def _play(self, seat: int, move: Move, events: list[Event] | None) -> None:
        card = move.card
        hand = self.card_hands[seat]
        pending = self.pending
        stacked = pending.amount if pending is not None and pending.kind != DRAWN_PENDING else 0
        jump_in = seat != self.turn
        if jump_in and len(self.card_hands[self.turn]) > 1:
            self.uno_seats.discard(self.turn)
        self.turn = seat
        hand.remove(card)
        old_color = self.color_index
        self.discard_cards.append(card)
        self.color_index = CARD_COLOR[card] if card < WILD else move.color
        self.pending = None
        if events is not None:
            public: dict[str, Any] = {"seat": seat, "card": CARD_CODE[card], "move": move.text,
                                      "color": COLORS[self.color_index]}
            if jump_in:
                public["jump_in"] = True
            events.append(Event("play", public))
        if not hand:
            self._end_round(seat, card, stacked, events)
            return
        players = self.players
        direction = self.direction
        rules = self.rules
        changed: tuple[int, ...] = (seat,)
        if card < WILD:
            rank = CARD_RANK[card]
            if rank < 10:
                if rules.seven_zero and rank == 7:
                    self._swap(seat, move.target, events)
                    changed = (seat, move.target)
                elif rules.seven_zero and rank == 0:
                    self._pass_hands(events)
                    changed = tuple(range(players))
                self.turn = (seat + direction) % players
            elif rank == SKIP:
                self._skip_to_next((seat + direction) % players, events)
            elif rank == REVERSE:
                self.direction = -direction
                if players == 2 and rules.two_player_reverse_skips:
                    self.turn = seat  # R5.2: acts like Skip with two players
                else:
                    self.turn = (seat - direction) % players
            else:  # DRAW_TWO
                victim = (seat + direction) % players
                if rules.stacking:
                    self.pending = Pending(STACK_PENDING, amount=stacked + 2)
                    self.turn = victim
                else:
                    self._give(victim, 2, events, "draw_two")
                    self._skip_to_next(victim, events)
        elif card == WILD_DRAW_FOUR:
            victim = (seat + direction) % players
            guilty = any(CARD_COLOR[other] == old_color for other in hand)
            if rules.challenge:
                self.pending = Pending(CHALLENGE_PENDING, by=seat, color=old_color,
                                       guilty=guilty, amount=stacked + 4)
                self.turn = victim
            elif rules.stacking:
                self.pending = Pending(STACK_PENDING, amount=stacked + 4)
                self.turn = victim
            else:
                self._give(victim, 4, events, "wild_draw_four")
                self._skip_to_next(victim, events)
        elif card == WILD_SWAP:
            self._swap(seat, move.target, events)
            changed = (seat, move.target)
            self.turn = (seat + direction) % players
        elif card == WILD_CUSTOM:
            changed = self._custom(seat, move, events)
        else:  # WILD
            self.turn = (seat + direction) % players
        if move.uno:
            self.uno_seats.add(seat)
        for changed_seat in changed:
            if len(self.card_hands[changed_seat]) == 1 and changed_seat not in self.uno_seats:
                self.catchable_seats.add(changed_seat)

    def _custom(self, seat: int, move: Move, events: list[Event] | None) -> tuple[int, ...]:
        """The Wild Customizable's rule (R5.7; custom.py, custom_play.py)."""
        return apply_rule(self.rules.custom, self, self._mechanics(), seat, move, events)

    def _mechanics(self) -> Mechanics:
        """What a Wild Customizable rule may do to this game (custom_play.Mechanics)."""

        def put_under_top(cards: list[int]) -> None:
            self.discard_cards[-1:-1] = cards

        def receive(seat: int, card: int) -> None:
            self.card_hands[seat].append(card)
            self.uno_seats.discard(seat)
            self.catchable_seats.discard(seat)

        return Mechanics(
            hand=lambda seat: self.card_hands[seat], give=self._give, swap=self._swap,
            pass_hands=self._pass_hands, put_under_top=put_under_top, receive=receive,
            end_round=lambda seat, events: self._end_round(seat, WILD_CUSTOM, 0, events),
        )

    def _size_by_copy(self, seat: int, move: Move) -> int:
        """``seat``'s hand size after ``move``, played on a copy (custom_play.size_after)."""
        other = self._clone(history=False)
        other._apply(seat, move, None)
        return len(other.card_hands[seat])

    def _draw_move(self, seat: int, events: list[Event] | None) -> None:
        pending = self.pending
        if pending is not None:  # a stack: take it all and lose the turn
            self.pending = None
            self._give(seat, pending.amount, events, "stack")
            self._skip_to_next(seat, events)
            return
        drawn: list[int] = []
        while True:
            card = self._take_card(events)
            if card < 0:
                break
            drawn.append(card)
            if not self.rules.draw_until_playable or self.is_playable(card):
                break
        if drawn:
            self.card_hands[seat].extend(drawn)
            self.uno_seats.discard(seat)
        if events is not None:
            events.append(Event("draw", {"seat": seat, "count": len(drawn), "reason": "turn"},
                                {seat: {"cards": [CARD_CODE[c] for c in drawn]}}))
        if drawn and self.is_playable(drawn[-1]):
            self.pending = Pending(DRAWN_PENDING, card=drawn[-1])
        else:
            if not drawn and len(self.card_hands[seat]) > 1:
                self.uno_seats.discard(seat)
            self._advance(1)  # R4.4 / R4.5: nothing playable drawn, the turn ends

    def _challenge(self, seat: int, events: list[Event] | None) -> None:
        pending = self.pending
        assert pending is not None
        self.pending = None
        by = pending.by
        if events is not None:
            events.append(Event(
                "challenge", {"seat": seat, "by": by, "guilty": pending.guilty},
                {seat: {"hand": [CARD_CODE[c] for c in self.card_hands[by]]}},
            ))
        if pending.guilty:  # R5.4: the challenged player draws, the challenger plays on
            self._give(by, pending.amount, events, "challenge")
        else:
            self._give(seat, pending.amount + 2, events, "challenge")
            self._skip_to_next(seat, events)

    def _end_round(self, seat: int, card: int, stacked: int, events: list[Event] | None) -> None:
        """R7: the round is won at once; R7.2 draws; R7.3 scoring; R3.2 the match."""
        self.winner = seat
        self.pending = None
        self.catchable_seats.clear()
        victim = (seat + self.direction) % self.players
        if card < WILD and CARD_RANK[card] == DRAW_TWO:
            self._give(victim, stacked + 2, events, "draw_two")
        elif card == WILD_DRAW_FOUR:
            self._give(victim, stacked + 4, events, "wild_draw_four")
        points = [sum(CARD_POINTS[c] for c in hand) for hand in self.card_hands]
        self.scores[seat] += sum(points)
        if self.scores[seat] >= self.rules.target_score:
            self.game_winner = seat
        if events is not None:
            events.append(Event("round_over", {
                "winner": seat, "points": points, "scores": self.scores[:],
                "hands": self.hands, "game_winner": self.game_winner,
            }))

    def _advance(self, steps: int) -> None:
        self.turn = (self.turn + steps * self.direction) % self.players

    def _skip_to_next(self, skipped: int, events: list[Event] | None) -> None:
        """``skipped`` loses the turn; the player after them acts."""
        if events is not None:
            events.append(Event("skip", {"seat": skipped}))
        self.turn = (skipped + self.direction) % self.players

    def _swap(self, seat: int, target: int, events: list[Event] | None) -> None:
        hands = self.card_hands
        hands[seat], hands[target] = hands[target], hands[seat]
        self.uno_seats.discard(seat)  # D4: a replaced hand needs UNO said again
        self.uno_seats.discard(target)
        if events is not None:
            events.append(Event("swap", {"seats": [seat, target]}))

    def _pass_hands(self, events: list[Event] | None) -> None:
        """Every hand moves to the next seat in the direction of play."""
        players = self.players
        old = self.card_hands
        new: list[list[int]] = [[] for _ in range(players)]
        for seat in range(players):
            new[(seat + self.direction) % players] = old[seat]
        self.card_hands = new
        self.uno_seats.clear()
        if events is not None:
            events.append(Event("pass_hands", {"direction": self.direction}))

    def _take_card(self, events: list[Event] | None) -> int:
        """The top card of the draw pile, reshuffling the discard pile if needed (R4.5)."""
        if not self.draw_cards:
            if len(self.discard_cards) <= 1:
                return -1
            top = self.discard_cards.pop()
            self.draw_cards = self.discard_cards
            self.discard_cards = [top]
            self._shuffle(self.draw_cards)
            if events is not None:
                events.append(Event("reshuffle", {"count": len(self.draw_cards)}))
        return self.draw_cards.pop()

    def _give(self, seat: int, count: int, events: list[Event] | None, reason: str) -> None:
        """``seat`` draws ``count`` cards, or as many as there are (R4.5)."""
        drawn = []
        for _ in range(count):
            card = self._take_card(events)
            if card < 0:
                break
            drawn.append(card)
        if drawn:
            self.card_hands[seat].extend(drawn)
            self.uno_seats.discard(seat)
            self.catchable_seats.discard(seat)
        if events is not None:
            events.append(Event("draw", {"seat": seat, "count": len(drawn), "reason": reason},
                                {seat: {"cards": [CARD_CODE[c] for c in drawn]}}))

    def _next_rng(self) -> random.Random:
        """A generator seeded from the game seed and the shuffle count (D14): a game's
        chance depends only on its seed and its moves, and copies need no RNG state."""
        rng = random.Random(f"{self.seed}/{self.shuffles}")
        self.shuffles += 1
        return rng

    def _shuffle(self, cards: list[int]) -> None:
        _shuffle_with(self._next_rng(), cards)

    # ----------------------------------------------------------------- rounds

    def _deal(self, deck: list[int]) -> None:
        """Deal ``deck`` (top first) from the dealer's left, turn the first card (R2, R5.x)."""
        players = self.players
        dealer = self.dealer
        self.card_hands = [[] for _ in range(players)]
        index = 0
        for _ in range(self.rules.hand_size):
            for step in range(1, players + 1):
                self.card_hands[(dealer + step) % players].append(deck[index])
                index += 1
        rest = deck[index:]
        rest.reverse()  # top card last
        self.draw_cards = rest
        self.discard_cards = []
        self.uno_seats = set()
        self.catchable_seats = set()
        self.winner = None
        self.pending = None
        self.direction = 1
        first = self.draw_cards.pop()
        while first == WILD_DRAW_FOUR:  # R5.4: back into the deck, reshuffle, turn again
            if all(card == WILD_DRAW_FOUR for card in self.draw_cards):
                raise PositionError("R5.4: the deck holds only Wild Draw Fours to turn up")
            self.draw_cards.append(first)
            self._shuffle(self.draw_cards)
            first = self.draw_cards.pop()
        self.discard_cards.append(first)
        left = (dealer + 1) % players
        self.turn = left
        self.color_index = CARD_COLOR[first] if first < WILD else -1
        effects: list[Event] = []
        if first >= WILD:  # R5.8: the first player chooses the colour, nothing else happens
            self.pending = Pending(COLOR_PENDING)
        elif CARD_RANK[first] == DRAW_TWO:  # R5.1
            self._give(left, 2, effects, "draw_two")
            self._skip_to_next(left, effects)
        elif CARD_RANK[first] == REVERSE:  # R5.2
            self.direction = -1
            self.turn = dealer
        elif CARD_RANK[first] == SKIP:  # R5.3
            self._skip_to_next(left, effects)
        self._start_events = [
            Event("deal", {"dealer": dealer, "top": CARD_CODE[first], "turn": self.turn,
                           "direction": self.direction}),
            *effects,
        ]
        self._round_start = self._snapshot()

    # ----------------------------------------------------------------- snapshots

    def _snapshot(self) -> _Snapshot:
        return _Snapshot(
            self.shuffles, tuple(map(tuple, self.card_hands)), tuple(self.draw_cards),
            tuple(self.discard_cards), self.color_index, self.direction, self.turn, self.dealer,
            tuple(self.scores), self.pending, frozenset(self.uno_seats),
            frozenset(self.catchable_seats), self.winner, self.game_winner,
        )

    def _restore(self, snap: _Snapshot) -> None:
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

    def _clone_at(self, snap: _Snapshot) -> Game:
        other = self._clone(False)
        other._restore(snap)
        return other


def _shuffle_with(rng: random.Random, cards: list[int]) -> None:
    """Shuffle in place: sorting by random keys is uniform and twice as fast as
    ``random.shuffle`` on a 112-card deck."""
    key = rng.random
    cards.sort(key=lambda _: key())


def _choose_dealer(players: int, rng: random.Random, draws: list[dict[int, str]]) -> int:
    """R2.1: everyone draws a card from the shuffled deck; the highest point value deals;
    tied players draw again from what is left (the cards go back afterwards).
    Each drawing is appended to ``draws`` (seat to card code)."""
    deck = full_deck()
    candidates = list(range(players))
    while True:
        if len(deck) < len(candidates):
            deck = full_deck()
        drawn = {seat: deck.pop(int(rng.random() * len(deck))) for seat in candidates}
        draws.append({seat: CARD_CODE[card] for seat, card in drawn.items()})
        best = max(CARD_POINTS[card] for card in drawn.values())
        candidates = [seat for seat in candidates if CARD_POINTS[drawn[seat]] == best]
        if len(candidates) == 1:
            return candidates[0]


def replay(record: dict[str, Any]) -> Game:
    """Play a game record (from :meth:`Game.record`) back; raises on any illegal move."""
    rules = Rules.from_dict(record.get("rules"))
    seed = record.get("seed", 0)
    if "state" in record:
        game = Game.from_position(record["state"], rules, seed)
    elif "deal" in record:
        deal = record["deal"]
        game = Game.deal(deal["players"], deal["dealer"], deal["deck"], rules, seed)
    else:
        game = Game.new(record["players"], rules, seed)
    for number, moves in enumerate(record.get("rounds", [])):
        if number:
            game.next_round()
        for seat, move in moves:
            game.push(seat, move)
    return game


__all__ = ["CHALLENGE_PENDING", "COLOR_PENDING", "DRAWN_PENDING", "STACK_PENDING", "Game",
           "Pending", "replay"]
