"""Statistics of a run: win rates with 95% confidence intervals, points, round lengths,
seat advantage.

>>> low, high = wilson_interval(60, 100)
>>> round(low, 3), round(high, 3)
(0.502, 0.691)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .runner import RoundResult

Z95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def slot_labels(bots: Sequence[str]) -> list[str]:
    """A name per bot slot: the level, numbered when a level plays in several slots."""
    labels = []
    for slot, level in enumerate(bots):
        if bots.count(level) > 1:
            labels.append(f"{level}#{bots[:slot].count(level) + 1}")
        else:
            labels.append(level)
    return labels


@dataclass(frozen=True)
class BotStats:
    label: str
    level: str
    rounds: int
    wins: int
    win_rate: float
    win_low: float
    win_high: float
    points_per_round: float
    points_per_win: float


@dataclass(frozen=True)
class PositionStats:
    position: int
    """Place in the turn order at the start of the round: 0 played first."""
    wins: int
    rounds: int
    win_rate: float
    win_low: float
    win_high: float


@dataclass(frozen=True)
class Summary:
    rounds: int
    bots: list[BotStats]
    levels: dict[str, dict[str, float]]
    """Wins of all slots of a level together: win rate, interval, share a fair level gets."""
    mean_turns: float
    median_turns: float
    positions: list[PositionStats]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def summarize(bots: Sequence[str], results: Sequence[RoundResult]) -> Summary:
    """The statistics of a run's rounds."""
    players = len(bots)
    rounds = len(results)
    labels = slot_labels(bots)
    stats = []
    for slot, level in enumerate(bots):
        won = [r.points for r in results if r.winner_slot == slot]
        low, high = wilson_interval(len(won), rounds)
        stats.append(BotStats(
            labels[slot], level, rounds, len(won), len(won) / rounds if rounds else 0.0,
            low, high, sum(won) / rounds if rounds else 0.0,
            sum(won) / len(won) if won else 0.0))
    levels: dict[str, dict[str, float]] = {}
    for level in dict.fromkeys(bots):
        slots = [slot for slot, name in enumerate(bots) if name == level]
        wins = sum(1 for r in results if r.winner_slot in slots)
        low, high = wilson_interval(wins, rounds)
        levels[level] = {"wins": wins, "win_rate": wins / rounds if rounds else 0.0,
                         "win_low": low, "win_high": high, "fair_share": len(slots) / players}
    positions = []
    for position in range(players):
        wins = sum(1 for r in results if r.winner_position == position)
        low, high = wilson_interval(wins, rounds)
        positions.append(PositionStats(position, wins, rounds,
                                       wins / rounds if rounds else 0.0, low, high))
    turns = [r.turns for r in results]
    return Summary(rounds, stats, levels, statistics.fmean(turns) if turns else 0.0,
                   statistics.median(turns) if turns else 0.0, positions)


def format_table(summary: Summary) -> str:
    """The summary as a plain-text table."""
    lines = [f"{'bot':<12} {'wins':>6} {'win rate':>9} {'95% CI':>17} {'pts/round':>10}"]
    for bot in summary.bots:
        lines.append(f"{bot.label:<12} {bot.wins:>6} {bot.win_rate:>8.1%} "
                     f"  [{bot.win_low:>5.1%}, {bot.win_high:>5.1%}] {bot.points_per_round:>10.1f}")
    if len(summary.levels) < len(summary.bots):
        lines.append("")
        lines.append(f"{'level':<12} {'wins':>6} {'win rate':>9} {'95% CI':>17} {'fair':>10}")
        for level, data in summary.levels.items():
            lines.append(f"{level:<12} {int(data['wins']):>6} {data['win_rate']:>8.1%} "
                         f"  [{data['win_low']:>5.1%}, {data['win_high']:>5.1%}] "
                         f"{data['fair_share']:>10.1%}")
    lines.append("")
    lines.append(f"rounds: {summary.rounds}   round length (turns): mean "
                 f"{summary.mean_turns:.1f}, median {summary.median_turns:.1f}")
    lines.append("seat advantage (win rate by place in the turn order, 1 = first to play):")
    for position in summary.positions:
        lines.append(f"  {position.position + 1:>2}: {position.win_rate:>6.1%}  "
                     f"[{position.win_low:.1%}, {position.win_high:.1%}]")
    return "\n".join(lines)
