"""The terminal game runs its match on the shared Table (issue 8): the same seed and bot
levels give the same round as ``uno sim``."""

from __future__ import annotations

import pytest

textual = pytest.importorskip("textual")

from tui_helpers import FAST, FROZEN, ready, run, screen_text, until  # noqa: E402

from unogame.engine import Rules  # noqa: E402
from unogame.sim.runner import SimConfig, play_one, play_table, round_seed  # noqa: E402
from unogame.table import SeatSpec, Table  # noqa: E402
from unogame.tui.app import UnoApp  # noqa: E402
from unogame.tui.match import MatchConfig, SeatConfig  # noqa: E402


@pytest.mark.parametrize(("run_seed", "levels"), [(1, ("hard", "medium", "easy")),
                                                   (3, ("medium", "easy", "random", "random"))])
def test_a_bots_only_tui_round_is_the_sims_round(run_seed: int, levels: tuple[str, ...]) -> None:
    """Round 0 of ``uno sim`` with seed ``run_seed`` is played on a table seeded with
    ``round_seed(run_seed, 0)``, bots in slot order; the terminal game with that seed and
    those levels (no person) plays the very same moves, winner and points."""
    rules = Rules(jump_in=True)  # off-turn jump-ins too, in the table's reaction order
    sim = SimConfig(players=len(levels), bots=levels, games=1, seed=run_seed, rules=rules)
    result = play_one(sim, 0)
    seed = round_seed(run_seed, 0)
    table = Table([SeatSpec(f"{level} {slot}", level) for slot, level in enumerate(levels)],
                  rules, seed)
    play_table(table)
    sim_history = list(table.game.history)
    assert table.game.winner == result.winner

    async def scenario() -> None:
        app = UnoApp(MatchConfig([SeatConfig(f"Bot {i}", level) for i, level in enumerate(levels)],
                                 rules, seed, **FAST))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.match is not None)
            match = app.match
            assert match is not None and match.humans == []
            await until(pilot, lambda: match.game.is_round_over)
            assert list(match.game.history) == sim_history
            assert match.game.winner == result.winner
            assert match.game.scores[result.winner] == result.points

    run(scenario)


def test_first_card_draw_two_is_in_the_log_of_round_one() -> None:
    """Seed 5, three seats: a Draw Two is turned up first (R5.1): the log says the first
    player draws two and is skipped, in round 1 too (the table's start events)."""
    async def scenario() -> None:
        app = UnoApp(MatchConfig([SeatConfig("Ann"), SeatConfig("Bob", "random"),
                                  SeatConfig("Cid", "random")], seed=5, **FROZEN))
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot, app)
            assert app.match is not None and app.match.game.top_card == "G+2"
            text = screen_text(app)
            assert "Round 1: Ann deals, G+2 turned up" in text
            assert "Bob draws 2 (Draw Two)" in text and "Bob is skipped" in text

    run(scenario)
