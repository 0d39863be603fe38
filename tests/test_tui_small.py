"""The terminal game's small things (issue 24, item 13): keys behind the "too small"
notice do nothing; Ctrl+P's Quit asks as Ctrl+Q does and its Keys shows the keys with
what they do and closes on Esc; the match's house rules and family rule are in Help and
summed up in one line on the table."""

from __future__ import annotations

import io

import pytest

textual = pytest.importorskip("textual")

from rich.cells import cell_len  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.segment import Segment  # noqa: E402
from textual.color import Color  # noqa: E402
from textual.command import CommandPalette  # noqa: E402
from textual.filter import Monochrome  # noqa: E402
from textual.widgets import Static  # noqa: E402
from tui_helpers import (  # noqa: E402
    FROZEN,
    LEVEL,
    config,
    fill_log,
    game_screen,
    ready,
    run,
    screen_text,
    shown,
    until,
)

from unogame.engine import Game, Rules  # noqa: E402
from unogame.engine.custom import CustomRule, Step  # noqa: E402
from unogame.tui.app import UnoApp  # noqa: E402
from unogame.tui.cards import card_style  # noqa: E402
from unogame.tui.match import SeatConfig  # noqa: E402
from unogame.tui.screens.game import GameScreen  # noqa: E402
from unogame.tui.screens.help import HelpScreen  # noqa: E402
from unogame.tui.screens.quit import QuitScreen  # noqa: E402
from unogame.tui.widgets import LogView  # noqa: E402

POSITION = {"players": 2, "hands": [["R1", "G2", "B3"], ["B7", "Y3"]],
            "draw_pile": ["Y1", "Y4"], "discard_pile": ["R5"], "color": "R", "turn": 0}
GRANDMA = CustomRule((Step("others", "draw", 1), Step("next", "skip", 1)), "Grandma's rule",
                     "everybody draws one and the next one waits")


def two(rules: Rules | None = None, lang: str = "en") -> UnoApp:
    rules = rules or Rules()
    return UnoApp(config(SeatConfig("Ann"), SeatConfig("Bot", LEVEL), rules=rules, lang=lang,
                         **FROZEN), game=Game.from_position(POSITION, rules))


def test_keys_do_nothing_behind_the_too_small_notice() -> None:
    """At 70x24 Enter and D change nothing (they played a card nobody could see); F2
    still switches the language."""

    async def scenario() -> None:
        app = two()
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            assert app.match is not None
            game = app.match.game
            await pilot.resize_terminal(70, 24)
            await pilot.pause()
            assert "too small" in screen_text(app)
            await pilot.press("enter", "d", "right", "enter")
            await pilot.pause()
            assert game.hand(0) == ["R1", "G2", "B3"] and game.turn == 0
            await pilot.press("f2")
            await pilot.pause()
            assert app.language == "th"
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            await pilot.press("enter")
            assert game.hand(0) == ["G2", "B3"]

    run(scenario)


async def palette_command(pilot: object, app: UnoApp, title: str) -> None:
    """Ctrl+P, type ``title``, Enter."""
    await pilot.press("ctrl+p")  # type: ignore[attr-defined]
    await until(pilot, lambda: isinstance(app.screen, CommandPalette))
    await pilot.press(*title.lower())  # type: ignore[attr-defined]
    await pilot.pause(0.3)  # type: ignore[attr-defined]
    await until(pilot, lambda: title in screen_text(app))
    await pilot.press("enter")  # type: ignore[attr-defined]
    await until(pilot, lambda: not isinstance(app.screen, CommandPalette))
    await pilot.pause()  # type: ignore[attr-defined]


def test_ctrl_p_quit_asks_as_ctrl_q_does() -> None:
    async def scenario() -> None:
        app = two()
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            await palette_command(pilot, app, "Quit")
            await shown(pilot, app, QuitScreen)
            assert app.return_code is None
            assert "Quit the match?" in screen_text(app)
            await pilot.press("n")
            await shown(pilot, app, GameScreen)
            assert app.return_code is None

    run(scenario)


@pytest.mark.parametrize("lang", ["en", "th"])
def test_ctrl_p_keys_explains_each_key_and_closes_on_esc(lang: str) -> None:
    async def scenario() -> None:
        app = two(lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            await palette_command(pilot, app, "Keys" if lang == "en" else "ปุ่ม")
            await shown(pilot, app, HelpScreen)
            text = screen_text(app)
            assert ("draw a card" if lang == "en" else "จั่วไพ่") in text
            row = next(line for line in text.splitlines() if " D " in line)
            assert ("draw a card" if lang == "en" else "จั่วไพ่") in row
            await pilot.press("escape")
            await shown(pilot, app, GameScreen)
            assert "HelpPanel" not in str(app.screen.query("*"))

    run(scenario)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("lang", ["en", "th"])
def test_help_lists_the_house_rules_and_the_family_rule(lang: str,
                                                        size: tuple[int, int]) -> None:
    """Help names each house rule switched on and the family's rule whole (its log line
    was cut at 80 and 120 columns); the table sums the rules up in one line."""
    rules = Rules(stacking=True, jump_in=True, challenge=False, custom_rule=GRANDMA)

    async def scenario() -> None:
        app = two(rules, lang)
        async with app.run_test(size=size) as pilot:
            await ready(pilot, app)
            summary = ("Rules: stacking · jump in · no W+4 challenge · W★ Grandma's rule"
                       if lang == "en" else
                       "กติกา: ซ้อนไพ่ · แทรกตา · ท้า W+4 ไม่ได้ · W★ Grandma's rule")
            assert summary in screen_text(app)
            await pilot.press("question_mark")
            await shown(pilot, app, HelpScreen)
            help_screen = app.screen
            box = help_screen.query_one("#help-box")
            for _ in range(20):  # PgDn reaches the end of Help
                if box.scroll_y >= box.max_scroll_y:
                    break
                await pilot.press("pagedown")
                await pilot.pause()
            close = "Esc or Enter: close" if lang == "en" else "Esc หรือ Enter"
            assert close in screen_text(app)
            console = Console(width=200, file=io.StringIO(), record=True)
            console.print(help_screen.query_one("#help", Static).content)
            flat = " ".join(console.export_text().split())
            if lang == "en":
                for line in ("Rules of this match", "Stacking: Draw Two on Draw Two",
                             "Jump in with an identical card",
                             "Off: Wild Draw Four may be challenged",
                             "Grandma's rule: Every other player draws 1, then the next "
                             "player is skipped",
                             "everybody draws one and the next one waits"):
                    assert line in flat, line
            else:
                for line in ("กติกาของเกมนี้", "แทรกตาได้ด้วยไพ่ที่เหมือนกันทุกประการ",
                             "ปิด: ท้าทายไวลด์จั่วสี่ได้", "Grandma's rule",
                             "everybody draws one and the next one waits"):
                    assert line in flat, line

    run(scenario)


@pytest.mark.parametrize("lang", ["en", "th"])
def test_the_help_columns_line_up_in_thai(lang: str) -> None:
    """The keys' descriptions start at the same cell on every row, Thai included (its
    second column was 2-3 cells out of line)."""

    async def scenario() -> None:
        app = two(lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            await pilot.press("question_mark")
            await shown(pilot, app, HelpScreen)
            lines = screen_text(app).splitlines()
            words = ("ไทย / English",
                     "Thai layout: same keys" if lang == "en" else "แป้นพิมพ์ไทย")
            starts = set()
            for word in words:
                line = next(line for line in lines if word in line)
                starts.add(cell_len(line[:line.index(word)]))
            assert len(starts) == 1, starts

    run(scenario)


def test_the_log_keeps_its_newest_line_in_view_after_resizes() -> None:
    """Forty moves, then 120x40 and back to 80x24: the newest line is in view (the log
    stayed scrolled up); scrolled back by Page Up, it stays where the person put it."""

    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Bot", LEVEL), seed=4, **FROZEN))
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            await fill_log(pilot, app)
            log = game_screen(app).query_one("#log", LogView)
            newest = log.shown[-1]
            for size in ((120, 40), (80, 24), (100, 30), (80, 24)):
                await pilot.resize_terminal(*size)
                await pilot.pause()
                await pilot.pause()
                assert log.scroll_y == log.max_scroll_y, size
                assert newest in screen_text(app), size
            await pilot.press("pageup")
            back = log.scroll_y
            assert back < log.max_scroll_y
            await pilot.resize_terminal(100, 30)
            await pilot.pause()
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert log.scroll_y < log.max_scroll_y

    run(scenario)


def test_every_card_keeps_its_face_under_no_color() -> None:
    """Under NO_COLOR Textual shows colours as grey levels (its Monochrome filter): every
    card's face still stands out from the background (blue cards were as dark as it)."""

    async def scenario() -> None:
        app = two()
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            background = Color.parse(app.get_css_variables()["background"]).monochrome
            for code in ("R1", "Y1", "G1", "B1", "W"):
                [segment] = Monochrome().apply([Segment(code, card_style(code))], background)
                assert segment.style is not None and segment.style.bgcolor is not None
                grey = segment.style.bgcolor.get_truecolor().red
                assert abs(grey - background.r) >= 25, (code, grey, background.r)

    run(scenario)
