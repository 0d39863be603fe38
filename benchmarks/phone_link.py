"""Phones on real networks (issue 21, item 5). Not a test: it prints figures.

One ``uno serve`` process (its real command line, so its real WebSocket ping settings), a
TCP proxy between a Chromium page and the server (``tests/link_proxy.py``: it stops
forwarding and closes nothing, as a phone's Wi-Fi that holds every packet), and a second
player (a WebSocket client that plays its turns and records what it hears).

- held link: on Ann's turn the link holds for ``--hold`` seconds; Ann taps a card at once.
  Printed: seconds until the page shows "Reconnecting…", seconds until the server lets Ann
  go (the other player hears her seat disconnected), Ann's own moves after the hold (1: the
  tap played once; 0: not played; 2: doubled), whether the page said it was not sent (the
  game moved on: a bot played her turn meanwhile), bot moves for Ann and when the first
  came (her grace starts when the server lets her go).
- hidden page: on Ann's turn (no turn timer) her page goes to the background for
  ``--hidden`` seconds. Printed: seconds until a bot plays her turn (the table frozen
  until then), whether the other player sees her away, and whether the host (the other
  player) may let a bot play for her.
- host's reload: the creator reloads the lobby page; printed: who hosts afterwards.

    PYTHONPATH=src .venv/bin/python benchmarks/phone_link.py --hold 75 --hidden 40
    # the same harness against another tree's server (e.g. before a change):
    PYTHONPATH=src .venv/bin/python benchmarks/phone_link.py --server-src /work/main/src
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from link_proxy import HIDE, LinkProxy  # noqa: E402 - the tests' proxy, from the tests folder

try:  # updates merged for their seat (issue 22)
    from unogame.server.updates import GameReader
except ImportError:  # a tree from before issue 22 sends each update whole
    class GameReader:  # type: ignore[no-redef]
        def read(self, text: str | bytes) -> dict[str, Any]:
            return json.loads(text)  # type: ignore[no-any-return]

CHROMIUM = "/usr/bin/chromium"


class Ben:
    """The other player: a WebSocket client on its own loop (a thread) that plays its own
    turns (a number or action card, else draw, else pass) and keeps every message heard."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.heard: list[tuple[float, dict[str, Any]]] = []
        self.seat: int | None = None
        self.loop = asyncio.new_event_loop()
        self.ws: Any = None
        self.ready = threading.Event()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        asyncio.run_coroutine_threadsafe(self._open(), self.loop).result(20)

    async def _open(self) -> None:
        self.ws = await websockets.connect(self.url)
        self.loop.create_task(self._read())

    async def _read(self) -> None:
        reader = GameReader()
        async for text in self.ws:
            message = reader.read(text)
            self.heard.append((time.monotonic(), message))
            if message["type"] == "joined":
                self.seat = message["seat"]
                self.ready.set()
            if message["type"] in ("state", "update") and message.get("view") \
                    and message["status"] == "playing" and message["view"]["turn"] == self.seat:
                legal = message["legal"]
                move = next((m for m in legal if m.startswith("play") and " W" not in m),
                            next((m for m in legal if m in ("draw", "pass")), None))
                if move is not None:
                    await self.ws.send(json.dumps({"type": "move", "move": move,
                                                   "version": message["version"]}))

    def send(self, message: dict[str, Any]) -> None:
        asyncio.run_coroutine_threadsafe(self.ws.send(json.dumps(message)), self.loop).result(10)

    def rooms(self, since: float) -> list[tuple[float, dict[str, Any]]]:
        return [(at, m) for at, m in list(self.heard) if at >= since and m["type"] == "room"]

    def moves_for(self, seat: int, since: float) -> tuple[int, list[float]]:
        """The seat's own turn moves heard since ``since``, and when bots moved for it."""
        own, bots = 0, []
        for at, message in list(self.heard):
            if at < since or message["type"] != "update":
                continue
            events = message["events"]
            if any(e["type"] == "stand_in_move" and e["seat"] == seat for e in events):
                bots.append(at - since)
            elif any(e["type"] in ("play", "draw") and e.get("seat") == seat
                     and e.get("reason", "turn") == "turn" for e in events):
                own += 1
        return own, bots

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.ws.close(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)


def start_server(src: str, port: int, db: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": src}
    process = subprocess.Popen([sys.executable, "-m", "unogame", "serve", "--port", str(port),
                                "--db", db, "--bot-think", "0.3"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return process
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("the server did not start") from None
            time.sleep(0.2)


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def create(page: Any, url: str, seats: int = 2) -> str:
    page.goto(url + "/")
    page.locator("#player-name").wait_for()
    page.fill("#player-name", "Ann")
    page.fill("#seats", str(seats))
    page.select_option("#fill", "")
    page.locator("form[data-form=create] button[type=submit]").click()
    page.locator("[data-testid=room-code]").wait_for()
    return str(page.locator("[data-testid=room-code]").inner_text().replace(" ", ""))


def anns_turn(page: Any) -> None:
    page.locator(".status.mine").wait_for(timeout=60_000)


def tap(page: Any) -> None:
    card = page.locator(".hand button.card.playable:not([data-card^=W])")
    if card.count():
        card.first.click()
    else:
        page.locator("[data-move=draw]").click()


def held_link(browser: Any, port: int, hold: float) -> dict[str, Any]:
    with LinkProxy(port) as link:
        page = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
        code = create(page, link.url)
        ben = Ben(f"ws://127.0.0.1:{port}/ws")
        ben.send({"type": "join", "room": code, "name": "Ben"})
        ben.ready.wait(10)
        page.locator("[data-action=start]").click()
        anns_turn(page)
        page.wait_for_timeout(3000)  # the page beats (if it does)
        link.hold()
        held = time.monotonic()
        tap(page)
        shown = None
        while time.monotonic() - held < hold:
            if shown is None and page.locator(".offline").count():
                shown = time.monotonic() - held
            page.wait_for_timeout(100)
        link.resume()
        page.wait_for_timeout(15_000)  # reconnect, settle
        said = str(page.evaluate("() => [...document.querySelectorAll('#live, .toast')]"
                                 ".map((e) => e.textContent).join(' ')"))
        noticed = next((at - held for at, m in ben.rooms(held)
                        if not m["seats"][0]["connected"]), None)
        own, bots = ben.moves_for(0, held)
        ben.close()
        page.context.close()
        return {"reconnecting_shown_s": shown, "server_noticed_s": noticed,
                "own_moves_after_tap": own, "page_said_not_sent": "not sent" in said,
                "bot_moves_for_ann": len(bots),
                "first_bot_move_s": bots[0] if bots else None}


def hidden_page(browser: Any, port: int, hidden: float) -> dict[str, Any]:
    ben = Ben(f"ws://127.0.0.1:{port}/ws")
    ben.send({"type": "create", "name": "Ben", "bots": [],
              "settings": {"name": "Phones", "seats": 2, "rules": {}, "timer": 0}})
    ben.ready.wait(10)
    code = next(m["room"] for _, m in ben.heard if m["type"] == "joined")
    page = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    page.goto(f"http://127.0.0.1:{port}/r/{code}")
    page.locator("#player-name").wait_for()
    page.fill("#player-name", "Ann")
    page.locator("form[data-form=join-named] button[type=submit]").click()
    page.locator(".lobby").wait_for()
    ben.send({"type": "start"})
    anns_turn(page)
    page.evaluate(HIDE, True)
    since = time.monotonic()
    bots: list[float] = []
    while time.monotonic() - since < hidden and not bots:
        page.wait_for_timeout(200)
        bots = ben.moves_for(1, since)[1]
    marked = any(m["seats"][1].get("hidden") for _, m in ben.rooms(since))
    before = len(ben.heard)
    ben.send({"type": "hand_to_bot", "seat": 1})
    time.sleep(2)
    answer = next((m for _, m in ben.heard[before:] if m["type"] in ("room", "error")), {})
    handed = "yes" if answer.get("type") == "room" else answer.get("code")
    ben.close()
    page.context.close()
    return {"first_bot_move_s": bots[0] if bots else None, "waited_s": hidden,
            "marked_away": marked, "host_may_hand_over": handed}


def host_reload(browser: Any, port: int) -> dict[str, Any]:
    page = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    code = create(page, f"http://127.0.0.1:{port}", seats=3)
    ben = Ben(f"ws://127.0.0.1:{port}/ws")
    ben.send({"type": "join", "room": code, "name": "Ben"})
    ben.ready.wait(10)
    page.reload()
    page.locator(".lobby").wait_for()
    page.wait_for_timeout(3000)
    host = ben.rooms(0.0)[-1][1]["host"]
    ben.close()
    page.context.close()
    return {"host_after_reload": "the creator" if host == 0 else f"seat {host}"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server-src", default=str(ROOT / "src"),
                        help="the source tree whose server is measured")
    parser.add_argument("--hold", type=float, default=75.0)
    parser.add_argument("--hidden", type=float, default=40.0)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    port = free_port()
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        server = start_server(args.server_src, port, str(Path(tmp) / "uno.sqlite"))
        browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                             args=["--headless", "--no-sandbox"])
        try:
            print(f"server: {args.server_src}")
            print("held link", args.hold, "s:", held_link(browser, port, args.hold))
            print("hidden page on its turn:", hidden_page(browser, port, args.hidden))
            print("host's reload:", host_reload(browser, port))
        finally:
            browser.close()
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
