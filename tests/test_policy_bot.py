"""``policy:PATH`` bots in the simulator's worker processes, and their choices."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")
sb3_contrib = pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

import numpy as np  # noqa: E402

from unogame.engine import Game  # noqa: E402
from unogame.env import SingleAgentUno  # noqa: E402


@pytest.fixture(scope="module")
def model_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An untrained model (random weights are enough to check the wiring)."""
    model = sb3_contrib.MaskablePPO("MlpPolicy", SingleAgentUno(players=2), n_steps=64,
                                    batch_size=64, policy_kwargs={"net_arch": [32, 32]},
                                    seed=3, device="cpu")
    path = tmp_path_factory.mktemp("policy") / "model.zip"
    model.save(path)
    return path


def test_uno_sim_with_a_policy_bot_finishes_on_several_workers(model_path: Path) -> None:
    """The model is loaded in the parent first (``uno sim`` checks its bots that way), then
    the rounds run on 2 worker processes: forked workers hung there on torch's thread pool
    (0 CPU), so the run is a child process with a time limit."""
    script = textwrap.dedent(f"""
        import torch
        from unogame.cli import main
        torch.ones(64, 64) @ torch.ones(64, 64)  # the parent's thread pool is started
        raise SystemExit(main(["sim", "--players", "2", "--bots",
                               "policy:{model_path},random", "--games", "8", "--seed", "1",
                               "--workers", "2", "--no-progress"]))
    """)
    try:
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              timeout=150)
    except subprocess.TimeoutExpired:
        pytest.fail("uno sim with a policy bot on 2 workers did not finish in 150 s")
    assert done.returncode == 0, done.stderr
    assert "8 rounds" in done.stdout and "on 2 workers" in done.stdout


def test_the_policy_bot_plays_the_models_most_likely_legal_action(model_path: Path) -> None:
    """Its choice (scoring the legal actions only) is MaskablePPO's deterministic prediction
    with the full mask, at every learner decision of whole rounds with jump-ins."""
    from unogame.env.policy import PolicyBot

    bot = PolicyBot(model_path)
    model = sb3_contrib.MaskablePPO.load(model_path, device="cpu")
    env = SingleAgentUno(players=2, opponents=["random"], rules={"jump_in": True})
    rng = np.random.default_rng(0)
    checked = 0
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            mask = env.action_masks()
            legal = np.flatnonzero(mask)
            expected, _ = model.predict(obs, action_masks=mask, deterministic=True)
            assert bot.best_action(obs, legal) == int(expected)
            checked += 1
            obs, _, terminated, truncated, _ = env.step(int(rng.choice(legal)))
            done = terminated or truncated
    assert checked > 50


def test_the_policy_bot_decides_on_one_thread_and_restores_the_callers(
        model_path: Path) -> None:
    """A decision is a batch of one: torch's other threads would only spin against the
    simulator's other processes (14 times the CPU time measured on 2 busy cores)."""
    from unogame.bots import make_bot

    before = torch.get_num_threads()
    torch.set_num_threads(2)
    seen: list[int] = []
    try:
        bot = make_bot(f"policy:{model_path}")
        forward = bot.policy.mlp_extractor.policy_net.register_forward_hook(
            lambda *_: seen.append(torch.get_num_threads()))
        game = Game.new(2, seed=1)
        seat = game.turn
        bot.new_round(seat, game.view(seat), game.rules)
        assert bot.choose(game.view(seat), game.legal_moves(seat)) in game.legal_moves(seat)
        forward.remove()
        assert seen == [1] and torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)


def test_workers_are_spawned_fresh_when_a_plugin_level_plays() -> None:
    from unogame.sim.runner import start_method

    assert start_method(("policy:model.zip", "random")) == "spawn"
    assert start_method(("medium", "random")) == ("spawn" if sys.platform == "win32" else "fork")
