"""The terminal game (issue 5), driven by Textual's pilot with real keys.

The snapshot of the main screen is plain text (80x24, fixed seed) in tests/snapshots/;
run with UNO_UPDATE_SNAPSHOTS=1 to rewrite it after an intended change of the layout.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

textual = pytest.importorskip("textual")

from tui_helpers import (  # noqa: E402
    FAST,
    FROZEN,
    LEVEL,
    config,
    game_screen,
    human_turn,
    one_person,
    ready,
    run,
    screen_text,
    shown,
    until,
)

from unogame.bots import BOT_LEVELS  # noqa: E402
from unogame.cli import main  # noqa: E402
from unogame.engine import Game, Rules  # noqa: E402
from unogame.tui.app import UnoApp  # noqa: E402
from unogame.tui.match import SeatConfig  # noqa: E402
from unogame.tui.screens.choice import ChoiceScreen  # noqa: E402
from unogame.tui.screens.game import GameScreen  # noqa: E402
from unogame.tui.screens.score import ScoreScreen  # noqa: E402
from unogame.tui.screens.setup import HOUSE_RULES, ON_RULES, SetupScreen  # noqa: E402

SNAPSHOTS = Path(__file__).parent / "snapshots"


def test_full_round_against_bots() -> None:
    """A person plays a whole round against two bots with the keyboard; the scoreboard
    shows the winner and the scores, and Enter deals the next round."""

    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Bob", LEVEL),
                            SeatConfig("Cid", LEVEL), seed=5, **FAST))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.match is not None)
            match = app.match
            assert match is not None
            moves_by_ann = 0
            for _ in range(600):
                await until(pilot, lambda: match.game.is_round_over
                            or match.game.turn == 0)
                if match.game.is_round_over:
                    break
                before = len(match.game.history)
                await human_turn(pilot, app)
                await until(pilot, lambda b=before: len(match.game.history) > b)
                moves_by_ann += 1
            assert match.game.is_round_over
            assert moves_by_ann > 0
            await shown(pilot, app, ScoreScreen)
            text = screen_text(app)
            winner = match.names[match.game.winner]
            assert f"Round 1: {winner} wins" in text
            assert str(max(match.game.scores)) in text
            await pilot.press("enter")
            await until(pilot, lambda: match.round == 2 and isinstance(app.screen, GameScreen))
            assert not match.game.is_round_over
            assert sum(match.game.hand_sizes()) >= 21

    run(scenario)


def test_whole_match_to_the_target() -> None:
    """Rounds follow each other through the scoreboard until a seat reaches the target
    (R3.2); then Enter leads back to the setup screen."""

    async def scenario() -> None:
        rules = Rules(hand_size=2, target_score=150)
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Bob", LEVEL), seed=11,
                            rules=rules, **FAST))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.match is not None)
            match = app.match
            assert match is not None
            for _ in range(3000):
                await until(pilot, lambda: isinstance(app.screen, ScoreScreen)
                            or (match.game.turn == 0 and not match.game.is_round_over
                                and isinstance(app.screen, GameScreen)))
                if isinstance(app.screen, ScoreScreen):
                    if match.game.is_game_over:
                        break
                    rounds = match.round
                    await pilot.press("enter")
                    await until(pilot, lambda r=rounds: match.round == r + 1)
                    continue
                before = len(match.game.history)
                await human_turn(pilot, app)
                await until(pilot, lambda b=before: len(match.game.history) > b
                            or match.game.is_round_over)
            assert match.game.is_game_over
            assert match.round > 1
            await pilot.pause()
            winner = match.game.game_winner
            assert winner is not None and match.game.scores[winner] >= 150
            assert f"{match.names[winner]} wins the match!" in screen_text(app)
            await pilot.press("enter")
            await shown(pilot, app, SetupScreen)
            setup = app.screen
            assert isinstance(setup, SetupScreen)
            again = setup.config()  # the form starts from the last match
            assert again.seats == match.config.seats
            assert again.rules == rules and again.bot_delay == 0.0

    run(scenario)


def test_main_screen_snapshot() -> None:
    """The main screen at 80x24 (seed 2, four players, Ann to play) matches the stored
    text."""

    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Bot 1", LEVEL),
                            SeatConfig("Bot 2", LEVEL), SeatConfig("Bot 3", LEVEL), seed=2,
                            **FROZEN))
        async with app.run_test(size=(80, 24)) as pilot:
            await shown(pilot, app, GameScreen)
            await pilot.pause()
            text = screen_text(app)
        path = SNAPSHOTS / "tui_main_80x24.txt"
        if os.environ.get("UNO_UPDATE_SNAPSHOTS") or not path.exists():
            path.write_text(text, encoding="utf-8")
        assert text == path.read_text(encoding="utf-8")
        assert len(text.splitlines()) == 24
        assert all(len(line) <= 80 for line in text.splitlines())
        assert "Ann's hand (7)" in text and "Your turn" in text

    run(scenario)


def test_hidden_cards_never_on_screen() -> None:
    """Only the keyboard's hand is drawn: the bot's unique cards do not appear."""
    position = {"players": 2, "hands": [["R1", "G2"], ["WS", "Y9", "B+2"]],
                "draw_pile": ["B3", "Y2", "G4"], "discard_pile": ["R5"], "color": "R",
                "turn": 0}

    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Bot", LEVEL), **FROZEN),
                     game=Game.from_position(position))
        async with app.run_test(size=(80, 24)) as pilot:
            await shown(pilot, app, GameScreen)
            await pilot.pause()
            text = screen_text(app)
            assert "R1" in text and "G2" in text
            for hidden in ("W⇆", "Y9", "B+2", "B3"):
                assert hidden not in text

    run(scenario)


def test_uno_key_then_play_and_catch_key() -> None:
    """U says UNO before the second-last card (R6.1); C catches a bot that forgot (R6.2)."""
    position = {"players": 2, "hands": [["R1", "R2", "G5"], ["R7", "B7"]],
                "draw_pile": ["B3", "Y2", "G4", "Y7", "G9"], "discard_pile": ["R5"],
                "color": "R", "turn": 0}

    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Bot", LEVEL), **FROZEN),
                     game=Game.from_position(position))
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            match = app.match
            assert match is not None
            screen = game_screen(app)
            assert list(screen.hand.cards) == ["R1", "R2", "G5"]
            await pilot.press("u")  # three cards: no UNO yet
            assert match.game.uno == []
            await pilot.press("enter")  # R1
            assert match.game.hand(0) == ["R2", "G5"]
            # the bot's move, made here so the test decides it: it forgets UNO
            match.push(1, "play R7")
            app.changed()
            await pilot.pause()
            assert "C: catch Bot" in screen_text(app)
            await pilot.press("c")
            assert len(match.game.hand(1)) == 3
            assert match.game.turn == 0
            await pilot.press("u")  # two cards on the turn: UNO (D2)
            assert match.game.uno == [0]
            await pilot.press("home", "enter")  # R2 on R7
            assert match.game.hand(0) == ["G5"]
            assert 0 not in match.game.catchable

    run(scenario)


def test_wild_asks_colour_and_swap_asks_seat() -> None:
    position = {"players": 3, "hands": [["W", "WS", "G2"], ["R7", "B7"], ["Y1", "Y2", "Y3"]],
                "draw_pile": ["B3", "Y4", "G4"], "discard_pile": ["R5"], "color": "R",
                "turn": 0}

    async def scenario() -> None:
        app = one_person(position)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            match = app.match
            assert match is not None
            screen = game_screen(app)
            assert list(screen.hand.cards) == ["G2", "W", "WS"]
            await pilot.press("end", "enter")  # WS: first the colour, then the seat
            await shown(pilot, app, ChoiceScreen)
            await pilot.press("b")
            await shown(pilot, app, ChoiceScreen)
            assert "Swap hands with whom?" in screen_text(app)
            await pilot.press("2")
            await shown(pilot, app, GameScreen)
            assert match.game.color == "B"
            assert match.game.hand(0) == ["Y1", "Y2", "Y3"]
            assert sorted(match.game.hand(2)) == ["G2", "W"]

    run(scenario)


def test_escape_cancels_a_wild() -> None:
    position = {"players": 2, "hands": [["W", "G2"], ["R7", "B7"]],
                "draw_pile": ["B3"], "discard_pile": ["R5"], "color": "R", "turn": 0}

    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Bot", LEVEL), **FROZEN),
                     game=Game.from_position(position))
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            await pilot.press("end", "enter")
            await shown(pilot, app, ChoiceScreen)
            await pilot.press("escape")
            await shown(pilot, app, GameScreen)
            assert app.match is not None and app.match.game.hand(0) == ["W", "G2"]
            await pilot.press("home", "enter")  # G2 on red: refused with a message
            assert "G2 does not match: play a red card or one like R5." in screen_text(app)
            assert app.match.game.hand(0) == ["W", "G2"]

    run(scenario)


def test_challenge_and_drawn_card_keys() -> None:
    position = {"players": 2, "hands": [["R1", "G2"], ["B7", "W+4", "R3"]],
                "draw_pile": ["Y1", "Y2", "Y3", "Y4", "G6", "Y5", "Y6"],
                "discard_pile": ["R5"], "color": "R", "turn": 1}

    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Bot", LEVEL), **FROZEN),
                     game=Game.from_position(position))
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            match = app.match
            assert match is not None
            match.push(1, "play W+4 G")  # a bluff: the bot held R3
            app.changed()
            await pilot.pause()
            assert "H challenge" in screen_text(app)
            await pilot.press("h")  # guilty: the bot draws 4, Ann plays on (R5.4)
            assert len(match.game.hand(1)) == 6
            assert "Bot's hand:" in screen_text(app)
            assert match.game.turn == 0
            await pilot.press("d")  # G6, playable on green: play it or keep it (R4.4)
            assert match.game.pending is not None
            assert "K keep it" in screen_text(app)
            await pilot.press("k")
            assert match.game.turn == 1 and len(match.game.hand(0)) == 3

    run(scenario)


def test_thai_screen() -> None:
    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Bot", LEVEL), lang="th", **FROZEN))
        async with app.run_test(size=(80, 24)) as pilot:
            await shown(pilot, app, GameScreen)
            await pilot.pause()
            text = screen_text(app)
            assert "ไพ่ในมือของ Ann" in text
            assert "กองจั่ว" in text
            await pilot.press("f2")
            await pilot.pause()
            assert "Ann's hand" in screen_text(app)

    run(scenario)


def test_play_command_refuses_bad_flags(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--bots", "no-such-level"]) == 2
    assert "unknown bot level 'no-such-level'" in capsys.readouterr().err
    assert main(["play", "--players", "11"]) == 2
    assert main(["play", "--bots", LEVEL, "--rules", '{"stakcing": true}']) == 2
    assert "stakcing" in capsys.readouterr().err
    assert LEVEL in BOT_LEVELS


async def start(pilot: Any, app: UnoApp) -> Game:
    await ready(pilot, app)
    assert app.match is not None
    return app.match.game


def test_custom_card_controls() -> None:
    """The Wild Customizable asks what its rule needs: a seat (chosen_draw), a colour to
    discard (discard_color), after the colour to play on."""
    chosen = {"players": 3, "hands": [["WC", "R1", "R2"], ["G1", "G2"], ["B1", "B2"]],
              "draw_pile": ["Y1", "Y2", "Y3"], "discard_pile": ["R5"], "color": "R",
              "turn": 0}
    discard = {"players": 2, "hands": [["WC", "B1", "B2", "R3"], ["G1", "G2"]],
               "draw_pile": ["Y1"], "discard_pile": ["R5"], "color": "R", "turn": 0}

    async def scenario() -> None:
        app = one_person(chosen, Rules(custom_rule="chosen_draw"))
        async with app.run_test(size=(80, 24)) as pilot:
            game = await start(pilot, app)
            await pilot.press("end", "enter")
            await shown(pilot, app, ChoiceScreen)
            await pilot.press("g")
            await shown(pilot, app, ChoiceScreen)
            assert "Which player?" in screen_text(app)
            await pilot.press("2")
            await shown(pilot, app, GameScreen)
            assert game.color == "G" and len(game.hand(2)) == 4
        app = one_person(discard, Rules(custom_rule="discard_color"))
        async with app.run_test(size=(80, 24)) as pilot:
            game = await start(pilot, app)
            await pilot.press("end", "enter")
            await shown(pilot, app, ChoiceScreen)
            await pilot.press("y")
            await shown(pilot, app, ChoiceScreen)
            assert "Discard every card of which colour?" in screen_text(app)
            await pilot.press("b")
            await shown(pilot, app, GameScreen)
            assert game.color == "Y" and game.hand(0) == ["R3"]

    run(scenario)


def test_house_rule_controls() -> None:
    """seven_zero asks whom to swap with; stacking passes a Draw Two on; jump_in plays an
    identical card out of turn."""
    seven = {"players": 3, "hands": [["R7", "G1", "G3"], ["B1", "B2"], ["Y1"]],
             "draw_pile": ["Y2"], "discard_pile": ["R5"], "color": "R", "turn": 0, "uno": [2]}
    stack = {"players": 2, "hands": [["G+2", "R1"], ["B1", "B2"]],
             "draw_pile": ["Y1", "Y2", "Y3", "Y4"], "discard_pile": ["R+2", "R5"],
             "color": "R", "turn": 0, "pending": {"kind": "stack", "amount": 2}}
    jump = {"players": 3, "hands": [["R5", "G1"], ["B1", "B2"], ["Y1", "Y2"]],
            "draw_pile": ["Y3"], "discard_pile": ["R5"], "color": "R", "turn": 1}

    async def scenario() -> None:
        app = one_person(seven, Rules(seven_zero=True))
        async with app.run_test(size=(80, 24)) as pilot:
            game = await start(pilot, app)
            await pilot.press("home", "enter")  # R7 (hand order: R, Y, G, B, wilds)
            await shown(pilot, app, ChoiceScreen)
            assert "Swap hands with whom?" in screen_text(app)
            await pilot.press("1")
            await shown(pilot, app, GameScreen)
            assert game.hand(0) == ["B1", "B2"] and sorted(game.hand(1)) == ["G1", "G3"]
        app = one_person(stack, Rules(stacking=True))
        async with app.run_test(size=(80, 24)) as pilot:
            game = await start(pilot, app)
            assert "Stack of 2" in screen_text(app)
            await pilot.press("end", "enter")  # G+2 passes the stack on
            assert game.pending is not None and game.pending.amount == 4
            assert game.turn == 1
        app = one_person(jump, Rules(jump_in=True))
        async with app.run_test(size=(80, 24)) as pilot:
            game = await start(pilot, app)
            assert "Enter: jump in with R5" in screen_text(app)
            await pilot.press("home", "enter")
            assert game.hand(0) == ["G1"] and game.turn == 1

    run(scenario)


def test_a_failing_bot_cannot_stop_the_table() -> None:
    """A bot that raises on its turn: the table plays a legal turn move for it and the
    screen says so; the match goes on."""
    from unogame.bots import Bot

    class Broken(Bot):
        level = "broken"

        def choose(self, view: dict[str, Any], legal: Any) -> Any:
            raise RuntimeError("out of order")

    position = {"players": 2, "hands": [["R1", "G2"], ["B7", "Y4"]],
                "draw_pile": ["Y1", "Y2", "Y3"], "discard_pile": ["R5"], "color": "R",
                "turn": 1}

    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Bot", LEVEL), **FAST),
                     game=Game.from_position(position), bots={1: Broken()})
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await ready(pilot, app)
            match = app.match
            assert match is not None
            await until(pilot, lambda: match.game.turn == 0)
            assert match.game.history[0][0] == 1
            await until(pilot, lambda: "A bot failed and made a default" in screen_text(app))
            assert "RuntimeError('out" in screen_text(app)  # the toast wraps the line

    run(scenario)


def test_the_app_shut_down_while_a_scoreboard_mounts_is_quiet() -> None:
    """The scoreboard is pushed and the app shuts down in the same moment (a test's app
    does at the end of its block, once the round it waited for is over): the screen,
    mounting with its widgets already gone, draws nothing and raises nothing."""

    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Bob", LEVEL), seed=3, **FROZEN))
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            app.push_screen(ScoreScreen())

    run(scenario)


def test_translations_complete() -> None:
    """Thai and English have the same keys, and every key the app names exists."""
    import json
    import re

    from unogame.engine import CUSTOM_RULES

    folder = Path(__file__).parents[1] / "src" / "unogame" / "i18n"
    english = json.loads((folder / "tui.en.json").read_text(encoding="utf-8"))
    thai = json.loads((folder / "tui.th.json").read_text(encoding="utf-8"))
    assert set(english) == set(thai)
    source = "\n".join(path.read_text(encoding="utf-8")
                       for path in (folder.parent / "tui").rglob("*.py"))
    named = set(re.findall(r"""["'](tui\.[a-z_.]+[a-z_])["']""", source))
    named |= {f"tui.color.{c}" for c in "RYGB"} | {f"tui.custom.{r}" for r in CUSTOM_RULES}
    named |= {f"tui.log.reason.{r}" for r in ("draw_two", "wild_draw_four", "challenge",
                                               "uno_penalty", "stack", "custom")}
    named |= {f"tui.rule.{rule}" for rule in HOUSE_RULES + ON_RULES}
    named |= {f"tui.table.pending.{kind}" for kind in ("challenge", "drawn", "stack")}
    assert len(named) > 100
    missing = sorted(key for key in named if key not in english)
    assert not missing
    for key, text in english.items():
        fields = set(re.findall(r"{(\w+)}", text))
        assert fields == set(re.findall(r"{(\w+)}", thai[key])), key
