"""``uno play --join URL``: the terminal game on a seat of a ``uno serve`` room.

The same screens as a match at this keyboard (the table, the scoreboard, help), drawn
from the server's messages (:class:`~unogame.tui.remote.RemoteMatch`); moves go to the
server (:class:`~unogame.tui.remote.Link`), and its refusals are said from their codes in
the player's language, as the page says them.
"""

from __future__ import annotations

from typing import Any

from ..engine import Move
from ..engine.moves import PLAY
from .app import UnoApp
from .refusals import reason_text
from .remote import Link, RemoteMatch, RoomAddress, SeatTokens
from .screens.game import GameScreen
from .screens.lobby import LobbyScreen
from .screens.score import ScoreScreen


class RemoteApp(UnoApp):
    """One seat of a room of ``uno serve``, over its WebSocket."""

    def __init__(self, address: RoomAddress, name: str, lang: str = "en",
                 tokens: SeatTokens | None = None) -> None:
        super().__init__(None, lang=lang)
        self.address = address
        self.link = Link(address, name, tokens or SeatTokens(SeatTokens.default_path()),
                         self.received)
        self.remote: RemoteMatch | None = None
        self.notice = ""
        """A line about the link or the room (reconnecting, refused to join), or empty."""
        self._ready_sent: int | None = None
        self._final_closed = False
        """The finished match's last scoreboard was closed: back to the room."""
        self.last_error: dict[str, Any] | None = None
        self.last_why: dict[str, Any] | None = None
        """The server's last answer to a ``why`` asked for a card."""
        """The server's latest refusal (its code says what the screen said)."""

    def open_first(self) -> None:
        self.push_screen(LobbyScreen())
        self.run_worker(self.link.run(), name="link", group="link", exit_on_error=True)

    # ------------------------------------------------------------ the server's messages

    def received(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "link":
            state = message.get("state")
            self.notice = "" if state == "open" else self.words.t(f"tui.remote.link_{state}")
        elif kind == "joined":
            self.notice = ""
            seat = message.get("seat")
            if self.remote is not None and self.remote.seat != seat:
                self.remote = None  # another seat (the old one was given away)
            if self.remote is None:
                self.remote = RemoteMatch(None if seat is None else int(seat), {}, self.language)
        elif kind == "room" and self.remote is not None:
            self.remote.set_room(message)
        elif kind in ("state", "update") and self.remote is not None:
            self.remote.receive(message)
        elif kind == "removed":
            self.notice = self.words.t("web.toast.removed")
        elif kind == "error":
            self._refused(message)
            return
        elif kind == "why":
            self._why_answered(message)
            return
        self._show()

    def _show(self) -> None:
        """The lobby or the table, whichever the room is at; then the usual redraw."""
        remote = self.remote
        if remote is not None and remote.status != "match_over":
            self._final_closed = False
        # a finished match stays on the table until its last scoreboard is closed
        playing = remote is not None and remote.started and not self._final_closed
        if playing and self.match is None:
            self.match = remote
            self.viewer = remote.seat if remote is not None else None
            self._scored_round = 0  # joined between rounds: the scoreboard is shown
            self.push_screen(GameScreen())
            self.call_after_refresh(self.changed)  # once the table is there to draw on
            return
        if not playing and self.match is not None:
            self.match = None  # the match is over: back to the room, waiting for a rematch
            while len(self.screen_stack) > 1 and not isinstance(self.screen, LobbyScreen):
                self.pop_screen()  # the table and any dialog over it
        if self.match is not None:
            self.viewer = remote.seat if remote is not None else None
            self.changed()
        else:
            self.match_version += 1

    def _refused(self, message: dict[str, Any]) -> None:
        """An error from the server, in the player's language (its code's text)."""
        self.last_error = message
        code = str(message.get("code", ""))
        if code in ("replaced", "room_gone"):  # opened elsewhere, or no room: stop here
            self.link.close()
        refusal = message.get("refusal")
        if isinstance(refusal, dict) and refusal.get("code"):
            text = reason_text(self.words, str(refusal["code"]), refusal.get("params") or {},
                               str(refusal.get("text") or message.get("message", "")))
        else:
            key = "web.toast.move_dropped" if code == "move_dropped" else f"web.error.{code}"
            text = self.words.t(key)
            if text == key:
                text = str(message.get("message") or code)
        self.say(text)

    def say(self, text: str) -> None:
        """A line over the prompt (the table), or at the top of the lobby."""
        games = [screen for screen in self.screen_stack if isinstance(screen, GameScreen)]
        if games and self.match is not None:
            games[-1].message = text
        else:
            self.notice = text
            self.match_version += 1

    # ------------------------------------------------------------ the seat's moves

    def human_move(self, move: Move, seat: int | None = None) -> bool:
        remote = self.remote
        if remote is None or self.match is None:
            return False
        if not self.link.move(move.text, remote.version):
            self.say(self.words.t("web.toast.move_waits"))
        return True

    def why_not(self, seat: int, move: Move) -> str | None:
        """A card's refusal is asked of the server (``why``, as the page asks when a card
        is tapped; the answer is said when it comes); any other move is sent, and its
        refusal comes back as an error."""
        remote = self.remote
        if remote is None:
            return self.words.t("tui.msg.not_legal")
        code = move.card_code if move.kind == PLAY else None
        sent = (self.link.send({"type": "why", "card": code}) if code
                else self.link.move(move.text, remote.version))
        return None if sent else self.words.t("web.toast.not_connected")

    def _why_answered(self, message: dict[str, Any]) -> None:
        self.last_why = message
        reason, card = message.get("refusal"), str(message.get("card", ""))
        if isinstance(reason, dict):  # none: the position moved on and the card is playable
            params = {**reason.get("params", {}), "card": card}
            self.say(reason_text(self.words, str(reason.get("code")), params,
                                 self.words.t("tui.msg.not_legal")))

    def score_closed(self) -> None:
        """The scoreboard closed: "next round" is pressed on the server (which deals once
        everyone has); after the last round, back to the room."""
        remote = self.remote
        if isinstance(self.screen, ScoreScreen):
            self.pop_screen()
        if remote is None:
            return
        if remote.status == "match_over":
            self._final_closed = True
        elif remote.status == "round_over" and self._ready_sent != remote.version:
            self._ready_sent = remote.version
            self.link.send({"type": "next_round", "version": remote.version})
        self._show()

    def status_notice(self) -> str:
        return self.notice

    def score_footer(self, match_over: bool) -> str:
        return self.words.t("tui.remote.score_back" if match_over else "tui.score.next")

    def match_in_progress(self) -> bool:
        return self.remote is not None and self.remote.started \
            and self.remote.status != "match_over"

    async def action_quit(self) -> None:
        self.action_ask_quit()

    def on_unmount(self) -> None:
        self.link.close()


__all__ = ["RemoteApp"]
