"""The ``learned`` bot's inference path on tiny hand-made networks (not the shipped
strength: benchmarks/learned.py and ``uno league`` measure that)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from unogame.bots import BOT_LEVELS, LearnedBot, MediumBot, make_bot
from unogame.bots.base import play_next
from unogame.bots.knowledge import CardTracker
from unogame.bots.learned import (
    FEATURES,
    ScoringNetwork,
    option_features,
)
from unogame.engine import Game, Move
from unogame.engine.moves import DRAW, PLAY


def tiny(seed: int = 0, hidden: int = 4) -> ScoringNetwork:
    rng = np.random.default_rng(seed)
    f32 = np.float32
    return ScoringNetwork({
        "mean": rng.standard_normal(FEATURES).astype(f32),
        "std": (1 + rng.random(FEATURES)).astype(f32),
        "w0": rng.standard_normal((FEATURES, hidden)).astype(f32),
        "b0": rng.standard_normal(hidden).astype(f32),
        "w1": rng.standard_normal((hidden, 1)).astype(f32),
        "b1": np.zeros(1, f32)})


def linear(feature: int, weight: float) -> ScoringNetwork:
    """Scores each option by one feature only."""
    w = np.zeros((FEATURES, 1), np.float32)
    w[feature, 0] = weight
    return ScoringNetwork({"mean": np.zeros(FEATURES, np.float32),
                           "std": np.ones(FEATURES, np.float32), "w0": w,
                           "b0": np.zeros(1, np.float32)})


def play_round(players: int, seed: int, network: ScoringNetwork) -> tuple[Game, int]:
    """A round of one LearnedBot (seat 0) against MediumBots; returns the game and how
    many of the learned seat's decisions the network made."""
    game = Game.new(players, seed=seed)
    learned = LearnedBot(seed, network=network)
    asked = 0
    search = learned.search

    def counted(*args: object, **kwargs: object) -> Move:
        nonlocal asked
        asked += 1
        return search(*args, **kwargs)  # type: ignore[arg-type]

    learned.search = counted  # type: ignore[method-assign]
    bots = [learned, *(MediumBot(seed + s) for s in range(1, players))]
    for seat, bot in enumerate(bots):
        bot.new_round(seat, game.view(seat), game.rules)
    for _ in range(3000):
        if game.winner is not None or play_next(game, bots) is None:
            break
    return game, asked


@pytest.mark.parametrize("players", [2, 4, 7])
def test_a_tiny_network_plays_whole_rounds(players: int) -> None:
    game, asked = play_round(players, 11, tiny())
    assert game.winner is not None and asked > 0  # every move legal: push checks


def test_the_network_decides_the_searched_choices() -> None:
    """A network that likes drawing draws whenever it may; one that dislikes it plays."""
    game = Game.new(2, seed=0)
    both = option_features(game.view(0), 0, CardTracker(0, 2),
                           [Move.parse("draw"), Move.parse("pass")], None)
    draw_feature = int(np.argmax((both[0] == 1) & (both[1] == 0)))  # the "a draw" flag
    for seed in range(30):
        game = Game.new(2, seed=seed)
        seat = game.turn
        legal = game.legal_moves(seat)
        if not (any(m.kind == DRAW for m in legal) and any(m.kind == PLAY for m in legal)):
            continue
        moves = {}
        for weight in (5.0, -5.0):
            bot = LearnedBot(seed, network=linear(draw_feature, weight))
            bot.new_round(seat, game.view(seat), game.rules)
            moves[weight] = bot.choose(game.view(seat), legal)
        assert moves[5.0] is not None and moves[5.0].kind == DRAW
        assert moves[-5.0] is not None and moves[-5.0].kind == PLAY
        return
    pytest.fail("no position with a play and a draw")


def test_option_rows_are_one_per_option_and_mark_medium_choice() -> None:
    game = Game.new(3, seed=5)
    seat = game.turn
    view = game.view(seat)
    options = [m for m in game.legal_moves(seat) if m.kind in (PLAY, DRAW)]
    rows = option_features(view, seat, CardTracker(seat, 3), options, options[-1])
    assert rows.shape == (len(options), FEATURES)
    assert list(rows[:, FEATURES - 2]) == [0.0] * (len(options) - 1) + [1.0]


def test_weights_load_from_npz_and_a_wrong_width_is_refused(tmp_path: Path) -> None:
    network = tiny(3)
    arrays = {"mean": network.mean, "std": network.std}
    for i, (w, b) in enumerate(network.layers):
        arrays[f"w{i}"], arrays[f"b{i}"] = w, b
    path = tmp_path / "tiny.npz"
    np.savez(path, **arrays)
    rows = np.random.default_rng(1).standard_normal((5, FEATURES)).astype(np.float32)
    loaded = ScoringNetwork.load(path)
    assert np.allclose(loaded.scores(rows), network.scores(rows))
    assert isinstance(LearnedBot(0, weights=path).network, ScoringNetwork)
    arrays["mean"] = arrays["mean"][:-1]
    np.savez(path, **arrays)
    with pytest.raises(ValueError, match="retrain"):
        ScoringNetwork.load(path)


def test_learned_is_a_level_with_the_shipped_weights() -> None:
    assert "learned" in BOT_LEVELS
    bot = make_bot("learned", seed=2)
    assert isinstance(bot, LearnedBot)
    game, asked = play_round(2, 3, bot.network)
    assert game.winner is not None and asked > 0
