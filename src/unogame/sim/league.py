"""A league: every table of ``players`` distinct entrants plays rounds, seats rotated, and
one Bradley-Terry rating per entrant, with a 95% interval, is fitted to all the rounds.

An entrant is any bot level ``make_bot`` knows: a built-in level, ``policy:PATH`` or a
plugin's ``NAME:ARGUMENT`` (docs/BOTS.md). A *table* is a combination of ``players``
distinct entrants; each plays ``games`` rounds with the seats rotated (:mod:`.runner`). A
table's seed comes from the league's seed and the table's entrants only, so a table plays
the same rounds whatever else is in the league (a league can be resumed and grown).

Ratings: a round won among ``n`` players counts as a win over each of the ``n - 1``
others; the Bradley-Terry strengths are fitted to these pairwise results by Hunter's MM
algorithm (with one virtual draw against the field, so that an entrant that never lost or
never won still gets a finite strength), and written on the Elo scale,
``400 log10(strength)``, the first entrant (or ``random`` when it plays) at 0. The 95%
interval is the 2.5th to 97.5th percentile of the ratings refitted to rounds resampled
with replacement within each table (a bootstrap).

>>> wins = {("a", "b"): 30, ("b", "a"): 10}
>>> ratings = fit_bradley_terry(["a", "b"], wins)
>>> round(elo(ratings)["a"] - elo(ratings)["b"])  # 3:1 shrunk a little by the prior
188
>>> round(elo(fit_bradley_terry(["a", "b"], wins, prior=0.0), "b")["a"])  # 400 log10(3)
191
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .stats import wilson_interval

Pairs = Mapping[tuple[str, str], float]
"""Wins by (winner, loser) pair of entrants."""


@dataclass(frozen=True)
class TableResult:
    """The rounds of one table: its entrants in slot order and each round's winning slot."""

    entrants: tuple[str, ...]
    winners: tuple[int, ...]
    """The slot (an index into ``entrants``) that won each round, in round order."""


@dataclass(frozen=True)
class Rating:
    entrant: str
    elo: float
    low: float
    high: float
    rounds: int
    wins: int
    win_rate: float
    win_low: float
    win_high: float
    fair_share: float
    """The win rate of an entrant as strong as its opponents (1 / players)."""


def tables(entrants: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every table of ``players`` distinct entrants, in a fixed order."""
    if len(set(entrants)) != len(entrants):
        raise ValueError("each entrant may enter the league once")
    if not 2 <= players <= 10:
        raise ValueError("players must be from 2 to 10")
    if len(entrants) < players:
        raise ValueError(f"a league of {players}-player tables needs at least {players} "
                         f"entrants, not {len(entrants)}")
    return list(itertools.combinations(entrants, players))


def table_seed(seed: int, entrants: Sequence[str], players: int) -> int:
    """The seed of a table's run: from the league's seed and the table alone."""
    return random.Random(f"uno-league/{seed}/{players}/{'|'.join(entrants)}").getrandbits(40)


def pairwise_wins(results: Sequence[TableResult]) -> dict[tuple[str, str], float]:
    """A round's winner beats each other entrant at its table once."""
    wins: dict[tuple[str, str], float] = {}
    for table in results:
        for slot in table.winners:
            winner = table.entrants[slot]
            for other in table.entrants:
                if other != winner:
                    wins[winner, other] = wins.get((winner, other), 0.0) + 1.0
    return wins


def fit_bradley_terry(entrants: Sequence[str], wins: Pairs, iterations: int = 500,
                      prior: float = 0.5) -> dict[str, float]:
    """Bradley-Terry strengths (geometric mean 1) by Hunter's MM algorithm; ``prior``:
    the wins and losses each entrant is given against a virtual entrant of strength 1."""
    strength = dict.fromkeys(entrants, 1.0)
    games: dict[tuple[str, str], float] = {}
    won = dict.fromkeys(entrants, prior)
    for (winner, loser), count in wins.items():
        won[winner] += count
        key = (winner, loser) if winner < loser else (loser, winner)
        games[key] = games.get(key, 0.0) + count
    for _ in range(iterations):
        updated = {}
        for entrant in entrants:
            denominator = 2 * prior / (strength[entrant] + 1.0)
            for (first, second), count in games.items():
                if entrant in (first, second):
                    denominator += count / (strength[first] + strength[second])
            updated[entrant] = won[entrant] / denominator
        scale = math.exp(sum(math.log(value) for value in updated.values()) / len(updated))
        change = max(abs(updated[e] / scale - strength[e]) / strength[e] for e in entrants)
        strength = {entrant: value / scale for entrant, value in updated.items()}
        if change < 1e-10:
            break
    return strength


def elo(strength: Mapping[str, float], anchor: str | None = None) -> dict[str, float]:
    """Strengths on the Elo scale, ``anchor`` (default: the first) at 0."""
    base = strength[anchor if anchor is not None else next(iter(strength))]
    return {entrant: 400 * math.log10(value / base) for entrant, value in strength.items()}


def rate(entrants: Sequence[str], results: Sequence[TableResult], players: int,
         resamples: int = 200, seed: int = 0) -> list[Rating]:
    """Each entrant's rating with its 95% bootstrap interval and its win rate, strongest
    first."""
    anchor = "random" if "random" in entrants else entrants[0]
    point = elo(fit_bradley_terry(entrants, pairwise_wins(results)), anchor)
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {entrant: [] for entrant in entrants}
    for _ in range(resamples):
        drawn = [TableResult(table.entrants, tuple(
            table.winners[int(rng.random() * len(table.winners))]
            for _ in table.winners)) for table in results if table.winners]
        for entrant, value in elo(fit_bradley_terry(entrants, pairwise_wins(drawn),
                                                    iterations=200), anchor).items():
            samples[entrant].append(value)
    ratings = []
    for entrant in entrants:
        rounds = sum(len(table.winners) for table in results if entrant in table.entrants)
        wins = sum(1 for table in results for slot in table.winners
                   if table.entrants[slot] == entrant)
        low, high = wilson_interval(wins, rounds)
        values = sorted(samples[entrant])
        ratings.append(Rating(
            entrant, point[entrant],
            _percentile(values, 0.025) if values else -math.inf,
            _percentile(values, 0.975) if values else math.inf,
            rounds, wins, wins / rounds if rounds else 0.0, low, high, 1 / players))
    return sorted(ratings, key=lambda rating: -rating.elo)


def _percentile(values: Sequence[float], fraction: float) -> float:
    at = fraction * (len(values) - 1)
    below = math.floor(at)
    above = min(below + 1, len(values) - 1)
    return values[below] + (values[above] - values[below]) * (at - below)


def head_to_head(results: Sequence[TableResult]) -> dict[tuple[str, ...], list[float]]:
    """By table: each slot's share of the rounds won."""
    return {table.entrants: [table.winners.count(slot) / len(table.winners)
                             if table.winners else 0.0 for slot in range(len(table.entrants))]
            for table in results}


def format_ratings(ratings: Sequence[Rating]) -> str:
    """The league table as plain text (a Markdown table: docs/ENV.md shows it as printed)."""
    lines = ["| entrant | rating | 95% CI | rounds | win rate | 95% CI |",
             "| --- | ---: | --- | ---: | ---: | --- |"]
    for rating in ratings:
        lines.append(f"| {rating.entrant} | {rating.elo:.0f} | [{rating.low:.0f}, "
                     f"{rating.high:.0f}] | {rating.rounds} | {rating.win_rate:.1%} | "
                     f"[{rating.win_low:.1%}, {rating.win_high:.1%}] |")
    return "\n".join(lines)
