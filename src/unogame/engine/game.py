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

from array import array
from collections.abc import Mapping, Sequence
from typing import Any

from .cards import _FULL_DECK, CARD_COLOR, full_deck
from .errors import IllegalMoveError, PositionError
from .events import Event
from .explain import explain
from .fields import MAX_PLAYERS, MIN_PLAYERS, Snapshot
from .legal import MoveGeneration, play_shapes
from .moves import Move, play_arguments_table
from .position import LoadedPosition, check_match, dump_position, load_position, load_view
from .rounds import choose_dealer, shuffle_with
from .rules import Rules
from .state import (
    CHALLENGE_PENDING,
    COLOR_PENDING,
    DRAWN_PENDING,
    STACK_PENDING,
    Pending,
    check_copies,
    read_cards,
)


class Game(MoveGeneration):
    """A UNO game: the position of the current round, the match scores, rules and seed.

    Create one with :meth:`new` (dealer drawn and cards dealt from the seed),
    :meth:`from_position` (a NOTATION position), :meth:`deal` (a stacked deck) or
    :meth:`from_view` (a seat's view and the hidden cards a bot sampled).
    Moves are applied with :meth:`push` (checked, returns the events) and taken back
    with :meth:`pop`. All chance comes from ``seed``: same rules, seed and moves give
    the same game.

    Its parts, one concern each: ``fields`` (the state, reading it, views, snapshots),
    ``rounds`` (card mechanics, the deal, the round's end), ``applying`` (moves applied),
    ``legal`` (move generation) and this module (construction, copies, the history).
    """

    __slots__ = ()

    def __init__(self, players: int, rules: Rules | None = None, seed: int = 0) -> None:
        if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise PositionError(f"players must be from {MIN_PLAYERS} to {MAX_PLAYERS} (R1.3)")
        self.rules = rules if rules is not None else Rules()
        self.rules.custom.check_players(players, self.rules.two_player_reverse_skips)
        self._shapes = play_shapes(self.rules)
        self._arguments = play_arguments_table(self.rules)
        self.seed = seed
        self.players = players
        self.shuffles = 0
        self.card_hands = [[] for _ in range(players)]
        self.draw_cards = []
        self.discard_cards = []
        self.color_index = -1
        self.direction = 1
        self.turn = 0
        self.dealer = players - 1
        self.scores = [0] * players
        self.pending = None
        self.uno_seats = set()
        self.catchable_seats = set()
        self.winner = None
        self.game_winner = None
        self._round_start = None
        self._origin = None
        self._start_events = []
        self._history = []
        self._undo = []
        self._finished_rounds = []
        self._start = None
        self.dealer_draws = []

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
        game.dealer = choose_dealer(players, rng, game.dealer_draws)
        deck = full_deck()  # R2.1: the cards go back and the deck is shuffled
        shuffle_with(rng, deck)
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
        check_match(loaded, game.rules.target_score)
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

    # ----------------------------------------------------------------- copies

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

    def _size_by_copy(self, seat: int, move: Move) -> int:
        """``seat``'s hand size after ``move``, played on a copy (custom_play.size_after)."""
        other = self._clone(history=False)
        other._apply(seat, move, None)
        return len(other.card_hands[seat])

    def _clone_at(self, snap: Snapshot) -> Game:
        other = self._clone(False)
        other._restore(snap)
        return other

    # ----------------------------------------------------------------- moves and the record

    def push(self, seat: int, move: Move | str, *, undo: bool = True,
             checked: bool = False) -> list[Event]:
        """Apply ``seat``'s move if it is legal and return the events it caused.

        An illegal move raises :class:`IllegalMoveError` (the reason cites the rule) and
        changes nothing; a move that is not notation raises ``NotationError``.
        ``undo=False`` keeps no undo record (the position before the move, about 1.7 KiB;
        a table never takes a move back): :meth:`pop` then plays the round again from its
        start, as after :meth:`push_unchecked`. The move is in :meth:`record` either way.
        ``checked=True``: the caller took ``move`` from :meth:`legal_moves` of this very
        position (a table checks each move once), so it is not looked up again.
        """
        if isinstance(move, str):
            move = Move.parse(move)
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalMoveError(f"there is no seat {seat!r} in a {self.players}-player game")
        if not checked and move not in self.legal_moves(seat):
            raise IllegalMoveError(self.explain_illegal(seat, move))
        events: list[Event] = []
        before = (len(self._history), self._snapshot()) if undo else None
        self._apply(seat, move, events)
        self._history.append((seat, move))
        if before is not None:
            self._undo.append(before)
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
        self._finished_rounds.append(_packed(self._history))  # 8 bytes a move, not 64
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
        rounds = [*map(_unpacked, self._finished_rounds), self._history]
        return {
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            **start,
            "rounds": [[[seat, str(move)] for seat, move in moves] for moves in rounds],
        }

    def explain_illegal(self, seat: int, move: Move) -> str:
        """Why ``move`` is not legal for ``seat`` now, citing the rule."""
        return explain(self, seat, move)

def _packed(moves: Sequence[tuple[int, Move]]) -> array[int]:
    """A finished round's moves, kept for :meth:`Game.record` in little memory."""
    return array("i", [number for seat, move in moves for number in (seat, move.code)])


def _unpacked(packed: array[int]) -> list[tuple[int, Move]]:
    return [(packed[i], Move.from_code(packed[i + 1])) for i in range(0, len(packed), 2)]


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


__all__ = ["CHALLENGE_PENDING", "COLOR_PENDING", "DRAWN_PENDING", "MAX_PLAYERS", "MIN_PLAYERS",
           "STACK_PENDING", "Game", "Pending", "replay"]
