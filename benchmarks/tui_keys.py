"""How fast the terminal game answers keys while the hard bot searches (issue 8).

    .venv/bin/python benchmarks/tui_keys.py [--keys 20]

The app runs headless (Textual's ``run_test``); keys are posted as the terminal sends
them (Help, then Escape, in turn) and timed until the screen changes. Two runs side by
side: no bot thinking, then the hard bot searching in its worker thread (a budget of
250 000 simulated moves: seconds of search). Goal: well under 100 ms per key while the
bot searches; the ratio to the idle run shows what the search costs the UI (the bot is
pure Python: it shares the interpreter lock with the UI thread).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time

from textual import events

from unogame.bots import HardBot
from unogame.engine import Game
from unogame.tui.app import UnoApp
from unogame.tui.match import MatchConfig, SeatConfig
from unogame.tui.screens.game import GameScreen
from unogame.tui.screens.help import HelpScreen

POSITION = {"players": 2, "hands": [["R1", "G2", "B3"], ["R7", "B7", "Y4", "G9", "W"]],
            "draw_pile": ["B4", "Y2", "Y3", "Y5", "G1", "G3"], "discard_pile": ["R5"],
            "color": "R", "turn": 1}


class LongSearch(HardBot):
    """The hard bot with a budget that keeps it searching for seconds."""

    def __init__(self) -> None:
        super().__init__(seed=1, budget=250_000)


async def key_times(thinking: bool, keys: int) -> list[float]:
    delay = 0.0 if thinking else 1000.0
    config = MatchConfig([SeatConfig("Ann"), SeatConfig("Hal", "hard")], bot_delay=delay,
                         reaction_delay=delay)
    app = UnoApp(config, Game.from_position(POSITION), bots={1: LongSearch()})
    times: list[float] = []
    async with app.run_test(size=(80, 24)):
        started = time.perf_counter()
        while thinking and app.thinking is None and time.perf_counter() - started < 10:
            await asyncio.sleep(0.005)
        await asyncio.sleep(0.2)
        for index in range(keys):
            opening = index % 2 == 0
            key = events.Key("question_mark", "?") if opening else events.Key("escape", None)
            want = HelpScreen if opening else GameScreen
            start = time.perf_counter()
            app.post_message(key)
            while not isinstance(app.screen, want):
                await asyncio.sleep(0.001)
            times.append(time.perf_counter() - start)
            if (app.thinking is not None) != thinking:
                raise RuntimeError("the bot stopped searching before the keys were done")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=20)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    idle = asyncio.run(key_times(False, args.keys))
    busy = asyncio.run(key_times(True, args.keys))
    for name, times in (("no bot thinking", idle), ("hard bot searching", busy)):
        print(f"{name:>20}: median {statistics.median(times) * 1000:6.1f} ms, "
              f"max {max(times) * 1000:6.1f} ms over {len(times)} keys")
    print(f"ratio of medians (searching / idle): "
          f"{statistics.median(busy) / statistics.median(idle):.2f}")


if __name__ == "__main__":
    main()
