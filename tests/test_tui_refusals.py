"""Refusals explained (issue 24, item 10): a key that does nothing says the engine's
reason in the player's language (the web game's texts for the same codes), and the
prompt never offers what cannot be done."""

from __future__ import annotations

import pytest

textual = pytest.importorskip("textual")

from tui_helpers import (  # noqa: E402
    FROZEN,
    LEVEL,
    config,
    game_screen,
    one_person,
    ready,
    run,
    screen_text,
)

from unogame.engine import Game, Rules  # noqa: E402
from unogame.tui.app import UnoApp  # noqa: E402
from unogame.tui.match import SeatConfig  # noqa: E402

SIZES = [(80, 24), (120, 40)]


def three(position: dict[str, object], rules: Rules, lang: str = "en") -> UnoApp:
    seats = [SeatConfig("Ann"), SeatConfig("Bob", LEVEL), SeatConfig("Cid", LEVEL)]
    return UnoApp(config(*seats, rules=rules, lang=lang, **FROZEN),
                  game=Game.from_position(position, rules))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "th"])
def test_a_jump_in_mid_selection_is_explained(lang: str, size: tuple[int, int]) -> None:
    """Bob jumps in with R5 while Ann chooses her card: her Enter says whose turn it is
    and what she could jump in with (it said "R1 cannot be played now")."""
    position = {"players": 3, "hands": [["R1", "G2"], ["R5", "B7"], ["Y1", "Y2"]],
                "draw_pile": ["B3", "Y4", "G4"], "discard_pile": ["R5"], "color": "R",
                "turn": 0}

    async def scenario() -> None:
        app = three(position, Rules(jump_in=True), lang)
        async with app.run_test(size=size) as pilot:
            await ready(pilot, app)
            match = app.match
            assert match is not None
            await pilot.press("home")  # R1 chosen
            match.push(1, "play R5")  # the bot's jump-in, made here so the test decides it
            app.changed()
            await pilot.pause()
            await pilot.press("enter")
            text = screen_text(app)
            expected = ("It is Cid's turn. Out of turn you may only jump in with a card "
                        "identical to R5." if lang == "en"
                        else "ตอนนี้เป็นตาของ Cid นอกตาลงได้เฉพาะไพ่ที่เหมือน R5 ทุกอย่าง")
            assert expected[:size[0] - 4] in text
            assert "cannot be played now" not in text
            assert match.game.hand(0) == ["R1", "G2"]

    run(scenario)


@pytest.mark.parametrize("lang", ["en", "th"])
def test_enter_after_moving_off_the_drawn_card_says_why_and_comes_back(lang: str) -> None:
    """"You drew R⊘: Enter play it", the cursor moved, Enter: the reason is that only the
    drawn card may be played (it said "R0 cannot be played now"); the cursor is back on
    the drawn card, so Enter again plays it."""
    position = {"players": 2, "hands": [["R0", "G2"], ["B7", "Y3"]],
                "draw_pile": ["RS", "Y4"], "discard_pile": ["R5"], "color": "R", "turn": 0}

    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Bob", LEVEL), lang=lang,
                            **FROZEN), game=Game.from_position(position))
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            match = app.match
            assert match is not None
            await pilot.press("d")  # RS: playable
            screen = game_screen(app)
            assert screen.hand.chosen == "RS"
            await pilot.press("home")
            assert screen.hand.chosen == "R0"
            await pilot.press("enter")
            text = screen_text(app)
            assert ("Only the card you just drew (R⊘) can be played now." if lang == "en"
                    else "ตอนนี้ลงได้เฉพาะไพ่ที่เพิ่งจั่ว (R⊘)") in text
            assert "R0 cannot be played now" not in text
            assert screen.hand.chosen == "RS"
            await pilot.press("enter")
            assert match.game.top_card == "RS"

    run(scenario)


def test_a_stack_prompt_offers_only_what_can_be_stacked() -> None:
    """Stacking, two to draw: without a Draw Two the prompt says there is nothing to
    stack (it said "Enter play a Draw Two"), and Enter says why; with one it names it."""
    position = {"players": 2, "hands": [["R1", "G2"], ["B7", "Y3"]],
                "draw_pile": ["B3", "Y4", "G4", "Y5"], "discard_pile": ["R5"], "color": "R",
                "turn": 1}

    async def scenario() -> None:
        rules = Rules(stacking=True)
        for hand, offered in ((["R1", "G2"], "nothing to stack"),
                              (["R1", "G+2"], "Enter stack G+2")):
            game = Game.from_position({**position, "hands": [hand, ["R+2", "Y3"]]}, rules)
            game.push(1, "play R+2")
            app = one_person(game.position(), rules)
            async with app.run_test(size=(80, 24)) as pilot:
                await ready(pilot, app)
                assert app.match is not None and app.match.game.pending is not None
                text = screen_text(app)
                assert f"Stack of 2: {offered}" in text
                assert "Enter play a Draw Two" not in text
                if offered == "nothing to stack":
                    await pilot.press("home", "enter")
                    assert "Stacking: only a card like R+2 can go on the stack" in \
                        screen_text(app)

    run(scenario)


def test_uno_is_not_offered_again_once_said() -> None:
    """Ann says UNO with two cards on her turn: U is offered no more, U again says she
    has said it, and her play logs "says UNO" once (it was offered and logged twice)."""
    position = {"players": 2, "hands": [["R1", "R2"], ["G1", "G2", "G3"]],
                "draw_pile": ["B3", "Y2"], "discard_pile": ["R5"], "color": "R", "turn": 0}

    async def scenario() -> None:
        app = UnoApp(config(SeatConfig("Ann"), SeatConfig("Bob", LEVEL), **FROZEN),
                     game=Game.from_position(position))
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            match = app.match
            assert match is not None
            assert "U: say UNO" in screen_text(app)
            await pilot.press("u")
            assert match.game.uno == [0]
            text = screen_text(app)
            assert "U: say UNO" not in text
            await pilot.press("u")
            assert "You have already said UNO." in screen_text(app)
            await pilot.press("home", "enter")
            assert match.game.hand(0) == ["R2"]
            assert screen_text(app).count("Ann says UNO!") == 1

    run(scenario)
