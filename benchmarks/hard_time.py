"""``hard``'s decision time in CPU seconds and wall seconds (its default budget), against
``medium`` in 2 and 4 players, over on-turn decisions with more than one option.

    python benchmarks/hard_time.py --rounds 16                       # with the core if built
    UNOGAME_NO_NATIVE=1 python benchmarks/hard_time.py --rounds 16   # the engine simulates

CPU time is what a decision costs on a core of its own; wall time also counts what else
the machine runs (the bots benchmark's section 4 reports wall time).
"""

from __future__ import annotations

import argparse
import statistics
import time

from unogame.bots import make_bot
from unogame.engine import Game, Rules
from unogame.native import available


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=16)
    args = parser.parse_args()
    cpu: list[float] = []
    wall: list[float] = []
    for seed in range(args.rounds):
        players = 2 if seed % 2 else 4
        game = Game.new(players, Rules(), seed)
        bots = [make_bot("hard" if seat == 0 else "medium", seed * 10 + seat)
                for seat in range(players)]
        for seat, bot in enumerate(bots):
            bot.new_round(seat, game.view(seat), game.rules)
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

    def p99(values: list[float]) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000

    print(f"core {'on' if available() else 'off'}: {len(cpu)} searched decisions; "
          f"CPU median {statistics.median(cpu) * 1000:.1f} ms, p99 {p99(cpu):.1f} ms; "
          f"wall median {statistics.median(wall) * 1000:.1f} ms, p99 {p99(wall):.1f} ms "
          "(targets: median <= 100 ms, p99 <= 500 ms)")


if __name__ == "__main__":
    main()
