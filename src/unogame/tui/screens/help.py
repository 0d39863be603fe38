"""The keys, the cards and the match's rules, explained (also Ctrl+P's "Keys")."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..rules_text import rules_lines
from .base import UnoModal


class HelpScreen(UnoModal[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,question_mark,f1", "close", show=False),
        Binding("up", "scroll(-1)", show=False),
        Binding("down", "scroll(1)", show=False),
        Binding("pageup", "scroll(-10)", show=False),
        Binding("pagedown", "scroll(10)", show=False),
    ]

    def content(self) -> ComposeResult:
        with VerticalScroll(id="help-box", can_focus=False):
            yield Static(id="help")

    def redraw(self) -> None:
        text = Text(self.t("tui.help.title") + "\n\n", style="bold")
        text.append(self.t("tui.help.body") + "\n\n")
        match = self.uno.match
        if match is not None:  # the house rules and a family's rule, whole
            text.append(self.t("tui.rules.title") + "\n", style="bold")
            for line in rules_lines(self.words, match.config.rules):
                text.append(f"· {line}\n")
            text.append("\n")
        text.append(self.t("tui.help.close"), style="italic")
        self.query_one("#help", Static).update(text)

    def action_scroll(self, lines: int) -> None:
        self.query_one("#help-box", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
