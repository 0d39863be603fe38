"""Matches started the way a person starts them: through the setup screen (issue 8).

Before issue 8 a match started from the setup screen froze as soon as it needed an
answer from a dialog: the dialogs' answers went to the setup screen, which was gone.
"""

from __future__ import annotations

from typing import Any

import pytest

textual = pytest.importorskip("textual")

from textual.widgets import Input, Select  # noqa: E402
from tui_helpers import human_turn, run, screen_text, shown, take_keyboard, until  # noqa: E402

from unogame.engine import Rules  # noqa: E402
from unogame.tui.app import UnoApp  # noqa: E402
from unogame.tui.screens.choice import ChoiceScreen  # noqa: E402
from unogame.tui.screens.game import GameScreen  # noqa: E402
from unogame.tui.screens.passing import PassScreen  # noqa: E402
from unogame.tui.screens.setup import SetupScreen  # noqa: E402


async def fill_setup(pilot: Any, app: UnoApp, seed: int, kinds: dict[int, str] | None = None,
                     players: int | None = None) -> SetupScreen:
    """The setup screen with the seed typed in; seats' kinds set in their selects."""
    await shown(pilot, app, SetupScreen)
    setup = app.screen
    assert isinstance(setup, SetupScreen)
    if players is not None:
        setup.query_one("#setup-players", Select).value = players
    for seat, kind in (kinds or {}).items():
        setup.query_one(f"#kind-{seat}", Select).value = kind
    await pilot.pause()
    setup.query_one("#seed", Input).focus()
    await pilot.press(*str(seed))
    return setup


async def start_with_enter(pilot: Any, app: UnoApp, seed: int, **options: Any) -> None:
    await fill_setup(pilot, app, seed, **options)
    await pilot.press("enter")
    await until(pilot, lambda: app.match is not None)


def test_seed_42_wild_first_colour_chosen_through_the_setup_screen() -> None:
    """Seed 42, four seats (a person and three bots, as the form starts): a wild is turned
    up and the person chooses its colour (R5.1); the match goes on."""

    async def scenario() -> None:
        app = UnoApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await start_with_enter(pilot, app, 42)
            match = app.match
            assert match is not None and match.config.seed == 42
            match.config.bot_delay = 0.0
            match.config.reaction_delay = 0.0
            game = match.game
            assert game.top_card is not None and game.top_card.startswith("W")
            assert game.turn == 0 and game.color is None
            await shown(pilot, app, ChoiceScreen)
            await pilot.press("g")
            await until(pilot, lambda: game.color is not None)
            assert game.color == "G"
            # the person plays on (R5.1: they choose the colour, then play); then the bots
            for _ in range(3):
                assert game.turn == 0 and app.viewer == 0
                before = len(game.history)
                await human_turn(pilot, app)
                await until(pilot, lambda b=before: len(game.history) > b)
                await until(pilot, lambda: game.turn == 0 or game.is_round_over)
                if game.is_round_over:
                    break
            assert any(seat != 0 for seat, _move in game.history)
            assert "Not possible now" not in screen_text(app)

    run(scenario)


def test_seed_7_all_people_hot_seat_through_the_setup_screen() -> None:
    """Seed 7, four people at one keyboard: each takes the keyboard and plays."""

    async def scenario() -> None:
        app = UnoApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await start_with_enter(pilot, app, 7, kinds={1: "", 2: "", 3: ""})
            match = app.match
            assert match is not None and match.humans == [0, 1, 2, 3]
            assert match.names == ["Player 1", "Player 2", "Player 3", "Player 4"]
            game = match.game
            for _ in range(8):  # eight turns, each by the person whose turn it is
                await take_keyboard(pilot, app)
                assert app.viewer == game.turn
                assert f"{match.names[game.turn]}'s hand" in screen_text(app)
                before = len(game.history)
                turn = game.turn
                while game.turn == turn and not game.is_round_over:
                    await human_turn(pilot, app)
                    await until(pilot, lambda b=before: len(game.history) > b)
                    before = len(game.history)
                    assert "Not possible now" not in screen_text(app)
                if game.is_round_over:
                    break
            assert len(game.history) >= 8

    run(scenario)


def test_f2_relabels_the_whole_setup_screen() -> None:
    """Every label, option and default name follows the language; entered names stay."""

    async def scenario() -> None:
        app = UnoApp()
        async with app.run_test(size=(80, 24)) as pilot:
            setup = await fill_setup(pilot, app, 5)
            setup.query_one("#name-1", Input).value = "Somchai"
            await pilot.pause()
            english = screen_text(app)
            assert "Players" in english and "Seat 0" in english and "person" in english
            await pilot.press("f2")
            await pilot.pause()
            thai = screen_text(app)
            for word in ("เกมใหม่", "จำนวนผู้เล่น", "ที่นั่ง 0", "คน", "บอท", "ผู้เล่น 1"):
                assert word in thai, word
            for word in ("Players", "Seat ", "person", "bot:", "Player 1", "New match",
                         "Start", "Rules"):
                assert word not in thai, word
            assert setup.query_one("#name-1", Input).value == "Somchai"
            assert setup.query_one("#name-2", Input).value == "บอท 2"
            assert setup.query_one("#seed", Input).value == "5"
            setup.query_one("#setup-title").scroll_visible()
            await pilot.press("f2")
            await pilot.pause()
            assert "Seat 0" in screen_text(app)
            assert setup.query_one("#name-2", Input).value == "Bot 2"

    run(scenario)


def test_setup_errors_are_translated_and_name_the_field() -> None:
    async def scenario() -> None:
        app = UnoApp(lang="th")
        async with app.run_test(size=(80, 40)) as pilot:
            setup = await fill_setup(pilot, app, 3)
            setup.query_one("#target", Input).value = "0"
            setup.action_start()
            await pilot.pause()
            assert app.match is None
            text = screen_text(app)
            assert "เริ่มไม่ได้: แต้มเป้าหมาย: ต้องอยู่ระหว่าง 1 ถึง" in text
            await pilot.press("f2")
            await pilot.pause()
            assert "Cannot start: Target score: must be from 1 to" in screen_text(app)
            setup.query_one("#target", Input).value = "500"
            setup.query_one("#custom-count", Input).value = "-"
            setup.action_start()
            await pilot.pause()
            assert "Cannot start: N for the custom card: “-” is not a whole number" in \
                screen_text(app)
            setup.query_one("#custom-count", Input).value = "3"
            setup.action_start()
            await until(pilot, lambda: app.match is not None)
            assert app.match is not None
            assert app.match.config.rules == Rules(custom_count=3)

    run(scenario)


def test_setup_screen_starts_a_match() -> None:
    async def scenario() -> None:
        app = UnoApp()
        async with app.run_test(size=(80, 24)) as pilot:
            setup = await fill_setup(pilot, app, 9, players=3,
                                     kinds={1: "random", 2: "random"})
            assert "New match" in screen_text(app)
            setup.query_one("#target", Input).value = "50"
            setup.query_one("#rule-stacking").value = True  # type: ignore[attr-defined]
            await pilot.press("ctrl+s")
            await shown(pilot, app, GameScreen)
            match = app.match
            assert match is not None
            assert match.game.players == 3 and match.humans == [0]
            assert match.config.rules == Rules(target_score=50, stacking=True)
            assert match.config.seed == 9
            assert not any(isinstance(s, PassScreen) for s in app.screen_stack)

    run(scenario)


async def play_some(pilot: Any, app: UnoApp, moves: int) -> int:
    """The people at the keyboard make ``moves`` turn moves (taking the keyboard when the
    pass screen asks); returns how many they made before the round ended."""
    match = app.match
    assert match is not None
    game = match.game
    made = 0

    def people_can_act() -> bool:
        return (game.is_round_over or isinstance(app.screen, PassScreen)
                or (app.viewer is not None and game.turn == app.viewer
                    and isinstance(app.screen, GameScreen | ChoiceScreen)))

    while made < moves and not game.is_round_over:
        await until(pilot, people_can_act)
        if game.is_round_over:
            break
        if isinstance(app.screen, PassScreen):
            await take_keyboard(pilot, app)
            continue
        before = len(game.history)
        await human_turn(pilot, app)
        await until(pilot, lambda b=before: len(game.history) > b)
        assert "Not possible now" not in screen_text(app)
        made += 1
    return made


@pytest.mark.parametrize(("seed", "players", "kinds"), [
    (1, 2, {1: "random"}),
    (13, 3, {1: "", 2: ""}),
    (99, 5, {1: "random", 2: "", 3: "easy", 4: ""}),
    (2024, 2, {1: ""}),
])
def test_setup_screen_to_a_match_for_mixes_of_people_and_bots(
        seed: int, players: int, kinds: dict[int, str]) -> None:
    async def scenario() -> None:
        app = UnoApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await start_with_enter(pilot, app, seed, kinds=kinds, players=players)
            match = app.match
            assert match is not None and match.game.players == players
            match.config.bot_delay = 0.0
            match.config.reaction_delay = 0.0
            made = await play_some(pilot, app, 6)
            assert made == 6 or match.game.is_round_over

    run(scenario)
