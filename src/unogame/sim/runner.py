"""Playing rounds between bots, one process per core, with the same results for a seed.

A *game* in the simulator's win rates is one round (the first seat to empty its hand wins).
Round ``i`` is dealt with ``Game.new`` from a seed derived from the run's seed and ``i``
(played through the compiled core when it is built: the same round, move for move),
and the bots are seated rotated by ``i`` so that no bot keeps the first seat.

>>> config = SimConfig(players=2, bots=("medium", "random"), games=4, seed=1)
>>> results = run_rounds(config, workers=1)
>>> [r.index for r in results], all(r.winner_slot in (0, 1) for r in results)
([0, 1, 2, 3], True)
"""

from __future__ import annotations

import multiprocessing
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots import Bot, make_bot
from ..engine import Event, Game, Rules
from ..engine.moves import TURN_KINDS
from ..native import new_game
from ..native.game import NativeGame


class BotError(RuntimeError):
    """A bot returned a move that is not legal (or nothing on its turn)."""


@dataclass(frozen=True)
class SimConfig:
    """What to simulate: bots by slot (a level name each), rules, number of rounds, seed."""

    players: int
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    rules: Rules = field(default_factory=Rules)
    max_decisions: int = 50_000
    native: bool = True
    """Play the rounds through the compiled core when it is available (same results)."""

    def __post_init__(self) -> None:
        if len(self.bots) != self.players:
            raise ValueError(f"{self.players} players need {self.players} bots, "
                             f"not {len(self.bots)}")


@dataclass(frozen=True)
class RoundResult:
    """One round: who sat where, who won, the points and how long it took."""

    index: int
    seed: int
    seats: tuple[int, ...]
    """The bot slot sitting at each seat."""
    first: int
    """The seat that acted first."""
    direction: int
    """The direction of play at the start (a Reverse turned first plays counter-clockwise)."""
    winner: int
    """The winning seat."""
    points: int
    """The points the winner scored (R7.3)."""
    turns: int
    """Turn moves made (play, draw, pass, challenge, accept, colour)."""
    decision_seconds: dict[int, list[float]] = field(default_factory=dict, compare=False)
    """Per slot, the time taken by each on-turn decision that had more than one option."""

    @property
    def winner_slot(self) -> int:
        return self.seats[self.winner]

    @property
    def winner_position(self) -> int:
        """The winner's place in the turn order: 0 for the seat that played first."""
        players = len(self.seats)
        return (self.winner - self.first) * self.direction % players


def _broadcast(events: Sequence[Event], bots: Sequence[Bot]) -> None:
    for event in events:
        for seat, bot in enumerate(bots):
            bot.observe(event.for_seat(seat))


def play_round(game: Game | NativeGame, bots: Sequence[Bot], rng: random.Random,
               max_decisions: int = 50_000,
               timings: dict[int, list[float]] | None = None) -> int:
    """Play the current round of ``game`` to its end; returns the turn moves made.

    Before each turn, the seats not to act may react (say UNO, catch, jump in) in the
    order of their bots' ``reaction_delay`` plus a random jitter of up to a second, as
    people would. Every move goes through :meth:`Game.push`, so an illegal move raises.
    ``timings``, if given, collects by seat the seconds of each on-turn choice with more
    than one legal move.
    """
    for seat, bot in enumerate(bots):
        bot.new_round(seat, game.view(seat), game.rules)
    turns = 0
    decisions = 0
    while game.winner is None:
        decisions += 1
        if decisions > max_decisions:
            raise BotError(f"the round did not end within {max_decisions} decisions")
        if _react(game, bots, rng):
            continue
        seat = game.turn
        legal = game.legal_moves(seat)
        bot = bots[seat]
        if timings is not None and len(legal) > 1:
            start = time.perf_counter()
            move = bot.choose(game.view(seat), legal)
            timings.setdefault(seat, []).append(time.perf_counter() - start)
        else:
            move = bot.choose(game.view(seat), legal)
        if move is None or move not in legal:
            raise BotError(f"{bot.level} bot at seat {seat} chose {move!r}, not a legal move "
                           f"(legal: {[str(m) for m in legal]})")
        _broadcast(game.push(seat, move), bots)
        if move.kind in TURN_KINDS:
            turns += 1
    return turns


def _react(game: Game | NativeGame, bots: Sequence[Bot], rng: random.Random) -> bool:
    """Off-turn moves; True if a jump-in (a turn move) was made."""
    turn = game.turn
    waiting = [seat for seat in range(game.players)
               if seat != turn and game.legal_moves(seat)]
    if not waiting:
        return False
    waiting.sort(key=lambda seat: bots[seat].reaction_delay + rng.random())
    for seat in waiting:
        legal = game.legal_moves(seat)
        if not legal or game.winner is not None:
            continue
        move = bots[seat].choose(game.view(seat), legal)
        if move is None:
            continue
        if move not in legal:
            raise BotError(f"{bots[seat].level} bot at seat {seat} chose {move!r} off turn, "
                           f"not a legal move (legal: {[str(m) for m in legal]})")
        _broadcast(game.push(seat, move), bots)
        if move.kind in TURN_KINDS:
            return True
    return False


def round_seed(seed: int, index: int) -> int:
    """The seed of round ``index`` of a run (independent of how rounds are split up)."""
    return random.Random(f"uno-sim/{seed}/{index}").getrandbits(48)


def play_one(config: SimConfig, index: int, timed: bool = False) -> RoundResult:
    """Round ``index`` of a run: deal, seat the bots rotated by ``index``, play it out."""
    players = config.players
    seed = round_seed(config.seed, index)
    seats = tuple((seat + index) % players for seat in range(players))
    bots = [make_bot(config.bots[slot], seed=seed + 7919 * seat)
            for seat, slot in enumerate(seats)]
    game = (new_game(players, config.rules, seed) if config.native
            else Game.new(players, config.rules, seed))
    first, direction = game.turn, game.direction
    timings: dict[int, list[float]] | None = {} if timed else None
    turns = play_round(game, bots, random.Random(seed), config.max_decisions, timings)
    assert game.winner is not None
    by_slot = {seats[seat]: values for seat, values in (timings or {}).items()}
    return RoundResult(index, seed, seats, first, direction, game.winner,
                       game.scores[game.winner], turns, by_slot)


def _play_chunk(job: tuple[SimConfig, int, int, bool]) -> list[RoundResult]:
    config, start, stop, timed = job
    return [play_one(config, index, timed) for index in range(start, stop)]


def run_rounds(config: SimConfig, workers: int | None = None, timed: bool = False,
               progress: Callable[[int, int], None] | None = None) -> list[RoundResult]:
    """Play ``config.games`` rounds on ``workers`` processes (default: every core).

    The results, in round order, do not depend on ``workers``. ``progress(done, total)``
    is called as rounds finish.
    """
    total = config.games
    workers = workers or os.cpu_count() or 1
    chunk = max(1, min(50, total // (workers * 8) or 1))
    jobs = [(config, start, min(total, start + chunk), timed) for start in range(0, total, chunk)]
    results: list[RoundResult] = []

    def collect(parts: Iterator[list[RoundResult]]) -> None:
        for part in parts:
            results.extend(part)
            if progress is not None:
                progress(len(results), total)

    if workers <= 1 or len(jobs) <= 1:
        collect(_play_chunk(job) for job in jobs)
    else:
        context = multiprocessing.get_context("spawn" if os.name == "nt" else "fork")
        with context.Pool(workers) as pool:
            collect(pool.imap_unordered(_play_chunk, jobs))
    results.sort(key=lambda result: result.index)
    return results


def describe(config: SimConfig) -> dict[str, Any]:
    """The run's settings as JSON data."""
    return {"players": config.players, "bots": list(config.bots), "games": config.games,
            "seed": config.seed, "rules": config.rules.to_dict()}
