"""A game played through the compiled core, with the engine's reading API.

:class:`NativeGame` offers what the simulator, the bots and the tests use of
:class:`~unogame.engine.Game` (legal moves, checked ``push`` with events, positions and
views), and gives the same answers: the differential tests compare the two move by move.
"""

from __future__ import annotations

from typing import Any, Final

from ..engine import Event, Game, IllegalMoveError, Move, Rules
from ..engine.cards import (
    CARD_CODE,
    CARD_POINTS,
    COLORS,
    card_from_code,
)
from ..engine.explain import explain
from ..engine.moves import play_event
from ..engine.position import dump_position, dump_view
from ..engine.rules import CUSTOM_RULES
from ..engine.state import Pending, color_name, playable, top_code
from . import CORE, rules_tuple

PENDING_KINDS: Final = (None, "challenge", "drawn", "color", "stack")
REASONS: Final = ("turn", "stack", "draw_two", "wild_draw_four", "challenge", "custom",
                  "uno_penalty")
_CUSTOM_NAMES: Final = tuple(CUSTOM_RULES)
(EV_PLAY, EV_SKIP, EV_DRAW, EV_SWAP, EV_PASS_HANDS, EV_CUSTOM, EV_DISCARD, EV_ROUND_OVER,
 EV_RESHUFFLE, EV_CHALLENGE, EV_ACCEPT, EV_COLOR, EV_UNO, EV_CATCH, EV_PASS,
 EV_DEAL) = range(16)
_SEAT_EVENTS: Final = {EV_SKIP: "skip", EV_ACCEPT: "accept", EV_UNO: "uno", EV_PASS: "pass"}


def _codes(cards: Any) -> list[str]:
    return [CARD_CODE[card] for card in cards]


def _pending_tuple(pending: Pending | None) -> tuple[int, int, int, int, int, int]:
    if pending is None:
        return (0, -1, -1, 0, -1, 0)
    return (PENDING_KINDS.index(pending.kind), pending.by, pending.color, int(pending.guilty),
            pending.card, pending.amount)


def state_from_game(game: Game) -> Any:
    """A core state copying ``game`` (through its public readers)."""
    if CORE is None:
        raise RuntimeError("the compiled core is not available")
    table = rules_tuple(game.rules)
    if table is None:
        raise ValueError("the core cannot play these rules")
    position = game.position()
    return _load_state(game.players, table, game.seed, game.shuffles, position, game.pending)


def _load_state(players: int, table: tuple[int, ...], seed: int, shuffles: int,
                position: dict[str, Any], pending: Pending | None) -> Any:
    assert CORE is not None
    color = position["color"]
    winner = position.get("winner")
    game_winner = position.get("game_winner")
    return CORE.State.load(
        players, table, seed, shuffles,
        [[card_from_code(code) for code in hand] for hand in position["hands"]],
        [card_from_code(code) for code in reversed(position["draw_pile"])],
        [card_from_code(code) for code in reversed(position["discard_pile"])],
        COLORS.index(color) if color is not None else -1,
        position.get("direction", 1), position.get("turn", 0),
        position.get("dealer", (position.get("turn", 0) - 1) % players),
        list(position.get("scores", [0] * players)), _pending_tuple(pending),
        list(position.get("uno", [])), list(position.get("catchable", [])),
        -1 if winner is None else winner, -1 if game_winner is None else game_winner)


class NativeGame:
    """A round (or match) whose moves the core applies; the engine's API for reading it."""

    __slots__ = ("_start_events", "_state", "players", "rules", "seed")

    def __init__(self, state: Any, rules: Rules, seed: int,
                 start_events: list[Event] | None = None) -> None:
        self._state = state
        self.rules = rules
        self.seed = seed
        self.players: int = state.players
        self._start_events = start_events or []

    @classmethod
    def new(cls, players: int, rules: Rules | None = None, seed: int = 0) -> NativeGame:
        """``Game.new`` in the core (the same deal for the same seed)."""
        if CORE is None:
            raise RuntimeError("the compiled core is not available")
        rules = rules if rules is not None else Rules()
        table = rules_tuple(rules)
        if table is None:
            raise ValueError("the core cannot play these rules")
        state, raw = CORE.State.new(players, table, seed)
        game = cls(state, rules, seed)
        game._start_events = game._events(raw)
        return game

    @classmethod
    def deal(cls, players: int, dealer: int, deck: list[str], rules: Rules | None = None,
             seed: int = 0) -> NativeGame:
        """``Game.deal`` in the core: the engine checks the deck (raising its
        ``PositionError``), the core deals it and turns the first card."""
        checked = Game.deal(players, dealer, deck, rules, seed)
        table = rules_tuple(checked.rules)
        if CORE is None or table is None:
            raise ValueError("the core cannot play these rules")
        state, raw = CORE.State.deal(players, table, seed, dealer,
                                     [card_from_code(code) for code in deck])
        game = cls(state, checked.rules, seed)
        game._start_events = game._events(raw)
        return game

    @classmethod
    def from_game(cls, game: Game) -> NativeGame:
        """A copy of an engine game."""
        return cls(state_from_game(game), game.rules, game.seed)

    @classmethod
    def from_position(cls, position: dict[str, Any], rules: Rules | None = None,
                      seed: int = 0) -> NativeGame:
        """``Game.from_position``: the engine checks the position, the core plays it (the
        catchable seats in the position's order, as the engine's set is built)."""
        game = Game.from_position(position, rules, seed)
        table = rules_tuple(game.rules)
        if table is None:
            raise ValueError("the core cannot play these rules")
        loaded = {**game.position(), "catchable": list(position.get("catchable", []))}
        state = _load_state(game.players, table, seed, 0, loaded, game.pending)
        return cls(state, game.rules, seed)

    @property
    def state(self) -> Any:
        """The core state (for playouts)."""
        return self._state

    def copy(self) -> NativeGame:
        return NativeGame(self._state.copy(), self.rules, self.seed, self._start_events)

    def start_events(self) -> list[Event]:
        """The events of the current round's start (as ``Game.start_events``)."""
        return list(self._start_events)

    # ----------------------------------------------------------------- reading

    def _fields(self) -> dict[str, Any]:
        return self._state.export()  # type: ignore[no-any-return]

    @property
    def turn(self) -> int:
        return self._state.turn  # type: ignore[no-any-return]

    @property
    def winner(self) -> int | None:
        winner = self._state.winner
        return None if winner < 0 else winner

    @property
    def game_winner(self) -> int | None:
        winner = self._state.game_winner
        return None if winner < 0 else winner

    @property
    def direction(self) -> int:
        return self._state.direction  # type: ignore[no-any-return]

    @property
    def dealer(self) -> int:
        return self._fields()["dealer"]  # type: ignore[no-any-return]

    @property
    def scores(self) -> list[int]:
        return self._fields()["scores"]  # type: ignore[no-any-return]

    @property
    def shuffles(self) -> int:
        return self._fields()["shuffles"]  # type: ignore[no-any-return]

    @property
    def hands(self) -> list[list[str]]:
        return [_codes(hand) for hand in self._fields()["hands"]]

    def hand_sizes(self) -> list[int]:
        return self._state.hand_sizes()  # type: ignore[no-any-return]

    @property
    def pending(self) -> Pending | None:
        return _pending(self._fields()["pending"])

    @property
    def discard_cards(self) -> list[int]:
        """The discard pile, top card last (a copy: read only, as ``Game.discard_cards``)."""
        return self._fields()["discard"]  # type: ignore[no-any-return]

    @property
    def is_round_over(self) -> bool:
        return self._state.winner >= 0  # type: ignore[no-any-return]

    @property
    def is_game_over(self) -> bool:
        return self.game_winner is not None

    def position(self) -> dict[str, Any]:
        """The full position as a NOTATION JSON object (as ``Game.position``)."""
        return dump_position(_Export(self._fields(), self.rules))

    def view(self, seat: int | None) -> dict[str, Any]:
        """The position as ``seat`` sees it (as ``Game.view``)."""
        return dump_view(_Export(self._fields(), self.rules), seat)

    def explain_illegal(self, seat: int, move: Move) -> str:
        """Why ``move`` is not legal for ``seat`` now (the engine's words)."""
        return explain(_Export(self._fields(), self.rules), seat, move)

    # ----------------------------------------------------------------- moves

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        codes = self._state.legal_moves(self.turn if seat is None else seat)
        return [Move.from_code(code) for code in codes]

    def push(self, seat: int, move: Move | str, *, undo: bool = True,
             checked: bool = False) -> list[Event]:
        """Apply a legal move and return its events (as ``Game.push``; the compiled core
        keeps no undo record either way, and checks the move itself, ``checked`` or not)."""
        if isinstance(move, str):
            move = Move.parse(move)
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalMoveError(f"there is no seat {seat!r} in a {self.players}-player game")
        try:
            raw = self._state.push(seat, move.code)
        except ValueError:  # refused by the core: the engine's reason, as Game.push gives it
            raise IllegalMoveError(self.explain_illegal(seat, move)) from None
        return self._events(raw)

    def events_of(self, raw: list[tuple[Any, ...]]) -> list[Event]:
        """The events of ``state.push``'s raw answer (read before the next move: a
        ``round_over`` reads the state)."""
        return self._events(raw)

    def push_unchecked(self, seat: int, move: Move) -> None:
        self._state.push(seat, move.code, False)

    def next_round(self) -> list[Event]:
        if self.winner is None:
            raise IllegalMoveError("R7.4: the round is not over yet")
        if self.game_winner is not None:
            raise IllegalMoveError(f"R3.2: the game is over; seat {self.game_winner} won")
        self._start_events = self._events(self._state.next_round())
        return list(self._start_events)

    def _events(self, raw: list[tuple[Any, ...]]) -> list[Event]:
        return [_event(item, self) for item in raw]


def _pending(data: tuple[int, ...]) -> Pending | None:
    kind, by, color, guilty, card, amount = data
    name = PENDING_KINDS[kind]
    if name is None:
        return None
    if name == "challenge":
        return Pending(name, by=by, color=color, guilty=bool(guilty), amount=amount)
    if name == "drawn":
        return Pending(name, card=card)
    if name == "stack":
        return Pending(name, amount=amount)
    return Pending(name)


class _Export:
    """One export of a core state, read through the engine's ``GameState`` protocol (so
    the engine's own functions write its positions and views)."""

    def __init__(self, fields: dict[str, Any], rules: Rules) -> None:
        self.players: int = fields["players"]
        self.rules = rules
        self.card_hands: list[list[int]] = fields["hands"]
        self.draw_cards: list[int] = fields["draw"]
        self.discard_cards: list[int] = fields["discard"]
        self.color_index: int = fields["color"]
        self.direction: int = fields["direction"]
        self.turn: int = fields["turn"]
        self.dealer: int = fields["dealer"]
        self.scores: list[int] = fields["scores"]
        self.pending = _pending(fields["pending"])
        self.uno_seats = set(fields["uno"])
        self.catchable_seats = set(fields["catchable"])
        self.winner: int | None = None if fields["winner"] < 0 else fields["winner"]
        self.game_winner: int | None = (None if fields["game_winner"] < 0
                                        else fields["game_winner"])

    @property
    def color(self) -> str | None:
        return color_name(self.color_index)

    @property
    def top_card(self) -> str | None:
        return top_code(self.discard_cards)

    def is_playable(self, card: int) -> bool:
        return playable(card, self.color_index, self.discard_cards)


def _event(item: tuple[Any, ...], game: NativeGame) -> Event:
    kind = item[0]
    if kind in _SEAT_EVENTS:
        return Event(_SEAT_EVENTS[kind], {"seat": item[1]})
    if kind == EV_PLAY:
        seat, code, color, jump_in = item[1:]
        return play_event(seat, Move.from_code(code), COLORS[color], bool(jump_in))
    if kind == EV_DRAW:
        seat, count, reason, cards = item[1:]
        return Event("draw", {"seat": seat, "count": count, "reason": REASONS[reason]},
                     {seat: {"cards": _codes(cards)}})
    if kind == EV_SWAP:
        return Event("swap", {"seats": [item[1], item[2]]})
    if kind == EV_PASS_HANDS:
        return Event("pass_hands", {"direction": item[1]})
    if kind == EV_CUSTOM:
        return Event("custom", {"seat": item[1], "rule": _CUSTOM_NAMES[item[2]]})
    if kind == EV_DISCARD:
        return Event("discard", {"seat": item[1], "cards": _codes(item[2])})
    if kind == EV_RESHUFFLE:
        return Event("reshuffle", {"count": item[1]})
    if kind == EV_CHALLENGE:
        seat, by, guilty, hand = item[1:]
        return Event("challenge", {"seat": seat, "by": by, "guilty": bool(guilty)},
                     {seat: {"hand": _codes(hand)}})
    if kind == EV_COLOR:
        return Event("color", {"seat": item[1], "color": COLORS[item[2]]})
    if kind == EV_CATCH:
        return Event("catch", {"seat": item[1], "target": item[2]})
    if kind == EV_DEAL:
        dealer, top, turn, direction = item[1:]
        return Event("deal", {"dealer": dealer, "top": CARD_CODE[top], "turn": turn,
                              "direction": direction})
    # EV_ROUND_OVER: the last event of its move, read from the state after it
    fields = game._fields()
    hands = fields["hands"]
    game_winner = fields["game_winner"]
    return Event("round_over", {
        "winner": fields["winner"],
        "points": [sum(CARD_POINTS[card] for card in hand) for hand in hands],
        "scores": fields["scores"], "hands": [_codes(hand) for hand in hands],
        "game_winner": None if game_winner < 0 else game_winner,
    })


class SampleTemplate:
    """The public part of a game (one seat's view), from which core states are made for
    sampled hidden cards (IS-MCTS determinizations) without building engine games."""

    def __init__(self, game: Game) -> None:
        table = rules_tuple(game.rules)
        if CORE is None or table is None:
            raise RuntimeError("the compiled core cannot play this game")
        self._table = table
        self._players = game.players
        position = game.position()
        self._hands = [[card_from_code(code) for code in hand] for hand in position["hands"]]
        discard = position["discard_pile"]
        color = position["color"]
        self._fixed = (
            [card_from_code(code) for code in reversed(discard)],
            COLORS.index(color) if color is not None else -1,
            position["direction"], position["turn"], position["dealer"],
            list(position["scores"]))
        self._pending = _pending_tuple(game.pending)
        self._seats = (list(position["uno"]), list(position["catchable"]))

    def sample(self, seed: int, hands: dict[int, list[int]], draw: list[int],
               pending: Pending | None) -> Any:
        """A core state with these hidden cards (``draw`` top card last)."""
        assert CORE is not None
        full = [hands.get(seat, hand) for seat, hand in enumerate(self._hands)]
        pending_tuple = self._pending if pending is None else _pending_tuple(pending)
        return CORE.State.load(self._players, self._table, seed, 0, full, draw, *self._fixed,
                               pending_tuple, *self._seats, -1, -1)


def search(base: Any, seat: int, options: list[int], pool: list[int], hand_sizes: list[int],
           known: list[list[int]], limits: list[list[int]], named: list[int], draw_pile: int,
           challenge: bool, exploration: float, sharpness: float, plies: int, widening: int,
           opponent_widening: int, budget: int, iterations: int, deadline: float,
           rng_state: tuple[int, ...], medium: bool = False, flat: bool = False,
           halving: bool = False, decisions: list[list[tuple[Any, ...]]] | None = None,
           tries: int = 1) -> tuple[int, list[int], list[float], tuple[int, ...]]:
    """``bots.ismcts`` IS-MCTS in the core, whole and without the GIL, from ``base`` (a
    core state of :meth:`SampleTemplate.sample` without the hidden cards): (iterations,
    visits and summed rewards by option, the generator's state after). ``rng_state`` is
    ``random.Random.getstate()[1]``; ``limits``: -1 for no limit; ``opponent_widening``:
    ``widening`` for the other seats' moves, -1 for none. ValueError for a position the
    core refuses. ``medium``: medium.c's policy in the tree and the rollouts, else the greedy
    one; ``flat``: flat Monte Carlo with medium rollouts instead of the tree (exploration
    and widening unused); ``halving``: sequential halving of the root moves (the tree);
    ``decisions`` (by seat, ``bots.belief.Decision`` fields as tuples) and ``tries``: a
    seat's hand dealt up to ``tries`` times until it explains its decisions."""
    if CORE is None:
        raise RuntimeError("the compiled core is not available")
    return CORE.search(base, seat, options, pool, hand_sizes, known,  # type: ignore[no-any-return]
                       limits, named, draw_pile, challenge, exploration, sharpness, plies,
                       widening, opponent_widening, budget, iterations, deadline, rng_state,
                       medium, flat, halving, decisions, tries)
