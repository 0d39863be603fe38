"""Every surprise shown and explained (issue 10), on the pages of the people it hits.

Ann (English, 360x740) and Ben (Thai, 390x844) play in Chromium; Cat is a plain WebSocket
client whose moves the test makes, so that every position is known: a stacked deal (the
room's ``deal`` hook, as in test_browser_phone.py) and no bot. Each surprise must be
announced by a line in each page's language, and the seats it hits shake (``.hit``).
A move tapped while "Reconnecting…" that the game has left behind is dropped with a notice,
never sent.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from page_watch import WATCH_SCRIPT, Watched
from test_browser_phone import create_room, join_room, stacked
from test_browser_play import pytestmark
from test_server_support import ServerThread
from websockets.sync.client import ClientConnection, connect

from unogame.server.updates import GameReader

__all__ = ["pytestmark"]

ANN_PHONE = {"width": 360, "height": 740}
BEN_PHONE = {"width": 390, "height": 844}


class Scripted:
    """A player without a browser (Cat): joins over the WebSocket and makes the moves the
    test says, each on the latest position."""

    def __init__(self, ws: ClientConnection, code: str, name: str = "",
                 token: str | None = None) -> None:
        """Joins as ``name``, or resumes the seat of ``token`` (another device of its
        player)."""
        self.ws = ws
        self.reader = GameReader()
        self.game: dict[str, Any] = {}
        ws.send(json.dumps({"type": "resume", "room": code, "token": token} if token
                           else {"type": "join", "room": code, "name": name}))
        self.seat = int(self.wait(lambda m: m["type"] == "joined")["seat"])

    def wait(self, predicate: Any, timeout: float = 15.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = self.reader.read(self.ws.recv(timeout=max(0.01, deadline - time.monotonic())))
            if message["type"] in ("state", "update"):
                self.game = message
            if predicate(message):
                return dict(message)

    def drain(self) -> None:
        try:
            while True:
                self.wait(lambda m: False, timeout=0.05)
        except TimeoutError:
            pass

    def move(self, text: str) -> None:
        """Once ``text`` is legal on the latest position, send it; wait until it is played."""
        self.drain()
        if text not in self.game.get("legal", []):
            self.wait(lambda m: m["type"] in ("state", "update") and text in m["legal"])
            self.drain()
        assert text in self.game["legal"], (text, self.game["legal"])
        self.ws.send(json.dumps({"type": "move", "move": text,
                                 "version": self.game["version"]}))
        self.wait(lambda m: m["type"] == "update"
                  and any(e.get("seat") == self.seat for e in m["events"]))


def said(watched: Watched, *parts: str) -> str:
    """Waits until one announced line of the page has every part; returns it."""
    watched.page.wait_for_function(
        "(parts)=>(window.__lines||[]).some((l)=>l.split(' · ').some("
        "(p)=>parts.every((x)=>p.includes(x))))", arg=list(parts), timeout=10_000)
    return next(line for line in watched.lines() if all(p in line for p in parts))


def shakes(watched: Watched, selector: str) -> None:
    watched.page.locator(f"{selector}.hit").first.wait_for(state="attached", timeout=5_000)


def tap(watched: Watched, selector: str) -> None:
    watched.page.locator(selector).first.click(timeout=10_000)


@contextmanager
def three_at_the_table(browser: Any, hands: list[list[str]], rules: dict[str, Any],
                       first: str = "R3") -> Iterator[
        tuple[ServerThread, Watched, Watched, Scripted]]:
    """Ann (seat 0, English), Ben (seat 1, Thai), Cat (seat 2, scripted) and, for more
    hands, more scripted players, dealt ``hands`` by the last seat, ``first`` turned up:
    Ann plays first."""
    with ServerThread() as server, ExitStack() as sockets:
        pages = []
        for viewport, locale in ((ANN_PHONE, "en-US"), (BEN_PHONE, "th-TH")):
            context = browser.new_context(viewport=viewport, locale=locale)
            context.add_init_script(WATCH_SCRIPT)
            pages.append(context.new_page())
        errors: list[str] = []
        for page in pages:
            page.on("pageerror", lambda error: errors.append(str(error)))
        ann, ben = Watched(pages[0], "en"), Watched(pages[1], "th")
        code = create_room(ann.page, server.url, "Ann", len(hands), rules=rules)
        join_room(ben.page, server.url, code, "Ben")
        scripted = [Scripted(sockets.enter_context(connect(server.ws_url)), code, name)
                    for name in ["Cat", "Dan", "Eve", "Fay"][:len(hands) - 2]]
        assert [player.seat for player in scripted] == list(range(2, len(hands)))
        server.manager.rooms[code].deal = {"dealer": len(hands) - 1,
                                           "deck": stacked(hands, first), "seed": 1}
        ann.page.locator("[data-action=start]").click()
        for watched in (ann, ben):
            watched.page.locator(".hand button.card").first.wait_for(timeout=10_000)
        yield server, ann, ben, scripted[0]
        for page in pages:
            page.context.close()
        assert errors == []


def test_skip_reverse_swaps_passed_hands_stacks_jump_in_and_the_custom_card(browser: Any) -> None:
    hands = [["RS", "B9", "B8", "Y9", "Y8", "G9", "G8"],
             ["R7", "R0", "R+2", "R4", "Y2", "Y3", "Y4"],
             ["RR", "R+2", "R4", "WC", "B1", "B2", "Y1"]]
    rules = {"seven_zero": True, "jump_in": True, "stacking": True,
             "custom_rule": "chosen_draw", "custom_count": 3}
    with three_at_the_table(browser, hands, rules) as (_server, ann, ben, cat):
        # Ann's Skip: Ben is skipped.
        tap(ann, ".hand button.card[data-card=RS]")
        said(ben, ben.t("web.surprise.you_skipped"))
        shakes(ben, ".hand-wrap")
        said(ann, "Ben is skipped!")
        shakes(ann, ".opponent[data-seat='1']")

        # Cat's Reverse: the direction turns; the seats around the table follow it.
        cat.move("play RR")
        said(ann, "Cat reversed the direction!")
        said(ben, "Cat กลับทิศทาง!")
        ann.page.locator(".opponents.dir-ccw").wait_for(timeout=5_000)
        assert [int(s) for s in ann.page.locator(".opponent").evaluate_all(
            "(els)=>els.map((e)=>e.dataset.seat)")] == [2, 1]

        # Ben's 7 (house rule 7-0): he swaps hands with Ann.
        tap(ben, ".hand button.card[data-card=R7]")
        ben.page.locator(".seat-choice", has_text="Ann").click()
        said(ann, "Ben swapped hands with you!")
        shakes(ann, ".hand-wrap")
        said(ben, "คุณสลับไพ่ทั้งมือกับ Ann!")
        ann.page.locator(".hand button.card[data-card=R0]").wait_for(timeout=5_000)

        # Ann's 0: every hand moves on (counter-clockwise now).
        tap(ann, ".hand button.card[data-card=R0]")
        said(ann, "Every hand moved on to the next player!")
        said(ben, ben.t("web.surprise.pass_hands"))
        ben.page.locator(".hand button.card[data-card=WC]").wait_for(timeout=5_000)

        # Cat's Draw Two and Ben's on top of it: the stack's total on both pages.
        cat.move("play R+2")
        said(ann, "Cat stacked: 2 cards waiting!")
        tap(ben, ".hand button.card[data-card='R+2']")
        said(ann, "Ben stacked: 4 cards waiting!")
        said(ben, "Ben (คุณ) ซ้อนไพ่: รอจั่ว 4 ใบ!")
        # Ann has no Draw Two: she takes the four.
        ann.page.locator(".actions button[data-move=draw]", has_text="4").click()
        said(ann, "You draw 4! +4")
        shakes(ann, ".hand-wrap")
        said(ben, "Ann จั่ว 4 ใบ! +4")
        shakes(ben, ".opponent[data-seat='0']")

        # Cat draws; Ben plays his Red 4 and Cat jumps in with the identical card.
        cat.move("draw")
        if "pass" in cat.game["legal"]:
            cat.move("pass")
        tap(ben, ".hand button.card[data-card=R4]")
        cat.move("play R4")
        said(ann, "Cat jumped in with Red 4!")
        said(ben, "Cat แทรกด้วย แดง 4!")

        # Ben's Wild Customizable: a player he chooses (Ann) draws three.
        tap(ben, ".hand button.card[data-card=WC]")
        tap(ben, ".color-choice[data-color=G]")
        ben.page.locator(".seat-choice", has_text="Ann").click()
        said(ann, "Ben played the Wild Customizable", "3", "Ann (you)")
        said(ann, "You draw 3! +3")
        said(ben, "Ben (คุณ) ลงไพ่ไวลด์กำหนดเอง", "3", "Ann")
        shakes(ben, ".opponent[data-seat='0']")
        for watched in (ann, ben):
            assert not watched.unannounced(), watched.lines()
            assert not watched.foreign_lines(), watched.lines()


def test_a_catch_is_announced_with_its_penalty(browser: Any) -> None:
    """Ann plays down to one card without UNO and Cat catches her: her page says who caught
    her and that she draws two, in one line that nothing covers."""
    hands = [["R5", "R6"], ["G1", "G2"], ["Y1", "Y2"]]
    with three_at_the_table(browser, hands, {"hand_size": 2}) as (_server, ann, ben, cat):
        tap(ann, ".hand button.card[data-card=R5]")
        cat.move("catch 0")
        line = said(ann, "Cat caught you without UNO!")
        assert "You draw 2! +2" in line.split(" · ")
        shakes(ann, ".hand-wrap")
        ann.page.wait_for_timeout(300)  # nothing comes to cover it
        assert ann.page.locator("#live").text_content() == line
        said(ben, "Cat จับได้ว่า Ann ไม่พูดอูโน่")
        said(ben, "Ann จั่ว 2 ใบ! +2")
        for watched in (ann, ben):
            assert not watched.unannounced(), watched.lines()


def test_a_move_tapped_offline_that_the_game_left_behind_is_dropped_with_a_notice(
        browser: Any) -> None:
    """Ben taps a card while "Reconnecting…"; meanwhile his seat moved on from another of
    his devices. Back in his seat, the tapped card is not sent: a notice says so in Thai."""
    hands = [["R5", "B9", "B8"], ["R6", "R7", "G2"], ["Y1", "Y2", "Y3"]]
    with three_at_the_table(browser, hands, {"hand_size": 3}) as (server, ann, ben, _cat):
        tap(ann, ".hand button.card[data-card=R5]")
        ben.page.locator(".status.mine").wait_for(timeout=10_000)
        code = ben.page.url.rsplit("/", 1)[1]
        token = ben.page.evaluate(f"localStorage.getItem('uno.token.{code}')")
        ben.page.context.set_offline(True)
        ben.drop_connection()
        ben.page.locator(".offline").wait_for(timeout=10_000)
        tap(ben, ".hand button.card[data-card=R6]")
        said(ben, ben.t("web.toast.move_waits"))
        # Ben's other device plays his Red 7 meanwhile.
        with connect(server.ws_url) as ws:
            other = Scripted(ws, code, token=token)
            assert other.seat == 1
            other.move("play R7")
        ben.page.context.set_offline(False)
        said(ben, "ตาที่คุณเล่นไม่ได้ถูกส่ง")
        ben.page.locator(".offline").wait_for(state="detached", timeout=10_000)
        ben.page.locator(".hand button.card[data-card=R6]").wait_for(timeout=5_000)
        room = server.manager.rooms[code]
        assert room.game is not None
        moves = [(seat, str(move)) for seat, move in room.game.history]
        assert (1, "play R7") in moves and not any("R6" in m for _, m in moves), moves
        assert not [line for line in ben.lines() if "R6" in line or "แดง 6" in line]


def test_the_first_card_of_the_game_is_announced(browser: Any) -> None:
    """The game opens on a Draw Two: Ann draws two and is skipped, and the pages say so as
    for any other Draw Two (the start reaches them as a whole new state)."""
    hands = [["B9", "B8", "Y9"], ["G1", "G2", "G3"], ["Y1", "Y2", "Y3"]]
    with three_at_the_table(browser, hands, {"hand_size": 3}, first="R+2") as (
            _server, ann, ben, _cat):
        said(ann, "You draw 2! +2")
        said(ann, "You are skipped!")
        shakes(ann, ".hand-wrap")
        said(ben, "Ann จั่ว 2 ใบ! +2")
        said(ben, "Ann ถูกข้าม!")
        ben.page.locator(".status.mine").wait_for(timeout=5_000)


def test_every_surprise_of_one_move_is_announced(browser: Any) -> None:
    """Ann's Wild Customizable makes four players draw at once: each page says all four
    draws (none is cut off to make the line short)."""
    hands = [["WC", "B9", "B8"], ["G1", "G2", "G3"], ["Y1", "Y2", "Y3"], ["Y4", "Y5", "Y6"],
             ["Y7", "Y8", "Y9"]]
    rules = {"hand_size": 3, "custom_rule": "others_draw", "custom_count": 1}
    with three_at_the_table(browser, hands, rules) as (_server, ann, ben, _cat):
        tap(ann, ".hand button.card[data-card=WC]")
        tap(ann, ".color-choice[data-color=G]")
        said(ben, "คุณจั่ว 1 ใบ! +1")
        for name in ("Cat", "Dan", "Eve"):
            said(ann, f"{name} draws 1! +1")
            said(ben, f"{name} จั่ว 1 ใบ! +1")
        said(ann, "Ben draws 1! +1")
        for watched in (ann, ben):
            assert not watched.unannounced(), watched.lines()
