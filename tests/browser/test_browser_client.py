"""The client's shape in Chromium (issue 10): an update redraws only what changed (a card
under the finger stays the same element), the players sit around the table in seat order
with the next one marked and the direction shown, the winner gets a short celebration,
and the page keeps the screen awake during a game (Screen Wake Lock)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

import pytest
from test_browser_phone import NUMBER_HANDS, PHONE, create_room, join_room, start_dealt
from test_browser_play import click, pytestmark, wait
from test_server_support import ServerThread

from unogame.engine import card_code, full_deck
from unogame.server import Timing

__all__ = ["pytestmark"]


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    with ServerThread(timing=Timing(think=30.0, next_round=60.0)) as running:
        yield running


DESKTOP = {"width": 1366, "height": 768}
LANDSCAPE = {"width": 844, "height": 390}


def test_an_update_and_the_timer_leave_the_hand_cards_in_place(server: ServerThread,
                                                               browser: Any) -> None:
    """The page used to redraw everything on each message: a card tapped while a bot played
    was replaced under the finger ("html intercepts pointer events")."""
    hands = [["R5", "R6", "G7", "B1", "B2"], ["Y1", "Y2", "Y3", "Y4", "Y5"]]
    page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
    code = create_room(page, server.url, "Ann", 2, fill=True, timer=60,
                       rules={"hand_size": 5})
    start_dealt(page, server, code, hands, "R3", dealer=1)
    wait(page, ".turn-timer")
    page.evaluate("""() => {
        document.querySelectorAll('.hand button.card, .status, .ring')
            .forEach((e) => { e.kept = 1; });
        window.touched = [];
        new MutationObserver((list) => { for (const m of list) {
            const at = m.target.nodeType === 1 ? m.target : m.target.parentElement;
            if (!at.closest('[data-countdown]')) window.touched.push(at.className || at.tagName);
        } }).observe(document.getElementById('app'),
                     {subtree: true, childList: true, attributes: true, characterData: true});
        window.firstTick = document.querySelector('.turn-timer').textContent;
    }""")
    # Two ticks of the timer change its text and nothing else.
    page.wait_for_function("()=>{const n=parseInt(window.firstTick.match(/[0-9]+/)[0]);"
                           "const m=parseInt(document.querySelector('.turn-timer')"
                           ".textContent.match(/[0-9]+/)[0]); return m <= n - 2; }",
                           timeout=10_000)
    assert page.evaluate("window.touched") == []
    assert page.evaluate("document.querySelector('.status').kept") == 1
    click(page, "[data-move=draw]")  # an update: Ann draws a card
    page.wait_for_function("()=>document.querySelectorAll('.hand button.card').length===6")
    kept = page.evaluate("()=>[...document.querySelectorAll('.hand button.card')]"
                         ".map((b)=>[b.dataset.card, b.kept === 1])")
    assert sorted(card for card, same in kept if same) == sorted(hands[0]), kept
    assert [same for _, same in kept].count(False) == 1  # only the drawn card is new
    assert page.evaluate("document.querySelector('.ring').kept") == 1
    page.context.close()


def boxes(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("""() => {
        const box = (e) => { const r = e.getBoundingClientRect();
            return {x: r.left, y: r.top, right: r.right, bottom: r.bottom, w: r.width,
                    h: r.height}; };
        const seats = {};
        for (const li of document.querySelectorAll('.opponent')) {
            seats[li.dataset.seat] = {...box(li), name: box(li.querySelector('.nm')),
                                      font: parseFloat(getComputedStyle(li).fontSize)};
        }
        return {seats, table: box(document.querySelector('.ring > .table')),
                order: [...document.querySelectorAll('.opponent')]
                    .map((li) => Number(li.dataset.seat)),
                scrollW: document.documentElement.scrollWidth,
                scrollH: document.documentElement.scrollHeight};
    }"""))


def clockwise_from_bottom(seat: dict[str, float], table: dict[str, float]) -> float:
    """The angle of a seat around the table's middle, from the bottom (you), clockwise as
    seen on the screen: left a quarter, top a half, right three quarters."""
    dx = (seat["x"] + seat["right"]) / 2 - (table["x"] + table["right"]) / 2
    dy = (seat["y"] + seat["bottom"]) / 2 - (table["y"] + table["bottom"]) / 2
    return math.atan2(-dx, dy) % (2 * math.pi)


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["x"] < b["right"] - 1 and b["x"] < a["right"] - 1 \
        and a["y"] < b["bottom"] - 1 and b["y"] < a["bottom"] - 1


def check_around_the_table(page: Any, seats: int, viewport: dict[str, int]) -> dict[str, Any]:
    found = boxes(page)
    chips = [found["seats"][str(seat)] for seat in range(1, seats)]
    angles = [clockwise_from_bottom(chip, found["table"]) for chip in chips]
    assert angles == sorted(angles), angles  # seat order runs clockwise from your left
    assert angles[0] < math.pi < angles[-1] or seats == 2  # from the left over to the right
    for i, chip in enumerate(chips):
        assert chip["x"] >= 0 and chip["right"] <= viewport["width"], chip
        assert not overlap(chip, found["table"]), (i + 1, chip, found["table"])
        assert all(not overlap(chip, other) for other in chips[i + 1:]), (i + 1, chips)
        assert chip["name"]["w"] >= 40 and chip["font"] >= 12, chip  # readable on a phone
    assert found["scrollW"] <= viewport["width"]
    return found


@pytest.mark.parametrize("viewport", [
    pytest.param(PHONE, id="360x740"), pytest.param(DESKTOP, id="1366x768"),
    pytest.param(LANDSCAPE, id="844x390", marks=pytest.mark.slow)])
def test_four_players_sit_in_seat_order_and_a_reverse_turns_the_arrow(
        viewport: dict[str, int], server: ServerThread, browser: Any) -> None:
    hands = [["RR", "R5", "R6", "G7"], ["Y1", "Y2", "Y3", "Y4"], ["G1", "G2", "G3", "G4"],
             ["B1", "B2", "B3", "B4"]]
    page = browser.new_context(viewport=viewport, locale="en-US").new_page()
    code = create_room(page, server.url, "Ann", 4, fill=True, rules={"hand_size": 4})
    start_dealt(page, server, code, hands, "R3", dealer=3)  # Ann first, seat 1 next
    wait(page, ".status.mine")
    before = check_around_the_table(page, 4, viewport)
    assert before["order"] == [1, 2, 3]  # the list reads in play order
    assert page.locator(".opponent.next").get_attribute("data-seat") == "1"
    assert page.locator(".direction").get_attribute("data-direction") == "cw"
    click(page, ".hand button.card[data-card=RR]")
    wait(page, ".direction[data-direction=ccw]")
    page.wait_for_function("()=>document.querySelector('.opponent.turn')?.dataset.seat==='3'")
    assert page.locator(".opponent.next").get_attribute("data-seat") == "2"
    after = boxes(page)
    assert after["order"] == [3, 2, 1]  # play order now runs the other way round
    for seat in ("1", "2", "3"):  # nobody moved: the arrow turned
        assert abs(after["seats"][seat]["x"] - before["seats"][seat]["x"]) < 2
        assert abs(after["seats"][seat]["y"] - before["seats"][seat]["y"]) < 2
    page.context.close()


def ten_hands() -> tuple[list[list[str]], str]:
    deck = [card_code(card) for card in full_deck()]
    hands = [deck[i * 7:(i + 1) * 7] for i in range(10)]
    first = next(code for code in deck[70:] if re.fullmatch(r"[RYGB][0-9]", code))
    return hands, first


@pytest.mark.parametrize("viewport", [
    pytest.param(PHONE, id="360x740"), pytest.param(DESKTOP, id="1366x768"),
    pytest.param(LANDSCAPE, id="844x390", marks=pytest.mark.slow)])
def test_ten_seats_sit_around_the_table_readable_and_on_screen(
        viewport: dict[str, int], server: ServerThread, browser: Any) -> None:
    hands, first = ten_hands()
    page = browser.new_context(viewport=viewport, locale="en-US").new_page()
    code = create_room(page, server.url, "Ann", 10, fill=True)
    start_dealt(page, server, code, hands, first, dealer=9)
    wait(page, ".status.mine")
    page.wait_for_timeout(300)
    found = check_around_the_table(page, 10, viewport)
    assert found["order"] == list(range(1, 10))
    assert page.locator(".opponent.next").get_attribute("data-seat") == "1"
    if viewport == DESKTOP:
        assert found["scrollH"] <= viewport["height"]  # ten seats fit without scrolling
    bottom = page.evaluate("Math.max(...[...document.querySelectorAll('.hand button.card')]"
                           ".map((b)=>b.getBoundingClientRect().bottom))")
    if viewport != PHONE:
        assert bottom <= viewport["height"]  # the hand is on screen without scrolling
    page.context.close()


TONES = """
window.tones = [];
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.tones.push(this.frequency.value);
  return start.apply(this, args);
};
"""


@pytest.mark.parametrize("motion", ["no-preference",
                                    pytest.param("reduce", marks=pytest.mark.slow)])
def test_the_winner_gets_a_short_celebration_and_the_win_sound(
        motion: str, server: ServerThread, browser: Any) -> None:
    ann = browser.new_context(viewport=PHONE, locale="en-US", reduced_motion=motion)
    ann.add_init_script(TONES)
    page = ann.new_page()
    code = create_room(page, server.url, "Ann", 2, rules={"hand_size": 1})
    ben = browser.new_context(viewport=PHONE, locale="en-US").new_page()
    join_room(ben, server.url, code, "Ben")
    page.wait_for_function("()=>document.querySelectorAll('.seat-row:not(.empty)').length==2")
    start_dealt(page, server, code, [["R5"], ["Y1"]], "R3", dealer=1)
    wait(ben, ".hand button.card")
    click(page, ".hand button.card[data-card=R5]")
    wait(page, ".celebration")
    seen = page.evaluate("""() => { const c = document.querySelector('.celebration');
        return [c.innerText, c.dataset.seat, getComputedStyle(c).pointerEvents,
                getComputedStyle(c.querySelector('.confetti')).display]; }""")
    assert "You win the round!" in seen[0] and seen[1] == "0"
    assert seen[2] == "none"  # never in the way: taps go through it
    assert (seen[3] == "none") == (motion == "reduce"), seen  # no confetti when reduced
    wait(ben, ".round-dialog")
    assert ben.locator(".celebration").count() == 0  # Ben lost: no confetti for him
    tones = page.evaluate("window.tones")
    assert 523 in tones and 1046 in tones, tones  # the win sound of sound.js
    # It is short: it goes by itself, the round's end stays.
    page.wait_for_function("()=>!document.querySelector('.celebration')", timeout=10_000)
    assert page.locator(".round-dialog").count() == 1


WAKE = """
window.wake = {requests: 0, held: 0, released: 0};
if (navigator.wakeLock) {
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = async (type) => {
    window.wake.requests += 1;
    const sentinel = await request(type);
    window.wake.held += 1;
    window.wake.sentinel = sentinel;
    sentinel.addEventListener('release', () => { window.wake.released += 1; });
    return sentinel;
  };
}
"""


def test_the_page_keeps_the_screen_awake_during_a_game(server: ServerThread,
                                                       browser: Any) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-US")
    context.add_init_script(WAKE)
    page = context.new_page()
    code = create_room(page, server.url, "Ann", 2, fill=True)
    assert page.evaluate("navigator.wakeLock !== undefined")
    assert page.evaluate("window.wake.requests") == 0  # not in the lobby
    start_dealt(page, server, code, NUMBER_HANDS, "R3", dealer=1)  # no dialog over leave
    page.wait_for_function("()=>window.wake.held===1")
    # Hidden, the browser lets the lock go; shown again, the page asks again.
    page.evaluate("window.wake.sentinel.release()")
    page.wait_for_function("()=>window.wake.released===1")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("()=>window.wake.held===2")
    click(page, "[data-action=leave]")
    click(page, "[data-action=leave-yes]")
    wait(page, ".home")
    page.wait_for_function("()=>window.wake.released===2")  # let go on leaving
    assert page.evaluate("window.wake.requests") == 2
    context.close()
