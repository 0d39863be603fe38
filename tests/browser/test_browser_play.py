"""Two people in two browser contexts and a bot play a full round in Chromium (issue 4, §5).

Chromium is Debian's ``chromium`` package, launched by its path; nothing is downloaded.
The deal is stacked so that the first moves go through the colour picker, a Wild Draw Four
challenge with the revealed hand, a Wild Swap Hands with its player picker, keeping a drawn
card and catching a player who did not say UNO; then both players play the round out
through the UI (pressing UNO with two cards). Screenshots of the lobby, the game, the colour
picker and the round end, in English and Thai, on a phone and a desktop, go to
``artifacts/screenshots/``.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from browser_support import needs_chromium
from test_server_support import ServerThread

from unogame.engine import card_code, full_deck
from unogame.server import Timing

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}

pytestmark = needs_chromium

# Seats: 0 Ann (host), 1 Ben, 2 the bot. Dealer 2: Ann plays first. Three cards each.
HANDS = (["W+4", "WS", "R5"], ["G1", "G2", "B7"], ["Y4", "Y5", "Y6"])
FIRST = "R3"
DRAWS = ["R8", "R9", "B5", "B6",  # Ann's Wild Draw Four was a bluff: she draws 4
         "Y7",  # the bot draws, cannot play
         "G5",  # Ben draws a playable card and keeps it
         "Y8",  # the bot draws again
         "B8", "B9"]  # Ann is caught without UNO


def stacked_deck() -> list[str]:
    deck = [HANDS[seat][i] for i in range(3) for seat in range(3)] + [FIRST] + DRAWS
    rest = [card_code(card) for card in full_deck()]
    for code in deck:
        rest.remove(code)
    random.Random(5).shuffle(rest)
    return deck + rest


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    time.sleep(0.45)  # let the short animations finish
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def click(page: Any, selector: str, timeout: float = 10_000) -> None:
    page.locator(selector).first.click(timeout=timeout)


def wait(page: Any, selector: str, timeout: float = 10_000) -> None:
    page.locator(selector).first.wait_for(state="visible", timeout=timeout)


def my_turn(page: Any) -> bool:
    return bool(page.locator(".status.mine").count())


def thai_renders(page: Any) -> bool:
    """Thai letters are drawn with real glyphs: two different letters give different
    pixels (a missing font draws the same box for both)."""
    return bool(page.evaluate("""() => {
        const font = getComputedStyle(document.body).fontFamily;
        const draw = (text) => {
            const canvas = document.createElement('canvas');
            canvas.width = 40; canvas.height = 40;
            const ctx = canvas.getContext('2d');
            ctx.font = '28px ' + font;
            ctx.fillText(text, 4, 30);
            return Array.from(ctx.getImageData(0, 0, 40, 40).data).join(',');
        };
        const a = draw('\u0e01'), b = draw('\u0e02'), c = draw('\u0e04');
        return a !== b && b !== c && a !== c;
    }"""))


def step(page: Any, state: dict[str, int]) -> bool:
    """Make one sensible move through the UI if this page has one. Returns True if it did."""
    if page.locator(".round-dialog").count():
        return False
    for selector in ("[data-action=close-reveal]", ".challenge-dialog [data-move=accept]",
                     ".color-choice", ".seat-choice", "button.catch"):
        if page.locator(selector).count():
            click(page, selector)
            return True
    if not my_turn(page):
        return False
    hand = page.locator(".hand button.card").count()
    uno = page.locator("[data-action=uno]")
    if hand == 2 and uno.count() and uno.get_attribute("aria-pressed") != "true" \
            and page.locator(".hand button.card.playable").count():
        uno.click()
        state["uno"] += 1
        page.wait_for_timeout(300)
        return True
    if page.locator(".hand button.card.playable").count():
        click(page, ".hand button.card.playable")
        return True
    if page.locator("[data-move=pass]").count():
        click(page, "[data-move=pass]")
        return True
    if page.locator("button[data-move=draw]:not([disabled])").count():
        click(page, "button[data-move=draw]:not([disabled])")
        return True
    return False


@pytest.mark.parametrize("ann_lang,ann_size,ben_lang,ben_size", [
    ("en", "desktop", "th", "phone"),
    ("th", "phone", "en", "desktop"),
])
def test_two_players_and_a_bot_play_a_round(ann_lang: str, ann_size: str, ben_lang: str,
                                            ben_size: str, browser: Any) -> None:
    sizes = {"phone": PHONE, "desktop": DESKTOP}
    locales = {"en": "en-US", "th": "th-TH"}
    # Bots react off turn only after a long while, so that people catch first.
    timing = Timing(think=0.25, reaction_scale=30.0)
    with ServerThread(timing=timing) as server:
        errors: list[str] = []
        ann_ctx = browser.new_context(viewport=sizes[ann_size], locale=locales[ann_lang])
        ben_ctx = browser.new_context(viewport=sizes[ben_size], locale=locales[ben_lang],
                                      is_mobile=ben_size == "phone",
                                      has_touch=ben_size == "phone")
        ann, ben = ann_ctx.new_page(), ben_ctx.new_page()
        for page in (ann, ben):
            page.on("pageerror", lambda error: errors.append(str(error)))
        ann_tag, ben_tag = f"{ann_lang}-{ann_size}", f"{ben_lang}-{ben_size}"

        # Ann creates the room with a bot; the language follows the browser.
        ann.goto(server.url + "/")
        wait(ann, "#player-name")
        assert ann.locator("html").get_attribute("lang") == ann_lang
        shot(ann, f"home-{ann_tag}")
        ann.fill("#player-name", "Ann")
        click(ann, "[data-action=more-bots]")
        ann.select_option("select[data-bot='0']", "random")
        ann.fill("#seats", "3")
        click(ann, "form[data-form=create] button[type=submit]")
        wait(ann, "[data-testid=room-code]")
        code = ann.locator("[data-testid=room-code]").inner_text().replace(" ", "")
        room = server.manager.rooms[code]
        room.deal = {"dealer": 2, "deck": stacked_deck(), "seed": 11}
        room.rules = room.rules.__class__(hand_size=3)
        room.rules_dict = room.rules.to_dict()

        # Ben opens the invite link and takes a seat.
        ben.goto(f"{server.url}/r/{code}")
        wait(ben, "#player-name")
        assert ben.locator("html").get_attribute("lang") == ben_lang
        ben.fill("#player-name", "Ben")
        click(ben, "form[data-form=join-named] button[type=submit]")
        wait(ben, ".seats")
        ann.wait_for_function("()=>document.querySelectorAll('.seat-row:not(.empty)').length==3")
        # The seats are Ann, the bot, Ben: move Ben before the bot by removing the
        # bot and adding it again (this exercises the host's controls too).
        click(ann, "[data-action=remove][data-seat='1']")
        ann.wait_for_function("()=>document.querySelectorAll('.seat-row:not(.empty)').length==2")
        ann.select_option("#bot-level", "random")
        click(ann, "[data-action=add-bot]")
        ann.wait_for_function("()=>document.querySelectorAll('.seat-row:not(.empty)').length==3")
        assert [seat.name for seat in room.seats] == ["Ann", "Ben", "Bot 1"]
        shot(ann, f"lobby-{ann_tag}")
        shot(ben, f"lobby-{ben_tag}")
        for page, lang in ((ann, ann_lang), (ben, ben_lang)):
            if lang == "th":
                assert thai_renders(page), "Thai letters render as boxes"
                assert "ผู้เล่น" in page.locator("main").inner_text()

        click(ann, "[data-action=start]")
        wait(ann, ".hand button.card")
        wait(ben, ".hand button.card")
        shot(ann, f"game-{ann_tag}")
        shot(ben, f"game-{ben_tag}")
        assert ann.locator(".hand button.card").count() == 3
        # Hidden information: Ben's page shows Ann's hand only as a count.
        assert ben.locator(".hand button.card").count() == 3
        assert "W+4" not in ben.content().replace("W+4 ", "")  # Ann's card is not there
        assert ann.locator(".hand button.card.playable").count() == 3

        # 1. Ann plays her Wild Draw Four: the colour picker.
        click(ann, ".hand button.card[data-card='W+4']")
        wait(ann, ".color-dialog")
        shot(ann, f"color-picker-{ann_tag}")
        click(ann, ".color-choice[data-color=G]")

        # 2. Ben challenges; he is shown Ann's hand (she held red: a bluff).
        wait(ben, ".challenge-dialog")
        shot(ben, f"challenge-{ben_tag}")
        click(ben, ".challenge-dialog [data-move=challenge]")
        wait(ben, "[data-action=close-reveal]")
        revealed = ben.locator(".reveal-hand li").count()
        assert revealed == 2
        shot(ben, f"reveal-{ben_tag}")
        click(ben, "[data-action=close-reveal]")
        ann.wait_for_function("()=>document.querySelectorAll('.hand button.card').length == 6")

        # Ben plays on with green.
        ben.wait_for_function("()=>document.querySelector('.status.mine') !== null")
        click(ben, ".hand button.card[data-card='G1']")

        # 3. The bot draws. 4. Ann swaps hands with Ben: colour, then the player picker.
        ann.wait_for_function("()=>document.querySelector('.status.mine') !== null",
                              timeout=15_000)
        click(ann, ".hand button.card[data-card='WS']")
        click(ann, ".color-choice[data-color=G]")
        wait(ann, ".seat-choice")
        shot(ann, f"player-picker-{ann_tag}")
        ann.locator(".seat-choice", has_text="Ben").click()
        ann.wait_for_function("()=>document.querySelectorAll('.hand button.card').length==2")

        # 5. Ben draws a playable green card and keeps it.
        ben.wait_for_function("()=>document.querySelector('.status.mine') !== null")
        click(ben, "[data-move=draw]")
        wait(ben, "[data-move=pass]")
        click(ben, "[data-move=pass]")

        # 6. The bot draws. 7. Ann, at two cards, sees the UNO button but forgets it.
        ann.wait_for_function("()=>document.querySelector('.status.mine') !== null",
                              timeout=15_000)
        assert ann.locator("[data-action=uno]").count() == 1
        click(ann, ".hand button.card[data-card='G2']")
        # Ben catches her: she draws two.
        wait(ben, "button.catch")
        click(ben, "button.catch")
        ann.wait_for_function("()=>document.querySelectorAll('.hand button.card').length==3")
        assert room.game is not None
        assert (1, "catch 0") in [(seat, str(move)) for seat, move in room.game.history]

        # Then both play the round out through the UI.
        state = {"uno": 0}
        deadline = time.monotonic() + 120
        while not all(page.locator(".round-dialog").count() for page in (ann, ben)):
            assert time.monotonic() < deadline, "the round did not finish"
            moved = False
            for page in (ann, ben):
                try:
                    moved = step(page, state) or moved
                except Exception:  # the page re-rendered under the click: look again
                    moved = True
            if not moved:
                time.sleep(0.15)
        shot(ann, f"round-end-{ann_tag}")
        shot(ben, f"round-end-{ben_tag}")
        assert room.game.winner is not None
        assert ann.locator(".round-table tbody tr").count() == 3
        moves = [(seat, str(move)) for seat, move in room.game.history]
        assert any(seat in (0, 1) and move == "uno" for seat, move in moves), moves
        assert state["uno"] >= 1

        # The scoreboard and the next round: Ann's press closes only her scoreboard;
        # the round is dealt once Ben has pressed it too.
        click(ann, "[data-action=next-round]")
        wait(ann, ".waiting-next")
        assert ann.locator(".round-dialog").count() == 0
        assert ben.locator(".round-dialog").count() == 1
        shot(ann, f"waiting-next-{ann_tag}")
        click(ben, "[data-action=next-round]")
        wait(ann, ".hand button.card")
        wait(ben, ".hand button.card")
        click(ann, "[data-action=scores]")
        wait(ann, ".score-table")
        assert ann.locator(".score-table tbody tr").count() == 1
        click(ann, "[data-action=close-dialog]")
        # The rules page, in the page's language.
        click(ben, "[data-action=rules]")
        wait(ben, ".rules")
        shot(ben, f"rules-{ben_tag}")
        assert errors == []


# House rules: seven-zero, jump-in, stacking and the Wild Customizable's "discard a colour".
HOUSE_HANDS = (["R+2", "R7", "WC", "RS", "G5"], ["B+2", "R3", "Y1", "Y2", "Y3"],
               ["G1", "G2", "G4", "B1", "B4"])


def house_deck() -> list[str]:
    deck = [HOUSE_HANDS[seat][i] for i in range(5) for seat in range(3)] + ["R3"]
    rest = [card_code(card) for card in full_deck()]
    for code in deck:
        rest.remove(code)
    random.Random(9).shuffle(rest)
    return deck + rest


def test_house_rule_controls(browser: Any) -> None:
    rules = {"seven_zero": True, "jump_in": True, "stacking": True,
             "custom_rule": "discard_color", "hand_size": 5}
    with ServerThread(timing=Timing(think=0.25, reaction_scale=30.0)) as server:
        ann = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
        ben = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        ann.goto(server.url + "/")
        wait(ann, "#player-name")
        ann.fill("#player-name", "Ann")
        ann.fill("#seats", "3")
        ann.locator("details summary").click()
        for option in ("seven_zero", "jump_in", "stacking"):
            ann.check(f"#rule-{option}")
        ann.fill("#rule-hand_size", "5")
        ann.select_option("#rule-custom_rule", "discard_color")
        click(ann, "form[data-form=create] button[type=submit]")
        wait(ann, "[data-testid=room-code]")
        code = ann.locator("[data-testid=room-code]").inner_text().replace(" ", "")
        room = server.manager.rooms[code]
        assert room.rules_dict == rules  # the form sent every house rule
        room.deal = {"dealer": 2, "deck": house_deck(), "seed": 3}
        ben.goto(f"{server.url}/r/{code}")
        wait(ben, "#player-name")
        ben.fill("#player-name", "Ben")
        click(ben, "form[data-form=join-named] button[type=submit]")
        ann.wait_for_function("()=>document.querySelectorAll('.seat-row:not(.empty)').length==2")
        ann.select_option("#bot-level", "random")
        click(ann, "[data-action=add-bot]")
        ann.wait_for_function("()=>document.querySelectorAll('.seat-row:not(.empty)').length==3")
        click(ann, "[data-action=start]")
        wait(ann, ".hand button.card")
        wait(ben, ".hand button.card")

        # Jump-in: Ben holds the top card (R3) although it is Ann's turn.
        assert ben.locator(".hand button.card.playable[data-card='R3']").count() == 1
        assert ben.locator(".hand button.card.playable").count() == 1
        # Seven-zero: a 7 asks with whom to swap.
        click(ann, ".hand button.card[data-card='R7']")
        wait(ann, ".seat-choice")
        assert ann.locator(".seat-choice").count() == 2
        click(ann, "[data-action=close-dialog]")
        # Discard a colour: the colour, then the colour to discard.
        click(ann, ".hand button.card[data-card='WC']")
        click(ann, ".color-choice[data-color=Y]")
        wait(ann, ".color-dialog")
        assert "Discard every card" in ann.locator(".dialog h2").inner_text()
        click(ann, "[data-action=close-dialog]")
        assert room.game is not None and len(room.game.history) == 0

        # Stacking: Ann plays a Draw Two; Ben may pass it on or draw the stack.
        click(ann, ".hand button.card[data-card='R+2']")
        ben.wait_for_function("()=>document.querySelector('.status.mine') !== null")
        assert "Draw 2" in ben.locator(".actions").inner_text()
        assert ben.locator(".hand button.card.playable[data-card='B+2']").count() == 1
        click(ben, ".hand button.card[data-card='B+2']")
        # The bot has no Draw Two: it takes the stack of four.
        ann.wait_for_function("()=>document.querySelector('.status.mine') !== null",
                              timeout=15_000)
        assert room.game.hand_sizes()[2] == 9

        # Ann's Wild Customizable: blue... then discard her greens.
        click(ann, ".hand button.card[data-card='WC']")
        click(ann, ".color-choice[data-color=R]")
        click(ann, ".color-choice[data-color=G]")
        ann.wait_for_function("()=>document.querySelectorAll('.hand button.card').length==2")
        history = [(seat, str(move)) for seat, move in room.game.history]
        assert history[:4] == [(0, "play R+2"), (1, "play B+2"), (2, "draw"),
                               (0, "play WC R G")]
        shot(ann, "house-rules-en-desktop")

        # Someone with only the room code watches: every hand stays hidden.
        cam = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        cam.goto(f"{server.url}/r/{code}")
        click(cam, "[data-action=watch]")
        wait(cam, ".opponent")
        assert cam.locator(".opponent").count() == 3
        assert cam.locator(".hand button.card").count() == 0
        assert "watching" in cam.locator("main").inner_text()
        hidden = {card for seat in range(3) for card in room.game.hand(seat)}
        shown = set(cam.locator("[data-card]").evaluate_all(
            "cards => cards.map(c => c.dataset.card)"))
        assert not shown & hidden

        # Ben reloads his page: the token in the browser puts him back in his seat.
        before = sorted(ben.locator(".hand button.card").evaluate_all(
            "cards => cards.map(c => c.dataset.card)"))
        ben.reload()
        wait(ben, ".hand button.card")
        after = sorted(ben.locator(".hand button.card").evaluate_all(
            "cards => cards.map(c => c.dataset.card)"))
        assert after == before == sorted(room.game.hand(1))
        # Keyboard: Tab reaches the cards, Enter plays the focused one.
        ben.locator(".hand button.card").first.focus()
        for _ in range(4):
            if ben.evaluate("document.activeElement.dataset.card") == "R3":
                break
            ben.keyboard.press("Tab")
        assert ben.evaluate("document.activeElement.dataset.card") == "R3"
        ben.keyboard.press("Enter")
        ann.wait_for_function("()=>document.querySelector('.discard svg') !== null")
        deadline = time.monotonic() + 10
        while (1, "play R3") not in [(seat, str(move)) for seat, move in room.game.history]:
            assert time.monotonic() < deadline, "Enter did not play the card"
            time.sleep(0.1)
