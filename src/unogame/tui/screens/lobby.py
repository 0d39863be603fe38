"""``uno play --join``: the room before its game starts (and between matches), as its
seat sees it: the code, the seats, who is connected, the state of the link."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from .base import UnoScreen

if TYPE_CHECKING:
    from ..remote_app import RemoteApp


class LobbyScreen(UnoScreen[None]):
    """Waiting for the host (who starts the game from their page)."""

    def content(self) -> ComposeResult:
        yield Static(id="lobby-title")
        yield Static(id="lobby")
        yield Static(id="lobby-hint")

    def redraw(self) -> None:
        app = cast("RemoteApp", self.app)
        t = self.t
        address = app.address
        self.query_one("#lobby-title", Static).update(
            Text(t("tui.remote.title", code=address.code, server=address.server), style="bold"))
        text = Text()
        match = app.remote
        if app.notice:
            text.append(app.notice + "\n\n", style="bold reverse")
        if match is None:
            text.append(t("tui.remote.connecting") + "\n")
        else:
            for index, seat in enumerate(match.seats):
                kind = t("tui.remote.bot") if seat.get("kind") == "bot" else (
                    t("tui.remote.here") if seat.get("connected") else t("tui.remote.away"))
                mark = "▶ " if index == match.seat else "  "
                host = f" · {t('tui.remote.host')}" if index == match.host else ""
                text.append(f"{mark}{index + 1}. {seat.get('name', '?')} · {kind}{host}\n",
                            style="bold" if index == match.seat else "")
            text.append("\n" + t("tui.remote.match_over" if match.status == "match_over"
                                 else "tui.remote.waiting"))
        self.query_one("#lobby", Static).update(text)
        self.query_one("#lobby-hint", Static).update(t("tui.remote.keys"))
