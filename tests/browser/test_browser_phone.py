"""The browser game on phones (issue 10): the numbered problems, each shown in Chromium.

Debian's /usr/bin/chromium by its path, as in test_browser_play.py; nothing downloaded.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from test_browser_play import click, pytestmark, wait
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


NUMBER_HANDS = [["R1", "R2", "G4", "G5", "B6", "Y7", "B2"],
                ["Y1", "G2", "B3", "Y4", "G6", "B7", "R9"]]
"""Numbers only, every colour in both hands: dealt by seat 1 on R3, each seat plays a
number, so no dialog (a colour to choose, a Wild Draw Four to answer) covers the table in
the first turns, as one can after a random deal."""


def create_room(page: Any, url: str, name: str, seats: int, *, fill: bool = False,
                rules: dict[str, Any] | None = None, lang: str = "en", timer: int = 0) -> str:
    page.goto(url + "/")
    wait(page, "#player-name")
    if lang == "th" and page.locator("html").get_attribute("lang") != "th":
        click(page, "[data-action=lang]")
        page.wait_for_function("()=>document.documentElement.lang==='th'")
    page.fill("#player-name", name)
    page.fill("#seats", str(seats))
    if not fill:
        page.select_option("#fill", "")
    if timer:
        page.select_option("#timer", str(timer))
    if rules:
        page.locator("details summary").first.click()
        for key, value in rules.items():
            if isinstance(value, str):
                page.select_option(f"#rule-{key}", value)
            elif isinstance(value, bool):
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
        tmp_path: Path, browser: Any) -> None:
    db = tmp_path / "uno.sqlite"
    timing = Timing(think=0.0, reaction_scale=0.0)
    hands = [["R5", "R6", "R7", "R8", "R9", "B1", "B2"], ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7"]]
    first = ServerThread(db, timing=timing)
    port = first.port
    with first as server:
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


def test_a_refused_card_says_why_in_english_and_thai(browser: Any) -> None:
    hands = [["R5", "R6", "R7", "R8", "R9", "B1", "B2"], ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7"]]
    with ServerThread() as server:
        for lang, parts in (("en", ["Blue 1 does not match: play a Red card or one like Red 3"]),
                            ("th", ["ไม่ตรง", "แดง"])):
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
            assert "(R4.2)" not in text  # a rule's number means nothing to a family (issue 24)
            page.context.close()


def test_a_wild_draw_four_on_a_draw_two_stack_says_why(browser: Any) -> None:
    # Dealer Ann (seat 0): the bot plays first, and it has only Draw Twos to play on red.
    bot = ["R+2", "Y+2", "Y+2", "G+2", "G+2", "B+2", "B+2"]
    ann = ["W+4", "R5", "R6", "G7", "G8", "B1", "B2"]
    with ServerThread() as server:
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


def start_dealt(page: Any, server: Any, code: str, hands: list[list[str]], first: str,
                dealer: int) -> None:
    server.manager.rooms[code].deal = {"dealer": dealer, "deck": stacked(hands, first),
                                       "seed": 1}
    click(page, "[data-action=start]")
    wait(page, ".hand button.card")


def test_being_hit_by_a_draw_two_is_announced(browser: Any) -> None:
    bot = ["R+2", "Y+2", "Y+2", "G+2", "G+2", "B+2", "B+2"]
    ann = ["W+4", "R5", "R6", "G7", "G8", "B1", "B2"]
    with ServerThread(timing=Timing(think=1.0)) as server:
        page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        code = create_room(page, server.url, "Ann", 2)
        add_bot(page)
        start_dealt(page, server, code, [bot, ann], "R3", dealer=0)
        toast_text(page, "You draw 2! +2")
        # At least the two drawn (the bot's next Draw Two may follow a second later: on a
        # loaded machine the page may be first looked at after it).
        page.wait_for_function("()=>document.querySelectorAll('.hand button.card').length>=9")
        page.context.close()


# ---------------------------------------------------------------- 2. the invite link


def test_an_invite_link_to_this_computer_only_says_so_and_a_network_link_has_its_qr(
        browser: Any) -> None:
    with ServerThread() as server:
        for lang, words in (("en", "this computer only"), ("th", "เครื่องนี้เท่านั้น")):
            page = browser.new_context(viewport=PHONE).new_page()
            create_room(page, server.url, "Ann", 2, lang=lang)
            note = page.locator(".local-only")
            assert words in note.inner_text()
            assert "uno serve --lan" in note.inner_text()
            assert not page.locator("img.qr").count()
            page.context.close()
    with ServerThread(lan_url="http://192.168.1.20:8000") as server:
        page = browser.new_context(viewport=PHONE).new_page()
        create_room(page, server.url, "Ann", 2)
        assert page.locator("#invite").input_value().startswith("http://192.168.1.20:8000/r/")
        assert page.locator("img.qr").count() == 1 and not page.locator(".local-only").count()
        page.context.close()


# ---------------------------------------------------------------- 3. the hand on phones


def hand_boxes(page: Any) -> list[dict[str, float]]:
    return list(page.evaluate("""() => [...document.querySelectorAll('.hand button.card')]
        .map((b) => { const r = b.getBoundingClientRect();
                      return {x: r.left, y: r.top, w: r.width, h: r.height,
                              right: r.right, bottom: r.bottom}; })"""))


def visible_parts(page: Any) -> list[float]:
    """For each card, the width of its part not covered by the next card."""
    boxes = hand_boxes(page)
    parts = []
    for index, box in enumerate(boxes):
        later = [b for b in boxes[index + 1:] if abs(b["y"] - box["y"]) < 2]
        parts.append(min([b["x"] for b in later] + [box["right"]]) - box["x"])
    return parts


TWELVE = [["B7", "R1", "WS", "G4", "Y9", "R8", "B+2", "G0", "Y2", "W", "RS", "B3"],
          ["Y1", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "G1", "G2", "G3", "G5", "G6"]]


def dealt_hand(browser: Any, server: Any, viewport: dict[str, int], hands: list[list[str]],
               first: str) -> Any:
    """A page of Ann (seat 0, to play first) against a slow bot, dealt ``hands``."""
    page = browser.new_context(viewport=viewport, locale="en-US").new_page()
    size = len(hands[0])
    code = create_room(page, server.url, "Ann", 2, fill=True, rules={"hand_size": size})
    server.manager.rooms[code].deal = {"dealer": 1, "deck": stacked(hands, first), "seed": 1}
    click(page, "[data-action=start]")
    page.wait_for_function(f"()=>document.querySelectorAll('.hand button.card').length==={size}")
    page.wait_for_timeout(500)
    return page


def test_twelve_cards_at_360_fit_without_sideways_scrolling_sorted_with_44px_targets(
        browser: Any) -> None:
    with ServerThread(timing=Timing(think=30.0)) as server:
        page = dealt_hand(browser, server, PHONE, TWELVE, "R3")
        widths = page.evaluate("""() => { const h = document.querySelector('.hand');
            return [h.scrollWidth, h.clientWidth, document.documentElement.scrollWidth]; }""")
        assert widths[0] <= widths[1] and widths[2] <= 360, widths
        for box in hand_boxes(page):
            assert box["w"] >= 44 and box["h"] >= 44, box
            assert box["x"] >= 0 and box["right"] <= 360, box
            assert box["y"] >= 0 and box["bottom"] <= 740, box  # on screen, no scrolling
        assert min(visible_parts(page)) >= 44
        codes = [page.locator(".hand button.card").nth(i).get_attribute("data-card")
                 for i in range(12)]
        colours = ["RYGBW".index(code[0]) for code in codes]
        assert colours == sorted(colours), codes
        click(page, "[data-action=sort]")  # as dealt
        page.wait_for_function("()=>document.querySelector('[data-action=sort]')"
                               ".getAttribute('aria-pressed')==='false'")
        page.context.close()


def test_eighteen_cards_at_360x740_stay_on_screen(browser: Any) -> None:
    deck = [card_code(c) for c in full_deck()]
    with ServerThread(timing=Timing(think=30.0)) as server:
        page = dealt_hand(browser, server, PHONE, [deck[:18], deck[18:36]], "G9")
        for box in hand_boxes(page):
            assert box["w"] >= 44 and box["h"] >= 44
            assert box["x"] >= 0 and box["right"] <= 360
            assert box["y"] >= 0 and box["bottom"] <= 740
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.context.close()


def test_landscape_phone_shows_the_hand_without_scrolling(browser: Any) -> None:
    with ServerThread(timing=Timing(think=30.0)) as server:
        page = dealt_hand(browser, server, LANDSCAPE, TWELVE, "R3")
        assert page.evaluate("window.scrollY") == 0
        for box in hand_boxes(page):
            assert box["h"] >= 44 and box["w"] >= 44
            assert box["y"] >= 0 and box["bottom"] <= 390, box
        assert page.evaluate("document.documentElement.scrollWidth") <= 844
        page.context.close()


# ---------------------------------------------------------------- 4. players in play order


def test_players_sit_in_play_order_and_the_next_one_is_marked(browser: Any) -> None:
    with ServerThread(timing=Timing(think=30.0)) as server:
        page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        code = create_room(page, server.url, "Ann", 4, fill=True)
        hands = [[f"{c}{n}" for n in range(1, 8)] for c in "RYGB"]
        # Dealer seat 3: Ann (seat 0) plays first; clockwise, seat 1 plays next.
        server.manager.rooms[code].deal = {"dealer": 3, "deck": stacked(hands, "R0"), "seed": 1}
        click(page, "[data-action=start]")
        wait(page, ".status.mine")
        seats = page.evaluate("()=>[...document.querySelectorAll('.opponent')]"
                              ".map((li)=>Number(li.dataset.seat))")
        assert seats == [1, 2, 3]
        assert page.locator(".opponent.next").get_attribute("data-seat") == "1"
        assert "next" in page.locator(".opponent.next").inner_text()
        page.context.close()


# ---------------------------------------------------------------- 7, 8. the small things


def test_the_uno_button_shows_that_uno_was_said(browser: Any) -> None:
    with ServerThread(timing=Timing(think=30.0)) as server:
        page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        code = create_room(page, server.url, "Ann", 2, rules={"hand_size": 2})
        add_bot(page)
        start_dealt(page, server, code, [["R5", "R6"], ["Y1", "Y2"]], "R3", dealer=1)
        wait(page, ".status.mine")
        click(page, "[data-action=uno]")
        wait(page, ".uno-btn.said")
        button = page.locator(".uno-btn.said")
        assert "said" in button.inner_text() and button.get_attribute("aria-pressed") == "true"
        assert button.is_disabled()
        page.context.close()


def test_blank_names_are_numbered_not_all_player(browser: Any) -> None:
    with ServerThread() as server:
        ann = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        code = create_room(ann, server.url, "", 3)
        join_room(browser.new_context(viewport=PHONE, locale="en-US").new_page(),
                  server.url, code, "  ")
        ann.wait_for_function("()=>document.querySelectorAll('.seat-row:not(.empty)').length==2")
        names = ann.locator(".seat-name").all_inner_texts()
        assert names[0].startswith("Player 1") and names[1].startswith("Player 2"), names


def test_play_again_keeps_the_scoreboard_of_the_match_before(browser: Any) -> None:
    with ServerThread(timing=Timing(think=30.0, next_round=60.0)) as server:
        page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        code = create_room(page, server.url, "Ann", 2,
                           rules={"hand_size": 1, "target_score": 1})
        add_bot(page)
        start_dealt(page, server, code, [["R5"], ["Y1"]], "R3", dealer=1)
        click(page, ".hand button.card[data-card=R5]")
        wait(page, "[data-action=rematch]")
        click(page, "[data-action=rematch]")
        page.wait_for_function("()=>!document.querySelector('.round-dialog')")
        click(page, "[data-action=scores]")
        dialog = page.locator(".scores-dialog")
        dialog.wait_for()
        assert "Earlier matches in this room" in dialog.inner_text()
        assert "Match 1" in dialog.inner_text() and "won by Ann" in dialog.inner_text()
        # The dialog only shows: its one button says Close, and it closes.
        assert dialog.locator("button").all_inner_texts()[-1] == "Close"
        click(page, ".scores-dialog [data-action=close-dialog]")
        page.wait_for_function("()=>!document.querySelector('.scores-dialog')")
        assert len(server.manager.rooms[code].matches) == 1
        page.context.close()


def test_link_copied_does_not_cover_start_and_leave_asks_first(browser: Any) -> None:
    with ServerThread(timing=Timing(think=30.0)) as server:
        context = browser.new_context(viewport=PHONE, locale="en-US")
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        page = context.new_page()
        create_room(page, server.url, "Ann", 2, fill=True)
        click(page, "[data-action=copy]")
        toast_text(page, "Link copied")
        page.wait_for_timeout(400)
        start = page.locator("[data-action=start]")
        start.scroll_into_view_if_needed()
        a = page.locator("#toast").bounding_box()  # what the eye sees (#live: a reader)
        b = start.bounding_box()
        assert a and b
        overlap = a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] \
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]
        assert not overlap, (a, b)
        start.click()
        wait(page, ".hand button.card")
        if page.locator(".color-choice").count():  # a Wild turned first, Ann's to colour
            click(page, ".color-choice >> nth=0")
            page.wait_for_function("()=>!document.querySelector('.color-choice')")
        click(page, "[data-action=leave]")
        wait(page, ".leave-dialog")
        click(page, "[data-action=leave-no]")
        page.wait_for_function("()=>!document.querySelector('.leave-dialog')")
        assert page.locator(".game").count() == 1
        click(page, "[data-action=leave]")
        click(page, "[data-action=leave-yes]")
        wait(page, ".home")
        context.close()


def test_reconnecting_keeps_the_top_bar_on_one_line_at_360(tmp_path: Path, browser: Any) -> None:
    first = ServerThread(tmp_path / "uno.sqlite")
    with first as server:
        pages = []
        for lang in ("en", "th"):
            page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
            create_room(page, server.url, "Ann", 2, lang=lang)
            pages.append((page, page.locator(".topbar").bounding_box()["height"]))
        first.__exit__(None, None, None)
        for page, height in pages:
            wait(page, ".offline")
            assert page.locator(".topbar").bounding_box()["height"] <= height + 1
            assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_ten_seats_fit_a_desktop_and_open_at_the_top(browser: Any) -> None:
    with ServerThread(timing=Timing(think=30.0)) as server:
        page = browser.new_context(viewport={"width": 1366, "height": 768},
                                   locale="en-US").new_page()
        create_room(page, server.url, "Ann", 10, fill=True)
        click(page, "[data-action=start]")
        page.wait_for_function("()=>document.querySelectorAll('.opponent').length===9")
        page.wait_for_timeout(400)
        assert page.evaluate("window.scrollY") == 0
        assert page.evaluate("document.documentElement.scrollHeight") <= 768
        page.context.close()


def test_a_spectator_is_not_promised_a_round_that_nobody_starts(browser: Any) -> None:
    with ServerThread(timing=Timing(think=30.0, next_round=60.0)) as server:
        page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        code = create_room(page, server.url, "Ann", 2, rules={"hand_size": 1})
        add_bot(page)
        start_dealt(page, server, code, [["R5"], ["Y1"]], "R3", dealer=1)
        watcher = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        watcher.goto(f"{server.url}/r/{code}")
        click(watcher, "[data-action=watch]")
        wait(watcher, ".game")
        click(page, ".hand button.card[data-card=R5]")
        wait(watcher, ".round-dialog")
        text = watcher.locator(".round-dialog").inner_text()
        assert "starts soon" not in text and "when the players are ready" in text


def test_the_custom_card_says_its_number_and_whom_it_hit(browser: Any) -> None:
    with ServerThread(timing=Timing(think=30.0)) as server:
        page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        code = create_room(page, server.url, "Ann", 2,
                           rules={"custom_count": 3, "custom_rule": "chosen_draw"})
        add_bot(page)
        start_dealt(page, server, code, [["WC", "R5", "R6"], ["Y1", "Y2", "Y3"]], "R3",
                    dealer=1)
        click(page, ".hand button.card[data-card=WC]")
        click(page, ".color-choice[data-color=G]")
        toast_text(page, "Wild Customizable", "draws 3 (", "Bot 1)")
        click(page, "[data-action=log]")
        log = page.locator(".log").inner_text()
        assert "draws 3 (" in log and "draws N" not in log, log
        page.context.close()


# ---------------------------------------------------------------- presets, sound


def test_the_party_preset_sets_its_house_rules_and_the_mute_switch_is_remembered(
        browser: Any) -> None:
    with ServerThread() as server:
        page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        page.goto(server.url + "/")
        wait(page, "#player-name")
        page.fill("#player-name", "Ann")
        click(page, "[data-action=preset][data-preset=party]")
        page.wait_for_function("()=>document.querySelector('[data-preset=party]')"
                               ".getAttribute('aria-pressed')==='true'")
        assert "Stacking + 7-0 swaps + jump-in" in page.locator("form.create").inner_text()
        click(page, "form[data-form=create] button[type=submit]")
        wait(page, "[data-testid=room-code]")
        code = page.locator("[data-testid=room-code]").inner_text().replace(" ", "")
        rules = server.manager.rooms[code].rules
        assert rules.stacking and rules.seven_zero and rules.jump_in and rules.challenge
        click(page, "[data-action=mute]")
        page.wait_for_function("()=>document.querySelector('[data-action=mute]')"
                               ".getAttribute('aria-pressed')==='true'")
        page.reload()
        wait(page, "[data-action=mute]")
        assert page.locator("[data-action=mute]").get_attribute("aria-pressed") == "true"
        page.context.close()


def test_players_send_fixed_reactions_rate_limited(browser: Any) -> None:
    with ServerThread(timing=Timing(think=30.0)) as server:
        ann = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        code = create_room(ann, server.url, "Ann", 2)
        ben = browser.new_context(viewport=PHONE, locale="th-TH").new_page()
        join_room(ben, server.url, code, "Ben")
        ann.wait_for_function("()=>document.querySelectorAll('.seat-row:not(.empty)').length==2")
        start_dealt(ann, server, code, NUMBER_HANDS, "R3", dealer=1)
        wait(ben, ".hand button.card")
        click(ann, "[data-action=emotes]")
        click(ann, "[data-action=emote][data-emote=nice]")
        wait(ben, ".opponent[data-seat='0'] .emote-bubble")
        assert ben.locator(".emote-bubble").inner_text() in ("Nice!", "เยี่ยม!")
        click(ann, "[data-action=emotes]")
        click(ann, "[data-action=emote][data-emote=gg]")
        toast_text(ann, "One reaction every two seconds")
        ann.context.close()
        ben.context.close()
