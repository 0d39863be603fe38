"""``uno sim``: bots play many rounds against each other; a table, and files with ``--out``.

``uno sim --players 4 --bots hard,medium,medium,medium --games 2000 --seed 1``
``uno sim ... --ray`` plays the rounds as Ray tasks (a local Ray; ``--ray ADDRESS``: a cluster).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any, TextIO

from ..bots import BOT_LEVELS, make_bot
from ..engine import Rules, RulesError
from ..i18n import LANGUAGES, translate
from ..native import supports
from .ray_runner import LOCAL, RayRunError, RayUnavailableError
from .runner import BotError, RoundResult, SimConfig, run_rounds
from .stats import format_table, summarize


def register(subparsers: Any) -> None:
    """Add the ``sim`` subcommand."""
    parser = subparsers.add_parser(
        "sim", help="bots play many rounds; win rates, points, round lengths, plots",
        description="Bots play many rounds (a 'game' here is one round) with seats rotated, "
                    "on every core; prints win rates with 95%% confidence intervals.")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default=None,
                        help="comma-separated levels by slot, e.g. hard,medium,medium,medium "
                             f"(levels: {', '.join(BOT_LEVELS)}, policy:PATH; default: all medium)")
    parser.add_argument("--games", type=int, default=1000, help="rounds to play")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None,
                        help="processes (default: every core)")
    parser.add_argument("--ray", nargs="?", const=LOCAL, default=None, metavar="ADDRESS",
                        help="play the rounds as Ray tasks (the [ray] extra): on a Ray of its "
                             "own on this machine (--workers CPUs), or on the Ray cluster at "
                             "ADDRESS (its head node, e.g. 10.0.0.5:6379); the same results as "
                             "without --ray")
    parser.add_argument("--out", type=Path, default=None,
                        help="directory for results.json, rounds.csv, bots.csv and PNG plots")
    parser.add_argument("--no-plots", action="store_true", help="with --out: no PNG files")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--no-native", action="store_true",
                        help="deal and play the rounds with the pure-Python engine, not the "
                             "compiled core (the results are the same; UNOGAME_NO_NATIVE=1 "
                             "turns the core off for the bots' searches too)")
    parser.add_argument("--rules", default=None,
                        help='rule options as JSON, e.g. \'{"stacking": true}\'')
    house = parser.add_argument_group("house rules (override --rules)")
    for field in fields(Rules):
        flag = "--" + field.name.replace("_", "-")
        if field.type in ("bool", bool):
            if field.default:
                house.add_argument("--no-" + field.name.replace("_", "-"), dest=field.name,
                                   action="store_false", default=None,
                                   help=f"turn off {field.name}")
            else:
                house.add_argument(flag, dest=field.name, action="store_true", default=None,
                                   help=f"turn on {field.name}")
        else:
            kind = int if field.type in ("int", int) else str
            house.add_argument(flag, dest=field.name, type=kind, default=None,
                               help=f"{field.name} (default {field.default})")
    parser.set_defaults(func=cmd_sim)
    from .league_cli import register as register_league

    register_league(subparsers)


def cmd_sim(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    try:
        options = json.loads(args.rules) if args.rules else {}
        if not isinstance(options, dict):
            raise RulesError("--rules must be a JSON object")
        for field in fields(Rules):
            value = getattr(args, field.name, None)
            if value is not None:
                options[field.name] = value
        rules = Rules.from_dict(options)
    except (json.JSONDecodeError, RulesError, TypeError) as error:
        print(f"uno sim: bad rules: {error}", file=err)
        return 1
    levels = tuple(args.bots.split(",")) if args.bots else ("medium",) * args.players
    for level in dict.fromkeys(levels):
        try:
            make_bot(level)
        except ValueError as error:
            print(f"uno sim: {error}", file=err)
            return 1
    if not 2 <= args.players <= 10:
        print("uno sim: --players must be from 2 to 10", file=err)
        return 1
    if len(levels) != args.players:
        print(f"uno sim: --bots names {len(levels)} bots for {args.players} players", file=err)
        return 1
    if args.games < 1:
        print("uno sim: --games must be at least 1", file=err)
        return 1
    config = SimConfig(args.players, levels, args.games, args.seed, rules,
                       native=not args.no_native)
    workers = args.workers or os.cpu_count() or 1
    started = time.perf_counter()
    show = not args.no_progress

    def progress(done: int, total: int) -> None:
        if show:
            width = 30
            filled = width * done // total
            elapsed = time.perf_counter() - started
            print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} rounds "
                  f"{elapsed:.0f}s", end="", file=err, flush=True)

    try:
        if args.ray is None:
            results = run_rounds(config, workers, progress=progress)
            where = f"on {workers} workers"
        else:
            results, cpus = run_on_ray(args.ray, config, args.workers, progress)
            where = f"as Ray tasks on {cpus} CPUs, Ray's start-up included"
    except BotError as error:
        print(f"\nuno sim: {error}", file=err)
        return 2
    except RayUnavailableError as error:
        say_in_both(err, "sim.ray_missing", error=error)
        return 1
    except RayRunError as error:
        if show:
            print(file=err)
        say_in_both(err, "sim.ray_failed", error=error)
        return 1
    if show:
        print(file=err)
    summary = summarize(levels, results)
    print(f"{args.players} players, bots {','.join(levels)}, {args.games} rounds, "
          f"seed {args.seed}, rules {json.dumps(rules.to_dict())}", file=out)
    print(format_table(summary), file=out)
    elapsed = time.perf_counter() - started
    core = "on" if config.native and supports(rules) else "off"
    print(f"{args.games} rounds in {elapsed:.1f} s: {args.games / elapsed:.1f} rounds/s "
          f"{where} (compiled core {core})", file=out)
    if args.out is not None:
        from .report import write_results

        paths = write_results(args.out, config, results, summary, plots=not args.no_plots)
        print(f"wrote {', '.join(str(path) for path in paths)}", file=out)
    return 0


def run_on_ray(address: str, config: SimConfig, cpus: int | None,
               progress: Callable[[int, int], None]) -> tuple[list[RoundResult], int]:
    """The run's rounds as Ray tasks (Ray is imported only now); returns them and Ray's CPUs."""
    from .ray_runner import ray_cpus, ray_session, run_rounds_on_ray

    with ray_session(address, cpus) as ray:
        return run_rounds_on_ray(ray, config, progress=progress), ray_cpus(ray)


def say_in_both(err: TextIO, key: str, **fields: Any) -> None:
    """An error line in each language (``uno sim`` has no language option)."""
    for language in LANGUAGES:
        print(f"uno sim: {translate(language, key, **fields)}", file=err)
