"""A person the host removes stays out until the host lets them back (issue 21, item 4), in
Chromium, in English and Thai: the refusal and the host's button read in each page's
language. Every page comes from 127.0.0.1, so the host's own address is kept out too, as
a family's would be: the host's button lets them all back."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import needs_chromium
from test_browser_play import click, wait
from test_server_support import ServerThread

pytestmark = needs_chromium

LOCALES = {"en": "en-US", "th": "th-TH"}
REFUSED = {"en": "The host removed you from this room", "th": "เจ้าของห้องเอาคุณออกจากห้องนี้แล้ว"}
LET_BACK = {"en": "Let removed people join again (1)",
            "th": "ให้คนที่ถูกเอาออกเข้าห้องได้อีกครั้ง (1)"}


def take_seat(browser: Any, url: str, lang: str, name: str) -> Any:
    """A new browser (no stored token) opens the invite link and asks for a seat."""
    page = browser.new_context(locale=LOCALES[lang]).new_page()
    page.goto(url)
    wait(page, "#player-name")
    page.fill("#player-name", name)
    click(page, "form[data-form=join-named] button[type=submit]")
    return page


@pytest.mark.parametrize("ann_lang,ben_lang", [("en", "th"), ("th", "en")])
def test_a_removed_person_stays_out_until_the_host_lets_them_back(
        ann_lang: str, ben_lang: str, browser: Any) -> None:
    with ServerThread() as server:
        errors: list[str] = []
        ann = browser.new_context(locale=LOCALES[ann_lang]).new_page()
        ann.on("pageerror", lambda error: errors.append(str(error)))
        ann.goto(server.url + "/")
        wait(ann, "#player-name")
        ann.fill("#player-name", "Ann")
        click(ann, "form[data-form=create] button[type=submit]")
        wait(ann, "[data-testid=room-code]")
        code = ann.locator("[data-testid=room-code]").inner_text().replace(" ", "")
        invite = f"{server.url}/r/{code}"

        ben = take_seat(browser, invite, ben_lang, "Ben")
        wait(ben, ".seats")
        ann.wait_for_function("()=>document.querySelectorAll('.seat-row:not(.empty)').length==2")
        click(ann, "[data-action=remove][data-seat='1']")
        wait(ann, "[data-action=unban]")
        assert ann.locator("[data-action=unban]").inner_text().strip() == LET_BACK[ann_lang]

        # Ben comes back in a fresh browser: refused, in his language; no seat is taken.
        again = take_seat(browser, invite, ben_lang, "Ben again")
        again.get_by_text(REFUSED[ben_lang]).first.wait_for(timeout=10_000)
        assert [seat.name for seat in server.manager.rooms[code].seats] == ["Ann"]

        click(ann, "[data-action=unban]")
        ann.locator("[data-action=unban]").wait_for(state="detached", timeout=10_000)
        welcome = take_seat(browser, invite, ben_lang, "Ben")
        wait(welcome, ".seats")
        ann.wait_for_function("()=>document.querySelectorAll('.seat-row:not(.empty)').length==2")
        assert errors == []
