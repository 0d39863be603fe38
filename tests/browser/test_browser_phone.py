"""The browser game on phones (issue 10): the numbered problems, each shown in Chromium.

Debian's /usr/bin/chromium by its path, as in test_browser_play.py; nothing downloaded.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from test_browser_play import ARGS, CHROMIUM, click, pytestmark, wait
from test_server_support import ServerThread

from unogame.engine import card_code, full_deck
from unogame.server import Timing

__all__ = ["pytestmark"]

PHONE = {"width": 360, "height": 740}
LANDSCAPE = {"width": 844, "height": 390}


def stacked(hands: list[list[str]], first: str, seed: int = 5) -> list[str]:
    """A deck dealing ``hands`` (in dealing order: the seat after the dealer first), then
    ``first`` turned up, then the rest shuffled."""
    size = len(hands[0])
    deck = [hands[seat][i] for i in range(size) for seat in range(len(hands))] + [first]
    rest = [card_code(card) for card in full_deck()]
    for code in deck:
        rest.remove(code)
    random.Random(seed).shuffle(rest)
    return deck + rest


@contextmanager
def browser_pages() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def create_room(page: Any, url: str, name: str, seats: int, *, fill: bool = False,
                rules: dict[str, Any] | None = None, lang: str = "en") -> str:
    page.goto(url + "/")
    wait(page, "#player-name")
    if lang == "th" and page.locator("html").get_attribute("lang") != "th":
        click(page, "[data-action=lang]")
        page.wait_for_function("()=>document.documentElement.lang==='th'")
    page.fill("#player-name", name)
    page.fill("#seats", str(seats))
    if not fill:
        page.select_option("#fill", "")
    if rules:
        page.locator("details summary").first.click()
        for key, value in rules.items():
            if isinstance(value, bool):
                page.locator(f"#rule-{key}").set_checked(value)
            else:
                page.fill(f"#rule-{key}", str(value))
    click(page, "form[data-form=create] button[type=submit]")
    wait(page, "[data-testid=room-code]")
    return str(page.locator("[data-testid=room-code]").inner_text().replace(" ", ""))


def join_room(page: Any, url: str, code: str, name: str) -> None:
    page.goto(f"{url}/r/{code}")
    wait(page, "#player-name")
    page.fill("#player-name", name)
    click(page, "form[data-form=join-named] button[type=submit]")
    wait(page, ".lobby")


def add_bot(page: Any) -> None:
    before = page.locator(".seat-row:not(.empty)").count()
    click(page, "[data-action=add-bot]")
    page.wait_for_function(f"()=>document.querySelectorAll('.seat-row:not(.empty)').length>{before}")


# ---------------------------------------------------------------- 1. reconnect


def test_a_card_tapped_while_reconnecting_is_played_after_the_seat_is_resumed(
        tmp_path: Path) -> None:
    db = tmp_path / "uno.sqlite"
    timing = Timing(think=0.0, reaction_scale=0.0)
    hands = [["R5", "R6", "R7", "R8", "R9", "B1", "B2"], ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7"]]
    first = ServerThread(db, timing=timing)
    port = first.port
    with first as server, browser_pages() as browser:
        page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        code = create_room(page, server.url, "Ann", 2)
        add_bot(page)
        server.manager.rooms[code].deal = {"dealer": 1, "deck": stacked(hands, "R3"), "seed": 1}
        click(page, "[data-action=start]")
        wait(page, ".status.mine")
        first.__exit__(None, None, None)  # the server stops on Ann's turn
        wait(page, ".offline")
        page.locator(".hand button.card[data-card=R5]").click()  # tapped while reconnecting
        with ServerThread(db, timing=timing, port=port) as again:
            room = again.manager.rooms[code]
            deadline = time.monotonic() + 20
            while room.game is None or not any(seat == 0 for seat, _ in room.game.history):
                assert time.monotonic() < deadline, "the tapped move was lost"
                time.sleep(0.1)
            assert room.game.history[0][0] == 0 and "R5" in str(room.game.history[0][1])
            wait(page, ".game")
            assert page.url.endswith(f"/r/{code}")
            assert not page.locator(".home").count()
            assert room.seats[0].token_hash is not None
        page.context.close()


# ---------------------------------------------------------------- 6, 7. refusals explained


def toast_text(page: Any, *parts: str) -> str:
    page.wait_for_function("(parts)=>{const t=document.getElementById('live').textContent;"
                           "return parts.every((p)=>t.includes(p))}", arg=list(parts),
                           timeout=10_000)
    return str(page.locator("#live").text_content())


def test_a_refused_card_says_why_in_english_and_thai() -> None:
    hands = [["R5", "R6", "R7", "R8", "R9", "B1", "B2"], ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7"]]
    with ServerThread() as server, browser_pages() as browser:
        for lang, parts in (("en", ["Blue 1 does not match: play a Red card or one like Red 3",
                                    "(R4.2)"]),
                            ("th", ["ไม่ตรง", "แดง", "(R4.2)"])):
            page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
            code = create_room(page, server.url, "Ann", 2, lang=lang)
            add_bot(page)
            server.manager.rooms[code].deal = {"dealer": 1, "deck": stacked(hands, "R3"),
                                               "seed": 1}
            click(page, "[data-action=start]")
            wait(page, ".status.mine")
            page.locator(".hand button.card[data-card=B1]").click(force=True)
            text = toast_text(page, *parts)
            assert "cannot be played now" not in text
            page.context.close()


def test_a_wild_draw_four_on_a_draw_two_stack_says_why() -> None:
    # Dealer Ann (seat 0): the bot plays first, and it has only Draw Twos to play on red.
    bot = ["R+2", "Y+2", "Y+2", "G+2", "G+2", "B+2", "B+2"]
    ann = ["W+4", "R5", "R6", "G7", "G8", "B1", "B2"]
    with ServerThread() as server, browser_pages() as browser:
        page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        code = create_room(page, server.url, "Ann", 2, rules={"stacking": True})
        add_bot(page)
        server.manager.rooms[code].deal = {"dealer": 0, "deck": stacked([bot, ann], "R3"),
                                           "seed": 1}
        click(page, "[data-action=start]")
        wait(page, ".status.mine")
        assert "2" in page.locator(".status.mine").inner_text()
        page.locator(".hand button.card[data-card='W+4']").click(force=True)
        toast_text(page, "only a card like Red Draw Two can go on the stack", "draw 2")
        page.context.close()
