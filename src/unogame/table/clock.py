"""The table's clock: the turn timer, the scoreboard's countdown, the family catch hold,
and when the next step is due with no one doing anything. Mixed into
:class:`~.table.Table`.
"""

from __future__ import annotations

from ..engine import Move
from ..engine.moves import CATCH
from .attendance import TableAttendance
from .steps import PLAYING, ROUND_OVER, DecisionRequest


class TableClock(TableAttendance):
    """The timing part of a table (its attributes are set up by :class:`~.table.Table`)."""

    _round_over_at: float
    _opened: float
    _out: DecisionRequest | None
    _window: list[int]
    _reactions: dict[int, list[Move]]

    def turn_remaining(self) -> float | None:
        """Seconds left on the turn timer (``None``: no timer runs now). Shown as a countdown;
        at 0 a stand-in makes the move."""
        timer = self.settings.turn_timer
        if timer is None or self.status != PLAYING:
            return None
        info = self._seats[self.game.turn]
        if info.spec.bot is not None or self._standing_in(info):
            return None
        return max(0.0, timer - (self.now - self._turn_since))

    def next_round_remaining(self) -> float | None:
        """Seconds left before the next round is dealt anyway (``None``: no countdown)."""
        countdown = self.settings.next_round_countdown
        if countdown is None or self.status != ROUND_OVER:
            return None
        return max(0.0, countdown - (self.now - self._round_over_at))

    def wake_at(self) -> float | None:
        """The next table time at which :meth:`next_step` may change with no one doing
        anything (a grace, the turn timer or the scoreboard's countdown ends); ``None``:
        nothing is due. What is due already, :meth:`next_step` gives now."""
        times: list[float] = []
        status = self.status
        if status == PLAYING:
            for info in self._seats:
                if info.spec.bot is None and not self._standing_in(info) \
                        and info.gone_since is not None:
                    times.append(info.gone_since + self.settings.grace)
            remaining = self.turn_remaining()
            if remaining is not None:
                times.append(self.now + remaining)
            turn = self._seats[self.game.turn]
            if turn.present and turn.hidden and not turn.handed:
                times.append(max(turn.hidden_since, self._turn_since) + self.settings.grace)
            hold = self._catch_hold()
            if hold is not None:
                times.append(hold)
        elif status == ROUND_OVER:
            remaining = self.next_round_remaining()
            if remaining is not None:
                times.append(self.now + remaining)
        future = [moment for moment in times if moment > self.now]
        return min(future) if future else None

    def _catch_hold(self) -> float | None:
        """With ``settings.catch_grace``: while a person seat may be caught for a forgotten
        UNO (public), the table time until which no bot is asked; ``None``: no hold."""
        grace = self.settings.catch_grace
        if not grace or self.status != PLAYING or self._out is not None:
            return None
        until = self._opened + grace
        if until <= self.now:
            return None
        game = self.game
        for seat in (*self._window, game.turn):
            legal = self._reactions.get(seat)
            if legal is None:
                legal = game.legal_moves(seat)
                if seat != game.turn:
                    self._reactions[seat] = legal
            if any(move.kind == CATCH and self._seats[move.target].spec.bot is None
                   for move in legal):
                return until
        return None


__all__ = ["TableClock"]
