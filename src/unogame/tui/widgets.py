"""The game screen's parts: each owns what it shows and redraws itself when it changes."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import RichLog

from .cards import card_text


class HandView(Widget):
    """The hand at the keyboard; the chosen card is ``[R7]``, dim cards cannot be played."""

    cards: reactive[tuple[str, ...]] = reactive(())
    playable: reactive[frozenset[str]] = reactive(frozenset())
    cursor: reactive[int] = reactive(0)
    notice: reactive[str] = reactive("")
    """Shown instead of the cards when nobody's hand may be shown."""

    def validate_cursor(self, cursor: int) -> int:
        return cursor % len(self.cards) if self.cards else 0

    def watch_cards(self, old: tuple[str, ...], new: tuple[str, ...]) -> None:
        """Keep the cursor on the same card when the hand changes around it."""
        if old and new and 0 <= self.cursor < len(old) and old[self.cursor] in new:
            self.cursor = new.index(old[self.cursor])
        else:
            self.cursor = min(self.cursor, max(len(new) - 1, 0))

    @property
    def chosen(self) -> str | None:
        return self.cards[self.cursor] if self.cards else None

    def move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)

    def choose(self, code: str) -> None:
        if code in self.cards:
            self.cursor = self.cards.index(code)

    def render(self) -> Text:
        if self.notice:
            return Text(self.notice, style="italic")
        text = Text()
        for index, code in enumerate(self.cards):
            text.append_text(card_text(code, dim=code not in self.playable,
                                       selected=index == self.cursor))
        return text


class LogView(RichLog, can_focus=False):
    """The round's log, newest at the bottom; scrolls back over the whole round."""

    def __init__(self, id: str) -> None:
        super().__init__(id=id, wrap=False, markup=False, auto_scroll=True, max_lines=None)
        self.shown: list[str] = []
        self.following = True
        """The newest line is in view (not scrolled back): a resize keeps it in view."""

    def on_mount(self) -> None:
        self.watch(self, "scroll_y", self._scrolled, init=False)

    def _scrolled(self, scroll_y: float) -> None:
        self.following = scroll_y >= self.max_scroll_y

    def on_resize(self, _event: events.Resize) -> None:
        # a taller log and then a shorter one left it scrolled up, its newest lines
        # out of sight
        if self.following:
            self.scroll_end(animate=False, immediate=True)
            self.call_after_refresh(self.scroll_end, animate=False)

    def show(self, lines: Sequence[str]) -> None:
        """Show ``lines``: only the new ones are written when the log grew."""
        lines = list(lines)
        if lines[:len(self.shown)] != self.shown:
            self.clear()
            self.shown = []
        for line in lines[len(self.shown):]:
            self.write(Text(line, no_wrap=True, overflow="ellipsis"))
        self.shown = lines
