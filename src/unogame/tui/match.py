"""A match as the terminal plays it: a :class:`~unogame.table.Table` and the terminal's
choices around it (names, language, how fast the bots play).

No Textual here. The table decides who is asked what and in which order (off-turn
reactions first, then the turn; the same for a seed in ``uno sim`` and ``uno serve``),
applies its policy to a failing bot and says when the next round is dealt; the app only
chooses *when* to run each bot request (its pace) and runs it in a worker thread. Every
event reaches a reader through ``Event.for_seat`` (the table's feeds).

>>> match = Match(MatchConfig(seats=[SeatConfig("Ann"), SeatConfig("Bot", "random")],
...                           seed=3))
>>> match.humans, match.bot_seats
([0], [1])
>>> while not match.game.is_round_over:
...     step = match.table.next_step()
...     if isinstance(step, DecisionRequest):
...         play = match.table.resolve(step, *step.decide())
...         if play is not None:
...             _ = match.table.apply(play)
...     else:
...         _ = match.push(0, match.game.legal_moves(0)[0])
>>> match.game.winner in (0, 1)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..bots import BOT_LEVELS, Bot, make_bot
from ..engine import Event, Game, Move, Rules
from ..table import BotPlay, DecisionRequest, SeatSpec, Table, TableError, TableSettings

NEXT_ROUND = "next round"
"""A deal in :attr:`Match.moves`."""
OWN_TURN_EVENTS = frozenset({"play", "draw", "pass", "accept", "challenge", "color"})
"""Events of a seat's own turn moves (a draw for a reason other than the turn is not)."""
TUI_SETTINGS = TableSettings(next_round_countdown=None)
"""At one keyboard everybody is present; the scoreboard stays until it is closed."""


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
                try:  # policy:PATH or a plugin level: made once here, to fail now if wrong
                    make_bot(seat.level)
                except (ValueError, OSError, ImportError) as error:
                    raise ValueError(f"bot level {seat.level!r}: {error}") from None


class SeenGame(Protocol):
    """What the screens read of a game: the engine's :class:`~unogame.engine.Game` here,
    the server's latest position for a seat of a room (``tui/remote.py``)."""

    @property
    def players(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def is_round_over(self) -> bool: ...
    @property
    def is_game_over(self) -> bool: ...

    def view(self, seat: int | None) -> dict[str, Any]: ...
    def legal_moves(self, seat: int | None = None) -> list[Move]: ...


class SeenMatch(Protocol):
    """What the screens read of a match: a :class:`Match` at this keyboard, or a seat of a
    ``uno serve`` room (``tui/remote.py``)."""

    config: MatchConfig
    names: list[str]
    humans: list[int]

    @property
    def game(self) -> SeenGame: ...
    @property
    def round(self) -> int: ...
    @property
    def version(self) -> int: ...

    def log_for(self, seat: int | None,
                round_number: int | None = None) -> list[dict[str, Any]]: ...
    def events_since_turn(self, seat: int, viewer: int | None) -> list[dict[str, Any]]: ...
    def last_event(self, kind: str, seat: int | None) -> dict[str, Any] | None: ...


class Match:
    """The table of one match, and what the terminal reads from it.

    ``bots``: bot objects for some bot seats (default: the table makes them from the
    seats' levels and the seed).
    """

    def __init__(self, config: MatchConfig, game: Game | None = None,
                 bots: Mapping[int, Bot] | None = None) -> None:
        config.check()
        self.config = config
        self.table = Table([SeatSpec(seat.name, seat.level) for seat in config.seats],
                           config.rules, config.seed, TUI_SETTINGS, game=game, bots=bots)
        self.game = self.table.game
        self.names = self.table.names
        self.humans = self.table.people()
        self.bot_seats = [seat for seat in range(self.game.players) if seat not in self.humans]
        self._failures_told = 0
        self.moves: list[tuple[int, str]] = []
        """Every move and deal applied, in order, as ``(seat, move text)`` (a deal:
        ``(-1, NEXT_ROUND)``): with the seed, what a saved match is (``tui/saving.py``)."""

    @property
    def round(self) -> int:
        return self.table.round

    @property
    def version(self) -> int:
        """Grows with every move and deal."""
        return self.table.version

    def push(self, seat: int, move: Move | str) -> list[Event]:
        """A person's move (raises :class:`~unogame.table.TableError`, changing nothing,
        if refused)."""
        events = self.table.play(seat, move)
        self.moves.append((seat, move_text(move)))
        return events

    def apply(self, play: BotPlay) -> list[Event]:
        """A bot's move the table accepted (``Table.apply``)."""
        events = self.table.apply(play)
        self.moves.append((play.seat, play.move.text))
        return events

    def next_round(self) -> list[Event]:
        """The next round's deal (``Table.next_round``)."""
        events = self.table.next_round()
        self.moves.append((-1, NEXT_ROUND))
        return events

    def pace(self, request: DecisionRequest) -> float:
        """Seconds after its position appeared before ``request`` is run, so that people
        can follow the play and react first (a bot's turn move closes the catch window,
        D1, and the table offers it only after the reactions)."""
        window = request.delay
        if self.config.reaction_delay is not None and window > 0:
            window = self.config.reaction_delay  # every bot reacts after this long
        return max(self.config.bot_delay, window) if request.on_turn else window

    def new_failures(self) -> list[str]:
        """Bot failures not told yet, as "NAME: what went wrong" (the table replaced the
        move: a legal turn move, or nothing off turn)."""
        failures = self.table.bot_failures[self._failures_told:]
        self._failures_told = len(self.table.bot_failures)
        return [f"{self.names[failure.seat]}: {failure.reason}" for failure in failures]

    def scoreboard_closed(self) -> None:
        """Everybody at the keyboard pressed "next round"."""
        for seat in self.humans:
            self.table.press_next(seat)

    def log_for(self, seat: int | None, round_number: int | None = None) -> list[dict[str, Any]]:
        """The events of a round (default: the current one) as ``seat`` may see them."""
        number = self.round if round_number is None else round_number
        return [{**event, "round": of} for of, event in self.table.feed_rounds(seat)
                if of == number]

    def events_since_turn(self, seat: int, viewer: int | None) -> list[dict[str, Any]]:
        """This round's events since ``seat``'s last turn move, as ``viewer`` may see them."""
        events = self.log_for(viewer)
        start = 0
        for index, event in enumerate(events):
            if (event.get("seat") == seat and event["type"] in OWN_TURN_EVENTS
                    and event.get("reason", "turn") == "turn"):
                start = index + 1
        return events[start:]

    def last_event(self, kind: str, seat: int | None) -> dict[str, Any] | None:
        """The latest event of type ``kind`` as ``seat`` may see it."""
        events: list[dict[str, Any]] = self.table.feed(seat)
        return next((event for event in reversed(events) if event["type"] == kind), None)


def move_text(move: Move | str) -> str:
    """A move's text in the notation (a text is parsed first: the log holds one form)."""
    return (Move.parse(move) if isinstance(move, str) else move).text


__all__ = ["NEXT_ROUND", "Match", "MatchConfig", "SeatConfig", "SeenGame", "SeenMatch",
           "TableError"]
