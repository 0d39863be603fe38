"""``uno sim`` end to end, and the simulator's statistics (issue 3)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from unogame.cli import main as uno_main
from unogame.engine import Rules
from unogame.sim.runner import SimConfig, run_rounds
from unogame.sim.stats import summarize, wilson_interval


def run_sim(argv: list[str]) -> tuple[int, str, str]:
    from unogame.cli import build_parser

    args = build_parser().parse_args(argv)
    out, err = io.StringIO(), io.StringIO()
    code = args.func(args, out, err)
    return code, out.getvalue(), err.getvalue()


def test_sim_end_to_end_writes_its_files(tmp_path: Path) -> None:
    out_dir = tmp_path / "run"
    code, out, err = run_sim(["sim", "--players", "3", "--bots", "medium,easy,random",
                              "--games", "24", "--seed", "3", "--workers", "2",
                              "--stacking", "--out", str(out_dir)])
    assert code == 0, err
    assert "medium" in out and "95% CI" in out and "seat advantage" in out
    assert "24/24 rounds" in err  # the progress bar
    names = sorted(path.name for path in out_dir.iterdir())
    assert names == ["bots.csv", "points.png", "results.json", "round_lengths.png",
                     "rounds.csv", "win_rates.png"]
    for name in ("points.png", "round_lengths.png", "win_rates.png"):
        assert (out_dir / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    document = json.loads((out_dir / "results.json").read_text())
    assert document["config"]["rules"] == {"stacking": True}
    assert len(document["rounds"]) == 24
    wins = {bot["label"]: bot["wins"] for bot in document["summary"]["bots"]}
    assert sum(wins.values()) == 24
    with (out_dir / "rounds.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 24
    assert {row["winner"] for row in rows} <= {"medium", "easy", "random"}
    assert sum(1 for row in rows if row["winner"] == "medium") == wins["medium"]
    with (out_dir / "bots.csv").open() as handle:
        bots = list(csv.DictReader(handle))
    assert [bot["bot"] for bot in bots] == ["medium", "easy", "random"]
    # seats rotate: every bot sat first to play in some rounds
    seats = [row["seats"].split() for row in rows]
    assert {seat[0] for seat in seats} == {"medium", "easy", "random"}


def test_same_seed_same_results_on_any_number_of_workers() -> None:
    config = SimConfig(4, ("medium", "easy", "medium", "random"), 16, seed=5,
                       rules=Rules(jump_in=True))
    one = run_rounds(config, workers=1)
    two = run_rounds(config, workers=2)
    assert one == two
    other = run_rounds(SimConfig(4, config.bots, 16, seed=6, rules=config.rules), workers=1)
    assert other != one


def test_sim_refuses_bad_options() -> None:
    code, _, err = run_sim(["sim", "--players", "2", "--bots", "medium,wizard"])
    assert code == 1 and "unknown bot level 'wizard'" in err
    code, _, err = run_sim(["sim", "--players", "3", "--bots", "medium,easy"])
    assert code == 1 and "2 bots for 3 players" in err
    code, _, err = run_sim(["sim", "--rules", '{"stakcing": true}'])
    assert code == 1 and "stakcing" in err


def test_uno_main_knows_sim(capsys: object) -> None:
    assert uno_main(["sim", "--players", "2", "--bots", "easy,random", "--games", "4",
                     "--workers", "1", "--no-progress"]) == 0


def test_wilson_interval_and_summary() -> None:
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and 0.25 < high < 0.35
    config = SimConfig(2, ("medium", "medium"), 10, seed=1)
    results = run_rounds(config, workers=1)
    summary = summarize(config.bots, results)
    assert [bot.label for bot in summary.bots] == ["medium#1", "medium#2"]
    assert summary.levels["medium"]["win_rate"] == 1.0
    assert sum(position.wins for position in summary.positions) == 10
    assert summary.mean_turns == sum(r.turns for r in results) / 10


def test_a_sim_round_is_the_table_round_of_its_seed() -> None:
    """The simulator only runs the table's requests: a front end pacing the same table
    (threads, time passing) plays the same round."""
    import concurrent.futures

    from unogame.sim.runner import play_one, round_seed
    from unogame.table import PLAYING, DecisionRequest, SeatSpec, Table

    config = SimConfig(3, ("hard", "medium", "easy"), 4, seed=9, rules=Rules(jump_in=True))
    result = play_one(config, 2)
    seats = [SeatSpec(f"{config.bots[slot]} {slot}", config.bots[slot])
             for slot in result.seats]
    table = Table(seats, config.rules, round_seed(config.seed, 2))
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        while table.status == PLAYING:
            step = table.next_step()
            assert isinstance(step, DecisionRequest)
            table.advance(step.delay + 0.3)
            play = table.resolve(step, *pool.submit(step.decide).result())
            if play is not None:
                table.apply(play)
    assert table.game.winner == result.winner
    assert table.game.scores[result.winner] == result.points


def test_a_bot_that_fails_stops_the_sim_with_a_clear_error() -> None:
    import pytest

    from unogame.bots import BOT_LEVELS, RandomBot
    from unogame.sim.runner import BotError

    class Broken(RandomBot):
        level = "broken"

        def choose(self, view: object, legal: object) -> None:  # type: ignore[override]
            raise RuntimeError("cannot think")

    BOT_LEVELS["broken"] = Broken
    try:
        with pytest.raises(BotError, match=r"broken bot at seat .*cannot think"):
            run_rounds(SimConfig(2, ("broken", "random"), 1, seed=1), workers=1)
        # a round that will not end is named, with where the cards are
        with pytest.raises(BotError, match=r"^round 0 of seed 1 \(table seed \d+, seats "
                           r"random, medium\): the round did not end within 3 decisions "
                           r"\(hand sizes \[\d+, \d+\], draw pile \d+, discard pile \d+\)$"):
            run_rounds(SimConfig(2, ("random", "medium"), 3, seed=1, max_decisions=3),
                       workers=1)
    finally:
        del BOT_LEVELS["broken"]
