"""Train a MaskablePPO agent (sb3-contrib) on UNO: 2 players, one seat against ``random``.

    pip install -e ".[train]"          # torch==2.13.0 (the CPU build), sb3-contrib
    python examples/train_masked_ppo.py --minutes 14 --out artifacts/ppo

Writes ``model.zip`` (loads as the bot level ``policy:artifacts/ppo/model.zip``),
``curve.csv`` and ``learning_curve.png`` (rolling win rate of the training episodes) to
``--out``. Evaluate with ``uno sim --players 2 --bots policy:artifacts/ppo/model.zip,random
--games 2000 --seed 1``.

The policy is :class:`unogame.env.ppo_policy.PresetActionsPolicy`: the action space stays
``Discrete(23083)``, but its head scores only the 683 actions a preset rule set can make
legal: 8 times less CPU per step than a 23,083-logit head (its product, masked softmax
and their gradients were most of the time). One torch thread: the machine's other
core steps nothing here, and threads only spin on a shared machine. ``gamma`` below 1 makes
a win sooner worth more; a learning rate of 1e-3 made the agent stall (draw and pass:
rounds of over 1,000 decisions), so the default is 3e-4.
"""

from __future__ import annotations

import argparse
import csv
import time
from collections import deque
from pathlib import Path
from typing import Any

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

from unogame.env import SingleAgentUno
from unogame.env.ppo_policy import PresetActionsPolicy


class Progress(BaseCallback):
    """Records each finished episode's result; stops when the time is up."""

    def __init__(self, seconds: float, window: int = 500) -> None:
        super().__init__()
        self.deadline = time.monotonic() + seconds
        self.started = time.monotonic()
        self.recent: deque[float] = deque(maxlen=window)
        self.rows: list[tuple[int, float, float, int]] = []
        self.episodes = 0

    def _on_step(self) -> bool:
        infos: list[dict[str, Any]] = self.locals["infos"]
        rewards = self.locals["rewards"]
        for done, reward in zip(self.locals["dones"], rewards, strict=True):
            if done:
                self.episodes += 1
                self.recent.append(1.0 if reward > 0 else 0.0)
        del infos
        if self.n_calls % 512 == 0 and self.recent:
            rate = sum(self.recent) / len(self.recent)
            self.rows.append((self.num_timesteps, time.monotonic() - self.started, rate,
                              self.episodes))
            print(f"{self.num_timesteps:>9} steps {self.rows[-1][1]:6.0f}s "
                  f"{self.episodes:>7} episodes  win rate (last {len(self.recent)}) {rate:.3f}",
                  flush=True)
        return time.monotonic() < self.deadline


def make_env(seed: int) -> SingleAgentUno:
    env = SingleAgentUno(players=2, opponents=["random"])
    env.reset(seed=seed)
    return env


def plot(rows: list[tuple[int, float, float, int]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    axes.plot([row[0] for row in rows], [row[2] for row in rows])
    axes.set_xlabel("environment steps (learner decisions)")
    axes.set_ylabel("win rate, last 500 training rounds")
    axes.set_title("MaskablePPO vs random, 2 players")
    axes.set_ylim(0, 1)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=14.0, help="training time")
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together")
    parser.add_argument("--steps-per-env", type=int, default=256, help="rollout length per env")
    parser.add_argument("--batch", type=int, default=512, help="minibatch size")
    parser.add_argument("--epochs", type=int, default=4, help="passes over each rollout")
    parser.add_argument("--lr", type=float, default=3e-4, help="Adam's learning rate")
    parser.add_argument("--ent", type=float, default=0.01, help="entropy bonus")
    parser.add_argument("--gamma", type=float, default=0.995, help="discount per decision")
    parser.add_argument("--net", default="256,256", help="hidden layers of both networks")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("artifacts/ppo"))
    args = parser.parse_args()
    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    vec = DummyVecEnv([lambda index=index: make_env(args.seed * 1000 + index)
                       for index in range(args.envs)])
    net = [int(width) for width in args.net.split(",")]
    model = MaskablePPO(PresetActionsPolicy, vec, n_steps=args.steps_per_env,
                        batch_size=args.batch, n_epochs=args.epochs, learning_rate=args.lr,
                        gamma=args.gamma, ent_coef=args.ent, seed=args.seed,
                        policy_kwargs={"net_arch": net}, device="cpu", verbose=0)
    progress = Progress(args.minutes * 60)
    model.learn(total_timesteps=10**9, callback=progress)
    model.save(args.out / "model.zip")
    with open(args.out / "curve.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["steps", "seconds", "win_rate", "episodes"])
        writer.writerows(progress.rows)
    if progress.rows:
        plot(progress.rows, args.out / "learning_curve.png")
    seconds = time.monotonic() - progress.started
    print(f"trained {model.num_timesteps} steps, {progress.episodes} episodes in "
          f"{seconds / 60:.1f} min ({model.num_timesteps / seconds:.0f} steps/s); "
          f"wrote {args.out / 'model.zip'}")


if __name__ == "__main__":
    main()
