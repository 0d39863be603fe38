"""Playing rounds between bots, one process per core, with the same results for a seed.

A *game* in the simulator's win rates is one round (the first seat to empty its hand wins).
Round ``i`` is played on a :class:`~unogame.table.Table` seeded from the run's seed and
``i`` (the deal, the bots' seeds and the reaction order all come from it), with the bots
seated rotated by ``i`` so that no bot keeps the first seat. The same table seed and bot
levels give the same round in ``uno play`` and ``uno serve``. The table plays on the
compiled core's ``NativeGame`` when it is built and plays the rules (the same round, move
for move), else on the engine's ``Game``.

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

from ..bots import Bot
from ..engine import Game, Rules
from ..engine.moves import TURN_KINDS
from ..engine.state import PlayableGame
from ..native import new_game
from ..table import PLAYING, DecisionRequest, SeatSpec, Table


class BotError(RuntimeError):
    """A bot failed, answered an illegal move (or nothing on its turn), or a round would not end."""


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


def play_table(table: Table, max_decisions: int = 50_000,
               timings: dict[int, list[float]] | None = None) -> int:
    """Drive ``table``'s bots until the round is over; returns the turn moves made.

    The table decides who is asked what, in which order (off-turn reactions first, in
    :func:`~unogame.table.reaction_order` with the bots' ``reaction_delay`` and a jitter from
    the table's seed): the simulator only runs each request at once, so a round here is the
    round any front end plays with the same seed and bots. A bot's bad answer follows the
    table's policy (logged, replaced by a legal turn move); the simulator then raises
    :class:`BotError`, since such a round says nothing about the bot. ``timings``, if given,
    collects by seat the seconds of each on-turn choice with more than one legal move.
    """
    turns = 0
    decisions = 0
    while table.status == PLAYING:
        step = table.next_step()
        if not isinstance(step, DecisionRequest):
            raise BotError(f"the table waits for a person at seat {table.game.turn}")
        decisions += 1
        if decisions > max_decisions:
            position = table.game.position()
            raise BotError(f"the round did not end within {max_decisions} decisions "
                           f"(hand sizes {[len(hand) for hand in position['hands']]}, "
                           f"draw pile {len(position['draw_pile'])}, "
                           f"discard pile {len(position['discard_pile'])})")
        if timings is not None and step.on_turn and len(step.legal) > 1:
            start = time.perf_counter()
            move, error = step.decide()
            timings.setdefault(step.seat, []).append(time.perf_counter() - start)
        else:
            move, error = step.decide()
        play = table.resolve(step, move, error)
        if table.bot_failures:
            failure = table.bot_failures[0]
            raise BotError(f"{failure.level} bot at seat {failure.seat}: {failure.reason} "
                           f"(legal: {[str(m) for m in step.legal]})")
        if play is not None:
            table.apply(play)
            if play.move.kind in TURN_KINDS:
                turns += 1
    return turns


def play_round(game: PlayableGame, bots: Sequence[Bot], max_decisions: int = 50_000,
               timings: dict[int, list[float]] | None = None) -> int:
    """Play the current round of ``game`` between ``bots`` (one per seat) on a table seeded
    with the game's seed; returns the turn moves made (see :func:`play_table`)."""
    seats = [SeatSpec(f"{bot.level} {seat}", bot.level) for seat, bot in enumerate(bots)]
    table = Table(seats, seed=game.seed, game=game, bots=dict(enumerate(bots)))
    return play_table(table, max_decisions, timings)


def round_seed(seed: int, index: int) -> int:
    """The seed of round ``index`` of a run (independent of how rounds are split up)."""
    return random.Random(f"uno-sim/{seed}/{index}").getrandbits(48)


def play_one(config: SimConfig, index: int, timed: bool = False) -> RoundResult:
    """Round ``index`` of a run: deal, seat the bots rotated by ``index``, play it out."""
    players = config.players
    seed = round_seed(config.seed, index)
    seats = tuple((seat + index) % players for seat in range(players))
    game = (new_game(players, config.rules, seed) if config.native
            else Game.new(players, config.rules, seed))
    table = Table([SeatSpec(f"{config.bots[slot]} {slot}", config.bots[slot]) for slot in seats],
                  config.rules, seed, game=game)
    first, direction = game.turn, game.direction
    timings: dict[int, list[float]] | None = {} if timed else None
    try:
        turns = play_table(table, config.max_decisions, timings)
    except BotError as error:  # say which round: play_one(config, index) replays it
        levels = ", ".join(config.bots[slot] for slot in seats)
        raise BotError(f"round {index} of seed {config.seed} (table seed {seed}, seats "
                       f"{levels}): {error}") from error
    assert game.winner is not None
    by_slot = {seats[seat]: values for seat, values in (timings or {}).items()}
    return RoundResult(index, seed, seats, first, direction, game.winner,
                       game.scores[game.winner], turns, by_slot)


def play_chunk(job: tuple[SimConfig, int, int, bool]) -> list[RoundResult]:
    """Rounds ``start`` to ``stop - 1`` of a run: ``job`` is ``(config, start, stop, timed)``."""
    config, start, stop, timed = job
    return [play_one(config, index, timed) for index in range(start, stop)]


def start_method(levels: Sequence[str]) -> str:
    """How worker processes start: forked (cheap) for the built-in levels; spawned, fresh,
    when a plugin level (``NAME:ARGUMENT``) plays, since its bots may hold what a fork
    does not copy safely (a ``policy:PATH`` bot's torch thread pools, whose locks a fork
    leaves held: forked workers waited forever, with 0 CPU)."""
    if os.name == "nt" or any(":" in level for level in levels):
        return "spawn"
    return "fork"


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
        collect(play_chunk(job) for job in jobs)
    else:
        context = multiprocessing.get_context(start_method(config.bots))
        with context.Pool(workers) as pool:
            collect(pool.imap_unordered(play_chunk, jobs))
    results.sort(key=lambda result: result.index)
    return results


def describe(config: SimConfig) -> dict[str, Any]:
    """The run's settings as JSON data."""
    return {"players": config.players, "bots": list(config.bots), "games": config.games,
            "seed": config.seed, "rules": config.rules.to_dict()}
