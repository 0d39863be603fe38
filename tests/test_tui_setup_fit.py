"""The setup screen at 80x24 in both languages (issue 24, items 8 and 9): the rule
builder fits (who whole, the count fields on the screen), and F2 back and forth keeps
every label whole and in the screen's language."""

from __future__ import annotations

from typing import Any

import pytest

textual = pytest.importorskip("textual")

from rich.cells import cell_len  # noqa: E402
from textual.widgets import Input, Select  # noqa: E402
from tui_helpers import run, screen_text, shown, until  # noqa: E402

from unogame.engine.custom import ALLOWED_WHO, WHAT  # noqa: E402
from unogame.i18n import translate  # noqa: E402
from unogame.tui.app import UnoApp  # noqa: E402
from unogame.tui.rule_builder import RuleBuilder  # noqa: E402
from unogame.tui.screens.setup import HOUSE_RULES, ON_RULES, OWN_RULE, SetupScreen  # noqa: E402
from unogame.tui.words import Words  # noqa: E402


async def builder_shown(pilot: Any, app: UnoApp) -> tuple[SetupScreen, RuleBuilder]:
    await shown(pilot, app, SetupScreen)
    setup = app.screen
    assert isinstance(setup, SetupScreen)
    setup.query_one("#custom", Select).value = OWN_RULE
    builder = setup.query_one(RuleBuilder)
    await until(pilot, lambda: builder.display)
    await pilot.pause()
    return setup, builder


def on_screen(app: UnoApp, widget: Any) -> bool:
    region = widget.region
    return (widget.display and region.width > 0 and region.right <= app.size.width
            and region.bottom <= app.size.height)


@pytest.mark.parametrize("lang", ["en", "th"])
def test_the_rule_builder_fits_80x24(lang: str) -> None:
    """Each step's who shows whole ("the next p" was cut) and its count field is on the
    screen: typing 3 there shows the 3 (it was off the right edge)."""

    async def scenario() -> None:
        app = UnoApp(lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            _, builder = await builder_shown(pilot, app)
            count = builder.query_one("#step-count-0", Input)
            count.focus()
            await until(pilot, lambda: app.focused is count)
            await pilot.pause()
            assert on_screen(app, count)
            await pilot.press("end", "backspace", "3")
            await pilot.pause()
            assert count.value == "3"
            who = builder.query_one("#step-who-0", Select)
            who.scroll_visible(animate=False)
            await pilot.pause()
            assert on_screen(app, who)
            text = screen_text(app)
            line = next(row for row in text.splitlines()
                        if str(translate(lang, "common.what.draw")) in row)
            assert line.rstrip().endswith("3"), line
            assert translate(lang, "common.who.next") in text
            # the longest choices show whole too: what and who on step 2
            whats = [what for what in WHAT if "chosen" in ALLOWED_WHO[what]]
            longest = max(whats, key=lambda what: cell_len(translate(lang, f"common.what.{what}")))
            builder.query_one("#step-what-1", Select).value = longest
            await pilot.pause()
            builder.query_one("#step-who-1", Select).value = "chosen"
            await pilot.pause()
            builder.query_one("#step-who-1").scroll_visible(animate=False)
            await pilot.pause()
            text = screen_text(app)
            assert translate(lang, f"common.what.{longest}") in text
            assert translate(lang, "common.who.chosen") in text

    run(scenario)


def test_f2_from_thai_back_to_english_keeps_the_labels_whole() -> None:
    """Thai, F2: every house rule's label is whole in English ("[x] Wild Draw Four"
    without "may be challenged" changed its meaning), "(no step)" is English, and in
    Thai the seed's label is Thai."""

    async def scenario() -> None:
        app = UnoApp(lang="th")
        async with app.run_test(size=(80, 24)) as pilot:
            setup, builder = await builder_shown(pilot, app)
            seed_label = str(setup.query_one("#l-seed").render())
            assert "Seed" not in seed_label and "สุ่ม" in seed_label
            await pilot.press("f2")
            await pilot.pause()
            words = Words("en")
            for rule in HOUSE_RULES + ON_RULES:
                toggle = setup.query_one(f"#rule-{rule}")
                label = words.tc(f"common.rule.{rule}", f"tui.rule.{rule}")
                toggle.scroll_visible(animate=False)
                await pilot.pause()
                assert label in screen_text(app), label
            builder.query_one("#step-what-3").scroll_visible(animate=False)
            await pilot.pause()
            text = screen_text(app)
            assert "(no step)" in text and "(ไม่มีขั้นตอน)" not in text
            assert "Seed (empty: random)" in str(setup.query_one("#l-seed").render())

    run(scenario)


@pytest.mark.parametrize("lang", ["en", "th"])
def test_the_seat_kinds_show_their_arrow_at_80_columns(lang: str) -> None:
    """Each seat's person/bot choice ends inside the form, its ▼ shown (it was cut at
    80 columns)."""

    async def scenario() -> None:
        app = UnoApp(lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await shown(pilot, app, SetupScreen)
            await pilot.pause()
            setup = app.screen
            form = setup.query_one("#setup")
            right = form.region.right - form.styles.scrollbar_size_vertical
            for seat in range(4):
                kind = setup.query_one(f"#kind-{seat}", Select)
                assert kind.region.right <= right, (seat, kind.region, right)
            rows = [row for row in screen_text(app).splitlines()
                    if translate(lang, "tui.setup.seat", seat=1) in row]
            assert rows and "▼" in rows[0], rows

    run(scenario)
