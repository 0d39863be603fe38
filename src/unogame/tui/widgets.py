"""The game screen's parts: each owns what it shows and redraws itself when it changes."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
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

    class Clicked(Message):
        """A card of the hand was clicked (``index`` in :attr:`HandView.cards`)."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

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
            card = card_text(code, dim=code not in self.playable, selected=index == self.cursor)
            card.stylize(Style(meta={"card": index}))  # which card a click is on
            text.append_text(card)
        return text

    def on_click(self, event: events.Click) -> None:
        index = event.style.meta.get("card")
        if isinstance(index, int) and 0 <= index < len(self.cards):
            event.stop()
            self.post_message(self.Clicked(index))


class KeyFooter(Widget):
    """The keys of the table on one row, as many as fit its width: ``(key, what)`` pairs,
    the first ones kept when the row is short (the last ones are help, language, quit:
    kept always)."""

    items: reactive[tuple[tuple[str, str], ...]] = reactive(())
    KEEP_LAST = 3

    def render(self) -> Text:
        items = list(self.items)
        while len(items) > self.KEEP_LAST and self._row(items).cell_len > self.size.width:
            del items[-self.KEEP_LAST - 1]  # the least needed of the others goes first
        return self._row(items)

    @staticmethod
    def _row(items: Sequence[tuple[str, str]]) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        for number, (key, what) in enumerate(items):
            text.append(" " if number else "")
            text.append(f" {key} ", style="bold reverse")
            text.append(what)
        return text


class LogView(RichLog, can_focus=False):
    """The round's log, newest at the bottom; scrolls back over the whole round."""

    def __init__(self, id: str) -> None:
        super().__init__(id=id, wrap=True, markup=False, auto_scroll=True, max_lines=None,
                         min_width=20)
        self.shown: list[str] = []
        self._width = 0
        """The width the lines were wrapped at (a resize wraps them again)."""
        self.following = True
        """The newest line is in view (not scrolled back): a resize keeps it in view."""

    def on_mount(self) -> None:
        self.watch(self, "scroll_y", self._scrolled, init=False)

    def _scrolled(self, scroll_y: float) -> None:
        self.following = scroll_y >= self.max_scroll_y

    def on_resize(self, _event: events.Resize) -> None:
        following, back_at = self.following, self.scroll_y
        if self.scrollable_content_region.width != self._width and self.shown:
            lines, self.shown = self.shown, []  # a long line (a family's rule) wraps anew
            self.clear()
            self.show(lines, scroll_end=following)
            self.following = following
            if not following:  # scrolled back by the person: it stays about there
                self.call_after_refresh(self.scroll_to, y=back_at, animate=False)
        # a taller log and then a shorter one left it scrolled up, its newest lines
        # out of sight
        if following:
            self.scroll_end(animate=False, immediate=True)
            self.call_after_refresh(self.scroll_end, animate=False)

    def show(self, lines: Sequence[str], scroll_end: bool | None = None) -> None:
        """Show ``lines``: only the new ones are written when the log grew."""
        lines = list(lines)
        if lines[:len(self.shown)] != self.shown:
            self.clear()
            self.shown = []
        self._width = self.scrollable_content_region.width
        for line in lines[len(self.shown):]:
            self.write(Text(line), scroll_end=scroll_end)  # wrapped at the width: never cut
        self.shown = lines
