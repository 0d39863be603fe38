"""Screenshots of the terminal screens issue 24 changed, at 80x24 and 120x40 in Thai and
English, under artifacts/screens24/ (``term-*.svg``, and ``.png`` made with Debian's
Chromium): the table's key footer and a family rule's log line wrapped after a click
played its card, a ``--join`` seat's room and table (a refusal from the server's code, the
link reconnecting), a resumed match.

    PYTHONPATH=src:tests python scripts/term_screens24.py
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

from test_tui_footer import click_card, grandma_app  # noqa: E402
from test_tui_remote import fed_app, room_message, state_message  # noqa: E402
from tui_helpers import FROZEN, config, game_screen, ready, until  # noqa: E402

from unogame.tui import saving  # noqa: E402
from unogame.tui.app import UnoApp  # noqa: E402
from unogame.tui.match import SeatConfig  # noqa: E402
from unogame.tui.screens.game import GameScreen  # noqa: E402
from unogame.tui.screens.lobby import LobbyScreen  # noqa: E402

OUT = ROOT / "artifacts" / "screens24"
SIZES = [(80, 24), (120, 40)]


def shot(app: Any, name: str, lang: str, size: tuple[int, int]) -> Path:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"term-{name}-{lang}-{size[0]}x{size[1]}.svg"
    app.save_screenshot(filename=path.name, path=str(OUT))
    return path


async def table(lang: str, size: tuple[int, int]) -> list[Path]:
    app = grandma_app(lang)
    async with app.run_test(size=size) as pilot:
        await ready(pilot, app)
        first = shot(app, "table-footer", lang, size)
        await click_card(pilot, app, "B2")  # refused: why, over the prompt
        refused = shot(app, "table-click-refused", lang, size)
        await click_card(pilot, app, "WC")
        await until(pilot, lambda: game_screen(app).choosing)
        await pilot.press("r")
        await until(pilot, lambda: app.local is not None and len(app.local.game.hands[0]) == 2)
        await pilot.pause()
        return [first, refused, shot(app, "table-family-rule-log", lang, size)]


async def joined(lang: str, size: tuple[int, int]) -> list[Path]:
    app = fed_app(lang)
    async with app.run_test(size=size) as pilot:
        app.received({"type": "joined", "room": "ABCD2345", "seat": 2, "token": None})
        app.received({**room_message(), "status": "lobby"})
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.pause()
        lobby = shot(app, "join-lobby", lang, size)
        app.received(room_message())
        app.received(state_message())
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.pause()
        app.received({"type": "error", "code": "illegal",
                      "refusal": {"code": "pass_only_drawn", "rule": "R4.4", "params": {},
                                  "text": "R4.4: pass only keeps a playable card"}})
        await pilot.pause()
        refused = shot(app, "join-table-refusal", lang, size)
        app.received({"type": "link", "state": "quiet"})
        await pilot.pause()
        return [lobby, refused, shot(app, "join-table-reconnecting", lang, size)]


async def resumed(lang: str, size: tuple[int, int]) -> list[Path]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "match.json"
        first = UnoApp(config(SeatConfig("Ann"), SeatConfig("Bo", "random"), seed=7, lang=lang,
                              **FROZEN), lang=lang, save_to=path)
        async with first.run_test(size=size) as pilot:
            await ready(pilot, first)
            await pilot.press("d")
            await until(pilot, lambda: path.exists())
        app = UnoApp(lang=lang, save_to=path, resumed=saving.load(path))
        async with app.run_test(size=size) as pilot:
            await ready(pilot, app)
            return [shot(app, "resumed-table", lang, size)]


def to_png(svg: Path) -> Path:
    """The SVG drawn by Chromium at its own size."""
    text = svg.read_text(encoding="utf-8")
    found = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', text)
    width, height = (int(float(v)) + 1 for v in found.groups()) if found else (1000, 700)
    png = svg.with_suffix(".png")
    subprocess.run(["/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu",
                    "--hide-scrollbars", f"--window-size={width},{height}",
                    f"--screenshot={png}", svg.as_uri()],
                   check=True, capture_output=True, timeout=60)
    return png


def main() -> None:
    made: list[Path] = []
    for lang in ("en", "th"):
        for size in SIZES:
            for scene in (table, joined, resumed):
                made += asyncio.run(scene(lang, size))
    for svg in made:
        print(to_png(svg))


if __name__ == "__main__":
    main()
