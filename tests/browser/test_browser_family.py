"""The game a family plays on its phones (issue 24, browser items 3-8), each in Chromium.

Debian's /usr/bin/chromium by its path, as in test_browser_play.py; nothing downloaded.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from lighthouse_support import npm_packages
from test_browser_phone import PHONE, add_bot, create_room, stacked, start_dealt
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
        assert "wait 3.5 seconds" in page.locator(".active-rules").inner_text()
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


# ---------------------------------------------------------------- 5. calm phone screens

TOAST_WATCH = """() => {
  window.__toasts = [];
  const overlaps = (a, b) => a.left < b.right && b.left < a.right
    && a.top < b.bottom && b.top < a.bottom;
  const look = () => {
    const toast = document.getElementById('toast');
    if (!toast || !toast.classList.contains('show') || !toast.textContent) return;
    if (window.__lastToast === toast.textContent) return;
    window.__lastToast = toast.textContent;
    requestAnimationFrame(() => requestAnimationFrame(() => {  // once it stands still
      const box = toast.getBoundingClientRect();
      const covered = [...document.querySelectorAll('.opponent, .hand button.card')]
        .filter((el) => overlaps(box, el.getBoundingClientRect()))
        .map((el) => el.dataset.seat ?? el.dataset.card);
      const line = parseFloat(getComputedStyle(toast).lineHeight);
      window.__toasts.push({text: toast.textContent, covered, lines: Math.round(
        (toast.scrollHeight - parseFloat(getComputedStyle(toast).paddingTop) * 2) / line)});
    }));
  };
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true,
    characterData: true, attributes: true, attributeFilter: ['class']});
}"""


def test_surprise_toasts_are_short_queued_and_cover_no_player_nor_the_hand(browser: Any) -> None:
    from test_browser_surprises import said, tap, three_at_the_table

    hands = [["R5", "B9", "B8"], ["WC", "G2", "G3"], ["Y1", "Y2", "Y3"]]
    rules = {"hand_size": 3, "custom_rule": "chosen_draw", "custom_count": 3}
    with three_at_the_table(browser, hands, rules) as (_server, ann, ben, _cat):
        for watched in (ann, ben):
            watched.page.evaluate(TOAST_WATCH)
        tap(ann, ".hand button.card[data-card=R5]")
        tap(ben, ".hand button.card[data-card=WC]")
        tap(ben, ".color-choice[data-color=G]")
        ben.page.locator(".seat-choice", has_text="Ann").click()
        said(ann, "Ben played the Wild Customizable", "Ann (you)")  # in full for a reader
        for watched, wanted in ((ann, ["Ben played the Wild Customizable on Ann (you)!",
                                       "You draw 3! +3"]),
                                (ben, ["Ben (คุณ) ลงไพ่ไวลด์กำหนดเองใส่ Ann!",
                                       "Ann จั่ว 3 ใบ! +3"])):
            watched.page.wait_for_function(
                "(n)=>window.__toasts.length>=n", arg=len(wanted), timeout=10_000)
            shown = watched.page.evaluate("window.__toasts")
            assert [toast["text"] for toast in shown][-2:] == wanted, shown  # one at a time
            for toast in shown:
                assert toast["covered"] == [], toast
                assert toast["lines"] <= 2, toast


# ---------------------------------------------------------------- 6. names at ten seats

NAMES_FIT = """() => [...document.querySelectorAll('.opponent')].map((chip) => {
  const inside = (el) => { const a = el.getBoundingClientRect(), b = chip.getBoundingClientRect();
    return a.left >= b.left - 1 && a.right <= b.right + 1 && a.top >= b.top - 1
      && a.bottom <= b.bottom + 1 && a.width > 0; };
  const name = chip.querySelector('.nm');
  return {seat: chip.dataset.seat, name: name.textContent,
    cut: name.scrollWidth > name.clientWidth + 1 || name.scrollHeight > name.clientHeight + 1,
    outside: [name, ...chip.querySelectorAll('.op-flags > *')].filter((el) => !inside(el))
      .map((el) => el.textContent),
    clipped: [...chip.querySelectorAll('button')].filter((b) => b.scrollWidth > b.clientWidth + 1)
      .map((b) => b.textContent)};
})"""


def test_names_are_whole_at_ten_seats_on_a_360_phone_in_both_languages(browser: Any) -> None:
    from test_browser_phone import join_room

    with ServerThread(timing=Timing(think=60.0)) as server:
        for lang in ("en", "th"):
            page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
            code = create_room(page, server.url, "Somchai", 10, fill=True, lang=lang)
            guests = []
            for name in ("Grandma Lee", "สมหญิง ใจดี", "Ben"):
                guest = browser.new_context(viewport=PHONE, locale="en-US").new_page()
                join_room(guest, server.url, code, name)
                guests.append(guest)
            click(page, "[data-action=start]")
            wait(page, ".hand button.card")
            guests[1].context.close()  # offline: the host may let a bot play for her
            wait(page, "[data-action=hand-to-bot]")
            page.wait_for_timeout(300)
            chips = page.evaluate(NAMES_FIT)
            assert len(chips) == 9
            for chip in chips:
                assert not chip["cut"] and not chip["outside"] and not chip["clipped"], chip
            page.context.close()
            for guest in guests:
                guest.context.close()


# ---------------------------------------------------------------- 7. the small items


def test_blank_names_are_numbered_by_who_joined_not_by_seat(browser: Any) -> None:
    from test_browser_phone import join_room

    with ServerThread() as server:
        ann = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        code = create_room(ann, server.url, "", 3)
        add_bot(ann)  # seat 2 is a bot's: the next person is still the second
        guest = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        join_room(guest, server.url, code, "  ")
        ann.wait_for_function("()=>document.querySelectorAll('.seat-row:not(.empty)').length==3")
        names = ann.locator(".seat-name").all_inner_texts()
        assert names[0].startswith("Player 1") and names[2].startswith("Player 2"), names
        click(ann, "[data-action=lang]")
        ann.wait_for_function("()=>document.documentElement.lang==='th'")
        names = ann.locator(".seat-name").all_inner_texts()
        assert names[0].startswith("ผู้เล่น 1") and names[2].startswith("ผู้เล่น 2"), names
        ann.context.close()
        guest.context.close()


def test_the_custom_card_s_target_dialog_says_what_the_target_is_for(browser: Any) -> None:
    with ServerThread(timing=Timing(think=30.0)) as server:
        page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        code = create_room(page, server.url, "Ann", 3, fill=True,
                           rules={"hand_size": 2, "custom_rule": "chosen_draw",
                                  "custom_count": 3})
        start_dealt(page, server, code, [["WC", "R6"], ["Y1", "Y2"], ["G1", "G2"]], "R3",
                    dealer=2)
        click(page, ".hand button.card[data-card=WC]")
        click(page, ".color-choice[data-color=R]")
        wait(page, ".seat-choice")
        title = page.locator("#dialog-title").inner_text()
        assert title == "Wild Customizable: choose the player it acts on", title
        purpose = page.locator("[data-testid=target-purpose]").inner_text()
        assert "3" in purpose and "draw" in purpose, purpose
        page.context.close()


def test_no_said_uno_under_an_empty_hand_keys_in_the_help_and_an_eight_character_hint(
        browser: Any) -> None:
    with ServerThread(timing=Timing(think=0.2, reaction_scale=0.0, next_round=60.0)) as server:
        page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        page.goto(server.url + "/")
        wait(page, "#join-code")
        placeholder = page.locator("#join-code").get_attribute("placeholder") or ""
        assert len([c for c in placeholder if (c.isascii() and c.isupper()) or c.isdigit()]) \
            == 8, placeholder
        code = create_room(page, server.url, "Ann", 2, rules={"hand_size": 2})
        add_bot(page)
        start_dealt(page, server, code, [["R5", "R6"], ["G1", "G2"]], "R3", dealer=1)
        click(page, "[data-action=rules]")
        keys = page.locator("[data-testid=keys-help]").inner_text()
        assert "U: say UNO!" in keys and "D: draw a card" in keys, keys
        click(page, "[data-action=close-rules]")
        click(page, "[data-action=uno]")  # armed: the next card is played with UNO
        click(page, ".hand button.card[data-card=R5]")
        wait(page, ".uno-btn.said")
        page.wait_for_function("()=>document.querySelector('.status.mine')", timeout=15_000)
        click(page, ".hand button.card[data-card=R6]")
        wait(page, ".round-dialog")
        assert page.locator(".uno-btn.said").count() == 0
        assert page.locator(".hand-head .tag.uno").count() == 0
        page.context.close()


AXE_FILES = [Path(__file__).parent / "node" / "node_modules" / "axe-core" / "axe.min.js"]
"""axe-core, installed by npm next to the browser tests (tests/browser/node)."""


def axe_source() -> str:
    found = [path for path in [*AXE_FILES, Path(os.environ.get("UNOGAME_AXE", "/nonexistent"))]
             if path.is_file()]
    if not found:
        # The pinned packages install on first use (npm ci, about 10 s); skip only without npm.
        reason = npm_packages()
        if reason is not None:
            pytest.skip(f"axe-core is not installed: {reason}")
        found = [path for path in AXE_FILES if path.is_file()]
    return found[0].read_text()


def serious_violations(page: Any, axe: str) -> list[dict[str, Any]]:
    page.evaluate(axe + "\n;0")
    # With the experimental rules too (label text matching the visible text is one).
    found = page.evaluate("""async () => (await axe.run(document, {runOnly: {type: 'tag',
          values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice', 'experimental']}}))
        .violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({id: v.id, nodes: v.nodes.map((n) => n.target.join(' '))}))""")
    return list(found)


@pytest.mark.parametrize("lang", ["en", "th"])
def test_axe_finds_no_serious_violation_on_any_screen(lang: str, browser: Any) -> None:
    axe = axe_source()
    with ServerThread(timing=Timing(think=30.0, next_round=60.0)) as server:
        page = browser.new_context(viewport=PHONE, locale="en-US", bypass_csp=True).new_page()
        page.goto(server.url + "/")
        wait(page, "#player-name")
        assert serious_violations(page, axe) == []
        code = create_room(page, server.url, "Ann", 2, lang=lang, rules={"hand_size": 1})
        add_bot(page)
        assert serious_violations(page, axe) == []  # the lobby
        start_dealt(page, server, code, [["R5"], ["Y1"]], "R3", dealer=1)
        wait(page, ".status.mine")
        assert page.locator("h1").count() == 1  # the table has a heading
        assert serious_violations(page, axe) == []  # the table
        click(page, ".hand button.card[data-card=R5]")
        wait(page, ".round-dialog")
        page.wait_for_timeout(400)
        assert serious_violations(page, axe) == []  # the round's end
        page.context.close()


# ---------------------------------------------------------------- 8. warmth

WARMTH_WATCH = """() => {
  window.__flights = []; window.__shouts = [];
  new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) {
      if (!(node instanceof HTMLElement)) continue;
      if (node.classList.contains('flying-card')) {
        const frames = node.getAnimations()[0]?.effect?.getKeyframes() ?? [];
        window.__flights.push({kind: node.dataset.kind, seat: Number(node.dataset.seat),
          start: frames[0]?.transform ?? null, end: frames[frames.length - 1]?.transform ?? null});
      }
      if (node.classList.contains('uno-shout')) {
        window.__shouts.push({seat: Number(node.dataset.seat), text: node.textContent});
      }
    }
  }).observe(document.body, {childList: true});
}"""


def play_a_warm_game(page: Any, server: Any) -> None:
    """Ann plays R5, the bot R7; Ann says UNO with R6; the bot draws; Ann draws."""
    code = create_room(page, server.url, "Ann", 2, rules={"hand_size": 3})
    add_bot(page)
    start_dealt(page, server, code, [["R5", "R6", "B9"], ["R7", "Y2", "Y3"]], "R3", dealer=1)
    page.evaluate(WARMTH_WATCH)
    click(page, ".hand button.card[data-card=R5]")
    page.wait_for_function("()=>document.querySelector('.discard[data-key^=\"top-R7\"]')",
                           timeout=15_000)
    wait(page, ".status.mine")
    click(page, "[data-action=uno]")
    click(page, ".hand button.card[data-card=R6]")
    page.wait_for_function("()=>window.__shouts.length>0", timeout=5_000)
    page.wait_for_function("()=>document.querySelector('.status.mine')", timeout=15_000)
    click(page, ".actions button[data-move=draw]")
    page.wait_for_function("()=>window.__flights.some((f)=>f.kind==='draw'&&f.seat===0)"
                           "||document.querySelectorAll('.hand button.card').length===2",
                           timeout=5_000)


def test_cards_fly_to_the_pile_and_to_the_hand_and_uno_is_shouted(browser: Any) -> None:
    with ServerThread(timing=Timing(think=0.6, reaction_scale=0.0)) as server:
        page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        play_a_warm_game(page, server)
        page.wait_for_timeout(600)
        flights = page.evaluate("window.__flights")
        kinds = {(flight["kind"], flight["seat"]) for flight in flights}
        assert ("play", 1) in kinds, flights  # the bot's card: from its seat to the pile
        assert ("draw", 0) in kinds, flights  # Ann's drawn card: from the pile to her hand
        for flight in flights:
            assert flight["start"].startswith("translate(") and "scale(1)" in flight["end"]
        assert page.evaluate("window.__shouts")[0] == {"seat": 0, "text": "UNO!"}
        assert page.locator(".flying-card").count() == 0  # each lands and is gone
        page.context.close()


def test_with_reduced_motion_nothing_flies_but_uno_is_still_shouted(browser: Any) -> None:
    with ServerThread(timing=Timing(think=0.6, reaction_scale=0.0)) as server:
        page = browser.new_context(viewport=PHONE, locale="en-US",
                                   reduced_motion="reduce").new_page()
        play_a_warm_game(page, server)
        assert page.evaluate("window.__flights") == []
        assert page.evaluate("window.__shouts")[0]["seat"] == 0
        page.context.close()


def test_the_room_s_standings_show_wins_across_matches(browser: Any) -> None:
    with ServerThread(timing=Timing(think=30.0, next_round=60.0)) as server:
        page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        code = create_room(page, server.url, "Ann", 2, lang="th",
                           rules={"hand_size": 1, "target_score": 1})
        add_bot(page)
        start_dealt(page, server, code, [["R5"], ["Y1"]], "R3", dealer=1)
        click(page, ".hand button.card[data-card=R5]")  # Ann wins the first match
        wait(page, "[data-action=rematch]")
        assert page.locator("[data-testid=standings] li").all_inner_texts() == [
            "Ann: ชนะ 1 ครั้ง"]
        server.manager.rooms[code].deal = {"dealer": 1, "deck": stacked([["R5"], ["Y1"]], "R3"),
                                           "seed": 1}
        click(page, "[data-action=rematch]")
        click(page, ".hand button.card[data-card=R5]")  # and the second
        page.wait_for_function("()=>document.querySelector('[data-testid=standings] li')"
                               "?.textContent.includes('2')", timeout=10_000)
        standings = page.locator("[data-testid=standings] li").all_inner_texts()
        assert standings == ["Ann: ชนะ 2 ครั้ง"], standings
        page.context.close()


def test_a_one_point_round_says_point_not_points(browser: Any) -> None:
    """The round-over line was "scores 1 points" (the English plural for every number)."""
    with ServerThread(timing=Timing(think=0.2, reaction_scale=0.0, next_round=60.0)) as server:
        page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        code = create_room(page, server.url, "Ann", 2, rules={"hand_size": 2})
        add_bot(page)
        # Ann plays R5, the bot its only red card R1, Ann R6: the bot is left holding G1
        start_dealt(page, server, code, [["R5", "R6"], ["G1", "R1"]], "R3", dealer=1)
        click(page, "[data-action=uno]")
        click(page, ".hand button.card[data-card=R5]")
        page.wait_for_function("()=>document.querySelector('.status.mine')", timeout=15_000)
        click(page, ".hand button.card[data-card=R6]")
        wait(page, ".round-dialog")
        text = page.locator(".round-dialog").inner_text()
        assert "Ann (you) wins the round and scores 1 point." in text, text
        page.context.close()
