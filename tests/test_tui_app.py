"""The terminal game's app: bots in workers, the Thai keyboard, the window's size,
quitting, the log (issue 8, section 3)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Sequence
from typing import Any

import pytest

textual = pytest.importorskip("textual")

from textual import events  # noqa: E402
from tui_helpers import (  # noqa: E402
    FROZEN,
    LEVEL,
    config,
    fill_log,
    game_screen,
    one_person,
    ready,
    run,
    screen_text,
    shown,
    until,
)

from unogame.bots import HardBot  # noqa: E402
from unogame.engine import Game, Move  # noqa: E402
from unogame.tui.app import UnoApp  # noqa: E402
from unogame.tui.match import SeatConfig  # noqa: E402
from unogame.tui.screens.choice import ChoiceScreen  # noqa: E402
from unogame.tui.screens.game import GameScreen  # noqa: E402
from unogame.tui.screens.help import HelpScreen  # noqa: E402
from unogame.tui.screens.quit import QuitScreen  # noqa: E402
from unogame.tui.screens.setup import SetupScreen  # noqa: E402
from unogame.tui.widgets import LogView  # noqa: E402

KEY_BOUND = 0.5
"""Seconds the screen may take to answer a key while a bot searches: generous, for a
loaded test machine (the goal is well under 100 ms)."""


class SlowHardBot(HardBot):
    """The hard bot searching again and again until the test lets it answer (with the
    compiled core one search takes milliseconds), noting its thread."""

    def __init__(self) -> None:
        super().__init__(seed=1, budget=250_000)
        self.threads: list[int] = []
        self.released = threading.Event()

    def choose(self, view: dict[str, Any], legal: Sequence[Move]) -> Move | None:
        self.threads.append(threading.get_ident())
        move = super().choose(view, legal)
        deadline = time.monotonic() + 30
        while not self.released.is_set() and time.monotonic() < deadline:
            move = super().choose(view, legal)
        return move


def test_the_ui_answers_keys_while_the_hard_bot_searches() -> None:
    """The hard bot thinks in a worker thread: while it searches, ? opens the help at
    once; its move comes afterwards."""
    position = {"players": 2, "hands": [["R1", "G2", "B3"], ["R7", "B7", "Y4", "G9", "W"]],
                "draw_pile": ["B4", "Y2", "Y3", "Y5", "G1", "G3"], "discard_pile": ["R5"],
                "color": "R", "turn": 1}

    async def scenario() -> None:
        bot = SlowHardBot()
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Hal", "hard"), bot_delay=0.0,
                            reaction_delay=0.0), game=Game.from_position(position),
                     bots={1: bot})
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.match is not None)
            match = app.match
            assert match is not None
            await until(pilot, lambda: app.thinking is not None)
            # the key as the terminal sends it (the pilot's press waits for the CPU to
            # be idle, which it is not while the bot searches)
            started = time.perf_counter()
            app.post_message(events.Key("question_mark", "?"))
            while not isinstance(app.screen, HelpScreen) and \
                    time.perf_counter() - started < 10:
                await asyncio.sleep(0.005)
            answered = time.perf_counter() - started
            assert app.thinking is not None, "the bot should still be searching"
            assert answered < KEY_BOUND
            assert not match.game.history
            bot.released.set()
            await until(pilot, lambda: bool(match.game.history))
            assert match.game.history[0][0] == 1
            assert bot.threads and threading.get_ident() not in bot.threads

    run(scenario)


def test_keys_under_a_thai_keyboard_layout() -> None:
    """With the Thai Kedmanee layout, the keys D, K, U, R... type ก า ี พ: they work the
    same; Thai digits choose seats."""
    position = {"players": 3, "hands": [["W", "G2", "B3"], ["R7", "B7"], ["Y1", "Y2", "Y3"]],
                "draw_pile": ["G6", "Y4", "G4", "B1"], "discard_pile": ["G5"], "color": "G",
                "turn": 0}

    async def scenario() -> None:
        app = one_person(position)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            match = app.match
            assert match is not None
            game = match.game
            await pilot.press("ก")  # D: draw G6, playable
            assert len(game.hand(0)) == 4 and game.pending is not None
            await pilot.press("า")  # K: keep it
            assert game.turn == 1
            for seat in (1, 2):  # the bots draw (and keep a playable card)
                match.push(seat, "draw")
                if game.turn == seat:
                    match.push(seat, "pass")
            app.changed()
            await pilot.pause()
            screen = game_screen(app)
            screen.hand.choose("W")
            await pilot.press("enter")
            await shown(pilot, app, ChoiceScreen)
            await pilot.press("พ")  # R: red
            await shown(pilot, app, GameScreen)
            assert game.color == "R" and game.turn == 1
            await pilot.press("ฦ")  # ? on the same key: help
            await shown(pilot, app, HelpScreen)

    run(scenario)


def test_a_thai_name_can_still_be_typed() -> None:
    """In a name field Thai letters are letters, not keys of the game."""

    async def scenario() -> None:
        app = UnoApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await shown(pilot, app, SetupScreen)
            setup = app.screen
            from textual.widgets import Input
            field = setup.query_one("#name-0", Input)
            field.value = ""
            field.focus()
            await pilot.press(*"สมชาย")
            assert field.value == "สมชาย"

    run(scenario)


def test_too_small_terminal_notice() -> None:
    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Bot", LEVEL), **FROZEN))
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            assert "too small" not in screen_text(app)
            await pilot.resize_terminal(70, 24)
            await pilot.pause()
            assert "The terminal is too small: UNO needs at least 80x24 (now 70x24)" in \
                screen_text(app)
            await pilot.press("f2")
            await pilot.pause()
            assert "หน้าต่างเทอร์มินัลเล็กเกินไป" in screen_text(app)
            await pilot.resize_terminal(80, 23)
            await pilot.pause()
            assert "80x23" in screen_text(app)
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert "80x24 (" not in screen_text(app) and "ไพ่ในมือของ Ann" in screen_text(app)

    run(scenario)


def test_ctrl_q_asks_before_quitting_a_match() -> None:
    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Bot", LEVEL), **FROZEN))
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            await pilot.press("ctrl+q")
            await shown(pilot, app, QuitScreen)
            assert "Quit the match?" in screen_text(app)
            await pilot.press("n")
            await shown(pilot, app, GameScreen)
            assert app.return_code is None
            await pilot.press("ctrl+q")
            await shown(pilot, app, QuitScreen)
            await pilot.press("y")
            await pilot.pause()
            assert app.return_code == 0

    run(scenario)


def test_ctrl_q_on_the_setup_screen_quits_at_once() -> None:
    async def scenario() -> None:
        app = UnoApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await shown(pilot, app, SetupScreen)
            await pilot.press("ctrl+q")
            await pilot.pause()
            assert app.return_code == 0

    run(scenario)


def test_the_log_scrolls_back_over_the_whole_round() -> None:
    """Forty moves later, Page Up goes back to the round's first line."""

    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Bot", LEVEL), seed=4, **FROZEN))
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            await fill_log(pilot, app)
            match = app.match
            assert match is not None
            assert len(match.log_for(0)) >= 40
            log = game_screen(app).query_one("#log", LogView)
            assert len(log.lines) == len(log.shown) >= 40
            text = screen_text(app)
            assert "deals" not in text
            for _ in range(8):
                await pilot.press("pageup")
            assert "Round 1: " in screen_text(app) and "deals" in screen_text(app)
            for _ in range(8):
                await pilot.press("pagedown")
            assert "deals" not in screen_text(app)

    run(scenario)


@pytest.mark.parametrize("yield_first", [False, True])
def test_quitting_while_the_game_screen_mounts_raises_nothing(yield_first: bool) -> None:
    """The app quit in the same moment the game screen was pushed: the screen's first
    redraw ran with its widgets already gone and raised NoMatches."""

    async def scenario() -> None:
        app = UnoApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await shown(pilot, app, SetupScreen)
            app.start_match(config(SeatConfig("Ann"), SeatConfig("Bot", LEVEL), **FROZEN))
            if yield_first:
                await asyncio.sleep(0)
            app.exit()
        assert app.return_code == 0

    run(scenario)
