"""Lighthouse on the table in play (issue 24, item 2). Not a test: it prints figures.

For each source tree, a real ``uno serve`` (its own SQLite file); Playwright takes a seat at
a 4-seat table with three bots and starts the game; then Lighthouse (mobile preset:
simulated slow 4G, 4x slower CPU) loads the room's link in the same profile, with the
HTTP cache and service worker emptied (a first visit, seat kept). Trees alternate.

    PYTHONPATH=src .venv/bin/python benchmarks/lighthouse_table.py --tree /work/main/src --tree src

Needs node and npm (the pinned Lighthouse is installed into tests/browser/node).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "benchmarks"))
from lighthouse_support import lighthouse, npm_packages, scores, table_in_play  # noqa: E402
from slow_link import free_port, start_server  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", action="append", required=True)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    why = npm_packages()
    if why is not None:
        raise SystemExit(why)
    results: dict[str, list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        servers = {}
        for number, tree in enumerate(args.tree):
            port = free_port()
            servers[tree] = (port, start_server(tree, port, f"{folder}/{number}.db"))
        try:
            for run in range(args.runs):
                for tree, (port, _) in servers.items():
                    place = Path(folder) / f"run-{run}-{port}"
                    place.mkdir()
                    report = lighthouse(table_in_play(f"http://127.0.0.1:{port}"),
                                        place / "profile")
                    results.setdefault(tree, []).append(scores(report))
        finally:
            for _, process in servers.values():
                process.terminate()
                process.wait(10)
    print(f"Lighthouse mobile preset, the table in play, {args.runs} runs (median)")
    for tree, runs in results.items():
        median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
        each = ", ".join(str(run["performance"]) for run in runs)
        print(f"{tree:30} performance {median['performance']:3.0f} (each: {each})  "
              f"TBT {median['total-blocking-time']:5.0f} ms  "
              f"FCP {median['first-contentful-paint']:5.0f} ms  "
              f"LCP {median['largest-contentful-paint']:5.0f} ms  "
              f"CLS {median['cumulative-layout-shift']:.3f}  "
              f"accessibility {median.get('accessibility', float('nan')):3.0f}")


if __name__ == "__main__":
    main()
