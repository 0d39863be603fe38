"""A match as the terminal plays it: the game, who sits where, the bots and the events.

No Textual here: the app drives a :class:`Match` and asks it what to show. Seats are
humans or bots; bots are fed only ``Event.for_seat`` of their seat and choose from their
own view and legal moves (``bots/base.py``). The log keeps the engine's events, so every
reader gets them through ``Event.for_seat`` (the hidden information rule).

>>> from unogame.engine import Rules
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

LOG_SIZE = 200
"""Events kept for the log panel."""


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
        """The latest events with the round they belong to."""
        self.round = 1
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
        self.events.extend((self.round, event) for event in events)
        del self.events[:-LOG_SIZE]
        for seat, bot in self.bots.items():
            for event in events:
                bot.observe(event.for_seat(seat))

    def push(self, seat: int, move: Move | str) -> list[Event]:
        """Apply a move (raises :class:`IllegalMoveError`, changing nothing, if refused)."""
        events = self.game.push(seat, move)
        self._record(events)
        return events

    def log_for(self, seat: int | None, count: int) -> list[dict[str, Any]]:
        """The last ``count`` events as ``seat`` may see them, each with its ``round``."""
        if count <= 0:
            return []
        return [{**event.for_seat(seat), "round": number}
                for number, event in self.events[-count:]]

    def last_event(self, kind: str, seat: int | None) -> dict[str, Any] | None:
        """The latest event of type ``kind`` as ``seat`` may see it."""
        for _number, event in reversed(self.events):
            if event.type == kind:
                return event.for_seat(seat)
        return None

    def bot_turn(self, seat: int) -> Move | None:
        """The bot at ``seat`` makes its move on its turn; ``None`` if it has nothing to do.

        A bot that answers nothing, something illegal, or fails on its turn gets its first
        legal turn move instead, so a faulty bot cannot stall the table.
        """
        legal = self._bot_legal_moves(seat, on_turn=True)
        if not legal:
            return None
        move = self._ask_bot(seat, legal)
        if move is None or move not in legal:
            move = next(m for m in legal if m.kind in TURN_KINDS)
        self.push(seat, move)
        return move

    def bot_reaction(self, seat: int) -> Move | None:
        """The bot at ``seat``, off its turn, may say UNO, catch or jump in."""
        legal = self._bot_legal_moves(seat, on_turn=False)
        if not legal:
            return None
        move = self._ask_bot(seat, legal)
        if move is None or move not in legal:
            return None
        self.push(seat, move)
        return move

    def _bot_legal_moves(self, seat: int, on_turn: bool) -> list[Move]:
        """The legal moves of the bot at ``seat``, if it is (or is not) its turn."""
        game = self.game
        if seat not in self.bots or game.is_round_over or (game.turn == seat) != on_turn:
            return []
        return game.legal_moves(seat)

    def _ask_bot(self, seat: int, legal: list[Move]) -> Move | None:
        """The bot's choice; a bot that fails is noted in ``bot_errors`` and passes."""
        try:
            return self.bots[seat].choose(self.game.view(seat), legal)
        except Exception as error:  # a faulty bot must not end the match
            self.bot_errors.append(f"{self.names[seat]}: {error!r}")
            return None

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


__all__ = ["IllegalMoveError", "Match", "MatchConfig", "SeatConfig"]
