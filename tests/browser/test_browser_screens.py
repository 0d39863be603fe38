"""Screenshots of every screen of the phone-first game (issue 10): the lobby, the table on
your turn, each dialog, round end and match end, at 360x740, 390x844, 844x390 and
1366x768, in English and Thai, saved under artifacts/screens/ for a person to look at.
Each screen is also checked: nothing wider than the window, the hand on screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_browser_phone import create_room, start_dealt
from test_browser_play import click, pytestmark, thai_renders, wait
from test_server_support import ServerThread

from unogame.server import Timing

__all__ = ["pytestmark"]

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screens"
SIZES = {"360x740": (360, 740), "390x844": (390, 844), "844x390": (844, 390),
         "1366x768": (1366, 768)}
ANN = ["W", "R5", "R+2", "Y7", "G3", "B9", "RR", "G+2", "Y1", "B4"]
BOTS = [["Y2", "Y3", "Y4", "Y5", "Y6", "Y8", "Y9", "G1", "G2", "G4"],
        ["B1", "B2", "B3", "B5", "B6", "B7", "B8", "G5", "G6", "G7"]]


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(700)  # the short animations end
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, name
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def hand_on_screen(page: Any) -> None:
    height = page.viewport_size["height"]
    bottom = page.evaluate("Math.max(...[...document.querySelectorAll('.hand button.card')]"
                           ".map((b)=>b.getBoundingClientRect().bottom))")
    assert bottom <= height


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "th"])
@pytest.mark.parametrize("size", list(SIZES))
def test_screens(size: str, lang: str, browser: Any) -> None:
    width, height = SIZES[size]
    with ServerThread(timing=Timing(think=30.0, next_round=60.0)) as server:
        page = browser.new_context(viewport={"width": width, "height": height},
                                   locale="en-US").new_page()
        name = f"{size}-{lang}"
        code = create_room(page, server.url, "Ann", 3, fill=True, lang=lang,
                           rules={"hand_size": 10, "stacking": True, "seven_zero": True,
                                  "jump_in": True})
        assert lang == "en" or thai_renders(page)
        shot(page, f"{name}-lobby")
        start_dealt(page, server, code, [ANN, *BOTS], "R3", dealer=2)
        wait(page, ".status.mine")
        hand_on_screen(page)
        shot(page, f"{name}-table-your-turn")
        click(page, ".hand button.card[data-card=W]")
        wait(page, ".color-dialog")
        shot(page, f"{name}-dialog-colour")
        page.keyboard.press("Escape")
        page.locator(".hand button.card[data-card=B9]").click(force=True)
        page.wait_for_function("()=>document.getElementById('live').textContent.length>0")
        shot(page, f"{name}-refused-card")
        click(page, "[data-action=scores]")
        shot(page, f"{name}-dialog-scores")
        click(page, "[data-action=close-dialog]")
        click(page, "[data-action=leave]")
        shot(page, f"{name}-dialog-leave")
        click(page, "[data-action=leave-no]")
        click(page, "[data-action=rules]")
        shot(page, f"{name}-dialog-rules")
        click(page, "[data-action=close-rules]")
        page.context.close()

        for target, label in ((500, "round-end"), (1, "match-end")):
            page = browser.new_context(viewport={"width": width, "height": height},
                                       locale="en-US").new_page()
            code = create_room(page, server.url, "Ann", 3, fill=True, lang=lang,
                               rules={"hand_size": 1, "target_score": target})
            start_dealt(page, server, code, [["R5"], ["Y1"], ["B2"]], "R3", dealer=2)
            click(page, ".hand button.card[data-card=R5]")
            wait(page, ".round-dialog")
            shot(page, f"{name}-{label}")
            page.context.close()
