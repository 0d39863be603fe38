"""Writing a run's results: JSON, CSV and PNG plots (matplotlib)."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .runner import RoundResult, SimConfig, describe
from .stats import Summary, slot_labels


def write_results(directory: Path, config: SimConfig, results: Sequence[RoundResult],
                  summary: Summary, plots: bool = True) -> list[Path]:
    """Write ``results.json``, ``rounds.csv``, ``bots.csv`` and the plots; returns the paths."""
    directory.mkdir(parents=True, exist_ok=True)
    labels = slot_labels(config.bots)
    written = []
    document: dict[str, Any] = {
        "config": describe(config),
        "summary": summary.to_dict(),
        "rounds": [round_record(result, labels) for result in results],
    }
    path = directory / "results.json"
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    written.append(path)
    path = directory / "rounds.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["round", "seed", "seats", "first_seat", "winner_seat", "winner",
                         "winner_position", "points", "turns"])
        for result in results:
            writer.writerow([result.index, result.seed,
                             " ".join(labels[slot] for slot in result.seats), result.first,
                             result.winner, labels[result.winner_slot],
                             result.winner_position + 1, result.points, result.turns])
    written.append(path)
    path = directory / "bots.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["bot", "level", "rounds", "wins", "win_rate", "win_low", "win_high",
                         "points_per_round", "points_per_win"])
        for bot in summary.bots:
            writer.writerow([bot.label, bot.level, bot.rounds, bot.wins, f"{bot.win_rate:.6f}",
                             f"{bot.win_low:.6f}", f"{bot.win_high:.6f}",
                             f"{bot.points_per_round:.4f}", f"{bot.points_per_win:.4f}"])
    written.append(path)
    if plots:
        written.extend(write_plots(directory, config, results, summary))
    return written


def round_record(result: RoundResult, labels: Sequence[str]) -> dict[str, Any]:
    return {"round": result.index, "seed": result.seed,
            "seats": [labels[slot] for slot in result.seats], "first_seat": result.first,
            "winner_seat": result.winner, "winner": labels[result.winner_slot],
            "winner_position": result.winner_position + 1, "points": result.points,
            "turns": result.turns}


def write_plots(directory: Path, config: SimConfig, results: Sequence[RoundResult],
                summary: Summary) -> list[Path]:
    """``win_rates.png`` (error bars: 95% CI), ``round_lengths.png``, ``points.png``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = slot_labels(config.bots)
    written = []
    figure, axes = plt.subplots(figsize=(7, 4))
    rates = [bot.win_rate for bot in summary.bots]
    errors = [[bot.win_rate - bot.win_low for bot in summary.bots],
              [bot.win_high - bot.win_rate for bot in summary.bots]]
    axes.bar(labels, rates, yerr=errors, capsize=6, color="#d62828")
    axes.axhline(1 / config.players, color="grey", linestyle="--", label="fair share")
    axes.set_ylabel("rounds won")
    axes.set_ylim(0, 1)
    axes.set_title(f"Win rate, {summary.rounds} rounds, {config.players} players (95% CI)")
    axes.legend()
    figure.tight_layout()
    path = directory / "win_rates.png"
    figure.savefig(path, dpi=100)
    plt.close(figure)
    written.append(path)

    figure, axes = plt.subplots(figsize=(7, 4))
    turns = [result.turns for result in results]
    axes.hist(turns, bins=min(50, max(5, len(set(turns)))), color="#003049")
    axes.set_xlabel("turns in the round")
    axes.set_ylabel("rounds")
    axes.set_title(f"Round length (mean {summary.mean_turns:.1f} turns)")
    figure.tight_layout()
    path = directory / "round_lengths.png"
    figure.savefig(path, dpi=100)
    plt.close(figure)
    written.append(path)

    figure, axes = plt.subplots(figsize=(7, 4))
    totals = [0] * len(labels)
    series: list[list[int]] = [[0] for _ in labels]
    for result in results:
        totals[result.winner_slot] += result.points
        for slot in range(len(labels)):
            series[slot].append(totals[slot])
    for slot, label in enumerate(labels):
        axes.plot(range(len(results) + 1), series[slot], label=label)
    axes.set_xlabel("round")
    axes.set_ylabel("points (R7.3), cumulative")
    axes.set_title("Points over the match")
    axes.legend()
    figure.tight_layout()
    path = directory / "points.png"
    figure.savefig(path, dpi=100)
    plt.close(figure)
    written.append(path)
    return written
