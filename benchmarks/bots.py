"""Bot strength and speed (issue 3), with 95% confidence intervals.

    .venv/bin/python benchmarks/bots.py                       # the issue's counts
    .venv/bin/python benchmarks/bots.py --scale 0.1           # a tenth of every count

A "game" here is one round (the first seat to empty its hand wins). Seats rotate every
round, so each bot plays first equally often. Sections:

1. 2 players, each level against ``random`` (a uniformly random legal move, the project's
   ``random`` level) and against ``random_play`` (a random *playable* card, drawing only
   when nothing can be played, as RLCard's random agent and the UnoAI baseline play).
   Targets: ``medium`` >= 62%, ``hard`` >= 70% (issue 12, with the compiled core:
   ``hard`` >= 82% against ``random_play``).
2. 2 players, ``hard`` against ``medium``: target >= 58% (issue 12, with the core: 65%).
3. 4 players, one ``hard`` against three ``medium``: target >= 35% of rounds (fair 25%;
   issue 12, with the core: 38%).
4. ``hard``'s decision time on one core (one process), against ``medium`` with 2 and 4
   players, over its on-turn decisions with more than one option (the searched ones):
   target median <= 100 ms, p99 <= 500 ms. Sections 1-3 run on every core; their times
   are printed too but depend on what else the machine runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any

from unogame.bots import BOT_LEVELS, Bot
from unogame.engine import Move
from unogame.engine.moves import DRAW, PLAY
from unogame.sim.runner import RoundResult, SimConfig, run_rounds
from unogame.sim.stats import wilson_interval


class RandomPlayBot(Bot):
    """A random playable card (any legal play or decision), drawing only when it must;
    always says UNO with its play, never catches. The usual 'random player' of UNO papers."""

    level = "random_play"

    def choose(self, view: dict[str, Any], legal: Any) -> Move | None:
        if view["turn"] != self.seat:
            return None
        turn = [m for m in legal if m.kind not in (6, 7)]  # not uno / catch
        plays = [m for m in turn if m.kind == PLAY]
        pool = plays or [m for m in turn if m.kind != DRAW] or turn
        move: Move = pool[int(self.rng.random() * len(pool))]
        if move.kind == PLAY and not move.uno:
            with_uno = Move.from_code(move.code | 1 << 19)
            if with_uno in legal:
                return with_uno
        return move


def win_line(label: str, results: list[RoundResult], slot: int, target: float | None,
             elapsed: float) -> str:
    wins = sum(1 for result in results if result.winner_slot == slot)
    low, high = wilson_interval(wins, len(results))
    rate = wins / len(results)
    verdict = ""
    if target is not None:
        verdict = ("  meets" if rate >= target else "  MISSES") + f" target {target:.0%}"
        if low >= target:
            verdict += " (CI above)"
        elif high < target:
            verdict += f" (CI below, by {target - rate:.1%})"
    return (f"{label:<34} {wins:>6}/{len(results):<6} {rate:6.1%}  95% CI "
            f"[{low:.1%}, {high:.1%}]{verdict}  ({elapsed:.0f}s)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every count")
    parser.add_argument("--random-games", type=int, default=10_000)
    parser.add_argument("--hard-random-games", type=int, default=2_000)
    parser.add_argument("--hard-medium-games", type=int, default=2_000)
    parser.add_argument("--four-player-games", type=int, default=2_000)
    parser.add_argument("--timing-games", type=int, default=30,
                        help="rounds of section 4 (two thirds with 2 players, a third with 4)")
    parser.add_argument("--levels", default="easy,medium,hard")
    parser.add_argument("--opponents", default="random,random_play")
    parser.add_argument("--sections", default="1,2,3,4")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    BOT_LEVELS.setdefault("random_play", RandomPlayBot)  # workers inherit it (fork)
    sections = set(args.sections.split(","))

    def count(number: int) -> int:
        return max(2, int(number * args.scale))

    def run(bots: tuple[str, ...], games: int, timed: bool = False,
            workers: int | None = None) -> tuple[list[RoundResult], float]:
        start = time.perf_counter()
        config = SimConfig(len(bots), bots, games, args.seed)
        results = run_rounds(config, workers or args.workers, timed=timed)
        return results, time.perf_counter() - start

    def times(label: str, timings: list[float]) -> None:
        timings.sort()
        median = statistics.median(timings) * 1000
        p99 = timings[min(len(timings) - 1, int(len(timings) * 0.99))] * 1000
        print(f"{label}: {len(timings)} searched decisions, median {median:.1f} ms "
              f"(target <= 100), p99 {p99:.1f} ms (target <= 500), "
              f"max {timings[-1] * 1000:.1f} ms", flush=True)

    from unogame.native import available

    print(f"workers {args.workers}, seed {args.seed}, a game = a round, compiled core "
          f"{'on' if available() else 'off'}", flush=True)
    timings: list[float] = []
    if "1" in sections:
        print("\n1. two players, each level against a random player")
        targets = {"medium": 0.62, "hard": 0.70}
        for opponent in args.opponents.split(","):
            for level in args.levels.split(","):
                games = count(args.hard_random_games if level == "hard" else args.random_games)
                results, elapsed = run((level, opponent), games, timed=level == "hard")
                target = 0.82 if (level, opponent) == ("hard", "random_play") else (
                    targets.get(level))
                print(win_line(f"{level} vs {opponent}", results, 0, target, elapsed),
                      flush=True)
                if level == "hard":
                    timings += [t for r in results for t in r.decision_seconds.get(0, [])]
    if "2" in sections:
        print("\n2. two players, hard against medium")
        results, elapsed = run(("hard", "medium"), count(args.hard_medium_games), timed=True)
        print(win_line("hard vs medium", results, 0, 0.65, elapsed), flush=True)
        timings += [t for r in results for t in r.decision_seconds.get(0, [])]
    if "3" in sections:
        print("\n3. four players, one hard against three medium")
        results, elapsed = run(("hard", "medium", "medium", "medium"),
                               count(args.four_player_games), timed=True)
        print(win_line("hard vs 3 medium (4 players)", results, 0, 0.38, elapsed), flush=True)
        timings += [t for r in results for t in r.decision_seconds.get(0, [])]
    if timings:
        times("\n   hard, sections above (all cores)", timings)
    if "4" in sections:
        print("\n4. hard decision time, one process")
        one_core: list[float] = []
        for bots, games in ((("hard", "medium"), count(args.timing_games * 2 // 3)),
                            (("hard", "medium", "medium", "medium"),
                             count(args.timing_games // 3))):
            results, _ = run(bots, games, timed=True, workers=1)
            found = [t for r in results for t in r.decision_seconds.get(0, [])]
            times(f"   {len(bots)} players", list(found))
            one_core += found
        times("   all", one_core)
    return 0


if __name__ == "__main__":
    sys.exit(main())
