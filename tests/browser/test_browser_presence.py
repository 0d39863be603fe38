"""Phones on real networks (issue 21, item 5), in Debian's Chromium: a Wi-Fi link that holds
every packet (a TCP proxy that stops forwarding and closes nothing, between the page and the
server), a page put in the background, and the host's reload.

Before: the page never showed "Reconnecting…" on a held link, the tapped card was lost, the
server took 48 s to notice, then a bot played the child's cards; a hidden page on its turn
froze the table with no "let a bot play" button; a reload handed the host role away.
"""

from __future__ import annotations

import time
from typing import Any

from link_proxy import HIDE, LinkProxy
from test_browser_phone import NUMBER_HANDS, PHONE, add_bot, create_room, join_room, stacked
from test_browser_play import click, pytestmark, wait
from test_server_support import ServerThread

from unogame.server import Timing
from unogame.server.flow import STAND_IN_PREFIX

__all__ = ["pytestmark"]



def moves_of(server: ServerThread, code: str, seat: int) -> tuple[list[str], list[str]]:
    """The seat's own stored moves and the moves a bot made for it."""
    def read(room: Any, moves: list[tuple[int, str]]) -> tuple[list[str], list[str]]:
        mine = [text for who, text in moves if who == seat]
        return ([text for text in mine if not text.startswith(STAND_IN_PREFIX)],
                [text for text in mine if text.startswith(STAND_IN_PREFIX)])

    return server.settled(code, read)


def present(server: ServerThread, code: str, seat: int) -> bool:
    async def read() -> bool:
        return bool(server.manager.rooms[code].present_anywhere(seat))

    return server.submit(read).result(30)


def until(condition: Any, timeout: float, what: str) -> float:
    """Wait for ``condition()``; returns when it held (``time.monotonic``)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)
    return time.monotonic()


def dealt_against_a_bot(browser: Any, url: str, server: ServerThread) -> tuple[Any, str]:
    """Ann's phone, in a 2-seat room with a bot, on her turn (R3 on top, R1 in hand)."""
    page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
    code = create_room(page, url, "Ann", 2)
    add_bot(page)
    server.manager.rooms[code].deal = {"dealer": 1, "deck": stacked(NUMBER_HANDS, "R3"),
                                       "seed": 1}
    click(page, "[data-action=start]")
    wait(page, ".status.mine")
    return page, code


def test_a_held_link_shows_reconnecting_and_the_tap_is_played_once_with_no_bot(
        browser: Any) -> None:
    """The link holds for 20 s: the page says "Reconnecting…" within seconds, the server
    lets Ann go within ~15 s (her 20 s grace starts), the card she tapped meanwhile is
    played once when the link is back, and no bot plays for her."""
    with ServerThread(timing=Timing(think=0.05, reaction_scale=0.05)) as server, \
            LinkProxy(server.port) as link:
        page, code = dealt_against_a_bot(browser, link.url, server)
        page.wait_for_timeout(2500)  # the page beats
        link.hold()
        held = time.monotonic()
        page.locator(".hand button.card[data-card=R1]").click()  # tapped on the dead link
        wait(page, ".offline", timeout=15_000)
        shown = time.monotonic() - held
        assert shown < 8.0, shown
        assert page.locator(".offline").inner_text() == "Reconnecting…"
        noticed = until(lambda: not present(server, code, 0), 25.0,
                        "the server never noticed the dead link") - held
        assert noticed <= 18.0, noticed
        until(lambda: time.monotonic() - held >= 20.0, 30.0, "")
        link.resume()
        page.locator(".offline").wait_for(state="hidden", timeout=20_000)
        until(lambda: moves_of(server, code, 0)[0] == ["play R1"], 20.0,
              "the tapped card was not played")
        page.wait_for_timeout(2000)  # nothing more comes: not twice, no bot for Ann
        mine, bots = moves_of(server, code, 0)
        assert mine == ["play R1"] and bots == []
        print(f"held link: Reconnecting after {shown:.1f} s, server noticed after "
              f"{noticed:.1f} s")
        page.context.close()


def test_a_move_whose_answer_was_lost_is_not_played_twice(browser: Any) -> None:
    """Ann's card reaches the server, its answer does not (the link holds the way back):
    the page reconnects and learns it was played; it is not sent into play again."""
    with ServerThread(timing=Timing(think=30.0)) as server, LinkProxy(server.port) as link:
        page, code = dealt_against_a_bot(browser, link.url, server)
        page.wait_for_timeout(2500)
        link.hold(answers_only=True)
        page.locator(".hand button.card[data-card=R1]").click()
        until(lambda: moves_of(server, code, 0)[0] == ["play R1"], 10.0, "not stored")
        wait(page, ".offline", timeout=15_000)
        page.wait_for_timeout(7000)  # the page gives the link up and tries again, held
        link.resume()
        page.locator(".offline").wait_for(state="hidden", timeout=20_000)
        page.wait_for_function("()=>!document.querySelector('.hand button.card[data-card=R1]')")
        page.wait_for_timeout(1500)
        assert moves_of(server, code, 0) == (["play R1"], [])
        assert "not sent" not in str(page.locator("#live").text_content())
        page.context.close()


def test_a_hidden_page_on_its_turn_is_marked_away_and_a_bot_stands_in_after_the_grace(
        browser: Any) -> None:
    with ServerThread(timing=Timing(think=0.05, reaction_scale=0.05)) as server:
        ann = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        code = create_room(ann, server.url, "Ann", 2)
        ben = browser.new_context(viewport=PHONE, locale="th-TH").new_page()
        join_room(ben, server.url, code, "Ben")
        server.manager.rooms[code].grace = 5
        server.manager.rooms[code].deal = {"dealer": 1, "deck": stacked(NUMBER_HANDS, "R3"),
                                           "seed": 1}
        click(ann, "[data-action=start]")
        wait(ann, ".status.mine")
        ben.evaluate(HIDE, True)  # Ben's phone goes to the background, off his turn
        wait(ann, "[data-testid=seat-hidden]")
        assert ann.locator("[data-testid=seat-hidden]").inner_text() == "away from the screen"
        wait(ann, "[data-action=hand-to-bot]")  # the host may let a bot play for him
        ann.locator(".hand button.card[data-card=R1]").click()  # now it is Ben's turn
        turn = time.monotonic()
        until(lambda: moves_of(server, code, 1)[1], 20.0, "no bot stood in for Ben")
        waited = time.monotonic() - turn
        assert 4.5 <= waited <= 12.0, waited
        assert moves_of(server, code, 1)[0] == []
        ben.evaluate(HIDE, False)  # he looks again
        ann.locator("[data-testid=seat-hidden]").wait_for(state="detached", timeout=10_000)
        assert not ann.locator("[data-action=hand-to-bot]").count()
        ann.context.close()
        ben.context.close()


def test_the_hosts_reload_keeps_the_host_role(browser: Any) -> None:
    with ServerThread() as server:
        ann = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        code = create_room(ann, server.url, "Ann", 3)
        ben = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        join_room(ben, server.url, code, "Ben")
        ann.reload()
        wait(ann, ".lobby")
        wait(ann, "[data-action=start]")
        ben.wait_for_timeout(1000)
        assert not ben.locator("[data-action=start]").count()
        assert server.manager.rooms[code].host == 0
        ann.context.close()
        ben.context.close()
