"""``uno league``: a round-robin of any bots with ratings, a table and a plot; resumable.

``uno league --players 2 --bots random,rule,easy,medium,hard --games 200 --out league/``
plays every table of two distinct entrants (:mod:`.league`), prints the ratings as a
Markdown table and, with ``--out``, writes ``league.json`` (every round's winner, saved as
the run goes: the same command run again goes on where it stopped, and a league given more
entrants or more ``--games`` plays only what is missing), ``ratings.csv``, ``ratings.md``
and ``ratings.png``. ``--ray`` plays each table's rounds as Ray tasks.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from ..bots import make_bot
from ..engine import Rules, RulesError
from .league import (
    Rating,
    TableResult,
    format_ratings,
    head_to_head,
    rate,
    table_seed,
    tables,
)
from .ray_runner import LOCAL, RayRunError, RayUnavailableError
from .runner import BotError, RoundResult, SimConfig, play_chunk, start_method

STATE_FILE = "league.json"
SAVE_EVERY = 40
"""Rounds between two saves of ``league.json`` (a resumed league loses at most these)."""


def register(subparsers: Any) -> None:
    """Add the ``league`` subcommand."""
    parser = subparsers.add_parser(
        "league", help="a round-robin of bots: ratings with 95%% intervals, resumable",
        description="Every table of --players distinct entrants plays --games rounds, seats "
                    "rotated; prints Bradley-Terry ratings (Elo scale) with 95%% bootstrap "
                    "intervals and win rates with 95%% Wilson intervals.")
    parser.add_argument("--bots", required=True,
                        help="comma-separated entrants: levels, policy:PATH, plugin levels")
    parser.add_argument("--players", type=int, default=2, help="seats at each table")
    parser.add_argument("--games", type=int, default=200, help="rounds per table")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", default=None, help="rule options as JSON")
    parser.add_argument("--workers", type=int, default=None,
                        help="processes (default: every core)")
    parser.add_argument("--ray", nargs="?", const=LOCAL, default=None, metavar="ADDRESS",
                        help="play each table's rounds as Ray tasks (the [ray] extra)")
    parser.add_argument("--out", type=Path, default=None,
                        help="directory for league.json (resumable), ratings.csv/.md/.png")
    parser.add_argument("--resamples", type=int, default=200,
                        help="bootstrap resamples for the rating intervals")
    parser.add_argument("--no-plots", action="store_true", help="with --out: no PNG file")
    parser.add_argument("--no-progress", action="store_true", help="no progress lines")
    parser.set_defaults(func=cmd_league)


def cmd_league(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    try:
        options = json.loads(args.rules) if args.rules else {}
        if not isinstance(options, dict):
            raise RulesError("--rules must be a JSON object")
        rules = Rules.from_dict(options)
    except (json.JSONDecodeError, RulesError, TypeError) as error:
        print(f"uno league: bad rules: {error}", file=err)
        return 1
    entrants = [name.strip() for name in args.bots.split(",") if name.strip()]
    try:
        for entrant in entrants:
            make_bot(entrant)
        schedule = tables(entrants, args.players)
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        state = load_state(args.out, args.players, args.seed, rules)
    except ValueError as error:
        print(f"uno league: {error}", file=err)
        return 1
    workers = args.workers or os.cpu_count() or 1
    started = time.perf_counter()
    try:
        for table in schedule:
            play_table_rounds(table, args, rules, state, workers, err)
    except BotError as error:
        print(f"uno league: {error}", file=err)
        return 2
    except RayUnavailableError as error:
        print(f"uno league: --ray needs Ray (pip install 'unogame[ray]'): {error}", file=err)
        return 1
    except RayRunError as error:
        print(f"uno league: Ray failed: {error}", file=err)
        return 1
    results = [TableResult(table, tuple(state["tables"][key(table)]["winners"][:args.games]))
               for table in schedule]
    ratings = rate(entrants, results, args.players, args.resamples, args.seed)
    rounds = sum(len(result.winners) for result in results)
    print(f"league: {len(entrants)} entrants, {args.players} players, {len(schedule)} tables "
          f"x {args.games} rounds ({rounds} rounds), seed {args.seed}, rules "
          f"{json.dumps(rules.to_dict())}", file=out)
    print(format_ratings(ratings), file=out)
    if args.players == 2:
        print("", file=out)
        print(format_head_to_head(entrants, results), file=out)
    print(f"rating: Bradley-Terry, Elo scale, {ratings_anchor(entrants)} = 0; 95% CI: "
          f"{args.resamples} bootstrap resamples of the rounds; "
          f"{time.perf_counter() - started:.0f} s", file=out)
    if args.out is not None:
        paths = write_outputs(args.out, ratings, args.players, plots=not args.no_plots)
        print(f"wrote {', '.join(str(path) for path in paths)}", file=out)
    return 0


def ratings_anchor(entrants: list[str]) -> str:
    return "random" if "random" in entrants else entrants[0]


def key(table: tuple[str, ...]) -> str:
    return "|".join(table)


def load_state(directory: Path | None, players: int, seed: int, rules: Rules) -> dict[str, Any]:
    """The league saved in ``directory`` (a new one if none); a league of other settings
    there is refused."""
    settings = {"players": players, "seed": seed, "rules": rules.to_dict()}
    if directory is None or not (directory / STATE_FILE).is_file():
        return {"version": 1, **settings, "tables": {}}
    try:
        state: dict[str, Any] = json.loads((directory / STATE_FILE).read_text("utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(f"cannot read {directory / STATE_FILE}: {error}") from None
    if not isinstance(state, dict) or state.get("version") != 1 or not isinstance(
            state.get("tables"), dict):
        raise ValueError(f"{directory / STATE_FILE} is not a league file")
    mine = {name: state.get(name) for name in settings}
    if mine != settings:
        raise ValueError(f"{directory / STATE_FILE} holds a league with other settings "
                         f"({json.dumps(mine)}): use another --out")
    return state


def save_state(directory: Path | None, state: dict[str, Any]) -> None:
    if directory is None:
        return
    directory.mkdir(parents=True, exist_ok=True)
    temporary = directory / (STATE_FILE + ".tmp")
    temporary.write_text(json.dumps(state) + "\n", encoding="utf-8")
    temporary.replace(directory / STATE_FILE)  # never a half-written league file


def play_table_rounds(table: tuple[str, ...], args: argparse.Namespace, rules: Rules,
                      state: dict[str, Any], workers: int, err: TextIO) -> None:
    """Play the rounds ``table`` still lacks, saving as it goes."""
    entry = state["tables"].setdefault(key(table), {
        "entrants": list(table), "seed": table_seed(args.seed, table, args.players),
        "winners": []})
    winners: list[int] = entry["winners"]
    if len(winners) >= args.games:
        return
    config = SimConfig(args.players, table, args.games, entry["seed"], rules)
    started = time.perf_counter()
    if args.ray is not None:
        from .cli import run_on_ray

        def progress(done: int, total: int) -> None:
            pass

        played, _ = run_on_ray(args.ray, config, args.workers, progress)
        winners[len(winners):] = [result.winner_slot for result in played[len(winners):]]
        save_state(args.out, state)
    else:
        while len(winners) < args.games:
            stop = min(args.games, len(winners) + max(SAVE_EVERY, 4 * workers))
            part = play_range(config, len(winners), stop, workers)
            winners.extend(result.winner_slot for result in part)
            save_state(args.out, state)
            if not args.no_progress:
                print(f"  {' vs '.join(table)}: {len(winners)}/{args.games} rounds "
                      f"({time.perf_counter() - started:.0f} s)", file=err, flush=True)


def play_range(config: SimConfig, start: int, stop: int, workers: int,
               play: Callable[[tuple[SimConfig, int, int, bool]], list[RoundResult]]
               = play_chunk) -> list[RoundResult]:
    """Rounds ``start`` to ``stop - 1`` of a run, on ``workers`` processes, in order."""
    size = max(1, (stop - start + workers - 1) // workers)
    jobs = [(config, first, min(stop, first + size), False) for first in range(start, stop, size)]
    if workers <= 1 or len(jobs) <= 1:
        parts = [play(job) for job in jobs]
    else:
        context = multiprocessing.get_context(start_method(config.bots))
        with context.Pool(min(workers, len(jobs))) as pool:
            parts = pool.map(play, jobs)
    return [result for part in parts for result in part]


def format_head_to_head(entrants: list[str], results: list[TableResult]) -> str:
    """Two-player leagues: the row entrant's share of the rounds against the column's."""
    share = head_to_head(results)
    lines = ["| row beats column | " + " | ".join(entrants) + " |",
             "| --- |" + " ---: |" * len(entrants)]
    for row in entrants:
        cells = []
        for column in entrants:
            if row == column:
                cells.append("")
            elif (row, column) in share:
                cells.append(f"{share[row, column][0]:.1%}")
            else:
                cells.append(f"{share[column, row][1]:.1%}")
        lines.append(f"| {row} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_outputs(directory: Path, ratings: list[Rating], players: int,
                  plots: bool = True) -> list[Path]:
    """``ratings.csv``, ``ratings.md`` and ``ratings.png`` (95% intervals as error bars)."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    path = directory / "ratings.csv"
    lines = ["entrant,elo,elo_low,elo_high,rounds,wins,win_rate,win_low,win_high"]
    lines.extend(f"{r.entrant},{r.elo:.1f},{r.low:.1f},{r.high:.1f},{r.rounds},{r.wins},"
                 f"{r.win_rate:.4f},{r.win_low:.4f},{r.win_high:.4f}" for r in ratings)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    written.append(path)
    path = directory / "ratings.md"
    path.write_text(format_ratings(ratings) + "\n", encoding="utf-8")
    written.append(path)
    if plots:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        figure, axes = plt.subplots(figsize=(7, 0.6 * len(ratings) + 1.5))
        names = [r.entrant for r in reversed(ratings)]
        values = [r.elo for r in reversed(ratings)]
        errors = [[r.elo - r.low for r in reversed(ratings)],
                  [r.high - r.elo for r in reversed(ratings)]]
        axes.errorbar(values, names, xerr=errors, fmt="o", capsize=5, color="#d62828")
        axes.set_xlabel("rating (Bradley-Terry, Elo scale; 95% bootstrap interval)")
        axes.set_title(f"League, {players} players")
        figure.tight_layout()
        path = directory / "ratings.png"
        figure.savefig(path, dpi=100)
        plt.close(figure)
        written.append(path)
    return written
