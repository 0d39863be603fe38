"""Chances you can see and hear (issue 24, item 12): a bell and a highlight when your
turn comes and when a jump-in or a catch becomes possible (bots take those within a
second or so); no second bell while the same chance stays open."""

from __future__ import annotations

from pathlib import Path

import pytest

textual = pytest.importorskip("textual")

from tui_helpers import FROZEN, LEVEL, config, game_screen, ready, run, screen_text  # noqa: E402

from unogame.engine import Game, Rules  # noqa: E402
from unogame.tui import app as app_module  # noqa: E402
from unogame.tui.app import UnoApp  # noqa: E402
from unogame.tui.match import SeatConfig  # noqa: E402

SIZES = [(80, 24), (120, 40)]


class BellCountingApp(UnoApp):
    """The real app; its bell also counts its rings (a headless terminal makes no sound)."""

    CSS_PATH = str(Path(app_module.__file__).with_name("uno.tcss"))

    def __init__(self, *args: object, **options: object) -> None:
        super().__init__(*args, **options)  # type: ignore[arg-type]
        self.rings = 0

    def bell(self) -> None:
        self.rings += 1
        super().bell()


def table(position: dict[str, object], rules: Rules | None = None) -> BellCountingApp:
    rules = rules or Rules()
    bots = [SeatConfig(name, LEVEL) for name in ("Bob", "Cid")]
    seats = [SeatConfig("Ann"), *bots[:int(str(position["players"])) - 1]]
    return BellCountingApp(config(*seats, rules=rules, **FROZEN),
                           game=Game.from_position(position, rules))


def highlighted(app: UnoApp) -> bool:
    return game_screen(app).query_one("#prompt").has_class("chance")


@pytest.mark.parametrize("size", SIZES)
def test_a_bell_and_a_highlight_when_the_turn_comes(size: tuple[int, int]) -> None:
    position = {"players": 2, "hands": [["R1", "G2", "B3"], ["R7", "B7", "Y3"]],
                "draw_pile": ["Y1", "Y4"], "discard_pile": ["R5"], "color": "R", "turn": 1}

    async def scenario() -> None:
        app = table(position)
        async with app.run_test(size=size) as pilot:
            await ready(pilot, app)
            assert app.match is not None
            assert app.rings == 0 and not highlighted(app)
            app.match.push(1, "play R7")  # the bot's move, made here so the test decides it
            app.changed()
            await pilot.pause()
            assert app.rings == 1 and highlighted(app)
            assert game_screen(app).hand.has_class("your-turn")
            assert "★ Your turn" in screen_text(app)
            await pilot.press("right", "left")  # the same chance: no second bell
            assert app.rings == 1
            await pilot.press("home", "enter")  # R1: Bob's turn
            assert app.match.game.turn == 1
            assert not highlighted(app) and "★" not in screen_text(app)

    run(scenario)


@pytest.mark.parametrize("size", SIZES)
def test_a_bell_and_a_highlight_for_a_jump_in_chance(size: tuple[int, int]) -> None:
    """Bob plays R7 and Ann holds R7: while it is Cid's turn she may jump in."""
    position = {"players": 3, "hands": [["R7", "G2"], ["R7", "B7"], ["Y2", "Y3", "Y5"]],
                "draw_pile": ["Y1", "Y4", "G4"], "discard_pile": ["R5"], "color": "R",
                "turn": 1}

    async def scenario() -> None:
        app = table(position, Rules(jump_in=True))
        async with app.run_test(size=size) as pilot:
            await ready(pilot, app)
            assert app.match is not None
            app.match.push(1, "play R7")
            app.changed()
            await pilot.pause()
            assert app.match.game.turn == 2
            assert app.rings == 1 and highlighted(app)
            assert not game_screen(app).hand.has_class("your-turn")
            assert "★ Cid's turn · Enter: jump in with R7" in screen_text(app)
            await pilot.press("home", "enter")  # the jump-in: Bob's turn after Ann's
            assert app.match.game.turn == 1 and app.match.game.hand(0) == ["G2"]
            assert not highlighted(app) and app.rings == 1

    run(scenario)


@pytest.mark.parametrize("size", SIZES)
def test_a_bell_and_a_highlight_for_a_catch_chance(size: tuple[int, int]) -> None:
    position = {"players": 3, "hands": [["R1", "G2", "B3"], ["R7", "B7"], ["Y2", "Y3", "Y5"]],
                "draw_pile": ["Y1", "Y4", "G4"], "discard_pile": ["R5"], "color": "R",
                "turn": 1}

    async def scenario() -> None:
        app = table(position)
        async with app.run_test(size=size) as pilot:
            await ready(pilot, app)
            assert app.match is not None
            app.match.push(1, "play R7")  # Bob forgets UNO; Cid's turn
            app.changed()
            await pilot.pause()
            assert app.match.game.catchable == [1]
            assert app.rings == 1 and highlighted(app)
            assert "★ Cid's turn" in screen_text(app) and "C: catch Bob" in screen_text(app)
            await pilot.press("c")
            assert len(app.match.game.hand(1)) > 1
            assert not highlighted(app) and app.rings == 1

    run(scenario)
