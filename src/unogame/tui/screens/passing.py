"""Hot seat: nothing of anybody's hand shows until the next person takes the keyboard.

The screen takes a key of its own (P), not Enter or Space, and ignores every key for
half a second, so that the key that ended a turn cannot also open the next person's
hand. It tells the arriving person what happened since their last turn, as everyone at
the table may see it, and is redrawn whenever the game moves behind it (a bot's catch).

Everyone sees this screen, so it offers nobody's moves: a forgotten UNO is not saved
here (the next person may catch it, R6.2).
"""

from __future__ import annotations

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Center
from textual.reactive import reactive
from textual.widgets import Static

from .base import UnoScreen

ARMING_SECONDS = 0.5
"""Keys pressed sooner after the screen appears are ignored (by when they were pressed,
not when they are handled: a busy machine may handle a double tap late)."""
SINCE_LINES = 8
"""The most recent events shown from the arriving person's absence."""


class PassScreen(UnoScreen[None]):
    """"Pass the keyboard to NAME": P when NAME is ready."""

    armed: reactive[bool] = reactive(False)
    """Whether keys pressed now count (half a second after the screen appeared)."""

    def __init__(self, seat: int, previous: int | None = None) -> None:
        super().__init__()
        self.seat = seat
        self.previous = previous
        """The person who just gave up the keyboard."""
        self.shown_at: float | None = None
        """When the screen appeared, on the clock of the keys' own times."""

    def content(self) -> ComposeResult:
        with Center(id="pass-box"):
            yield Static(id="pass")

    @on(events.Mount)
    def _appeared(self, event: events.Mount) -> None:
        self.shown_at = event.time
        self.set_timer(ARMING_SECONDS, self._arm)

    def counts(self, key: events.Key) -> bool:
        """Whether ``key`` was pressed at least :data:`ARMING_SECONDS` after the screen
        appeared."""
        return self.shown_at is not None and key.time - self.shown_at >= ARMING_SECONDS

    def on_key(self, event: events.Key) -> None:
        if event.key == "p":
            event.stop()
            if self.counts(event):
                self.action_ready()

    def _arm(self) -> None:
        self.armed = True

    def watch_armed(self) -> None:
        self._relabel()

    def redraw(self) -> None:
        match = self.uno.match
        if match is None:
            return
        words = self.words
        name = words.seat_name(self.seat)
        text = Text(self.t("tui.pass.title", name=name) + "\n\n", style="bold")
        since = [line for event in match.events_since_turn(self.seat, None)  # anyone may be looking
                 if (line := words.event_line(event)) is not None]
        if since:
            text.append(self.t("tui.pass.since", name=name) + "\n", style="underline")
            for line in since[-SINCE_LINES:]:
                text.append(f"· {line}\n")
            text.append("\n")
        text.append(self.t("tui.pass.body", name=name))
        if self.armed:
            text.append("\n" + self.t("tui.pass.ready", name=name), style="bold")
        self.query_one("#pass", Static).update(text)

    def action_ready(self) -> None:
        self.uno.take_keyboard(self.seat)

