"""The replay viewer of a long round in Chromium (issue 21, item 2): the server sends the
replay in pages of at most 64 KiB, and the page asks for the next one as the viewer goes,
showing every step in order with the right total.

Debian's /usr/bin/chromium by its path, as in test_browser_play.py; nothing downloaded.
"""

from __future__ import annotations

import concurrent.futures
import json
from collections import Counter
from pathlib import Path
from typing import Any

from test_browser_phone import PHONE
from test_browser_play import click, pytestmark, wait
from test_server_costs import stored_long_round
from test_server_support import ServerThread

from unogame.server.replay import round_replay

__all__ = ["pytestmark"]


def test_the_viewer_asks_for_the_pages_of_a_long_round_as_it_goes(browser: Any,
                                                                   tmp_path: Path) -> None:
    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # its own loop, not Playwright's
        room = pool.submit(stored_long_round, tmp_path, 1000).result()
    truth = round_replay(4, room.rules, room.seed, None, room.entries, 1, seat=0)
    with ServerThread(room.db) as server:
        page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        asked: list[int] = []

        def frame_sent(payload: str | bytes) -> None:
            message = json.loads(payload)
            if message.get("type") == "replay":
                asked.append(message.get("page", 0))

        page.on("websocket", lambda ws: ws.on("framesent", frame_sent))
        page.goto(server.url + "/")
        page.evaluate("([key, token]) => localStorage.setItem(key, token)",
                      [f"uno.token.{room.code}", room.tokens[0]])
        page.goto(f"{server.url}/r/{room.code}")
        wait(page, ".round-dialog [data-action=replay]", timeout=30_000)
        click(page, ".round-dialog [data-action=replay]")
        wait(page, "[data-testid=replay-step]", timeout=30_000)
        total = len(truth)
        assert f"Step 1 of {total}" in page.locator("[data-testid=replay-step]").inner_text()
        assert asked == [0]
        target = 150  # past the first page (about 110 steps of this round)
        for step in range(2, target + 1):
            click(page, "[data-action=replay-next]")
            page.wait_for_function("(s)=>document.querySelector('[data-testid=replay-step]')"
                                   ".textContent.includes(`Step ${s} of`)", arg=step,
                                   timeout=20_000)
        assert 1 in asked and asked == sorted(set(asked))  # in order, each page once
        hand = page.locator("[data-testid=replay-hand] [data-card]")
        shown = Counter(hand.nth(i).get_attribute("data-card") for i in range(hand.count()))
        assert shown == Counter(truth[target - 1]["view"]["hands"][0])
        click(page, "[data-action=replay-first]")
        page.wait_for_function("(t)=>document.querySelector('[data-testid=replay-step]')"
                               ".textContent.includes(`Step 1 of ${t}`)", arg=total)
        click(page, "[data-action=replay-close]")
        page.wait_for_function("()=>!document.querySelector('[data-testid=replay]')")
        page.context.close()
