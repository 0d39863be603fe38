"""The table's controls in Chromium (issue 8, section 2): the turn timer counts down on the
page, the host lets a bot play for a player who closed the tab, and the log says "a bot
played for NAME"."""

from __future__ import annotations

import re
import time
from typing import Any

from test_browser_phone import NUMBER_HANDS, start_dealt
from test_browser_play import DESKTOP, PHONE, click, pytestmark, step, wait
from test_server_support import ServerThread

from unogame.server import Timing

__all__ = ["pytestmark"]


def test_timer_countdown_and_the_host_lets_a_bot_play_for_someone_gone(browser: Any) -> None:
    with ServerThread(timing=Timing(think=0.25, reaction_scale=30.0)) as server:
        ann = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
        ben_ctx = browser.new_context(viewport=PHONE, locale="en-US")
        ben = ben_ctx.new_page()
        ann.goto(server.url + "/")
        wait(ann, "#player-name")
        ann.fill("#player-name", "Ann")
        ann.fill("#seats", "2")
        ann.select_option("#timer", "60")
        ann.select_option("#grace", "120")
        ann.select_option("#fill", "")  # free seats stay empty
        click(ann, "form[data-form=create] button[type=submit]")
        wait(ann, "[data-testid=room-code]")
        assert "Free seats stay empty" in ann.locator("main").inner_text()
        code = ann.locator("[data-testid=room-code]").inner_text().replace(" ", "")
        room = server.manager.rooms[code]
        assert (room.timer, room.grace, room.fill) == (60, 120, None)
        ben.goto(f"{server.url}/r/{code}")
        wait(ben, "#player-name")
        ben.fill("#player-name", "Ben")
        click(ben, "form[data-form=join-named] button[type=submit]")
        ann.wait_for_function("()=>document.querySelectorAll('.seat-row:not(.empty)')"
                              ".length==2")
        start_dealt(ann, server, code, NUMBER_HANDS, "R3", dealer=1)  # no dialog over the log
        wait(ben, ".turn-timer")

        def seconds(page: object) -> int:
            text = page.locator(".turn-timer").first.inner_text()  # type: ignore[attr-defined]
            found = re.search(r"[0-9]+", text)
            assert found, text
            return int(found.group())

        first = seconds(ann)
        assert 50 <= first <= 60 and abs(seconds(ben) - first) <= 1
        # it counts down on the page
        ann.wait_for_function("(first)=>parseInt(document.querySelector('.turn-timer')"
                              ".textContent.match(/[0-9]+/)[0]) <= first - 1", arg=first,
                              timeout=20_000)
        # Ben closes the tab; the host lets a bot play for him.
        ben_ctx.close()
        wait(ann, "[data-action=hand-to-bot]", timeout=10_000)
        click(ann, "[data-action=hand-to-bot]")
        wait(ann, ".opponent .tag.off >> text=a bot plays")
        deadline = time.monotonic() + 60
        assert room.game is not None
        while not any(seat == 1 for seat, _ in room.game.history):
            assert time.monotonic() < deadline, "the bot did not play for Ben"
            try:
                moved = step(ann, {"uno": 0})
            except Exception:  # the page re-rendered under the click
                moved = True
            if not moved:
                time.sleep(0.15)
        click(ann, "[data-action=log]")
        ann.wait_for_function("()=>document.querySelector('.log')"
                              "&&document.querySelector('.log').innerText"
                              ".includes('A bot played for Ben')")
