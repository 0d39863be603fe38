"""The keys and the cards, explained."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from .base import UnoModal


class HelpScreen(UnoModal[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,question_mark", "close", show=False)]

    def content(self) -> ComposeResult:
        with Vertical(id="help-box"):
            yield Static(id="help")

    def redraw(self) -> None:
        text = Text(self.t("tui.help.title") + "\n\n", style="bold")
        text.append(self.t("tui.help.body") + "\n\n")
        text.append(self.t("tui.help.close"), style="italic")
        self.query_one("#help", Static).update(text)

    def action_close(self) -> None:
        self.dismiss(None)
