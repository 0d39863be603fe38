"""``uno league`` (issue 23): tables of distinct entrants, Bradley-Terry ratings with
bootstrap intervals, a resumable league file, plots."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from unogame.sim.league import (
    TableResult,
    elo,
    fit_bradley_terry,
    pairwise_wins,
    rate,
    table_seed,
    tables,
)


def run(argv: list[str]) -> tuple[int, str, str]:
    from unogame.cli import build_parser

    args = build_parser().parse_args(argv)
    out, err = io.StringIO(), io.StringIO()
    code = args.func(args, out, err)
    return code, out.getvalue(), err.getvalue()


def test_bradley_terry_recovers_known_strengths() -> None:
    """Rounds drawn from known strengths (4-player tables): the fitted ratings come back
    within a few Elo points, and the true ones lie inside the 95% intervals."""
    truth = {"a": 1.0, "b": 2.0, "c": 4.0, "d": 0.5, "e": 1.5}
    rng = random.Random(3)
    results = []
    for table in tables(list(truth), 4):
        weights = [truth[entrant] for entrant in table]
        winners = tuple(rng.choices(range(4), weights=weights)[0] for _ in range(1500))
        results.append(TableResult(table, winners))
    fitted = elo(fit_bradley_terry(list(truth), pairwise_wins(results)), "a")
    expected = elo(truth, "a")
    for entrant in truth:
        assert abs(fitted[entrant] - expected[entrant]) < 30, (fitted, expected)
    for rating in rate(list(truth), results, 4, resamples=60):
        assert rating.low - 10 <= expected[rating.entrant] <= rating.high + 10, rating
        assert rating.fair_share == 0.25


def test_tables_and_their_seeds() -> None:
    assert tables(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert len(tables(["a", "b", "c", "d", "e"], 4)) == 5
    # a table's seed depends on the table only: a grown league replays it the same
    assert table_seed(1, ("a", "b"), 2) == table_seed(1, ("a", "b"), 2) != table_seed(
        2, ("a", "b"), 2)
    with pytest.raises(ValueError, match="at least 4 entrants"):
        tables(["a", "b"], 4)
    with pytest.raises(ValueError, match="once"):
        tables(["a", "a", "b"], 2)


def test_a_league_resumes_and_grows_to_what_a_fresh_run_plays(tmp_path: Path) -> None:
    grown = tmp_path / "grown"
    code, out, err = run(["league", "--players", "2", "--bots", "random,rule", "--games",
                          "6", "--seed", "4", "--workers", "1", "--out", str(grown),
                          "--no-plots", "--resamples", "20"])
    assert code == 0, err
    first = json.loads((grown / "league.json").read_text())["tables"]["random|rule"]
    assert len(first["winners"]) == 6
    code, out, err = run(["league", "--players", "2", "--bots", "random,rule,easy", "--games",
                          "10", "--seed", "4", "--workers", "2", "--out", str(grown),
                          "--resamples", "20"])
    assert code == 0, err
    assert "| rule |" in out and "row beats column" in out
    fresh = tmp_path / "fresh"
    code, _, err = run(["league", "--players", "2", "--bots", "random,rule,easy", "--games",
                        "10", "--seed", "4", "--workers", "1", "--out", str(fresh),
                        "--no-plots", "--resamples", "20", "--no-progress"])
    assert code == 0, err
    kept = json.loads((grown / "league.json").read_text())["tables"]
    again = json.loads((fresh / "league.json").read_text())["tables"]
    assert kept == again and kept["random|rule"]["winners"][:6] == first["winners"]
    assert (grown / "ratings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (grown / "ratings.csv").read_text().startswith("entrant,elo,")


def test_a_league_of_other_settings_is_refused_and_kept(tmp_path: Path) -> None:
    code, _, err = run(["league", "--bots", "random,rule", "--games", "2", "--workers", "1",
                        "--out", str(tmp_path), "--no-plots", "--no-progress"])
    assert code == 0, err
    before = (tmp_path / "league.json").read_text()
    code, _, err = run(["league", "--bots", "random,rule", "--games", "2", "--workers", "1",
                        "--seed", "9", "--out", str(tmp_path), "--no-plots"])
    assert code == 1 and "other settings" in err
    assert (tmp_path / "league.json").read_text() == before
    code, _, err = run(["league", "--bots", "random,grandmaster", "--games", "2"])
    assert code == 1 and "unknown bot level" in err
    code, _, err = run(["league", "--players", "4", "--bots", "random,rule", "--games", "2"])
    assert code == 1 and "at least 4 entrants" in err


def test_a_four_player_league_rates_every_entrant() -> None:
    code, out, err = run(["league", "--players", "4", "--bots", "random,rule,easy,medium",
                          "--games", "4", "--workers", "1", "--resamples", "10",
                          "--no-progress"])
    assert code == 0, err
    assert "1 tables x 4 rounds" in out
    for entrant in ("random", "rule", "easy", "medium"):
        assert f"| {entrant} |" in out
