"""``uno sim`` rounds per second with the compiled core and without it, same tournament.

    python benchmarks/sim.py --bots medium,medium,medium,medium --games 400

The tournament is cut into slices of rounds (a seed each); each slice is played by
``uno sim`` once with the core and once with ``UNOGAME_NO_NATIVE=1``, alternately, so that
machine noise hits both alike. The two runs of a slice must print the same table (the core
plays the engine's games exactly); the last line is ``sim with core: X.XX x``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time


def run_slice(bots: str, games: int, seed: int, native: bool) -> tuple[float, str]:
    env = {**os.environ, "UNOGAME_NO_NATIVE": "0" if native else "1"}
    players = len(bots.split(","))
    command = [sys.executable, "-m", "unogame", "sim", "--players", str(players), "--bots",
               bots, "--games", str(games), "--seed", str(seed), "--workers", "1",
               "--no-progress"]
    start = time.perf_counter()
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
    elapsed = time.perf_counter() - start
    table = "\n".join(line for line in out.splitlines() if " rounds/s " not in line)
    return elapsed, table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="medium,medium,medium,medium")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--slice", type=int, default=50, help="rounds per slice")
    args = parser.parse_args()
    totals = {True: 0.0, False: 0.0}
    played = 0
    seed = 0
    while played < args.games:
        games = min(args.slice, args.games - played)
        tables = {}
        for native in (True, False):
            elapsed, tables[native] = run_slice(args.bots, games, seed, native)
            totals[native] += elapsed
        if tables[True] != tables[False]:
            raise SystemExit(f"slice seed {seed}: results differ with and without the core")
        played += games
        seed += 1
    print(f"bots {args.bots}, {played} rounds in slices of {args.slice}, identical results")
    for native in (True, False):
        label = "with core" if native else "without core"
        print(f"{label:>13}: {played / totals[native]:.1f} rounds/s "
              f"({totals[native]:.1f} s, process start included)")
    print(f"sim with core: {totals[False] / totals[True]:.2f} x")


if __name__ == "__main__":
    main()
