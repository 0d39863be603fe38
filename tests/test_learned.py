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
from unogame.engine.cards import CARD_CODE, card_from_code, full_deck
from unogame.engine.moves import DRAW, PLAY
from unogame.sim.runner import SimConfig, play_one


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


def draw_feature() -> int:
    """The option feature that says "a draw"."""
    game = Game.new(2, seed=0)
    both = option_features(game.view(0), 0, CardTracker(0, 2),
                           [Move.parse("draw"), Move.parse("pass")], None)
    return int(np.argmax((both[0] == 1) & (both[1] == 0)))


def test_the_network_decides_the_searched_choices() -> None:
    """A network that likes drawing draws whenever it may; one that dislikes it plays."""
    likes_drawing = linear(draw_feature(), 5.0)
    dislikes_drawing = linear(draw_feature(), -5.0)
    for seed in range(30):
        game = Game.new(2, seed=seed)
        seat = game.turn
        legal = game.legal_moves(seat)
        if not (any(m.kind == DRAW for m in legal) and any(m.kind == PLAY for m in legal)):
            continue
        moves = {}
        for weight, network in ((5.0, likes_drawing), (-5.0, dislikes_drawing)):
            bot = LearnedBot(seed, network=network)
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


def choice(network: ScoringNetwork, draw_pile: list[str], discard_pile: list[str]) -> Move:
    """Seat 0's move with plays in hand, the draw pile and discard pile given."""
    game = Game.from_position({
        "players": 2, "hands": [["R1", "G7", "B3", "Y2"], ["B8", "Y9"]],
        "draw_pile": draw_pile, "discard_pile": discard_pile, "color": "G", "turn": 0})
    bot = LearnedBot(1, network=network)
    bot.new_round(0, game.view(0), game.rules)
    move = bot.choose(game.view(0), game.legal_moves(0))
    assert move is not None
    return move


def test_a_draw_that_brings_nothing_is_never_chosen_over_a_play() -> None:
    """R4.5: with the draw pile empty and only the top card in the discard pile a draw is a
    pure pass; a seat holding nearly the deck that chose it forever stalled the round."""
    likes_drawing = linear(draw_feature(), 5.0)
    assert choice(likes_drawing, ["Y1"], ["G4"]).kind == DRAW
    assert choice(likes_drawing, [], ["G4", "R5"]).kind == DRAW  # R5 is reshuffled and drawn
    assert choice(likes_drawing, [], ["G4"]).kind == PLAY


def test_the_shipped_network_plays_in_the_stalled_position() -> None:
    """The position the round of ``uno sim --bots learned,medium --seed 5555`` (round 5152)
    stalled in: ``learned`` holds all but the other's nine cards and the top G4, nothing can
    be drawn, ``medium`` cannot play; the shipped network chose the empty draw."""
    other = ["R5", "B7", "R6", "Y9", "B8", "YR", "Y+2", "R+2", "YS"]
    hand = full_deck()
    for code in [*other, "G4"]:
        hand.remove(card_from_code(code))
    position = {
        "players": 2, "hands": [[CARD_CODE[card] for card in hand], other],
        "draw_pile": [], "discard_pile": ["G4"], "color": "G", "direction": -1,
        "turn": 1, "dealer": 1}
    assert Game.from_position(position).legal_moves(1) == [Move.parse("draw")]
    game = Game.from_position({**position, "turn": 0})
    bot = make_bot("learned", 3)
    bot.new_round(0, game.view(0), game.rules)
    move = bot.choose(game.view(0), game.legal_moves(0))
    assert move is not None and move.kind == PLAY


def test_a_position_left_and_met_again_gets_a_varied_move() -> None:
    """A deterministic choice in a position that comes back makes a cycle: ``learned``
    played Y0, ``medium`` drew the Y+2 under it and played it, ``learned`` drew the Y0
    back, forever. Once this seat has moved on from a position, meeting it again this round
    gets a random option; asked again without having moved (a request the table dropped),
    the choice is the same."""
    game = Game.from_position({
        "players": 2, "hands": [["R1", "G7", "G2", "B3", "Y2"], ["B8", "Y9"]],
        "draw_pile": [], "discard_pile": ["G4"], "color": "G", "turn": 0})
    view, legal = game.view(0), game.legal_moves(0)
    bot = LearnedBot(1, network=linear(draw_feature(), -5.0))
    bot.new_round(0, view, game.rules)
    first = bot.choose(view, legal)
    assert first is not None
    assert {bot.choose(view, legal) for _ in range(5)} == {first}
    again = set()
    for _ in range(20):
        move = bot.choose(view, legal)
        assert move is not None
        for event in game.copy().push(0, move):  # this seat moves on
            bot.observe(event.for_seat(0))
        again.add(bot.choose(view, legal))
    assert len(again) > 1 and again <= set(legal)
    bot.new_round(0, view, game.rules)  # a new round forgets the positions
    assert bot.choose(view, legal) == first


def test_the_stalled_round_of_seed_5555_ends() -> None:
    """Round 5152 of ``uno sim --players 2 --bots learned,medium --seed 5555``: ``learned``
    drew until it held nearly the deck, then passed by empty draws (and, once it played,
    cycled through the same positions) until the simulator gave up after 50,000
    decisions. It ends in a few hundred."""
    config = SimConfig(2, ("learned", "medium"), 5153, 5555, max_decisions=3000)
    result = play_one(config, 5152)
    assert result.winner in (0, 1)


def test_the_rl_update_gradient_matches_finite_differences() -> None:
    import importlib.util
    import sys
    script = Path(__file__).parents[1] / "scripts" / "train_learned.py"
    spec = importlib.util.spec_from_file_location("train_learned_rl", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    rng = np.random.default_rng(0)
    params = [rng.standard_normal((5, 4)), rng.standard_normal(4),
              rng.standard_normal((4, 1)), rng.standard_normal(1)]
    anchor = [p + 0.1 for p in params]
    x = rng.standard_normal((7, 5))
    group = np.array([0, 0, 0, 1, 1, 2, 2])
    chosen = np.array([1, 3, 6])
    advantage = np.array([0.5, -0.3, 1.0])
    temperature, entropy, kl = 0.7, 0.2, 0.05

    def loss() -> float:
        scores = module._forward(params, x)[0] / temperature
        total = 0.0
        for g in range(3):
            s = scores[group == g]
            logp = s - s.max() - np.log(np.exp(s - s.max()).sum())
            pick = chosen[g] - int(np.argmax(group == g))
            total += -advantage[g] * logp[pick] + entropy * float((np.exp(logp) * logp).sum())
        pull = sum(float(((p - a) ** 2).sum()) for p, a in zip(params, anchor, strict=True))
        return total / 3 + 0.5 * kl * pull

    grads = module._pg_grads(params, x, group, chosen, advantage, 3, temperature, entropy,
                             anchor, kl)
    for p, g in zip(params, grads, strict=True):
        for j in np.ndindex(p.shape):
            old = p[j]
            p[j] = old + 1e-6
            up = loss()
            p[j] = old - 1e-6
            down = loss()
            p[j] = old
            assert abs((up - down) / 2e-6 - g[j]) < 1e-5
