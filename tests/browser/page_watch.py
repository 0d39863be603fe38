"""Watching a browser page as its player would (issue 10's tests).

Every line the page's live region (``#live``) showed, kept in sessionStorage so that a
reload keeps them; every message its WebSocket received (Playwright's frame events); and,
from those messages, the surprise lines the page owes its player, in the page's language
(from the project's own translation tables, so a changed wording needs no test change).
"""

from __future__ import annotations

import re
from typing import Any

from unogame import i18n
from unogame.server.updates import GameReader

WATCH_SCRIPT = """
(() => {
  const lines = JSON.parse(sessionStorage.getItem('test.lines') || '[]');
  window.__lines = lines;
  const Native = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); window.__sockets.push(this); }
  };
  new MutationObserver((records) => {
    const live = document.getElementById('live');
    if (!live || !records.some((r) => r.target === live || live.contains(r.target))) return;
    if (live.textContent) {
      lines.push(live.textContent);
      sessionStorage.setItem('test.lines', JSON.stringify(lines));
    }
  }).observe(document, {childList: true, characterData: true, subtree: true});
})();
"""
"""Added to a context before its page opens: records the live region's lines, and keeps
the page's WebSockets where a test can close them (a lost connection)."""

THAI = re.compile("[\u0e00-\u0e7f]")


class Watched:
    """One person's page: its messages and the lines it announced."""

    def __init__(self, page: Any, lang: str) -> None:
        self.page = page
        self.lang = lang
        self.strings = i18n.table(lang)
        self.frames: list[dict[str, Any]] = []
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        reader = GameReader()  # one per socket: each update read over the one before

        def received(payload: str | bytes) -> None:
            if isinstance(payload, str):
                self.frames.append(reader.read(payload))
        ws.on("framereceived", received)

    def lines(self) -> list[str]:
        return [str(line) for line in self.page.evaluate("window.__lines || []")]

    def drop_connection(self) -> None:
        """Every WebSocket of the page closed at once (with the context offline, the page
        cannot connect again until it is back online)."""
        self.page.evaluate("window.__sockets.forEach((s) => s.close())")

    def t(self, key: str, **fields: Any) -> str:
        text = self.strings.get(key, key)
        for name, value in fields.items():
            text = text.replace("{" + name + "}", str(value))
        return text

    # ------------------------------------------------------------ names as the page says them

    def seat_name(self, seat: int, room: dict[str, Any]) -> str:
        seats = room.get("seats", [])
        if seat < len(seats):
            info = seats[seat]
            name = str(info["name"])
            if info["kind"] == "bot":
                numbered = re.fullmatch(r"Bot ([0-9]+)", name)
                name = "🤖 " + (self.t("web.bot_n", number=numbered.group(1)) if numbered
                               else name)
        else:
            name = f"#{seat}"
        return self.t("web.you_name", name=name) if seat == room.get("you") else name

    def card_name(self, code: str) -> str:
        if code.startswith("W"):
            return self.t(f"common.card.{code}")
        color, rank = self.t(f"common.color.{code[0]}"), code[1:]
        if rank.isdigit():
            return self.t("common.card.number", color=color, number=rank)
        return self.t(f"common.card.{rank}", color=color)

    # ------------------------------------------------------------ the surprises owed

    def surprise(self, event: dict[str, Any], message: dict[str, Any],
                 room: dict[str, Any]) -> list[str]:
        """The parts of the line an event calls for (all of them in one announced line)."""
        me = room.get("you")
        kind = event["type"]
        seat = event.get("seat")
        name = self.seat_name(seat, room) if seat is not None else ""
        if kind == "draw":
            if event["reason"] == "turn" or event["count"] < 1:
                return []
            key = "web.surprise.you_draw" if seat == me else "web.surprise.draws"
            return [self.t(key, name=name, count=event["count"])]
        if kind == "skip":
            key = "web.surprise.you_skipped" if seat == me else "web.surprise.skipped"
            return [self.t(key, name=name)]
        if kind == "play":
            rank = event["card"][1:] if not event["card"].startswith("W") else event["card"]
            if event.get("jump_in"):
                return [self.t("web.surprise.jump_in", name=name,
                               card=self.card_name(event["card"]))]
            if rank == "R":
                return [self.t("web.surprise.reverse", name=name)]
            pending = (message.get("view") or {}).get("pending") or {}
            if pending.get("kind") == "stack" and rank in ("+2", "W+4"):
                return [self.t("web.surprise.stack", name=name, amount=pending["amount"])]
            return []
        if kind == "swap":
            first, second = event["seats"]
            if me == second:
                return [self.t("web.surprise.swap_you", name=self.seat_name(first, room))]
            if me == first:
                return [self.t("web.surprise.you_swapped", name=self.seat_name(second, room))]
            return [self.t("web.log.swap", a=self.seat_name(first, room),
                           b=self.seat_name(second, room))]
        if kind == "pass_hands":
            return [self.t("web.surprise.pass_hands")]
        if kind == "catch":
            if event["target"] == me:
                return [self.t("web.toast.caught", name=name)]
            return [self.t("web.log.catch", name=name,
                           target=self.seat_name(event["target"], room))]
        if kind == "custom":
            # Who played it, and whom it hit (the chosen seat of the play before it).
            parts = [self.t("common.custom.played", name=name, rule="").strip()]
            plays = [e for e in message["events"] if e["type"] == "play" and e["seat"] == seat]
            words = plays[-1]["move"].split(" ") if plays else []
            targets = [w for w in words[2:] if w.isdigit()]
            if targets:
                parts.append(self.seat_name(int(targets[0]), room))
            return parts
        return []

    def owed(self) -> list[list[str]]:
        """For every surprise in the updates this page received: the parts of its line."""
        room: dict[str, Any] = {}
        owed = []
        in_lobby = False
        for message in self.frames:
            kind = message.get("type")
            events: list[dict[str, Any]] = []
            if kind == "room":
                room = message
            elif kind == "update":
                events = message["events"]
            elif kind == "state":
                if in_lobby and message["view"]:  # the game starts: its first card's events
                    dealt = [e["type"] for e in message["log"]]
                    if "deal" in dealt:
                        events = message["log"][len(dealt) - dealt[::-1].index("deal") - 1:]
                in_lobby = not message["view"]
            for event in events:
                parts = self.surprise(event, {**message, "events": events}, room)
                if parts:
                    owed.append(parts)
        return owed

    def unannounced(self) -> list[list[str]]:
        """The owed surprise lines that no announced line carries, counted: a line owed
        three times must have been announced three times."""
        pieces = [piece.strip() for line in self.lines() for piece in line.split(" · ")]
        used = [False] * len(pieces)
        missing = []
        for parts in self.owed():
            for index, piece in enumerate(pieces):
                if not used[index] and all(part in piece for part in parts):
                    used[index] = True
                    break
            else:
                missing.append(parts)
        return missing

    def foreign_lines(self) -> list[str]:
        """Announced lines not in the page's language: a Thai page's lines all have Thai
        letters; an English page's none."""
        lines = self.lines()
        if self.lang == "th":
            return [line for line in lines if not THAI.search(line)]
        return [line for line in lines if THAI.search(line)]
