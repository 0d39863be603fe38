"""A match as the terminal plays it: the game, who sits where, the bots and the events.

No Textual here: the app drives a :class:`Match` and asks it what to show. Seats are
people or bots; bots are fed only ``Event.for_seat`` of their seat and choose from their
own view and legal moves (``bots/base.py``). The log keeps the engine's events, so every
reader gets them through ``Event.for_seat`` (the hidden information rule).

A bot's decision has three steps so that it can run off the UI thread:
:meth:`Match.bot_request` (UI thread: the view and legal moves, frozen),
:meth:`Match.think` (any thread: only the bot's own ``choose``), :meth:`Match.answer`
(UI thread: the move is applied if the game has not moved on meanwhile). Events that
happen while a bot thinks reach it after it has answered.

>>> match = Match(MatchConfig(seats=[SeatConfig("Ann"), SeatConfig("Bot", "random")],
...                           seed=3))
>>> match.humans, match.bot_seats
([0], [1])
>>> while not match.game.is_round_over:
...     seat = match.game.turn
...     if seat in match.bots:
...         _ = match.bot_turn(seat)
...     else:
...         _ = match.push(seat, match.game.legal_moves(seat)[0])
>>> match.game.winner in (0, 1)
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..bots import BOT_LEVELS, Bot, make_bot
from ..engine import Event, Game, IllegalMoveError, Move, Rules
from ..engine.moves import TURN_KINDS

OWN_TURN_EVENTS = frozenset({"play", "draw", "pass", "accept", "challenge", "color"})
"""Events of a seat's own turn moves (a draw for a reason other than the turn is not)."""


@dataclass(frozen=True)
class SeatConfig:
    """One seat: a name, and a bot level (``None`` for a person at the keyboard)."""

    name: str
    level: str | None = None


@dataclass
class MatchConfig:
    """Everything chosen before the match: seats, rules, seed, language and bot pacing."""

    seats: list[SeatConfig]
    rules: Rules = field(default_factory=Rules)
    seed: int = 0
    lang: str = "en"
    bot_delay: float = 1.0
    """Seconds a bot waits before its turn move, so people can follow the play."""
    reaction_delay: float | None = None
    """Override of every bot's ``reaction_delay`` (off-turn moves); ``None`` keeps theirs."""

    def check(self) -> None:
        """Raise ``ValueError`` naming what is wrong."""
        if not 2 <= len(self.seats) <= 10:
            raise ValueError("a match needs 2 to 10 players (R1.3)")
        for seat in self.seats:
            if seat.level is not None and seat.level not in BOT_LEVELS:
                raise ValueError(
                    f"unknown bot level {seat.level!r} (one of: {', '.join(BOT_LEVELS)})"
                )


@dataclass(frozen=True)
class BotRequest:
    """What one bot is asked to decide: its view and legal moves at one moment."""

    seat: int
    on_turn: bool
    version: int
    """The match's :attr:`Match.version` when asked: a later answer to a moved game is void."""
    view: dict[str, Any]
    legal: list[Move]


@dataclass(frozen=True)
class BotAnswer:
    """A bot's choice, or the error it raised instead."""

    move: Move | None
    error: str | None = None


class Match:
    """The game, its bots and its event log."""

    def __init__(self, config: MatchConfig, game: Game | None = None) -> None:
        config.check()
        self.config = config
        self.game = game if game is not None else Game.new(
            len(config.seats), config.rules, config.seed)
        if self.game.players != len(config.seats):
            raise ValueError("the game and the configuration disagree on the players")
        self.names = [seat.name for seat in config.seats]
        self.humans = [i for i, seat in enumerate(config.seats) if seat.level is None]
        self.bots: dict[int, Bot] = {
            i: make_bot(seat.level, seed=config.seed * 101 + i)
            for i, seat in enumerate(config.seats) if seat.level is not None
        }
        self.bot_errors: list[str] = []
        """Failures of bots (their move was replaced by a legal one), for the screen."""
        self.events: list[tuple[int, Event]] = []
        """Every event of the match with the round it belongs to."""
        self.round = 1
        self.version = 0
        """Counts the changes of the game (moves, new rounds)."""
        self._thinking: dict[int, list[Event]] = {}
        """Seats whose bot is deciding, with the events it will observe afterwards."""
        self._start_bots()
        game = self.game
        if game.winner is None and game.top_card is not None:  # Game.new gives no event
            self._record([Event("deal", {"dealer": game.dealer, "top": game.top_card,
                                         "turn": game.turn, "direction": game.direction})])

    @property
    def bot_seats(self) -> list[int]:
        return sorted(self.bots)

    def reaction_delay(self, seat: int) -> float:
        """Seconds before the bot at ``seat`` may make an off-turn move."""
        if self.config.reaction_delay is not None:
            return self.config.reaction_delay
        return self.bots[seat].reaction_delay

    def _start_bots(self) -> None:
        for seat, bot in self.bots.items():
            bot.new_round(seat, self.game.view(seat), self.game.rules)

    def _record(self, events: list[Event]) -> None:
        self.version += 1
        self.events.extend((self.round, event) for event in events)
        for seat, bot in self.bots.items():
            if seat in self._thinking:
                self._thinking[seat].extend(events)
                continue
            for event in events:
                bot.observe(event.for_seat(seat))

    def push(self, seat: int, move: Move | str) -> list[Event]:
        """Apply a move (raises :class:`IllegalMoveError`, changing nothing, if refused)."""
        events = self.game.push(seat, move)
        self._record(events)
        return events

    def log_for(self, seat: int | None, round_number: int | None = None) -> list[dict[str, Any]]:
        """The events of a round (default: the current one) as ``seat`` may see them."""
        number = self.round if round_number is None else round_number
        return [{**event.for_seat(seat), "round": of}
                for of, event in self.events if of == number]

    def events_since_turn(self, seat: int, viewer: int | None) -> list[dict[str, Any]]:
        """This round's events since ``seat``'s last turn move, as ``viewer`` may see them."""
        events = [(of, event) for of, event in self.events if of == self.round]
        start = 0
        for index, (_of, event) in enumerate(events):
            own_turn_move = (event.public.get("seat") == seat and event.type in OWN_TURN_EVENTS
                             and event.public.get("reason", "turn") == "turn")
            if own_turn_move:
                start = index + 1
        return [{**event.for_seat(viewer), "round": of} for of, event in events[start:]]

    def last_event(self, kind: str, seat: int | None) -> dict[str, Any] | None:
        """The latest event of type ``kind`` as ``seat`` may see it."""
        for _number, event in reversed(self.events):
            if event.type == kind:
                return event.for_seat(seat)
        return None

    # -- bots

    def bot_request(self, seat: int, on_turn: bool) -> BotRequest | None:
        """Ask the bot at ``seat`` to decide (on or off its turn); ``None``: nothing to decide.

        Until :meth:`answer`, the events of the game wait for that bot.
        """
        game = self.game
        if (seat not in self.bots or seat in self._thinking or game.is_round_over
                or (game.turn == seat) != on_turn):
            return None
        legal = game.legal_moves(seat)
        if not legal:
            return None
        self._thinking[seat] = []
        return BotRequest(seat, on_turn, self.version, game.view(seat), legal)

    def think(self, request: BotRequest) -> BotAnswer:
        """The bot's choice (safe off the UI thread: it reads only the request and the bot)."""
        try:
            return BotAnswer(self.bots[request.seat].choose(request.view, request.legal))
        except Exception as error:  # a faulty bot must not end the match
            return BotAnswer(None, f"{self.names[request.seat]}: {error!r}")

    def answer(self, request: BotRequest, answer: BotAnswer) -> Move | None:
        """Apply a bot's answer; ``None`` if it made no move (declined, or the game moved on).

        A bot that answers nothing, something illegal, or fails on its turn gets its first
        legal turn move instead, so a faulty bot cannot stall the table.
        """
        for event in self._thinking.pop(request.seat, []):
            self.bots[request.seat].observe(event.for_seat(request.seat))
        if answer.error is not None:
            self.bot_errors.append(answer.error)
        if request.version != self.version:
            return None
        move = answer.move
        if move is None or move not in request.legal:
            if not request.on_turn:
                return None
            move = next(m for m in request.legal if m.kind in TURN_KINDS)
        self.push(request.seat, move)
        return move

    def bot_turn(self, seat: int) -> Move | None:
        """The bot at ``seat`` makes its turn move at once (``None``: not its turn)."""
        request = self.bot_request(seat, on_turn=True)
        return None if request is None else self.answer(request, self.think(request))

    def bot_reaction(self, seat: int) -> Move | None:
        """The bot at ``seat``, off its turn, may say UNO, catch or jump in, at once."""
        request = self.bot_request(seat, on_turn=False)
        return None if request is None else self.answer(request, self.think(request))

    def bots_off_turn(self) -> list[int]:
        """Bot seats that are not to act but have a legal move (UNO, catch, jump-in)."""
        game = self.game
        if game.is_round_over:
            return []
        return [seat for seat in self.bot_seats
                if seat != game.turn and game.legal_moves(seat)]

    def next_round(self) -> None:
        """Deal the next round (R7.4)."""
        events = self.game.next_round()
        self.round += 1
        self._start_bots()
        self._record(events)


__all__ = ["BotAnswer", "BotRequest", "IllegalMoveError", "Match", "MatchConfig",
           "SeatConfig"]
