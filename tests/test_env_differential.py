"""The C step (``unogame.native._envobs.Stepper``) against the Python path, step by step.

Three cores play the same random episodes: the core game stepped in C (the default), the
core game stepped in Python (``stepper=False``) and the engine's game (``native=False``,
the path every install without the compiled core takes). At every step every seat's
observation, the decider's legal actions and mask, the seat and kind of decision (the
agent order), the step's events, rewards, returns, terminations and truncations must be
equal; so must copies and resamples made along the way, and the PettingZoo env's
observations, rewards and agent order. A child process with ``UNOGAME_NO_NATIVE=1`` plays
the same episodes and must write the same digest."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import rules_for

pytest.importorskip("gymnasium")

from unogame.engine import Rules
from unogame.engine.cards import WILD_SWAP
from unogame.engine.moves import CATCH, PLAY, encode
from unogame.env import ACTION_NAMES, NO_REACTION, NUM_ACTIONS, UnoCore, action_to_move, uno_v0
from unogame.env.actions import ACTIONS
from unogame.env.core import STEPPER

pytestmark = pytest.mark.skipif(STEPPER is None, reason="needs the compiled core")


def event_list(core: UnoCore) -> list[tuple[str, Any, Any]]:
    return [(event.type, event.public, event.private) for event in core.events]


def assert_same(cores: list[UnoCore], where: Any) -> None:
    first = cores[0]
    for other in cores[1:]:
        assert (other.seat, other.on_turn, other.over, other.truncated, other.steps,
                other.round) == (first.seat, first.on_turn, first.over, first.truncated,
                                 first.steps, first.round), where
        assert other.rewards == first.rewards, where
        assert other.returns == first.returns, where
        assert other.legal_actions() == first.legal_actions(), where
        assert [move.code for move in other.legal_moves()] == \
            [move.code for move in first.legal_moves()], where
        assert np.array_equal(other.action_mask(), first.action_mask()), where
        assert event_list(other) == event_list(first), where
        for seat in range(first.players):
            assert np.array_equal(other.observe(seat), first.observe(seat)), (where, seat)


def play_together(cores: list[UnoCore], seed: int, rng: random.Random, steps: int,
                  copies: bool = False) -> None:
    for core in cores:
        core.reset(seed=seed)
    for step in range(steps):
        assert_same(cores, (seed, step))
        first = cores[0]
        if first.over:
            return
        if copies and rng.random() < 0.05:  # a copy plays on alike and leaves its source be
            twins = [core.clone() for core in cores]
            twin_seed = rng.randrange(2**32)
            play_together_from_here(twins, random.Random(twin_seed), 5)
            assert_same(cores, (seed, step, "after copies"))
        if copies and rng.random() < 0.03:  # a resample: the C step hands over to Python
            seat = rng.randrange(first.players)
            sample_seed = rng.randrange(2**32)
            samples = [core.resample(seat, random.Random(sample_seed)) for core in cores]
            assert_same(samples, (seed, step, "resample", seat))
            play_together_from_here(samples, random.Random(sample_seed), 5)
        action = rng.choice(first.legal_actions())
        for core in cores:
            core.step(action)


def play_together_from_here(cores: list[UnoCore], rng: random.Random, steps: int) -> None:
    for step in range(steps):
        if cores[0].over:
            return
        action = rng.choice(cores[0].legal_actions())
        for core in cores:
            core.step(action)
        assert_same(cores, ("copy", step))


def three_cores(players: int, rules: Rules, match: bool = False, reward: Any = "share",
                max_steps: int = 50_000) -> list[UnoCore]:
    cores = [UnoCore(players, rules, match, reward, max_steps),
             UnoCore(players, rules, match, reward, max_steps, stepper=False),
             UnoCore(players, rules, match, reward, max_steps, native=False)]
    assert [core.stepper for core in cores] == [True, False, False]
    assert [core.native for core in cores] == [True, True, False]
    return cores


@settings(max_examples=40, deadline=None)
@given(data=st.data(), players=st.integers(2, 10), seed=st.integers(0, 2**32 - 1),
       match=st.booleans(), reward=st.sampled_from(["share", "points"]),
       max_steps=st.one_of(st.just(50_000), st.integers(1, 300)))
def test_the_c_step_plays_the_python_paths_episodes(
        data: st.DataObject, players: int, seed: int, match: bool, reward: str,
        max_steps: int) -> None:
    rules = data.draw(rules_for(players, composed="none"))
    cores = three_cores(players, rules, match, reward, max_steps)
    play_together(cores, seed, random.Random(seed), 400)


@pytest.mark.parametrize("players", [2, 3, 5, 10])
@pytest.mark.parametrize("options", [
    {"seven_zero": True, "jump_in": True, "hand_size": 4},
    {"challenge": True, "stacking": True, "custom_rule": "pass_hands"},
    {"custom_rule": "discard_color", "draw_until_playable": True, "uno_penalty": 0},
    {"custom_rule": "chosen_draw", "must_play_drawn": True, "jump_in": True},
])
def test_copies_resamples_and_knowledge_moves_agree(players: int,
                                                   options: dict[str, Any]) -> None:
    """Swaps, passes and challenges move knowledge most; copies and resamples (which hand
    the C step over to Python) must go on alike."""
    cores = three_cores(players, Rules.from_dict(options))
    for seed in range(4):
        play_together(cores, seed, random.Random(seed), 300, copies=True)


def test_an_illegal_action_changes_nothing_on_the_c_step() -> None:
    cores = three_cores(3, Rules(jump_in=True))
    for core in cores:
        core.reset(seed=4)
        core.step(core.legal_actions()[0])
    events = event_list(cores[0])
    for bad in (-1, 23083, 10**30, 282 if cores[0].on_turn else 264):
        messages = []
        for core in cores:
            with pytest.raises(ValueError) as caught:
                core.step(bad)
            messages.append(str(caught.value))
        assert len(set(messages)) == 1, messages
        assert_same(cores, bad)
    assert event_list(cores[0]) == events


def test_masks_handed_out_never_change() -> None:
    """The C step writes a mask array again only when nothing else holds it."""
    core = UnoCore(4, Rules(jump_in=True))
    core.reset(seed=11)
    kept: list[tuple[np.ndarray[Any, Any], list[int]]] = []
    while not core.over and core.steps < 1000:
        mask = core.action_mask()
        assert np.flatnonzero(mask).tolist() == core.legal_actions()
        assert core.action_mask() is mask  # the same array until the next step
        if len(kept) < 50:
            kept.append((mask, core.legal_actions()))
        core.step(core.legal_actions()[0])
    assert core.over and len(kept) == 50
    for mask, actions in kept:
        assert np.flatnonzero(mask).tolist() == actions
    assert not core.action_mask().any()


def test_a_mask_changed_and_let_go_does_not_leak_into_a_later_one() -> None:
    """Against the docs, a holder writes into its mask and drops it: the array may be
    written again for a later decision, and then it holds that decision's actions only."""
    core = UnoCore(3)
    core.reset(seed=5)
    while not core.over:
        core.action_mask()[::7] = 1  # scribbled on, then let go
        mask = core.action_mask()
        assert mask[::7].all()  # the same array until the step
        del mask
        core.step(core.legal_actions()[0])
        if not core.over:
            assert np.flatnonzero(core.action_mask()).tolist() == core.legal_actions()


def aec_trace(env: Any, seed: int, rng: random.Random) -> list[Any]:
    env.reset(seed=seed)
    trace = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        trace.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(),
                      reward, terminated, truncated, dict(env.rewards)))
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return trace


@pytest.mark.parametrize("wrapped", [True, False])
@pytest.mark.parametrize("players,options", [(2, {}), (4, {"jump_in": True}),
                                             (7, {"seven_zero": True, "challenge": True})])
def test_the_pettingzoo_env_is_the_same_on_both_paths(wrapped: bool, players: int,
                                                      options: dict[str, Any]) -> None:
    for seed in range(3):
        traces = []
        for native in (None, False):
            env = (uno_v0.env if wrapped else uno_v0.raw_env)(players=players, rules=options)
            core = env.unwrapped.core
            env.unwrapped.core = UnoCore(players, core.rules, native=native)
            traces.append(aec_trace(env, seed, random.Random(seed)))
        assert traces[0] == traces[1]


DIGEST_SCRIPT = """
import hashlib, json, random, sys
import numpy as np
from unogame import native
from unogame.env import uno_v0
assert native.available() == (sys.argv[1] == "native"), sys.argv
digest = hashlib.sha256()
for players, options in json.loads(sys.argv[2]):
    env = uno_v0.env(players=players, rules=options, match=True, reward="points")
    rng = random.Random(players)
    for seed in range(2):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            digest.update(repr((agent, reward, terminated, truncated)).encode())
            digest.update(obs["observation"].tobytes() + obs["action_mask"].tobytes())
            env.step(None if terminated or truncated
                     else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
print(digest.hexdigest())
"""


def test_a_process_without_the_compiled_core_plays_the_same_episodes() -> None:
    games = json.dumps([[2, {"target_score": 60}],
                        [5, {"jump_in": True, "seven_zero": True, "target_score": 100}]])
    src = str(Path(__file__).resolve().parents[1] / "src")
    digests = []
    for mode in ("native", "python"):
        env = {**os.environ, "PYTHONPATH": src}
        env.pop("UNOGAME_NO_NATIVE", None)
        if mode == "python":
            env["UNOGAME_NO_NATIVE"] = "1"
        result = subprocess.run([sys.executable, "-c", DIGEST_SCRIPT, mode, games], env=env,
                                capture_output=True, text=True, timeout=600, check=True)
        digests.append(result.stdout.strip())
    assert len(digests[0]) == 64 and digests[0] == digests[1]
    assert hashlib.sha256().hexdigest() not in digests


@pytest.mark.parametrize("seat,players", [(0, 2), (1, 2), (3, 4), (4, 7), (9, 10)])
def test_the_c_action_table_is_the_documented_one(seat: int, players: int) -> None:
    """The C step's move-to-action formula gives every action's id back (docs/ENV.md,
    "Actions"), and no id for a move naming the acting seat itself."""
    from unogame.env.encoder import NATIVE

    assert NATIVE is not None
    for action in range(NUM_ACTIONS):
        if action == NO_REACTION or ACTIONS[action].offset >= players:
            continue
        move = action_to_move(action, seat, players)
        assert move is not None
        assert NATIVE.code_to_action(move.code, seat, players) == action, ACTION_NAMES[action]
    assert NATIVE.code_to_action(encode(CATCH, target=seat), seat, players) == -1
    assert NATIVE.code_to_action(encode(PLAY, WILD_SWAP, 0, seat), seat, players) == -1
