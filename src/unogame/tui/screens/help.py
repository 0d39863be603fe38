"""The keys, the cards and the match's rules, explained (also Ctrl+P's "Keys")."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..rules_text import rules_lines
from .base import UnoModal

KEYS = (("←/→ Home/End", "choose"), ("Enter Space", "play"), ("D", "draw"), ("K", "keep"),
        ("U", "uno"), ("C", "catch"), ("H", "challenge"), ("A", "accept"), ("P", "pass"),
        ("PgUp/PgDn", "log"), ("? F1", "help"), ("F2", "language"), ("Ctrl+P", "palette"),
        ("Ctrl+Q", "quit"), ("", "thai"))
"""Each key and what it does (``tui.help.keys.*``), in a table: the columns line up in
Thai too, whatever the width of its letters."""


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

    def keys_table(self) -> Table:
        table = Table(box=None, show_header=False, pad_edge=False, expand=True)
        for _ in range(2):
            table.add_column(style="bold", no_wrap=True)
            table.add_column(ratio=1)
        half = (len(KEYS) + 1) // 2
        for left, right in zip(KEYS[:half], (*KEYS[half:], ("", "")), strict=True):
            table.add_row(left[0], self.t(f"tui.help.keys.{left[1]}"),
                          right[0], self.t(f"tui.help.keys.{right[1]}") if right[1] else "")
        return table

    def redraw(self) -> None:
        title = Text(self.t("tui.help.title") + "\n", style="bold")
        text = Text("\n" + self.t("tui.help.cards") + "\n\n")
        match = self.uno.match
        if match is not None:  # the house rules and a family's rule, whole
            text.append(self.t("tui.rules.title") + "\n", style="bold")
            for line in rules_lines(self.words, match.config.rules):
                text.append(f"· {line}\n")
            text.append("\n")
        text.append(self.t("tui.help.close"), style="italic")
        self.query_one("#help", Static).update(Group(title, self.keys_table(), text))

    def action_scroll(self, lines: int) -> None:
        self.query_one("#help-box", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
