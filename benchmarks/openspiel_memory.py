"""Peak memory of OpenSpiel's ``random_sim_test`` on ``python_unogame`` against
``max_steps`` (issue 23: it grew quadratically, 196 MB / 577 MB / 2.1 GB at 1k / 2k / 4k).

Each size runs in a child process of its own (its peak RSS alone), on a rule mix whose
random rounds run to the cap (3 players, draw-until-playable, skip 3):

    python benchmarks/openspiel_memory.py 1000 2000 4000
"""

from __future__ import annotations

import subprocess
import sys

CHILD = """
import sys, resource, pyspiel
from unogame.env import openspiel_game
game = pyspiel.load_game("python_unogame", {"players": 3, "max_steps": int(sys.argv[1]),
                         "rules": "draw_until_playable;custom_rule:skip;custom_count:3"})
pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


def main(sizes: list[int]) -> None:
    for size in sizes:
        result = subprocess.run([sys.executable, "-c", CHILD, str(size)], check=True,
                                capture_output=True, text=True)
        print(f"max_steps {size:>6}: peak RSS {int(result.stdout.split()[-1]):>6} MB")


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [1000, 2000, 4000])
