"""The scoreboard between rounds and at the end of the match."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from ..cards import sort_key
from .base import UnoModal


class ScoreScreen(UnoModal[None]):
    """Every hand left and the points (the round is over: nothing is hidden any more)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "next", show=False)]

    def content(self) -> ComposeResult:
        with Vertical(id="score-box"):
            yield Static(id="score")

    def redraw(self) -> None:
        match = self.uno.match
        if match is None:
            return
        game = match.game
        words = self.words
        t = self.t
        view = game.view(self.uno.viewer)
        round_over = match.last_event("round_over", self.uno.viewer)
        points = round_over["points"] if round_over else [0] * game.players
        hands = round_over["hands"] if round_over else [[] for _ in range(game.players)]
        winner = view["winner"]
        table = Table(box=None, pad_edge=False, expand=False)
        table.add_column(t("tui.score.player"))
        table.add_column(t("tui.score.cards"), max_width=34, overflow="ellipsis", no_wrap=True)
        table.add_column(t("tui.score.points"), justify="right")
        table.add_column(t("tui.score.total"), justify="right")
        for seat in range(game.players):
            style = "bold reverse" if seat == winner else ""
            table.add_row(Text(words.seat_name(seat), style=style),
                          words.cards_words(sorted(hands[seat], key=sort_key)),
                          f"+{sum(points)}" if seat == winner else str(points[seat]),
                          str(view["scores"][seat]))
        title = Text(t("tui.score.title", round=match.round,
                       name=words.seat_name(winner) if winner is not None else "?"),
                     style="bold")
        footer = Text()
        if view["game_winner"] is not None:
            footer.append(t("tui.score.match_over", name=words.seat_name(view["game_winner"]))
                          + "\n", style="bold")
            footer.append(self.uno.score_footer(True))
        else:
            footer.append(t("tui.score.target", target=match.config.rules.target_score) + "\n")
            footer.append(self.uno.score_footer(False))
        self.query_one("#score", Static).update(Group(title, Text(), table, Text(), footer))

    def action_next(self) -> None:
        self.uno.score_closed()
