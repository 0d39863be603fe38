"""The children's helper and the round replay in Chromium (issue 10): playable cards glow,
a refused card says why in simple words (Thai and English), a hint names a card of one's
own hand only, and the replay viewer shows only what this player saw.

Debian's /usr/bin/chromium by its path, as in test_browser_play.py; nothing downloaded.
"""

from __future__ import annotations

import json
import random
from typing import Any

from test_browser_phone import PHONE, add_bot, create_room, stacked, toast_text
from test_browser_play import click, pytestmark, shot, wait
from test_server_support import ServerThread

from unogame.engine import card_code, full_deck
from unogame.server import Timing

__all__ = ["pytestmark"]

ANN = ["R5", "R6", "G7", "G8", "B1", "B2", "Y9"]
BOT = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7"]


def start_with_helper(page: Any, server: ServerThread, lang: str, in_lobby: bool) -> str:
    code = create_room(page, server.url, "Ann", 2, lang=lang)
    add_bot(page)
    if in_lobby:
        click(page, "[data-testid=helper-toggle]")
        page.wait_for_function("()=>document.querySelector('[data-testid=helper-toggle]')"
                               ".getAttribute('aria-pressed')==='true'")
    server.manager.rooms[code].deal = {"dealer": 1, "deck": stacked([ANN, BOT], "R3"), "seed": 1}
    click(page, "[data-action=start]")
    wait(page, ".status.mine")
    if not in_lobby:
        assert not page.locator(".hand button.card.glow").count()  # off: nothing glows
        click(page, "[data-testid=helper-toggle]")
    page.wait_for_function("()=>document.querySelectorAll('.hand button.card.glow').length>0")
    return code


def test_playable_cards_glow_and_a_refused_card_says_why_in_simple_words(browser: Any) -> None:
    timing = Timing(think=0.3, reaction_scale=30.0)
    with ServerThread(timing=timing) as server:
        for lang, in_lobby, words in (
                ("en", True, ["This card doesn't match. Play a Red card or a 3!"]),
                ("th", False, ["ไพ่ใบนี้ไม่เข้ากัน", "แดง", "3"])):
            page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
            code = start_with_helper(page, server, lang, in_lobby)
            glowing = {page.locator(".hand button.card.glow").nth(i).get_attribute("data-card")
                       for i in range(page.locator(".hand button.card.glow").count())}
            assert glowing == {"R5", "R6"}  # exactly the cards with a legal play
            assert server.manager.rooms[code].seats[0].helper is True  # stored with the seat
            page.locator(".hand button.card[data-card=B1]").click(force=True)
            text = toast_text(page, *words)
            assert "(R4.2)" not in text and "does not match" not in text
            shot(page, f"helper-simple-why-{lang}-360")
            page.context.close()


def test_a_hint_names_a_card_of_ones_own_hand_and_nothing_hidden(browser: Any) -> None:
    timing = Timing(think=0.3, reaction_scale=30.0)
    with ServerThread(timing=timing) as server:
        page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        frames: list[str] = []
        page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(
            payload if isinstance(payload, str) else payload.decode())))
        start_with_helper(page, server, "en", in_lobby=True)
        click(page, "[data-testid=hint]")
        wait(page, "[data-testid=hint-line]")
        line = page.locator("[data-testid=hint-line]").inner_text()
        hinted = page.locator(".hand button.card.hinted")
        assert hinted.count() == 1
        card = hinted.get_attribute("data-card")
        assert card in ("R5", "R6")
        names = {"R5": "Red 5", "R6": "Red 6"}
        assert f"Try playing {names[card]}" in line
        hints = [json.loads(frame) for frame in frames if '"type": "hint"' in frame
                 or '"type":"hint"' in frame]
        assert len(hints) == 1 and set(hints[0]) == {"type", "version", "move"}
        assert hints[0]["move"].split(" ")[1] == card
        for hidden in BOT:  # the bot's cards: in no hint, on no line
            assert hidden not in json.dumps(hints) and f"Yellow {hidden[1]}" not in line
        shot(page, "helper-hint-en-360")
        page.context.close()


def test_the_replay_viewer_shows_only_what_this_player_saw(browser: Any) -> None:
    ann, bot, drawn = ["R5", "R6"], ["Y1", "Y2"], "G9"
    deck = [ann[0], bot[0], ann[1], bot[1], "R3", drawn]
    rest = [card_code(card) for card in full_deck()]
    for code in deck:
        rest.remove(code)
    random.Random(5).shuffle(rest)
    hidden = {*bot, drawn, *rest[:6]} - {*ann, "R3"}
    timing = Timing(think=0.3, reaction_scale=30.0)
    with ServerThread(timing=timing) as server:
        for lang in ("en", "th"):
            page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
            code = create_room(page, server.url, "Ann", 2, lang=lang, rules={"hand_size": 2})
            add_bot(page)
            server.manager.rooms[code].deal = {"dealer": 1, "deck": deck + rest, "seed": 1}
            click(page, "[data-action=start]")
            wait(page, ".status.mine")
            click(page, "[data-action=uno]")
            page.locator(".hand button.card[data-card=R5]").click()
            page.wait_for_function("()=>document.querySelector('.status.mine')"
                                   "&&document.querySelectorAll('.hand button.card').length===1",
                                   timeout=20_000)
            page.locator(".hand button.card[data-card=R6]").click()
            wait(page, ".round-dialog [data-action=replay]")
            click(page, ".round-dialog [data-action=replay]")
            wait(page, "[data-testid=replay-step]")
            steps = 0
            while True:
                dialog = page.locator("[data-testid=replay]")
                markup = dialog.inner_html()
                for card in hidden:  # no card Ann could not see, at any step
                    assert f'data-card="{card}"' not in markup and f"#{card}" not in markup
                own = {dialog.locator(".replay-hand [data-card]").nth(i).get_attribute("data-card")
                       for i in range(dialog.locator(".replay-hand [data-card]").count())}
                assert own <= set(ann)
                steps += 1
                if steps == 2:
                    shot(page, f"replay-{lang}-360")
                button = dialog.locator("[data-action=replay-next]")
                if button.is_disabled():
                    break
                before = dialog.locator("[data-testid=replay-step]").inner_text()
                button.click()
                page.wait_for_function("(b)=>document.querySelector('[data-testid=replay-step]')"
                                       ".textContent!==b", arg=before)
            moves = server.manager.rooms[code].storage.load_moves(code, 1)
            assert steps == len(moves) + 1 >= 4  # the deal, then every move (UNO, R5, draw, R6)
            last = page.locator("[data-testid=replay-step]").inner_text()
            assert (f"Step {steps} of {steps}" if lang == "en"
                    else f"ขั้นที่ {steps} จาก {steps}") in last
            click(page, "[data-action=replay-back]")
            page.wait_for_function("(b)=>document.querySelector('[data-testid=replay-step]')"
                                   ".textContent!==b", arg=last)
            click(page, "[data-action=replay-play]")
            page.wait_for_function("()=>document.querySelector('[data-action=replay-next]')"
                                   ".disabled", timeout=10_000)
            click(page, "[data-action=replay-close]")
            page.wait_for_function("()=>!document.querySelector('[data-testid=replay]')")
            page.context.close()
