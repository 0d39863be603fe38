"""Grandma's rule in the terminal game (issue 14, "Done when"): built on the setup screen
in Thai (refused while it has no name, with the reason in Thai), then played at the
keyboard and announced in the log in Thai and in English."""

from __future__ import annotations

from typing import Any

import pytest

textual = pytest.importorskip("textual")

from textual.widgets import Input, Select, Static  # noqa: E402
from tui_helpers import (  # noqa: E402
    FROZEN,
    LEVEL,
    config,
    game_mounted,
    human_turn,
    quickly,
    ready,
    run,
    screen_text,
    send_keys,
    shown,
    until,
)

from unogame.engine import Game, Rules  # noqa: E402
from unogame.engine.custom import CustomRule, Step  # noqa: E402
from unogame.tui.app import UnoApp  # noqa: E402
from unogame.tui.match import SeatConfig  # noqa: E402
from unogame.tui.rule_builder import RuleBuilder  # noqa: E402
from unogame.tui.screens.game import GameScreen  # noqa: E402
from unogame.tui.screens.setup import OWN_RULE, SetupScreen  # noqa: E402
from unogame.tui.words import Words  # noqa: E402

GRANDMA = CustomRule((Step("others", "draw", 1), Step("next", "skip", 1)), "กติกาของยาย",
                     "ทุกคนจั่ว 1 ใบ คนถัดไปถูกข้าม")


async def open_builder(pilot: Any, app: UnoApp, players: int) -> tuple[SetupScreen, RuleBuilder]:
    """The setup screen with ``players`` seats and "a rule of our own" chosen."""
    await shown(pilot, app, SetupScreen)
    setup = app.screen
    assert isinstance(setup, SetupScreen)
    setup.query_one("#setup-players", Select).value = players
    setup.query_one("#custom", Select).value = OWN_RULE
    builder = setup.query_one(RuleBuilder)
    await until(pilot, lambda: builder.display)  # the Select's Changed message has come
    return setup, builder


def explanation(builder: RuleBuilder) -> str:
    return str(builder.query_one("#rule-explain", Static).render())


async def focus_start(pilot: Any, setup: SetupScreen) -> None:
    start = setup.query_one("#start")
    start.focus()
    await until(pilot, lambda: setup.app.focused is start)


def test_grandmas_rule_built_on_the_setup_screen_in_thai() -> None:
    async def scenario() -> None:
        app = UnoApp(lang="th")
        async with app.run_test(size=(100, 40)) as pilot:
            setup, builder = await open_builder(pilot, app, 3)
            builder.query_one("#step-what-0", Select).value = "draw"
            await pilot.pause()
            builder.query_one("#step-who-0", Select).value = "others"
            builder.query_one("#step-count-0", Input).value = "1"
            builder.query_one("#step-what-1", Select).value = "skip"
            await pilot.pause()
            builder.query_one("#step-who-1", Select).value = "next"
            grandma = "ผู้เล่นคนอื่นทุกคนจั่ว 1 ใบ แล้ว คนถัดไปถูกข้าม"
            await until(pilot, lambda: grandma in explanation(builder))

            # No name yet: the setup says why, in Thai, and no match starts.
            await focus_start(pilot, setup)
            await pilot.press("enter")
            await until(pilot, lambda: "ตั้งชื่อให้กติกาก่อน" in screen_text(app))
            assert app.match is None

            builder.query_one("#rule-name", Input).value = GRANDMA.name
            builder.query_one("#rule-text", Input).value = GRANDMA.text
            await pilot.press("enter")
            await until(pilot, lambda: app.match is not None)
            await game_mounted(pilot, app)
            assert app.match is not None
            assert app.match.config.rules.custom_rule == GRANDMA

    run(scenario)


def test_start_pressed_again_at_once_after_the_rule_is_named_starts_the_match() -> None:
    """Keys faster than the screen: Enter on Start (refused: no name), the name, Enter at
    once. Textual's Button dropped the second press during the first one's 0.2 s flash."""

    async def scenario() -> None:
        app = UnoApp(lang="en")
        async with app.run_test(size=(100, 40)) as pilot:
            setup, builder = await open_builder(pilot, app, 3)
            await focus_start(pilot, setup)
            send_keys(app, "enter")
            await quickly(lambda: setup.error is not None)
            assert app.match is None
            builder.query_one("#rule-name", Input).value = GRANDMA.name
            send_keys(app, "enter")
            await until(pilot, lambda: app.match is not None)
            await game_mounted(pilot, app)
            assert app.match is not None
            rule = app.match.config.rules.custom_rule
            assert isinstance(rule, CustomRule) and rule.name == GRANDMA.name

    run(scenario)


def test_start_double_tapped_starts_one_match() -> None:
    async def scenario() -> None:
        app = UnoApp(lang="en")
        async with app.run_test(size=(100, 40)) as pilot:
            setup, builder = await open_builder(pilot, app, 3)
            builder.query_one("#rule-name", Input).value = GRANDMA.name
            await focus_start(pilot, setup)
            send_keys(app, "enter", "enter")
            await until(pilot, lambda: app.match is not None)
            await game_mounted(pilot, app)
            await pilot.pause()
            assert sum(isinstance(s, GameScreen) for s in app.screen_stack) == 1

    run(scenario)


def test_a_rule_that_makes_no_sense_with_two_players_is_refused_in_english() -> None:
    async def scenario() -> None:
        app = UnoApp(lang="en")
        async with app.run_test(size=(100, 40)) as pilot:
            setup, builder = await open_builder(pilot, app, 2)
            builder.query_one("#step-what-0", Select).value = "skip"
            builder.query_one("#step-what-1", Select).value = ""
            await pilot.pause()
            builder.query_one("#step-count-0", Input).value = "2"
            builder.query_one("#rule-name", Input).value = "Jump"
            setup.query_one("#start").focus()
            await pilot.press("enter")
            await pilot.pause()
            assert app.match is None
            assert "With 2 players a rule can pass over at most 1 players" in screen_text(app)

    run(scenario)


def grandma_app(lang: str) -> UnoApp:
    position: dict[str, Any] = {
        "players": 3, "hands": [["WC", "G7", "B2"], ["Y1", "Y2"], ["B5", "B6"]],
        "draw_pile": ["G1", "G2", "G3"], "discard_pile": ["R5"], "color": "R", "turn": 0}
    rules = Rules(custom_rule=GRANDMA)
    seats = [SeatConfig("Ann"), SeatConfig("Bot 1", LEVEL), SeatConfig("Bot 2", LEVEL)]
    return UnoApp(config(*seats, rules=rules, lang=lang, **FROZEN),
                  game=Game.from_position(position, rules))


@pytest.mark.parametrize(("lang", "line"), [
    ("th", "ไพ่กำหนดเองของ Ann: กติกาของยาย: ผู้เล่นคนอื่นทุกคนจั่ว 1 ใบ แล้ว คนถัดไปถูกข้าม"),
    ("en", "Ann's custom card: กติกาของยาย: Every other player draws 1, then the next player "
           "is skipped"),
])
def test_grandmas_rule_played_at_the_keyboard_is_applied_and_announced(lang: str,
                                                                       line: str) -> None:
    async def scenario() -> None:
        app = grandma_app(lang)
        async with app.run_test(size=(160, 40)) as pilot:
            await ready(pilot, app)
            assert app.match is not None
            game = app.match.game
            await human_turn(pilot, app)  # the only playable card: the Wild Customizable
            await until(pilot, lambda: len(game.history) == 1)
            assert game.hands[1] == ["Y1", "Y2", "G1"] and game.hands[2] == ["B5", "B6", "G2"]
            assert game.turn == 2  # Bot 1 was skipped
            await pilot.pause()
            text = screen_text(app)
            words = Words(lang, ["Ann", "Bot 1", "Bot 2"])
            announced = words.event_line({"type": "custom", "seat": 0, "rule": "composed",
                                          **GRANDMA.to_dict()})
            assert announced is not None and line in announced, announced
            assert line.split(": ")[0] in text and "กติกาของยาย" in text, text

    run(scenario)
