"""Who is at the table: people coming and going, pages hidden, the host, seats handed to a
bot (for now or for good), "next round" pressed. Mixed into :class:`~.table.Table`.
"""

from __future__ import annotations

from ..bots import Bot, make_bot
from ..engine.state import PlayableGame
from .hints import SeatHelpers
from .seats import SeatSpec, TableError, TableSettings, derived_seed
from .steps import ROUND_OVER


class TableSeat:
    """A seat as the table keeps it: its bot, whether its person is here, hidden, handed."""

    __slots__ = ("bot", "gone_since", "handed", "hidden", "hidden_since", "present", "spec",
                 "stand_in", "stand_ins")

    def __init__(self, spec: SeatSpec, bot: Bot | None, present: bool) -> None:
        self.spec = spec
        self.bot = bot
        self.present = present or bot is not None
        self.gone_since: float | None = None if self.present else 0.0
        self.hidden = False
        """The person is connected but their page is hidden (a phone in the background)."""
        self.hidden_since = 0.0
        self.handed = False
        self.stand_in: Bot | None = None
        self.stand_ins = 0


class TableAttendance:
    """The attendance part of a table (its attributes are set up by :class:`~.table.Table`)."""

    settings: TableSettings
    seed: int
    game: PlayableGame
    host: int | None
    now: float
    ready: set[int]
    _seats: list[TableSeat]
    _helpers: SeatHelpers
    _turn_since: float

    @property
    def players(self) -> int:
        raise NotImplementedError

    def _new_round(self, seat: int, bot: Bot) -> None:
        raise NotImplementedError

    def _bots_changed(self) -> None:
        raise NotImplementedError

    @property
    def status(self) -> str:
        raise NotImplementedError

    def set_present(self, seat: int, present: bool) -> None:
        """A person connected (``True``) or went away (``False``).

        Back: the seat is theirs again (a bot standing in leaves). Away: after
        ``settings.grace`` a bot stands in; if they were the host, the host role passes to
        the next connected person.
        """
        info = self._seat(seat)
        if info.spec.bot is not None:
            raise TableError("bad_seat", "a bot's seat has no person to come or go")
        if present == info.present:
            return
        info.present = present
        if present:
            info.gone_since = None
            info.handed = False
            info.stand_in = None
            self._bots_changed()
        else:  # away from a hidden page: gone since it was hidden
            info.gone_since = min(info.hidden_since, self.now) if info.hidden else self.now
            if seat == self.host:
                self._pass_host(seat)

    def set_hidden(self, seat: int, hidden: bool) -> None:
        """A connected person's page went to the background (``True``) or came back.

        Hidden on their turn counts like gone: after ``settings.grace`` (counted from the
        later of hiding and the turn's start) a bot makes their turn moves, and the host may
        hand the seat to a bot. Off their turn nothing stands in (they may be back in time).
        Visible again: the seat is theirs again, as on coming back.
        """
        info = self._seat(seat)
        if info.spec.bot is not None:
            raise TableError("bad_seat", "a bot's seat has no page to hide")
        if hidden == info.hidden:
            return
        info.hidden = hidden
        if hidden:
            info.hidden_since = self.now
        elif info.present:
            info.handed = False
            if info.stand_in is not None:
                info.stand_in = None
                self._bots_changed()

    def set_host(self, seat: int) -> None:
        """The host role goes to ``seat`` (a person's: the room's creator coming back)."""
        if self._seat(seat).spec.bot is not None:
            raise TableError("bad_seat", "a bot cannot host")
        self.host = seat

    def hand_to_bot(self, by: int | None, seat: int) -> None:
        """The host gives a disconnected person's seat to a bot now (until they return)."""
        if by is None or by != self.host:
            raise TableError("not_host", "only the host may hand a seat to a bot")
        info = self._seat(seat)
        if info.spec.bot is not None:
            raise TableError("bad_seat", "a bot already plays this seat")
        if info.present and not info.hidden:
            raise TableError("present", "this player is connected")
        info.handed = True

    def seat_to_bot(self, seat: int, level: str) -> None:
        """A person's seat becomes a bot's for good (the host removed the person)."""
        info = self._seat(seat)
        if info.spec.bot is not None:
            raise TableError("bad_seat", "a bot already plays this seat")
        bot = make_bot(level, derived_seed(self.seed, seat, "bot", "replaced"))
        info.spec = SeatSpec(info.spec.name, level)
        info.bot = bot
        info.stand_in = None
        info.present = True
        info.gone_since = None
        info.hidden = False
        info.handed = False
        self.ready.discard(seat)
        self._helpers.drop(seat)
        self._new_round(seat, bot)
        self._bots_changed()
        if seat == self.host:
            self.host = None
            self._pass_host(seat)

    def press_next(self, seat: int | None) -> None:
        """A person pressed "next round" on the scoreboard (it closes only for them)."""
        if seat is None or not 0 <= seat < self.players or self._seats[seat].spec.bot:
            raise TableError("bad_seat", "only a person at the table presses next round")
        if self.status != ROUND_OVER:
            raise TableError("not_over", "the round is not over")
        self.ready.add(seat)

    def _seat(self, seat: int) -> TableSeat:
        if type(seat) is not int or not 0 <= seat < self.players:
            raise TableError("bad_seat", f"no seat {seat!r} at this table")
        return self._seats[seat]

    def _standing_in(self, info: TableSeat) -> bool:
        """A bot stands in for this person: handed over, or gone past the grace."""
        if info.present:
            return False
        gone = info.gone_since if info.gone_since is not None else self.now
        return info.handed or self.now - gone >= self.settings.grace

    def _hidden_on_turn(self, seat: int, info: TableSeat) -> bool:
        """A bot stands in for this person's turn: connected, their page hidden since
        before the grace (or handed over by the host), and it is their turn."""
        if not (info.present and info.hidden) or info.spec.bot is not None \
                or self.game.winner is not None or self.game.turn != seat:
            return False
        since = max(info.hidden_since, self._turn_since)
        return info.handed or self.now - since >= self.settings.grace

    def _pass_host(self, leaving: int) -> None:
        for step in range(1, self.players):
            index = (leaving + step) % self.players
            info = self._seats[index]
            if info.spec.bot is None and info.present:
                self.host = index
                return


__all__ = ["TableAttendance", "TableSeat"]
