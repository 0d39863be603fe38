"""One match at one table: the game, its seats, their feeds, and who is asked what next.

See the package docstring (``unogame.table``) for how a front end drives a :class:`Table`.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..bots import Bot, make_bot
from ..engine import Event, Game, IllegalMoveError, Move, NotationError, Rules
from ..engine.moves import TURN_KINDS
from ..engine.state import PlayableGame
from .attendance import TableSeat
from .clock import TableClock
from .hints import HintRequest, SeatHelpers, hint_request
from .order import reaction_delay, reaction_window
from .random_states import rng_state, set_rng_state
from .seats import SeatSpec, TableError, TableSettings, derived_seed
from .steps import (
    MATCH_OVER,
    PLAYING,
    ROUND_CAPPED,
    ROUND_OVER,
    STAND_IN_MOVE,
    TABLE_EVENT_KINDS,
    BotFailure,
    BotPlay,
    DecisionRequest,
    NextRound,
    SeatInfo,
    Step,
)


class Table(TableClock):
    """One match: the game, the seats, each seat's feed, reactions, bots, rounds, people.

    No I/O, no clock, no threads. ``seats``: who sits where; ``present``: the person seats
    connected at the start (default: all); ``game``: a prepared game, an engine ``Game`` or
    the compiled core's ``NativeGame`` (default ``Game.new(len(seats), rules, seed)``);
    ``host``: a person seat (default the first);
    ``bots``: bot objects for some bot seats (default: ``make_bot`` of the seat's level,
    seeded from the table's seed).
    """

    def __init__(self, seats: Sequence[SeatSpec], rules: Rules | None = None, seed: int = 0,
                 settings: TableSettings | None = None, *, game: PlayableGame | None = None,
                 present: Iterable[int] | None = None, host: int | None = None,
                 bots: Mapping[int, Bot] | None = None) -> None:
        self.settings = settings if settings is not None else TableSettings()
        self.seed = seed
        self.game: PlayableGame = game if game is not None else Game.new(len(seats), rules, seed)
        if self.game.players != len(seats):
            raise ValueError(f"{len(seats)} seats for a {self.game.players}-player game")
        here = set(range(len(seats)) if present is None else present)
        given = dict(bots or {})
        if any(not 0 <= index < len(seats) or seats[index].bot is None for index in given):
            raise ValueError("bots are given for bot seats only")
        self._seats = [
            TableSeat(spec, given.get(index) or make_bot(spec.bot, derived_seed(seed, index, "bot"))
                  if spec.bot is not None else None, index in here)
            for index, spec in enumerate(seats)
        ]
        people = [index for index, spec in enumerate(seats) if not spec.is_bot]
        if host is not None and host not in people:
            raise ValueError(f"the host must be a person's seat, not {host}")
        self.host: int | None = host if host is not None else (people[0] if people else None)
        self.now = 0.0
        """The table's time: seconds the front end has reported with :meth:`advance`."""
        self.version = 0
        """Moves and deals applied: it grows by one with each, and a front end's stored log
        has exactly this many entries."""
        self.round = 1
        self.ready: set[int] = set()
        """Person seats that pressed "next round" on the current scoreboard."""
        self.results: list[dict[str, Any]] = []
        """Each finished round: winner, points by seat, scores after it."""
        self.bot_failures: list[BotFailure] = []
        self._last_moves: dict[int, tuple[int, str]] = {}
        self._log: deque[tuple[int, Event]] = deque(maxlen=self.settings.log_keep)
        self._logged = 0
        """Events logged in the whole match (``_log`` keeps the last ``log_keep``)."""
        self._round_moves = 0
        """Moves made in the current round (``settings.round_cap``)."""
        self.capped = False
        """The current round reached ``settings.round_cap`` moves: the match is over with
        no winner (docs/DECISIONS.md L1)."""
        self._jitter = random.Random(derived_seed(seed, "reactions"))
        self._window: list[int] = []
        self._asked: set[int] = set()
        self._reactions: dict[int, list[Move]] = {}
        self._legal_now: dict[int, list[Move]] = {}
        """Each seat's legal moves in this position, once asked (:meth:`_legal`)."""
        """The legal moves of the window's seats in this position, once read."""
        self._opened = 0.0
        self._turn_since = 0.0
        self._round_over_at = 0.0
        self._out: DecisionRequest | None = None
        self._waiting: list[Callable[[], None]] = []
        """Calls into the bot of the request handed out, made once it has answered."""
        self._listeners: list[tuple[int, Bot]] = []
        self._delays: list[float] = []
        self._bots_changed()
        self._helpers = SeatHelpers(seed, people)
        """A helper bot per person seat, hearing only that seat's events (hints), built
        when the seat first asks for a hint."""
        for index, seat in enumerate(self._seats):
            if seat.bot is not None:
                self._new_round(index, seat.bot)
        self._helpers.new_round(self.game)
        self._record(self.game.start_events())  # round 1's deal and first card too
        self._open()

    # ------------------------------------------------------------------ reading

    @property
    def players(self) -> int:
        return self.game.players

    @property
    def names(self) -> list[str]:
        return [seat.spec.name for seat in self._seats]

    @property
    def status(self) -> str:
        game = self.game
        if self.capped:
            return MATCH_OVER
        if game.winner is None:
            return PLAYING
        return ROUND_OVER if game.game_winner is None else MATCH_OVER

    def seat(self, seat: int) -> SeatInfo:
        info = self._seat(seat)
        return SeatInfo(info.spec.name, info.spec.bot, info.present,
                        info.spec.bot is None and (self._standing_in(info)
                                                   or self._hidden_on_turn(seat, info)),
                        info.handed, info.present and info.hidden)

    def seats(self) -> list[SeatInfo]:
        return [self.seat(index) for index in range(self.players)]

    def people(self) -> list[int]:
        """The person seats."""
        return [index for index, seat in enumerate(self._seats) if seat.spec.bot is None]

    def view(self, seat: int | None) -> dict[str, Any]:
        """The position as ``seat`` sees it (``None``: a spectator)."""
        return self.game.view(seat if seat is not None and 0 <= seat < self.players else None)

    def legal_moves(self, seat: int | None) -> list[Move]:
        """``seat``'s legal moves now (none between rounds or for a spectator)."""
        if seat is None or not 0 <= seat < self.players or self.status != PLAYING:
            return []
        return list(self._legal(seat))

    def _legal(self, seat: int) -> list[Move]:
        """``seat``'s legal moves in this position, asked of the engine once per position
        (the check of a move, the window of reactions, the bots and the front end's
        messages share them); not to be changed."""
        moves = self._legal_now.get(seat)
        if moves is None:
            moves = self._legal_now[seat] = self.game.legal_moves(seat)
        return moves

    @property
    def event_count(self) -> int:
        """Events logged in the whole match (a front end keeps its place with it)."""
        return self._logged

    def _kept(self, start: int) -> list[tuple[int, Event]]:
        """The logged events from number ``start`` that are still kept (``log_keep``)."""
        first = self._logged - len(self._log)
        return list(itertools.islice(self._log, max(0, start - first), None))

    def feed(self, seat: int | None, start: int = 0) -> list[dict[str, Any]]:
        """The match's events from number ``start`` as ``seat`` may see them
        (``Event.for_seat``; ``None``: a spectator). With ``settings.log_keep``, only the
        last so many events are still there."""
        return [event.for_seat(seat) for _round, event in self._kept(start)]

    def feed_rounds(self, seat: int | None, start: int = 0) -> list[tuple[int, dict[str, Any]]]:
        """Like :meth:`feed`, each event with the number of the round it belongs to."""
        return [(number, event.for_seat(seat)) for number, event in self._kept(start)]

    def last_move(self, seat: int | None) -> tuple[int, str] | None:
        """The version on which ``seat``'s person last moved themselves, and the move's text
        (``None``: not yet). A front end tells a page whether a move it sent before losing
        its link was applied."""
        return None if seat is None else self._last_moves.get(seat)

    def random_states(self) -> dict[str, Any]:
        """The states of the table's random generators (each bot's and helper's, the
        reactions' jitter), JSON-ready: with the moves replayed, what resumes a saved
        match exactly (the deals come from the seed)."""
        state = rng_state
        return {"bots": {str(index): state(info.bot.rng) for index, info in enumerate(self._seats)
                         if info.bot is not None},
                "helpers": self._helpers.random_states(),
                "jitter": state(self._jitter)}

    def set_random_states(self, states: Mapping[str, Any]) -> None:
        """Set what :meth:`random_states` gave (``ValueError`` if it does not fit)."""
        set_state = set_rng_state
        for index, value in dict(states.get("bots", {})).items():
            bot = self._seat(int(index)).bot
            if bot is None:
                raise ValueError(f"seat {index} has no bot")
            set_state(bot.rng, value)
        self._helpers.set_random_states(dict(states.get("helpers", {})))
        if "jitter" in states:
            set_state(self._jitter, states["jitter"])

    # ------------------------------------------------------------------ the front end reports
    # (people, pages, host, seats handed to a bot: attendance.py)

    def advance(self, seconds: float) -> None:
        """``seconds`` of the front end's time have passed."""
        if seconds > 0:
            self.now += seconds

    # ------------------------------------------------------------------ moves

    def check(self, seat: int | None, move: Move | str) -> Move:
        """``seat``'s move if it is legal now; raises :class:`TableError` and changes nothing
        otherwise (a front end stores the move between :meth:`check` and :meth:`play`)."""
        if seat is None or not 0 <= seat < self.players:
            raise TableError("bad_seat", "only a seated player moves")
        if self.status != PLAYING:
            raise TableError("not_playing", "the round is over")
        try:
            parsed = Move.parse(move) if isinstance(move, str) else move
            if parsed not in self._legal(seat):
                raise IllegalMoveError(self.game.explain_illegal(seat, parsed))
        except (NotationError, IllegalMoveError) as error:
            raise TableError("illegal", str(error)) from None
        return parsed

    def play(self, seat: int | None, move: Move | str) -> list[Event]:
        """Apply a person's move (or a stored move being replayed); returns its events."""
        checked = self.check(seat, move)
        assert seat is not None
        return self._push(seat, checked, stand_in=False, checked=True)

    def next_step(self) -> Step:
        """What the table wants done now: a bot's decision, dealing the next round, or
        nothing (``None``: wait for a person, for :meth:`wake_at`, or for the request
        already handed out)."""
        if self._out is not None:
            return None
        game = self.game
        status = self.status
        if status == ROUND_OVER:
            reason = self._deal_reason()
            return NextRound(self.version, reason) if reason else None
        if status != PLAYING:
            return None
        if self._catch_hold() is not None:
            return None  # kind to children: nobody is asked before the grace is over
        due = 0.0  # when the requests come depends on the window alone, never on a hand
        for seat in self._window:
            bot = self._driver(seat, on_turn=False)
            if bot is None:
                continue
            legal = self._reactions.get(seat)
            if legal is None:
                legal = self._reactions[seat] = list(self._legal(seat))
            due = max(due, reaction_delay(bot, legal))  # a catch is public: so is its delay
            if seat in self._asked:
                continue
            # Asked even with nothing to play (decide() then answers None at once): the
            # requests, and so the front end's steps, are the same whatever it holds.
            return self._hand_out(seat, bot, legal, on_turn=False, due=due)
        seat = game.turn
        bot = self._driver(seat, on_turn=True)
        if bot is None:
            return None
        return self._hand_out(seat, bot, list(self._legal(seat)), on_turn=True, due=due)

    def resolve(self, request: DecisionRequest, move: Move | None,
                error: BaseException | None = None) -> BotPlay | None:
        """The answer to ``request`` (the bot's move, or the exception it raised).

        Returns the move to apply, or ``None`` when there is none: the position moved on
        (stale), the seat's driver changed, or an off-turn bot passed. A bad answer on its
        turn (an exception, ``None``, an illegal move) is logged in :attr:`bot_failures` and
        replaced by a legal turn move; off turn it is logged and dropped.
        """
        if request is not self._out:
            raise TableError("stale", "this request is not the one handed out")
        self.cancel(request)
        seat = request.seat
        if request.version != self.version or self.status != PLAYING \
                or self._driver(seat, request.on_turn) is not request.bot:
            return None
        failure: str | None = None
        if error is not None:
            failure = f"failed: {error!r}"[:300]
        elif move is None:
            failure = "no move on its turn" if request.on_turn else None
        elif not isinstance(move, Move) or move not in request.legal:
            failure = f"illegal move {move!s}"[:300]
        if not request.on_turn:
            self._asked.add(seat)
            if failure is not None:
                self._fail(request, failure, None)
                return None
            if move is None:
                return None
        if failure is not None:
            move = next(m for m in request.legal if m.kind in TURN_KINDS)
            self._fail(request, failure, move)
        assert move is not None
        return BotPlay(seat, move, request.version, request.stand_in, failure)

    def hint(self, seat: int | None) -> HintRequest | None:
        """A move to suggest to a person's ``seat`` (the children's helper), to be run
        anywhere with :meth:`HintRequest.decide`; ``None`` when the seat has no legal move
        now. Built from the seat's view, legal moves and own events only."""
        if seat is None or seat not in self._helpers:
            return None
        legal = self.legal_moves(seat)
        if not legal:
            return None
        helper = self._helpers.helper(seat)  # built here the first time: told the round so far
        assert helper is not None
        return hint_request(seat, self.version, self.game.view(seat), legal, helper)

    def cancel(self, request: DecisionRequest) -> None:
        """Take back a request the front end will not run after all (it is asked again)."""
        if request is self._out:
            self._out = None
            waiting, self._waiting = self._waiting, []
            for call in waiting:
                call()

    @property
    def outstanding(self) -> DecisionRequest | None:
        """The request handed out and not yet resolved (or cancelled)."""
        return self._out

    def apply(self, play: BotPlay) -> list[Event]:
        """Apply a bot's move from :meth:`resolve`; returns its events (with the
        ``stand_in_move`` marker first for a stand-in)."""
        if play.version != self.version:
            raise TableError("stale", f"the position has moved on (version {self.version})")
        return self._push(play.seat, play.move, play.stand_in)

    def next_round(self) -> list[Event]:
        """Deal the next round (when :meth:`next_step` says so, or replaying a log)."""
        if self.status != ROUND_OVER:
            raise TableError("not_over" if self.status == PLAYING else "over",
                             "no round to deal now")
        events = self.game.next_round()
        self._legal_now = {}
        self.version += 1
        self.round += 1
        self._round_moves = 0
        self.ready.clear()
        self._turn_since = self.now
        for index, info in enumerate(self._seats):
            for bot in (info.bot, info.stand_in):
                if bot is not None:
                    self._new_round(index, bot)
        self._helpers.new_round(self.game)
        self._record(events)
        self._open()
        return events

    # ------------------------------------------------------------------ inside

    def _driver(self, seat: int, on_turn: bool) -> Bot | None:
        """The bot that plays ``seat`` now, or ``None`` if a person is to."""
        info = self._seats[seat]
        if info.bot is not None:
            return info.bot
        timed_out = on_turn and self.settings.turn_timer is not None \
            and self.now - self._turn_since >= self.settings.turn_timer
        if not (timed_out or self._standing_in(info)
                or (on_turn and self._hidden_on_turn(seat, info))):
            return None
        if info.stand_in is None:
            info.stand_ins += 1
            info.stand_in = make_bot(self.settings.stand_in_level,
                                     derived_seed(self.seed, seat, "stand_in", info.stand_ins))
            self._new_round(seat, info.stand_in)
            self._bots_changed()
        return info.stand_in

    def _hand_out(self, seat: int, bot: Bot, legal: list[Move], on_turn: bool,
                  due: float) -> DecisionRequest:
        stand_in = self._seats[seat].bot is None
        view = self.game.view(seat) if legal else {}  # nothing to decide: the bot is not asked
        request = DecisionRequest(seat, self.version, view, tuple(legal), bot,
                                  on_turn, stand_in, self._opened, due)
        self._out = request
        return request

    def _tell(self, bot: Bot, call: Callable[[], None]) -> None:
        """Call into a bot now, or once it has answered the request handed out to it."""
        if self._out is not None and self._out.bot is bot:
            self._waiting.append(call)
        else:
            call()

    def _new_round(self, seat: int, bot: Bot) -> None:
        view = self.game.view(seat)
        rules = self.game.rules
        self._tell(bot, lambda: bot.new_round(seat, view, rules))

    def _record(self, events: Sequence[Event]) -> None:
        number = self.round
        self._log.extend([(number, event) for event in events])
        self._logged += len(events)
        for event in events:
            if event.type == "round_over":
                self.results.append({"winner": event.public["winner"],
                                     "points": event.public["points"],
                                     "scores": event.public["scores"]})
                self._round_over_at = self.now
            if event.type in TABLE_EVENT_KINDS:
                continue
            self._helpers.hear(event)
            busy = self._out.bot if self._out is not None else None
            for index, bot in self._listeners:
                if bot is busy:  # it thinks elsewhere: it hears this once it has answered
                    self._waiting.append(functools.partial(bot.observe, event.for_seat(index)))
                else:
                    bot.observe(event.for_seat(index))

    def _push(self, seat: int, move: Move, stand_in: bool, checked: bool = False) -> list[Event]:
        turn = self.game.turn
        # a table never takes one back; a move from check() is not looked up again
        events = self.game.push(seat, move, undo=False, checked=checked)
        self._legal_now = {}
        if not stand_in and self._seats[seat].spec.bot is None:
            self._last_moves[seat] = (self.version, move.text)
        if stand_in:
            events.insert(0, Event(STAND_IN_MOVE, {"seat": seat,
                                                   "name": self._seats[seat].spec.name}))
        self.version += 1
        self._round_moves += 1
        cap = self.settings.round_cap
        if cap is not None and self._round_moves >= cap and self.game.winner is None:
            self.capped = True  # L1: the match ends here, nobody scores this round
            events.append(Event(ROUND_CAPPED, {"moves": cap}))
            self.results.append({"winner": None, "points": [0] * self.players,
                                 "scores": list(self.game.scores), "capped": True})
        if seat == turn or self.game.turn != turn:
            self._turn_since = self.now
        self._record(events)
        self._open()
        return events

    def _open(self) -> None:
        """A new position: the off-turn reactions are offered afresh, in the table's order."""
        self._opened = self.now
        self._asked = set()
        self._reactions = {}
        if self.status != PLAYING:
            self._window = []
            return
        self._window = reaction_window(self.game, self._delays, self._jitter, self._legal)

    def _bots_changed(self) -> None:
        """A stand-in came or went: who hears the events, and the reaction delays."""
        self._listeners = [(index, bot) for index, info in enumerate(self._seats)
                           for bot in (info.bot, info.stand_in) if bot is not None]
        self._delays = [0.0] * self.players
        for index, bot in self._listeners:
            self._delays[index] = bot.reaction_delay

    def _fail(self, request: DecisionRequest, reason: str, replaced: Move | None) -> None:
        self.bot_failures.append(BotFailure(request.seat, request.bot.level, request.version,
                                            request.on_turn, reason,
                                            None if replaced is None else replaced.text))

    def _deal_reason(self) -> str:
        waiting = [index for index, info in enumerate(self._seats)
                   if info.spec.bot is None and info.present]
        if not waiting:
            return "nobody"
        if all(index in self.ready for index in waiting):
            return "ready"
        if self.next_round_remaining() == 0.0:
            return "countdown"
        return ""

__all__ = ["Table"]
