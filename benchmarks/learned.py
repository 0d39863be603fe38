"""Decision time of ``learned`` against ``medium`` and ``hard`` in the same run (issue 23:
``learned`` at most 2 ms per decision on one core; ``hard`` about 50 ms).

    python benchmarks/learned.py --rounds 24

Round ``k`` is dealt the same for every level: the level at seat 0 against ``medium``
(2 players in even rounds, 4 in odd ones), the levels taking turns round by round
(alternated, so a busy machine slows them alike). Timed: seat 0's on-turn decisions with
more than one legal move, in CPU seconds (one process, one core) and wall seconds.
"""

from __future__ import annotations

import argparse
import statistics
import time

from unogame.bots import make_bot
from unogame.engine import Game, Rules
from unogame.native import available


def time_round(level: str, seed: int, players: int) -> tuple[list[float], list[float]]:
    game = Game.new(players, Rules(), seed)
    bots = [make_bot(level if seat == 0 else "medium", seed * 10 + seat)
            for seat in range(players)]
    for seat, bot in enumerate(bots):
        bot.new_round(seat, game.view(seat), game.rules)
    cpu: list[float] = []
    wall: list[float] = []
    while game.winner is None:
        seat = game.turn
        legal = game.legal_moves(seat)
        started_cpu, started = time.process_time(), time.perf_counter()
        move = bots[seat].choose(game.view(seat), legal)
        if seat == 0 and len(legal) > 1:
            cpu.append(time.process_time() - started_cpu)
            wall.append(time.perf_counter() - started)
        assert move is not None
        for event in game.push(seat, move):
            for other, bot in enumerate(bots):
                bot.observe(event.for_seat(other))
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=24)
    parser.add_argument("--levels", default="learned,medium,hard")
    args = parser.parse_args()
    levels = args.levels.split(",")
    make_bot("learned")  # the weights load once, before timing
    cpu: dict[str, list[float]] = {level: [] for level in levels}
    wall: dict[str, list[float]] = {level: [] for level in levels}
    for seed in range(args.rounds):
        for level in levels:
            c, w = time_round(level, seed, 2 if seed % 2 == 0 else 4)
            cpu[level] += c
            wall[level] += w

    def p99(values: list[float]) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000

    print(f"core {'on' if available() else 'off'}, {args.rounds} rounds (2 and 4 players, "
          "against medium), on-turn decisions with more than one legal move:")
    for level in levels:
        print(f"{level:>8}: {len(cpu[level])} decisions; CPU mean "
              f"{statistics.mean(cpu[level]) * 1000:.2f} ms, median "
              f"{statistics.median(cpu[level]) * 1000:.2f} ms, p99 {p99(cpu[level]):.2f} ms; "
              f"wall median {statistics.median(wall[level]) * 1000:.2f} ms, "
              f"p99 {p99(wall[level]):.2f} ms")


if __name__ == "__main__":
    main()
