"""What every screen of the game shares: the app it belongs to, the "too small" notice."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.screen import ModalScreen, Screen
from textual.widget import Widget

if TYPE_CHECKING:
    from ..app import UnoApp
    from ..words import Words

MIN_WIDTH = 80
MIN_HEIGHT = 24

ResultType = TypeVar("ResultType")


class TooSmall(Widget):
    """Covers the screen while the terminal is smaller than 80x24 (CSS shows it then)."""

    def on_mount(self) -> None:
        self.watch(self.app, "language", self._language_changed, init=False)

    def _language_changed(self) -> None:
        self.refresh()

    def render(self) -> Text:
        app = cast("UnoApp", self.app)
        width, height = app.size
        return Text(app.words.t("tui.too_small", width=MIN_WIDTH, height=MIN_HEIGHT,
                                now_width=width, now_height=height), style="bold")


class GameScreenMixin:
    """What every screen of the game does: content, then the notice that covers it when
    the terminal is too small; a redraw when the language or the match changes.

    Subclasses yield their widgets from :meth:`content` and draw in :meth:`redraw`.
    (Textual runs ``on_mount`` of every class in the MRO, subclasses need not call it.)
    """

    @property
    def uno(self) -> UnoApp:
        return cast("UnoApp", cast(Widget, self).app)

    @property
    def words(self) -> Words:
        return self.uno.words

    def t(self, key: str, **fields: Any) -> str:
        return self.uno.words.t(key, **fields)

    def compose(self) -> ComposeResult:
        yield from self.content()
        yield TooSmall()

    def content(self) -> ComposeResult:
        yield from ()

    composed = False
    """Its widgets are there (``on_mount`` ran): a change before that, a message of a
    remote match arriving while the screen is pushed, waits for the first draw."""

    def on_mount(self) -> None:
        node = cast(Widget, self)
        node.watch(node.app, "language", self._relabel, init=False)
        node.watch(node.app, "match_version", self._relabel, init=False)
        self.composed = True
        self._relabel()

    def _relabel(self) -> None:
        # A screen still mounting when the app quits (or shuts down, as a test's app does:
        # not detached then, but no longer running) has its widgets gone: nothing to draw.
        node = cast(Widget, self)
        if self.composed and node.is_attached and node.app.is_running:
            self.redraw()

    def redraw(self) -> None:
        """Draw what the screen shows from the app's state."""


class UnoScreen(GameScreenMixin, Screen[ResultType]):
    """A full screen of the game."""


class UnoModal(GameScreenMixin, ModalScreen[ResultType]):
    """A dialog over another screen."""
