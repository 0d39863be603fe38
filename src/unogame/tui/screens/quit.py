"""Ctrl+Q during a match: leave it only when the person says so."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from .base import UnoModal


class QuitScreen(UnoModal[bool]):
    """"Quit the match?": Y quits, N or Esc goes back (``True``: quit)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", show=False),
        Binding("n,escape", "answer(False)", show=False),
    ]

    def content(self) -> ComposeResult:
        with Vertical(id="quit-box"):
            yield Static(id="quit")

    def redraw(self) -> None:
        text = Text(self.t("tui.quit.title") + "\n\n", style="bold")
        text.append(self.t("tui.quit.body"))
        self.query_one("#quit", Static).update(text)

    def action_answer(self, quit_match: bool) -> None:
        self.dismiss(quit_match)
