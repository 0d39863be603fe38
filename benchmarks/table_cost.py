"""What one 4-person table costs with no hint asked (issue 22): memory and CPU per move.

Memory: tracemalloc of ``Table([SeatSpec(f"p{i}") for i in range(4)], seed=i)`` just made.
CPU: process time per person move of such tables on the compiled core's engine (as the
server plays), each person playing a random legal move on their turn, 300 moves a table.
Not a test: it prints figures. ``PYTHONPATH`` picks the tree, so two trees can be
alternated:

    PYTHONPATH=src .venv/bin/python benchmarks/table_cost.py --tables 200
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
import tracemalloc

from unogame import native
from unogame.table import MATCH_OVER, ROUND_OVER, SeatSpec, Table


def table_memory(count: int) -> list[float]:
    """KiB of each of ``count`` 4-person tables, as made."""
    Table([SeatSpec("a"), SeatSpec("b")], seed=1)  # modules and caches loaded first
    sizes = []
    for seed in range(count):
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        table = Table([SeatSpec(f"p{index}") for index in range(4)], seed=seed)
        gc.collect()
        sizes.append((tracemalloc.get_traced_memory()[0] - before) / 1024)
        tracemalloc.stop()
        del table
    return sizes


def move_cpu(count: int, moves: int = 300) -> float:
    """Microseconds of process time per person move over ``count`` tables."""
    made = 0
    spent = 0.0
    for seed in range(count):
        table = Table([SeatSpec(f"p{index}") for index in range(4)], seed=seed,
                      game=native.new_game(4, None, seed))
        rng = random.Random(seed)
        start = time.process_time()
        for _ in range(moves):
            if table.status == MATCH_OVER:
                break
            if table.status == ROUND_OVER:
                table.next_round()
                continue
            seat = table.game.turn
            table.play(seat, rng.choice(table.legal_moves(seat)))
            made += 1
        spent += time.process_time() - start
    return spent / made * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200, help="tables for the CPU figure")
    parser.add_argument("--memory-tables", type=int, default=20)
    args = parser.parse_args()
    sizes = table_memory(args.memory_tables)
    print(f"4-person table as made: {statistics.mean(sizes):.1f} KiB "
          f"(min {min(sizes):.1f}, max {max(sizes):.1f}, {len(sizes)} tables)")
    print(f"CPU per person move: {move_cpu(args.tables):.2f} us ({args.tables} tables)")


if __name__ == "__main__":
    main()
