"""OpenSpiel's IS-MCTS bot against our ``hard`` bot, 2 players, equal time per decision.

    pip install -e ".[openspiel]"
    python examples/openspiel_ismcts_vs_hard.py --rounds 400 --seconds 0.05

Both bots get ``--seconds`` of wall-clock time for every decision they search: OpenSpiel's
``ISMCTSBot`` (``open_spiel.python.algorithms.ismcts``, UCT, our ``PlayoutEvaluator``)
runs simulations until the time is up; ``HardBot(time_limit=...)`` does the same with its
own search (it answers off-turn and forced moves from its heuristics at once). Seats
alternate every round. Prints IS-MCTS's win rate with a 95% Wilson interval and the mean
time each bot took per searched decision.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

from unogame.bots import HardBot
from unogame.env import openspiel_game
from unogame.env.actions import NO_REACTION, move_to_action
from unogame.sim.stats import wilson_interval


class TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's IS-MCTS, stopped by time instead of a number of simulations."""

    def __init__(self, *args: Any, seconds: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seconds = seconds
        self.simulations = 0

    def run_search(self, state: Any) -> Any:  # the library's loop, with a deadline
        self.reset()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self.seconds
        done = 0
        while done < 2 or time.perf_counter() < deadline:  # the first only expands the root
            self.run_simulation(self.sample_root_state(state))
            done += 1
        self.simulations += done
        return self.get_final_policy(state, self._root_node)


def play_round(game: Any, number: int, ismcts_seat: int, searcher: TimedISMCTSBot,
               hard: HardBot, times: dict[str, list[float]]) -> float:
    state = game.new_initial_state()
    state.apply_action(number % openspiel_game.NUM_SEEDS)
    hard_seat = 1 - ismcts_seat
    core = state.core
    hard.new_round(hard_seat, core.game.view(hard_seat), core.game.rules)
    while not state.is_terminal():
        player = state.current_player()
        actions = state.legal_actions()
        start = time.perf_counter()
        if player == ismcts_seat:
            action = searcher.step(state) if len(actions) > 1 else actions[0]
            if len(actions) > 1:
                times["ismcts"].append(time.perf_counter() - start)
        else:
            move = hard.choose(core.game.view(hard_seat), core.legal_moves())
            action = (NO_REACTION if move is None
                      else move_to_action(move, hard_seat, 2))
            if core.on_turn and len(actions) > 1:
                times["hard"].append(time.perf_counter() - start)
        state.apply_action(int(action))
        core = state.core
        for event in core.events:
            hard.observe(event.for_seat(hard_seat))
    return float(state.returns()[ismcts_seat])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=0.05, help="time per decision")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = pyspiel.load_game("python_unogame", {"players": 2})
    random_state = np.random.RandomState(args.seed)
    searcher = TimedISMCTSBot(game, openspiel_game.PlayoutEvaluator(seed=args.seed),
                              uct_c=2.0, max_simulations=1, random_state=random_state,
                              seconds=args.seconds)
    times: dict[str, list[float]] = {"ismcts": [], "hard": []}
    wins = 0
    for number in range(args.rounds):
        hard = HardBot(seed=args.seed * 100_000 + number, budget=10**9,
                       time_limit=args.seconds)
        wins += play_round(game, number, number % 2, searcher, hard, times) > 0
        if (number + 1) % 50 == 0:
            print(f"{number + 1} rounds: IS-MCTS won {wins}", flush=True)
    low, high = wilson_interval(wins, args.rounds)
    print(f"{args.rounds} rounds, 2 players, {args.seconds * 1000:.0f} ms per decision")
    for name, values in times.items():
        print(f"{name}: {len(values)} searched decisions, mean {np.mean(values) * 1000:.1f} ms")
    print(f"OpenSpiel IS-MCTS vs hard: win rate {wins / args.rounds:.1%} "
          f"[{low:.1%}, {high:.1%}] (95% CI)")


if __name__ == "__main__":
    main()
