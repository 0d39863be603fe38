"""Issue 24, the terminal: a card is played by clicking it (a refused one says why, in the
player's language); a footer of keys that fits the width, in Thai and English; the family
rule's log line wrapped, never cut (it was cut at 80 and 120 columns). Pilot tests at
80x24 and 120x40 in both languages."""

from __future__ import annotations

from typing import Any

import pytest

textual = pytest.importorskip("textual")

from tui_helpers import FROZEN, LEVEL, config, game_screen, ready, run, screen_text, until  # noqa: E402

from unogame.engine import Game, Rules  # noqa: E402
from unogame.engine.custom import CustomRule, Step  # noqa: E402
from unogame.i18n import translate  # noqa: E402
from unogame.tui.app import UnoApp  # noqa: E402
from unogame.tui.match import SeatConfig  # noqa: E402
from unogame.tui.refusals import play_move, refusal_text  # noqa: E402
from unogame.tui.widgets import HandView, KeyFooter  # noqa: E402
from unogame.tui.words import Words  # noqa: E402

SIZES = [(80, 24), (120, 40)]
LANGS = ["en", "th"]
GRANDMA = CustomRule((Step("others", "draw", 1), Step("next", "skip", 1)), "Grandma's rule",
                     "everybody draws one card and the next one waits a turn, says grandma")
NAMES = ["Ann", "Bot 1", "Bot 2"]


def grandma_app(lang: str) -> UnoApp:
    position: dict[str, Any] = {
        "players": 3, "hands": [["WC", "G7", "B2"], ["Y1", "Y2"], ["B5", "B6"]],
        "draw_pile": ["G1", "G2", "G3"], "discard_pile": ["R5"], "color": "R", "turn": 0}
    rules = Rules(custom_rule=GRANDMA)
    seats = [SeatConfig(NAMES[0]), SeatConfig(NAMES[1], LEVEL), SeatConfig(NAMES[2], LEVEL)]
    return UnoApp(config(*seats, rules=rules, lang=lang, **FROZEN),
                  game=Game.from_position(position, rules))


async def click_card(pilot: Any, app: UnoApp, code: str) -> None:
    """A click on ``code`` in the hand, where it is drawn on the screen."""
    hand = game_screen(app).query_one(HandView)
    index = hand.cards.index(code)
    x = sum(len(card) + 2 for card in hand.cards[:index]) + 1  # each card: " R7 " or "[R7]"
    await pilot.click(HandView, offset=(2 + x, 1))  # inside its border and padding
    await pilot.pause()


def log_text(app: UnoApp) -> str:
    """The log's rows, their borders taken off, as one line (a wrapped line whole again)."""
    rows = screen_text(app).splitlines()
    start = next(i for i, row in enumerate(rows) if row.startswith("╭─ ") and (
        "Log" in row or "บันทึก" in row))
    end = next(i for i in range(start + 1, len(rows)) if rows[i].startswith("╰"))
    return " ".join(" ".join(row.strip("│ ") for row in rows[start + 1:end]).split())


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_a_click_plays_a_card_and_the_family_rule_is_logged_whole(lang: str,
                                                                  size: tuple[int, int]) -> None:
    async def scenario() -> None:
        app = grandma_app(lang)
        async with app.run_test(size=size) as pilot:
            await ready(pilot, app)
            assert app.local is not None
            game = app.local.game
            screen = game_screen(app)
            await click_card(pilot, app, "B2")  # not playable: the engine's reason
            assert screen.message == refusal_text(Words(lang, NAMES), game, 0, play_move("B2"))
            assert game.turn == 0 and len(game.hands[0]) == 3
            await click_card(pilot, app, "WC")  # playable: played (its colour asked)
            await until(pilot, lambda: screen.choosing)
            await pilot.press("r")
            await until(pilot, lambda: len(game.hands[0]) == 2)
            assert game.top_card == "WC" and game.turn == 2
            await pilot.pause()
            words = Words(lang, NAMES)
            line = words.event_line({"type": "custom", "seat": 0, "rule": "composed",
                                     **GRANDMA.to_dict()})
            assert line is not None and len(line) > size[0]  # longer than the screen
            assert " ".join(line.split()) in log_text(app)  # wrapped, not cut
            assert "…" not in log_text(app)

    run(scenario)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_the_key_footer_fits_and_follows_the_language(lang: str,
                                                      size: tuple[int, int]) -> None:
    async def scenario() -> None:
        app = grandma_app(lang)
        async with app.run_test(size=size) as pilot:
            await ready(pilot, app)
            footer = game_screen(app).query_one(KeyFooter)
            row = screen_text(app).splitlines()[-1]
            for key in ("footer.help", "footer.quit", "footer.draw", "footer.play"):
                assert translate(lang, f"tui.{key}") in row, (key, row)
            assert "^Q" in row and "F2" in row
            assert footer.render().cell_len <= size[0]
            assert footer.region.y == size[1] - 1  # the last row
            other = "th" if lang == "en" else "en"
            await pilot.press("f2")
            await pilot.pause()
            row = screen_text(app).splitlines()[-1]
            assert translate(other, "tui.footer.quit") in row
            if size[0] >= 120:  # room for every key
                assert translate(other, "tui.footer.log") in row
                assert translate(other, "tui.footer.catch") in row

    run(scenario)
