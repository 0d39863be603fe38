"""Engine benchmark: random playouts through the public engine API.

One "game" is one round, dealt with ``Game.new`` and played until a player goes out:
legal-move generation (``Game.legal_moves``) and apply (``Game.push_unchecked``) under the
full rules, with UNO calls, catches and Wild Draw Four challenges decided at random
(``unogame.engine.playout``: the player to act picks uniformly among its legal moves,
drawing only when it cannot play, as RLCard's random agents do).

    python benchmarks/engine.py                 # 2, 4 and 10 players
    python benchmarks/engine.py --vs-rlcard     # also RLCard 1.2.0's UNO loop, same run, same core
    python benchmarks/engine.py --native --vs-rlcard   # also the compiled core (unogame.native)
    python benchmarks/engine.py --native --rules '{"custom_rule": {...}}'   # other rules
    python benchmarks/engine.py --native --vs-rlcard --baseline-core OLD/_core...so
        # also another build of the core (an older commit's), same run: before and after

With ``--vs-rlcard`` the two loops alternate in short slices so that machine noise hits
both alike; the last line is ``vs rlcard (4 players): X.XX x`` (our games/s over RLCard's).
With ``--native`` the compiled core plays the same kind of rounds (``Game.new``, exactly, and
the same random playout policy, in C; the policy's choices come from one generator per
batch, as in RLCard's loop, instead of one seeded per round) and the last line is
``vs rlcard (4 players, native): X.XX x``; a rule set the core cannot play (a family's
composed Wild Customizable rule) is said loudly, and its "native" lines are then the
pure-Python engine's, marked ``FALLBACK``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from unogame.engine import Game, Rules
from unogame.engine.playout import play_random_round
from unogame.native import supports


def unogame_loop(players: int, rules: Rules) -> Callable[[int], tuple[int, int]]:
    """A function playing N rounds; returns (games, decisions)."""
    state = {"seed": 0}

    def run(games: int) -> tuple[int, int]:
        decisions = 0
        for _ in range(games):
            seed = state["seed"]
            state["seed"] += 1
            game = Game.new(players, rules, seed)
            decisions += play_random_round(game, random.Random(seed))
        return games, decisions

    return run


def load_core(path: str) -> Any:
    """Another build of the compiled core, from its shared library file."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("baseline._core", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"--baseline-core: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def native_loop(players: int, rules: Rules,
                core_module: Any = None) -> Callable[[int], tuple[int, int]]:
    """The same rounds as :func:`unogame_loop`, played by the compiled core (the engine's
    loop, said loudly, for rules the core cannot play); ``core_module``: another build."""
    from unogame.native import CORE, rules_tuple

    core = core_module if core_module is not None else CORE
    if core is None:
        raise SystemExit("--native: the compiled core is not available "
                         "(pip install -e . with a C compiler; UNOGAME_NO_NATIVE unset)")
    table = rules_tuple(rules)
    if table is None:
        print(f"FALLBACK: the compiled core cannot play these rules "
              f"({json.dumps(rules.to_dict())}); the 'native' figures are the pure-Python "
              "engine's", file=sys.stderr, flush=True)
        return unogame_loop(players, rules)
    state = {"seed": 0}

    def run(games: int) -> tuple[int, int]:
        seed = state["seed"]
        state["seed"] += games
        decisions, _wins = core.random_rounds(players, table, seed, games, 100_000, True)
        return games, int(decisions)

    return run


def rlcard_loop(players: int) -> Callable[[int], tuple[int, int]]:
    """RLCard 1.2.0's UNO game loop with uniformly random legal actions."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(allow_step_back=False, num_players=players)
    game.np_random = np.random.RandomState(1)
    rng = random.Random(1)

    def run(games: int) -> tuple[int, int]:
        steps = 0
        for _ in range(games):
            game.init_game()
            while not game.is_over():
                actions = game.get_legal_actions()
                game.step(actions[int(rng.random() * len(actions))])
                steps += 1
        return games, steps

    return run


def measure(loops: dict[str, Callable[[int], tuple[int, int]]], seconds: float,
            slice_seconds: float = 0.25, clock: Callable[[], float] = time.perf_counter,
            ) -> dict[str, tuple[int, int, float]]:
    """Run the loops in alternating slices for about ``seconds`` each of ``clock``."""
    totals = {name: [0, 0, 0.0] for name in loops}
    for run in loops.values():  # warm up
        run(3)
    per_slice = {name: 5 for name in loops}
    while min(total[2] for total in totals.values()) < seconds:
        for name, run in loops.items():
            start = clock()
            games, decisions = run(per_slice[name])
            elapsed = clock() - start
            total = totals[name]
            total[0] += games
            total[1] += decisions
            total[2] += elapsed
            per_slice[name] = max(1, int(per_slice[name] * slice_seconds / max(elapsed, 1e-6)))
    return {name: (int(t[0]), int(t[1]), t[2]) for name, t in totals.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--players", default="2,4,10")
    parser.add_argument("--vs-rlcard", action="store_true")
    parser.add_argument("--native", action="store_true", help="also the compiled core")
    parser.add_argument("--baseline-core", default=None, metavar="PATH",
                        help="with --native: also this build of the core (its .so file)")
    parser.add_argument("--rules", default=None,
                        help="rule options as JSON (default: the standard rules)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core for all
    rules = Rules.from_dict(json.loads(args.rules)) if args.rules else Rules()
    baseline = load_core(args.baseline_core) if args.native and args.baseline_core else None
    fallback = args.native and not supports(rules)
    mark = " FALLBACK (pure Python)" if fallback else ""
    print(f"{'players':>7} {'games/s':>10} {'decisions/s':>12} {'decisions/game':>15}")
    results = {}
    for players in (int(p) for p in args.players.split(",")):
        loops = {"unogame": unogame_loop(players, rules)}
        if args.native:
            loops["native"] = native_loop(players, rules)
        if baseline is not None:
            loops["baseline"] = native_loop(players, rules, baseline)
        if args.vs_rlcard and players == 4:
            loops["rlcard"] = rlcard_loop(players)
        measured = measure(loops, args.seconds)
        results[players] = measured
        for name in ("unogame", "native", "baseline"):
            if name in measured:
                games, decisions, elapsed = measured[name]
                label = f"{players}" if name == "unogame" else f"{players} {name}"
                print(f"{label:>7} {games / elapsed:>10.0f} {decisions / elapsed:>12.0f} "
                      f"{decisions / games:>15.1f}{mark if name != 'unogame' else ''}")
    if args.vs_rlcard:
        if 4 not in results:
            loops = {"unogame": unogame_loop(4, rules), "rlcard": rlcard_loop(4)}
            if args.native:
                loops["native"] = native_loop(4, rules)
            if baseline is not None:
                loops["baseline"] = native_loop(4, rules, baseline)
            results[4] = measure(loops, args.seconds)
        games, steps, elapsed = results[4]["rlcard"]
        print(f"rlcard 4 players: {games / elapsed:.0f} games/s, {steps / elapsed:.0f} "
              f"steps/s, {steps / games:.1f} steps/game")
        ours = results[4]["unogame"]
        ratio = (ours[0] / ours[2]) / (games / elapsed)
        print(f"vs rlcard (4 players): {ratio:.2f} x")
        if args.native:
            native = results[4]["native"]
            print(f"native 4 players: {native[0] / native[2]:.0f} games/s "
                  f"({native[0] / native[2] / 200_000:.2f} x of 200,000){mark}")
            ratio = (native[0] / native[2]) / (games / elapsed)
            if baseline is not None:
                old = results[4]["baseline"]
                old_ratio = (old[0] / old[2]) / (games / elapsed)
                print(f"baseline core 4 players: {old[0] / old[2]:.0f} games/s; vs rlcard "
                      f"{old_ratio:.2f} x; native over baseline "
                      f"{(native[0] / native[2]) / (old[0] / old[2]):.2f} x{mark}")
            print(f"vs rlcard (4 players, native): {ratio:.2f} x{mark}")


if __name__ == "__main__":
    main()
