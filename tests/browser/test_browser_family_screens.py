"""Screenshots of the screens issue 24 changed (the family preset, a family lobby, ten seats
on a phone, a toast above the hand, the custom card's target dialog, the help with its
keys, the room's standings, the UNO shout) at 360x740, 390x844, 844x390 and 1366x768 in
English and Thai, under artifacts/screens24/ (``family-`` names) for a person to look at.
Each is also checked: nothing wider than the window."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_browser_phone import add_bot, create_room, join_room, stacked, start_dealt
from test_browser_play import click, pytestmark, wait
from test_server_support import ServerThread

from unogame.server import Timing

__all__ = ["pytestmark"]

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screens24"
SIZES = {"360x740": (360, 740), "390x844": (390, 844), "844x390": (844, 390),
         "1366x768": (1366, 768)}


NUMBERS = [f"{color}{number}" for number in range(1, 10) for color in "RYGB"]
TEN_HANDS = [[NUMBERS[(seat * 7 + i) % len(NUMBERS)] for i in range(7)] for seat in range(10)]
"""Number cards only (two copies of each): nobody's first move needs a dialog."""


def shot(page: Any, name: str, wait_ms: int = 700) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(wait_ms)
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, name
    page.screenshot(path=str(SHOTS / f"family-{name}.png"))


def new_page(browser: Any, size: str) -> Any:
    width, height = SIZES[size]
    return browser.new_context(viewport={"width": width, "height": height},
                               locale="en-US").new_page()


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "th"])
@pytest.mark.parametrize("size", list(SIZES))
def test_family_screens(size: str, lang: str, browser: Any) -> None:
    name = f"{size}-{lang}"
    with ServerThread(timing=Timing(think=30.0, next_round=60.0)) as server:
        # The home page with the Family preset chosen; its lobby.
        page = new_page(browser, size)
        page.goto(server.url + "/")
        wait(page, "#player-name")
        if lang == "th":
            click(page, "[data-action=lang]")
            page.wait_for_function("()=>document.documentElement.lang==='th'")
        page.fill("#player-name", "Somchai")
        page.fill("#seats", "10")
        click(page, "[data-action=preset][data-preset=family]")
        page.locator("#family-kind").scroll_into_view_if_needed()
        shot(page, f"{name}-home-family-preset")
        click(page, "form[data-form=create] button[type=submit]")
        wait(page, "[data-testid=family-note]")
        page.locator("[data-testid=family-note]").scroll_into_view_if_needed()
        shot(page, f"{name}-lobby-family")
        code = str(page.locator("[data-testid=room-code]").inner_text().replace(" ", ""))
        guests = []
        for guest_name in ("Grandma Lee", "สมหญิง ใจดี", "Ben"):
            guest = new_page(browser, size)
            join_room(guest, server.url, code, guest_name)
            guests.append(guest)
        start_dealt(page, server, code, TEN_HANDS, "R0", dealer=9)  # no dialog on top
        guests[1].context.close()  # offline: "Let a bot play" for the host
        wait(page, "[data-action=hand-to-bot]")
        shot(page, f"{name}-table-ten-seats")
        page.evaluate("()=>import('/static/toast.js').then((m)=>m.toast('', true, "
                      "[document.documentElement.lang==='th'?'Grandma Lee จั่ว 4 ใบ! +4'"
                      ":'Grandma Lee draws 4! +4']))")
        shot(page, f"{name}-toast-ten-seats", 400)
        page.wait_for_function("()=>!document.querySelector('#toast.show')", timeout=10_000)
        click(page, "[data-action=rules]")
        wait(page, "[data-testid=keys-help]")
        page.locator("[data-testid=keys-help]").scroll_into_view_if_needed()
        shot(page, f"{name}-help-family-keys")
        page.context.close()
        for guest in guests:
            guest.context.close()

        # The custom card's target dialog; a UNO shout; the standings at the match's end.
        page = new_page(browser, size)
        code = create_room(page, server.url, "Ann", 3, fill=True, lang=lang,
                           rules={"hand_size": 2, "custom_rule": "chosen_draw",
                                  "custom_count": 3})
        start_dealt(page, server, code, [["WC", "R6"], ["Y1", "Y2"], ["G1", "G2"]], "R3",
                    dealer=2)
        click(page, ".hand button.card[data-card=WC]")
        click(page, ".color-choice[data-color=R]")
        wait(page, ".seat-choice")
        shot(page, f"{name}-dialog-custom-target")
        page.context.close()

        page = new_page(browser, size)
        code = create_room(page, server.url, "Ann", 2, lang=lang,
                           rules={"hand_size": 2, "target_score": 1})
        add_bot(page)
        start_dealt(page, server, code, [["R5", "R6"], ["Y1", "Y2"]], "R3", dealer=1)
        click(page, "[data-action=uno]")
        click(page, ".hand button.card[data-card=R5]")
        wait(page, ".uno-shout")
        shot(page, f"{name}-uno-shout", 150)
        page.context.close()

        page = new_page(browser, size)
        code = create_room(page, server.url, "Ann", 2, lang=lang,
                           rules={"hand_size": 1, "target_score": 1})
        add_bot(page)
        start_dealt(page, server, code, [["R5"], ["Y1"]], "R3", dealer=1)
        click(page, ".hand button.card[data-card=R5]")
        wait(page, "[data-action=rematch]")
        server.manager.rooms[code].deal = {"dealer": 1, "deck": stacked([["R5"], ["Y1"]], "R3"),
                                           "seed": 1}
        click(page, "[data-action=rematch]")
        click(page, ".hand button.card[data-card=R5]")
        page.wait_for_function("()=>document.querySelector('[data-testid=standings] li')"
                               "?.textContent.includes('2')", timeout=10_000)
        shot(page, f"{name}-match-over-standings", 3500)  # after the confetti
        page.context.close()
