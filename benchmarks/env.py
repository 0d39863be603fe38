"""Environment speed: our PettingZoo AEC env against RLCard 1.2.0's ``uno`` env.

    pip install -e ".[rl,bench]"
    python benchmarks/env.py                  # 2 players, default rules, 5 s per loop

Both loops take random legal actions: ours from ``action_mask`` in the standard AEC loop
(``env.last()``, observations built every step, reactions are steps too); RLCard's
``env.run()`` with its ``RandomAgent``s. RLCard's UNO has no voluntary draw, so the ratio
uses our random agent that plays before it draws (``plays_first``); the uniform agent's
figures (voluntary draws too: long rounds, big hands) are printed as well. The loops
alternate in short slices on one core, so that machine noise hits both alike.

Rows: ``unogame`` is ``uno_v0.env()``, the environment as PettingZoo's classic games ship
(in the order-enforcing wrapper, :mod:`unogame.env.wrapper`); ``raw_env`` the same without
the wrapper; ``python step`` is ``env()`` with the core game stepped in Python
(``UnoCore(stepper=False)``: what the C step, ``unogame.native._envobs.Stepper``, saves).
The last line is ``vs rlcard env (steps/s): X.XX x``: ``env()``'s steps/s over RLCard's,
since ``env()`` is the entry point the issue and PettingZoo's own tests use; the line above
it gives ``raw_env``'s.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from engine import measure  # its alternating slices (benchmarks/engine.py)

from unogame.env import ACTION_NAMES, UnoCore, uno_v0

Loop = Callable[[int], tuple[int, int]]


DRAW = ACTION_NAMES.index("draw")


def legal(mask: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The legal action ids of a 0/1 ``int8`` mask. Read as ``bool``: numpy's ``nonzero``
    is about ten times faster on booleans than on ``int8`` over 23,083 entries."""
    return np.flatnonzero(mask.view(np.bool_))


def uniform(mask: np.ndarray[Any, Any], rng: random.Random) -> int:
    """A uniformly random legal action."""
    return int(rng.choice(legal(mask)))


def plays_first(mask: np.ndarray[Any, Any], rng: random.Random) -> int:
    """A uniformly random legal action, but a draw is replaced by a random play when a card
    can be played: RLCard's UNO has no voluntary draw (its legal actions are the plays, or
    draw when there are none), so its random agents play this way."""
    actions = legal(mask)
    action = int(rng.choice(actions))
    if action == DRAW:
        plays = actions[actions < DRAW]
        if len(plays):
            action = int(rng.choice(plays))
    return action


def unogame_loop(players: int, rules: dict[str, Any],
                 policy: Callable[[np.ndarray[Any, Any], random.Random], int],
                 wrapped: bool = True, stepper: bool | None = None) -> Loop:
    env: Any = (uno_v0.env if wrapped else uno_v0.raw_env)(players=players, rules=rules)
    if stepper is False:  # the same env, its core game stepped in Python
        env.unwrapped.core = UnoCore(players, env.unwrapped.core.rules, stepper=False)
    rng = random.Random(1)
    seeds = iter(range(10**9))

    def run(episodes: int) -> tuple[int, int]:
        steps = 0
        for _ in range(episodes):
            env.reset(seed=next(seeds))
            for _agent in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                env.step(policy(obs["action_mask"], rng))
                steps += 1
        return episodes, steps

    return run


def rlcard_loop(players: int) -> Loop:
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("uno", config={"seed": 1, "game_num_players": players})
    counter = [0]

    class CountingAgent(RandomAgent):  # type: ignore[misc]
        def eval_step(self, state: Any) -> Any:
            counter[0] += 1
            return super().eval_step(state)

    env.set_agents([CountingAgent(num_actions=env.num_actions) for _ in range(players)])

    def run(episodes: int) -> tuple[int, int]:
        counter[0] = 0
        for _ in range(episodes):
            env.run(is_training=False)
        return episodes, counter[0]

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per loop")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="time the loops by CPU time (default) or wall time")
    args = parser.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core for both
    load = os.getloadavg()
    results = measure({"unogame uniform": unogame_loop(args.players, {}, uniform),
                       "unogame": unogame_loop(args.players, {}, plays_first),
                       "unogame raw_env": unogame_loop(args.players, {}, plays_first, False),
                       "python step": unogame_loop(args.players, {}, plays_first,
                                                   stepper=False),
                       "rlcard": rlcard_loop(args.players)}, args.seconds, 0.5, clock)
    print(f"{args.players} players, default rules, random masked actions, "
          f"{args.seconds:.0f} s per loop ({args.clock} time); load average {load[0]:.2f} "
          f"before, {os.getloadavg()[0]:.2f} after")
    print(f"{'env':>16} {'episodes/s':>11} {'steps/s':>9} {'steps/episode':>14}")
    for name, (episodes, steps, elapsed) in results.items():
        print(f"{name:>16} {episodes / elapsed:>11.1f} {steps / elapsed:>9.0f} "
              f"{steps / episodes:>14.1f}")
    print("(unogame uniform: voluntary draws too, so hands grow and rounds run long;\n"
          " unogame: env(), plays before voluntary draws, like RLCard's random agents;\n"
          " raw_env: the same without PettingZoo's order-enforcing wrapper;\n"
          " python step: env() with the core game stepped in Python, not in C)")

    def rate(name: str) -> float:
        _, steps, elapsed = results[name]
        return steps / elapsed

    overhead = 1 - rate("unogame") / rate("unogame raw_env")
    print(f"PettingZoo wrapper overhead: {100 * overhead:.0f}% of the raw env's steps/s")
    print(f"C step vs Python step (env()): {rate('unogame') / rate('python step'):.2f} x")
    print(f"raw_env vs rlcard env (steps/s): {rate('unogame raw_env') / rate('rlcard'):.2f} x")
    print(f"vs rlcard env (steps/s): {rate('unogame') / rate('rlcard'):.2f} x")


if __name__ == "__main__":
    main()
