"""Hostile player names in Chromium (issue 9, item 1): no script runs, the names read as text.

A player named with markup that would run script (script, iframe onload, svg onload, img
onerror) plays a Wild Draw Four on a person in a browser, wins the challenge and the round:
the challenge dialog, the revealed hand, the round end and the match end all show the name
as typed, and nothing it carries ever runs. The page's Content-Security-Policy forbids
inline script as a second wall.
"""

from __future__ import annotations

import contextlib
import json
import random
import urllib.request
from typing import Any

import pytest
from browser_support import needs_chromium
from test_browser_play import click, wait
from test_server_support import ServerThread
from websockets.sync.client import connect

from unogame.engine import card_code, full_deck
from unogame.server import Timing
from unogame.server.updates import GameReader

pytestmark = needs_chromium

HOSTILE = ["<script>P=1</script>", "<iframe onload=P=1>", "<svg onload=P=1>",
           "<img src=x onerror=P=1>"]
"""Each sets ``window.P`` if it ever becomes markup (names are at most 24 characters)."""

# Seat 0 (the hostile name, host) plays first: dealer 1 of 2. Two cards each.
HANDS = (["W+4", "G9"], ["G1", "G2"])
FIRST = "R3"  # seat 0 holds no red card: the challenge fails, seat 1 draws six


def stacked_deck() -> list[str]:
    deck = [HANDS[seat][i] for i in range(2) for seat in range(2)] + [FIRST]
    rest = [card_code(card) for card in full_deck()]
    for code in deck:
        rest.remove(code)
    random.Random(9).shuffle(rest)
    return deck + rest


class SyncClient:
    """The hostile player: a plain WebSocket client (no browser)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.reader = GameReader()
        self.messages: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def wait_for(self, predicate: Any, timeout: float = 10.0) -> dict[str, Any]:
        for message in self.messages:
            if predicate(message):
                return message
        while True:
            message = self.reader.read(self.ws.recv(timeout=timeout))
            self.messages.append(message)
            if predicate(message):
                return message

    def my_turn(self, seat: int) -> dict[str, Any]:
        self.messages.clear()
        return self.wait_for(lambda m: m["type"] in ("state", "update") and m["view"]
                             and m["view"]["turn"] == seat and m["legal"])


def test_the_page_forbids_inline_script() -> None:
    with ServerThread() as server:
        for path in ("/", "/r/ABCD2345", "/static/app.js", "/api/meta"):
            with urllib.request.urlopen(server.url + path) as response:
                policy = response.headers["Content-Security-Policy"]
            assert "script-src 'self'" in policy and "unsafe-inline" not in policy, path
            assert "default-src 'self'" in policy and "object-src 'none'" in policy


@pytest.mark.parametrize("target", [1, 5000], ids=["match-end", "round-end"])
def test_hostile_names_run_no_script_in_any_dialog(target: int, browser: Any) -> None:
    with ServerThread(timing=Timing(think=0.2, reaction_scale=30.0)) as server:
        alerts: list[str] = []
        errors: list[str] = []
        for name in HOSTILE:
            stack = contextlib.ExitStack()
            page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
            page.on("dialog", lambda dialog: (alerts.append(dialog.message),
                                              dialog.dismiss()))
            page.on("pageerror", lambda error: errors.append(str(error)))
            host = SyncClient(stack.enter_context(connect(server.ws_url)))
            host.send({"type": "create", "name": name, "settings": {
                "seats": 2, "rules": {"hand_size": 2, "target_score": target}}})
            joined = host.wait_for(lambda m: m["type"] == "joined")
            code = joined["room"]
            server.manager.rooms[code].deal = {"dealer": 1, "deck": stacked_deck(),
                                               "seed": 3}

            page.goto(f"{server.url}/r/{code}")
            wait(page, "#player-name")
            page.fill("#player-name", "Ben")
            click(page, "form[data-form=join-named] button[type=submit]")
            host.wait_for(lambda m: m["type"] == "room" and len(m["seats"]) == 2)
            wait(page, ".seats")
            assert name in page.locator(".seats").inner_text()  # the lobby: as text

            host.send({"type": "start"})
            turn = host.my_turn(0)
            host.send({"type": "move", "move": "play W+4 G uno",
                       "version": turn["version"]})
            wait(page, ".challenge-dialog")
            assert name in page.locator(".challenge-dialog").inner_text()
            click(page, "[data-move=challenge]")
            wait(page, "[data-action=close-reveal]")
            assert name in page.locator("[role=dialog]").inner_text()  # the reveal
            click(page, "[data-action=close-reveal]")

            turn = host.my_turn(0)
            host.send({"type": "move", "move": "play G9", "version": turn["version"]})
            wait(page, ".round-dialog")
            text = page.locator(".round-dialog").inner_text()
            assert text.count(name) >= (3 if target == 1 else 2), text  # winner, tables
            page.wait_for_timeout(300)  # an iframe's onload or an image error fires late
            assert page.evaluate("() => window.P") is None, name
            assert alerts == [] and errors == [], (alerts, errors)
            stack.close()
            page.context.close()


def test_injected_inline_script_is_blocked_by_the_policy(browser: Any) -> None:
    """Even markup that got into the page could not run: CSP blocks inline handlers."""
    with ServerThread() as server:
        page = browser.new_page()
        page.goto(server.url + "/")
        wait(page, "#player-name")
        page.evaluate("""() => document.body.insertAdjacentHTML('beforeend',
            '<img src=x onerror="window.Q=1"><svg onload="window.Q=2"></svg>')""")
        page.wait_for_timeout(300)
        assert page.evaluate("() => window.Q") is None
