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

from unogame.engine import Game, Rules  # noqa: E402
from unogame.env import SingleAgentUno  # noqa: E402


@pytest.fixture(scope="module", params=["MlpPolicy", "PresetActionsPolicy"])
def model_path(request: pytest.FixtureRequest,
               tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A model barely trained (a few updates: the wiring is what is checked), with the
    full action head or the preset actions' head of the training example."""
    from unogame.env.ppo_policy import PresetActionsPolicy

    policy = PresetActionsPolicy if request.param == "PresetActionsPolicy" else "MlpPolicy"
    model = sb3_contrib.MaskablePPO(policy, SingleAgentUno(players=2), n_steps=64,
                                    batch_size=64, n_epochs=2,
                                    policy_kwargs={"net_arch": [32, 32]}, seed=3,
                                    device="cpu")
    model.learn(128)
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
                               "policy:{model_path},easy", "--games", "8", "--seed", "1",
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


def test_the_preset_actions_cover_every_legal_action_of_the_preset_rules() -> None:
    """Random rounds under every Wild Customizable preset with every house rule, 2-5
    players: each legal action of each decision is one the preset head scores."""
    from unogame.engine.rules import CUSTOM_RULES
    from unogame.env.core import UnoCore
    from unogame.env.ppo_policy import PRESET_ACTIONS

    scored = set(PRESET_ACTIONS.tolist())
    rng = np.random.default_rng(5)
    for number, preset in enumerate(CUSTOM_RULES):
        rules = Rules(custom_rule=preset, seven_zero=True, jump_in=True, stacking=True)
        core = UnoCore(2 + number % 4, rules)
        core.reset(number)
        steps = 0
        while not core.over and steps < 3000:
            actions = core.legal_actions()
            assert set(actions) <= scored, (preset, set(actions) - scored)
            core.step(int(rng.choice(actions)))
            steps += 1


def test_the_subset_head_gives_full_ids_and_their_log_probabilities() -> None:
    """Samples and modes are full action ids, legal ones only; log_prob takes full ids."""
    from unogame.env.ppo_policy import PRESET_ACTIONS, SubsetCategorical

    head = SubsetCategorical(PRESET_ACTIONS)
    logits = torch.zeros(2, PRESET_ACTIONS.size)
    logits[1, 3] = 5.0  # the fourth preset action, id 3
    mask = np.zeros((2, SingleAgentUno(players=2).action_space.n), dtype=bool)
    mask[:, [3, 264, 22970]] = True
    head.proba_distribution(logits)
    head.apply_masking(mask)
    for _ in range(20):
        assert set(head.sample().tolist()) <= {3, 264, 22970}
    assert head.mode().tolist()[1] == 3
    log_prob = head.log_prob(torch.tensor([264, 3]))
    assert torch.allclose(log_prob.exp()[0], torch.tensor(1 / 3))
    assert float(log_prob.exp()[1]) > 0.95
