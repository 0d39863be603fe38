"""``learned`` as ``hard``'s prior (issue 23's stretch): does it lift hard against three medium?

``hard`` searches every root move on the same determinizations and keeps the best mean win
rate. Here each root move's mean gets a bonus of ``--weight`` times ``learned``'s probability
for it (a softmax of its scores at temperature 0.7), the PUCT-style prior at the root; the
search itself is unchanged. Plays ``--games`` rounds of it against three ``medium`` (seats
rotating, ``uno sim``'s table), and with ``--weight 0`` plain ``hard`` on the same seeds.
Not a test: it prints figures.

    .venv/bin/python benchmarks/hard_prior.py --weight 0.1 --games 400 --seed 11
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np

from unogame.bots import BOT_LEVELS
from unogame.bots.ismcts import NATIVE_BUDGET, HardBot
from unogame.bots.learned import option_features, shipped_network
from unogame.cli import main as uno
from unogame.engine import Game, Move

TEMPERATURE = 0.7


class HardWithPrior(HardBot):
    level = "hardprior"
    weight = 0.1

    def search(self, view: dict[str, Any], template: Game, options: list[Move],
               prior: Move | None = None) -> Move:
        budget = self.budget if self.budget is not None else NATIVE_BUDGET
        outcome = self._core_search(view, template, [move.code for move in options],
                                    budget, None)
        if outcome is None or self.seat is None:  # not the compiled core: plain hard
            return super().search(view, template, options, prior)
        _done, visits, rewards = outcome
        scores = shipped_network().scores(
            option_features(view, self.seat, self.tracker, options, prior)) / TEMPERATURE
        chances = np.exp(scores - scores.max())
        chances /= chances.sum()
        value = [reward / count + self.weight * chance if count else -1.0
                 for reward, count, chance in zip(rewards, visits, chances, strict=True)]
        return options[int(np.argmax(value))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--weight", type=float, default=0.1)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    HardWithPrior.weight = args.weight
    BOT_LEVELS["hardprior"] = HardWithPrior
    level = "hardprior" if args.weight else "hard"
    return uno(["sim", "--players", "4", "--bots", f"{level},medium,medium,medium",
                "--games", str(args.games), "--seed", str(args.seed),
                "--workers", str(args.workers)])


if __name__ == "__main__":
    sys.exit(main())
