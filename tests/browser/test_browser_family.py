"""The game a family plays on its phones (issue 24, browser items 3-8), each in Chromium.

Debian's /usr/bin/chromium by its path, as in test_browser_play.py; nothing downloaded.
"""

from __future__ import annotations

from typing import Any

from test_browser_phone import PHONE, add_bot, create_room, start_dealt
from test_browser_play import click, pytestmark, wait
from test_server_support import ServerThread

from unogame.server import Timing

__all__ = ["pytestmark"]

INSTANT = Timing(think=0.0, reaction_scale=0.0)
"""Bots that answer at once: only the room's own waits slow them."""


def opponent_count(page: Any, seat: int) -> int:
    return int(page.locator(f".opponent[data-seat='{seat}'] .count").inner_text())


def hand_size(page: Any) -> int:
    return int(page.locator(".hand button.card").count())


# ---------------------------------------------------------------- 3. kind to children


def test_the_family_preset_makes_bots_wait_so_a_child_who_says_uno_is_not_caught(
        browser: Any) -> None:
    with ServerThread(timing=INSTANT) as server:
        page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        page.goto(server.url + "/")
        wait(page, "#player-name")
        page.fill("#player-name", "Mia")
        page.fill("#seats", "2")
        click(page, "[data-action=preset][data-preset=family]")
        page.wait_for_function("()=>document.getElementById('family-kind').checked")
        assert page.locator("#fill").input_value() == "easy"  # easy bots by default
        page.select_option("#fill", "hard")  # the strongest bot waits too
        page.locator("details summary").first.click()
        page.fill("#rule-hand_size", "2")
        click(page, "form[data-form=create] button[type=submit]")
        wait(page, "[data-testid=family-note]")
        code = str(page.locator("[data-testid=room-code]").inner_text().replace(" ", ""))
        start_dealt(page, server, code, [["R5", "G6"], ["Y1", "Y2"]], "R3", dealer=1)
        click(page, ".hand button.card[data-card=R5]")  # one card left, UNO forgotten
        page.wait_for_function("()=>document.querySelectorAll('.hand button.card').length===1")
        page.wait_for_timeout(2500)
        assert hand_size(page) == 1, "caught within 2.5 s"
        click(page, "[data-action=uno]")
        page.wait_for_timeout(3000)
        assert hand_size(page) == 1, "caught after saying UNO"
        click(page, "[data-action=rules]")
        wait(page, ".active-rules")
        assert "wait 3.5 s" in page.locator(".active-rules").inner_text()
        page.context.close()


def test_without_the_family_setting_a_hard_bot_catches_at_once(browser: Any) -> None:
    """The same play in a room of the classic preset: the bot catches within a second
    (what the family setting prevents)."""
    with ServerThread(timing=INSTANT) as server:
        page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        code = create_room(page, server.url, "Mia", 2, rules={"hand_size": 2})
        page.select_option("#bot-level", "hard")
        add_bot(page)
        start_dealt(page, server, code, [["R5", "G6"], ["Y1", "Y2"]], "R3", dealer=1)
        click(page, ".hand button.card[data-card=R5]")
        page.wait_for_function("()=>document.querySelectorAll('.hand button.card').length===3",
                               timeout=2000)
        page.context.close()



# ---------------------------------------------------------------- 4. the timer's move


def live_text(page: Any, part: str, timeout: float = 15_000) -> str:
    page.wait_for_function("(p)=>document.getElementById('live').textContent.includes(p)",
                           arg=part, timeout=timeout)
    return str(page.locator("#live").text_content())


def test_the_timer_s_move_says_so_on_that_person_s_page(browser: Any) -> None:
    with ServerThread(timing=Timing(think=0.2, reaction_scale=0.0)) as server:
        for lang, said, not_said in (
                ("en", "The timer played for you: Red Reverse", "(you) reversed"),
                ("th", "หมดเวลา ระบบเล่นแทนคุณ: แดง กลับทาง", "(คุณ) กลับทิศทาง")):
            page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
            code = create_room(page, server.url, "Ann", 2, lang=lang, timer=15,
                               rules={"hand_size": 2})
            add_bot(page)
            server.manager.rooms[code].timer = 5  # the form's shortest is 15 s
            start_dealt(page, server, code, [["RR", "G6"], ["Y1", "Y2"]], "R3", dealer=1)
            text = live_text(page, said)  # Ann does nothing: after 5 s the timer plays
            assert not_said not in text, text
            page.context.close()
