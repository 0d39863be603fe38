"""Hot seat: several people at one keyboard (issue 8, section 3).

The pass screen hides every hand between two people's turns. It takes a key of its own
(P), not Enter or Space, and ignores keys for half a second, so a double-tapped Enter
cannot show the next person's hand; it says what happened since the arriving person's
last turn; it is redrawn when the game moves behind it.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

textual = pytest.importorskip("textual")

from tui_helpers import (  # noqa: E402
    FROZEN,
    config,
    human_turn,
    quickly,
    ready,
    run,
    screen_text,
    send_keys,
    shown,
    take_keyboard,
    until,
)

from unogame.engine import Game  # noqa: E402
from unogame.tui.app import UnoApp  # noqa: E402
from unogame.tui.match import SeatConfig  # noqa: E402
from unogame.tui.screens.game import GameScreen  # noqa: E402
from unogame.tui.screens.passing import ARMING_SECONDS, PassScreen  # noqa: E402


def test_hot_seat_passes_the_keyboard() -> None:
    """Two people: between their turns a pass screen hides every hand."""

    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Ben"), seed=3, **FROZEN))
        async with app.run_test(size=(80, 24)) as pilot:
            await shown(pilot, app, PassScreen)
            match = app.match
            assert match is not None
            first = match.game.turn
            text = screen_text(app)
            assert f"Pass the keyboard to {match.names[first]}" in text
            assert "'s hand (" not in text  # no hand panel (the ready line says "your hand")
            assert app.viewer is None
            await take_keyboard(pilot, app)
            assert isinstance(app.screen, GameScreen)
            assert app.viewer == first
            assert f"{match.names[first]}'s hand" in screen_text(app)
            for _ in range(10):  # until the turn goes to the other person
                if match.game.turn != first:
                    break
                await human_turn(pilot, app)
                await pilot.pause()
            assert match.game.turn != first
            await shown(pilot, app, PassScreen)
            assert app.viewer is None
            assert "'s hand (" not in screen_text(app)
            await take_keyboard(pilot, app)
            assert app.viewer == match.game.turn

    run(scenario)


POSITION = {"players": 2, "hands": [["R1", "R2"], ["G1", "G2", "G3"]],
            "draw_pile": ["B3", "Y2"], "discard_pile": ["R5"], "color": "R", "turn": 0}


async def pass_to_ben(pilot: Any, app: UnoApp) -> PassScreen:
    """Ann takes the keyboard and plays R1 with Enter: the pass screen to Ben, mounted."""
    await take_keyboard(pilot, app)
    assert app.viewer == 0
    await pilot.press("enter")  # R1
    await until(pilot, lambda: isinstance(app.screen, PassScreen))
    screen = app.screen
    assert isinstance(screen, PassScreen)
    await quickly(lambda: screen.shown_at is not None)
    assert app.match is not None and app.match.game.turn == 1 and app.viewer is None
    return screen


def test_pass_screen_takes_its_own_key_after_half_a_second() -> None:
    """Enter plays Ann's card; a second Enter (double tap), Space, or P too soon do not
    open Ben's hand; P after half a second does."""

    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Ben"), **FROZEN),
                     game=Game.from_position(POSITION))
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await pass_to_ben(pilot, app)
            assert screen.shown_at is not None
            send_keys(app, "enter", "space", "p", at=screen.shown_at + ARMING_SECONDS / 2)
            await until(pilot, lambda: screen.armed)
            await pilot.pause()  # the queued keys reach the screen...
            await pilot.pause()  # ...and it has handled them
            assert app.screen is screen and app.viewer is None
            assert "G1" not in screen_text(app)
            await pilot.press("enter", "space")
            assert app.screen is screen and app.viewer is None
            assert "press P" in screen_text(app)
            await pilot.press("p")
            await ready(pilot, app)
            assert app.viewer == 1 and "G1" in screen_text(app)

    run(scenario)


def test_a_p_pressed_too_soon_but_handled_late_does_not_open_the_hand() -> None:
    """A busy machine handles keys late: a P pressed a tenth of a second after the pass
    screen appeared still does not count when it is handled after the half second (the
    screen judged keys by when they were handled, and opened Ben's hand)."""

    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Ben"), **FROZEN),
                     game=Game.from_position(POSITION))
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await pass_to_ben(pilot, app)
            assert screen.shown_at is not None
            await until(pilot, lambda: screen.armed)
            send_keys(app, "p", at=screen.shown_at + 0.1)
            await pilot.pause()
            await pilot.pause()
            assert app.screen is screen and app.viewer is None
            send_keys(app, "p", at=screen.shown_at + ARMING_SECONDS + 0.1)
            await ready(pilot, app)
            assert app.viewer == 1

    run(scenario)


def test_pass_screen_tells_what_happened_since_the_last_turn() -> None:
    """Ann's Draw Two makes Ben draw two cards and skips him (R5.1); when the keyboard
    comes to Ben he reads that, without the cards' faces (anyone may be looking); with
    his hand shown, his log has the cards he drew."""
    position = {"players": 2, "hands": [["R+2", "R3", "G7"], ["B5", "B2", "Y1"]],
                "draw_pile": ["Y4", "G5", "B9", "B8"], "discard_pile": ["R9"],
                "color": "R", "turn": 0}

    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Ben"), **FROZEN),
                     game=Game.from_position(position))
        async with app.run_test(size=(80, 24)) as pilot:
            await take_keyboard(pilot, app)
            await pilot.press("home", "right", "enter")  # R+2 (hand order: R3, R+2, G7)
            assert app.match is not None
            game = app.match.game
            await until(pilot, lambda: len(game.hand(1)) == 5)
            assert app.viewer == 0 and game.turn == 0  # two players: Ben is skipped
            await pilot.press("home", "enter")  # R3
            await shown(pilot, app, PassScreen)
            text = screen_text(app)
            assert "Since Ben's last turn:" in text
            assert "Ann plays R+2" in text and "Ben draws 2 (Draw Two)" in text
            assert "Ann plays R3" in text
            drawn = [code for code in game.hand(1) if code not in ("B5", "B2", "Y1")]
            assert "Y4" not in text and "G5" not in text and len(drawn) == 2
            await take_keyboard(pilot, app)
            assert "Ben draws " + " ".join(drawn) in screen_text(app)

    run(scenario)


def test_pass_screen_redrawn_when_a_bot_catches_behind_it() -> None:
    """Ann forgets UNO; the pass screen to Ben says so when the bot Cid catches her
    (R6.2); it never offers "U: Ann says UNO" (everyone sees it: a forgotten UNO could
    always be saved), and U there does nothing."""
    position = {"players": 3, "hands": [["R1", "R2"], ["G1", "G2", "G3"], ["B1", "B2", "B3"]],
                "draw_pile": ["B4", "Y2", "Y3", "Y5"], "discard_pile": ["R5"], "color": "R",
                "turn": 0}

    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Ben"), SeatConfig("Cid", "medium"),
                            **FROZEN),
                     game=Game.from_position(position))
        async with app.run_test(size=(80, 24)) as pilot:
            await take_keyboard(pilot, app)
            await pilot.press("home", "enter")  # R1, without UNO
            assert app.match is not None
            match, game = app.match, app.match.game
            await until(pilot, lambda: game.turn == 1)
            assert game.catchable == [0]
            passing = await pass_screen(pilot, app)
            assert "says UNO" not in screen_text(app)
            await pilot.press("u")
            assert game.uno == [] and game.catchable == [0]
            assert app.screen is passing
            # Cid reacts now (its pace was frozen, so that a busy machine cannot let it
            # catch Ann before the screen was seen)
            match.config.reaction_delay = 0.0
            app._stop_pace()
            app.changed()
            await until(pilot, lambda: len(game.hand(0)) == 3)  # Cid caught Ann
            await pilot.pause()
            text = screen_text(app)
            assert "Cid catches Ann!" in text
            assert "says UNO" not in text

    run(scenario)


async def pass_screen(pilot: Any, app: UnoApp) -> PassScreen:
    """The pass screen, up and taking keys."""
    await shown(pilot, app, PassScreen)
    passing = app.screen
    assert isinstance(passing, PassScreen)
    await until(pilot, lambda: passing.armed)
    await pilot.pause()
    return passing


@pytest.mark.parametrize("lang", ["en", "th"])
def test_the_pass_screen_does_not_save_a_forgotten_uno(lang: str) -> None:
    """Ann plays down to one card and forgets UNO: the pass screen everyone sees does
    not offer "U: Ann says UNO" and U there does nothing; Ben, at the keyboard, may
    catch her."""
    position = {"players": 2, "hands": [["R1", "R2"], ["G1", "G2"]],
                "draw_pile": ["B3", "Y2", "Y4"], "discard_pile": ["R5"], "color": "R",
                "turn": 0}

    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Ben"), lang=lang, **FROZEN),
                     game=Game.from_position(position))
        async with app.run_test(size=(80, 24)) as pilot:
            await take_keyboard(pilot, app)
            await pilot.press("enter")  # Ann plays R1 and forgets UNO
            assert app.match is not None and app.match.game.catchable == [0]
            await pass_screen(pilot, app)
            text = screen_text(app)
            assert "U: Ann" not in text
            assert "Ann says UNO" not in text and "Ann พูด UNO" not in text
            await pilot.press("u")
            assert app.match.game.uno == [] and app.match.game.catchable == [0]
            await take_keyboard(pilot, app)
            assert app.viewer == 1
            assert ("C: catch Ann" if lang == "en" else "C: จับ Ann") in screen_text(app)
            await pilot.press("c")
            assert len(app.match.game.hand(0)) == 3

    run(scenario)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("lang", ["en", "th"])
def test_a_card_drawn_that_cannot_be_played_is_seen_before_the_pass(
        lang: str, size: tuple[int, int]) -> None:
    """Ann draws Y2, which cannot be played: her hand stays on the screen with Y2 chosen
    and named until she presses P (the pass screen came at once and she never saw it);
    the key that drew, pressed again at once, does not pass it on."""
    position = {"players": 2, "hands": [["R1", "R2"], ["G1", "G2", "G3"]],
                "draw_pile": ["Y2", "B3", "Y4"], "discard_pile": ["G5"], "color": "G",
                "turn": 0}

    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Ben"), lang=lang, **FROZEN),
                     game=Game.from_position(position))
        async with app.run_test(size=size) as pilot:
            await take_keyboard(pilot, app)
            assert app.match is not None
            game = app.match.game
            await pilot.press("d")
            assert game.turn == 1 and "Y2" in game.hand(0)
            await pilot.pause()
            assert isinstance(app.screen, GameScreen) and app.viewer == 0
            text = screen_text(app)
            assert ("You drew Y2 · P: pass the keyboard on" if lang == "en"
                    else "คุณจั่วได้ Y2 · P: ส่งคีย์บอร์ดต่อ") in text
            assert "[Y2]" in text
            # pressed at once (stamped so: a busy machine may handle them late): ignored
            send_keys(app, "enter", "p", at=app.held_at + ARMING_SECONDS / 5)
            await pilot.pause()
            await pilot.pause()
            assert isinstance(app.screen, GameScreen) and app.viewer == 0
            loop = asyncio.get_running_loop()
            later = loop.time() + ARMING_SECONDS + 0.1
            await until(pilot, lambda: loop.time() > later)
            await pilot.press("enter")  # Enter (or P) passes it on
            passing = await pass_screen(pilot, app)
            assert passing.seat == 1 and app.viewer is None
            assert "Y2" not in screen_text(app)

    run(scenario)
