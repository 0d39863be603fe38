"""unogame.env for researchers (issue 23): the compact action space, Gymnasium opponents as
bot objects or functions, Gymnasium's checker on the default env, the round-length cap."""

from __future__ import annotations

import random
import warnings
from collections import Counter
from typing import Any

import numpy as np
import pytest
from test_bots import random_rules
from test_env import GIVE_RULE, playable_first

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from unogame.bots import make_bot
from unogame.engine import Game, Rules
from unogame.env import NUM_ACTIONS, SingleAgentUno, UnoCore, uno_v0
from unogame.env.actions import ACTION_NAMES, NO_REACTION
from unogame.env.compact import PRESET_ACTIONS, CompactActions, compact_actions

# ------------------------------------------------------------------ compact actions


def test_every_legal_action_of_random_rounds_is_in_the_compact_space() -> None:
    """Random rounds under random house rules, presets and a family's rule naming every
    argument, 2-10 players: each decision's legal actions lie in the compact space of its
    rules and table size, and map there and back."""
    rng = random.Random(4)
    seen = 0
    for number in range(36):
        players = 2 + number % 9
        rules = random_rules(rng) if number % 4 else Rules.from_dict({"custom_rule": GIVE_RULE})
        compact = CompactActions(rules, players)
        assert compact.size <= (PRESET_ACTIONS.size if number % 4 else NUM_ACTIONS)
        core = UnoCore(players, rules, max_steps=600)
        core.reset(seed=number)
        while not core.over:
            actions = core.legal_actions()
            mask = core.action_mask()
            small = compact.mask(mask)
            assert int(small.sum()) == len(actions)
            for action in actions:
                assert compact.to_full(compact.from_full(action)) == action
            seen += len(actions)
            core.step(playable_first(actions, core, rng))
    assert seen > 5000


def test_the_compact_space_names_only_what_the_rules_can_ask_for() -> None:
    two = set(compact_actions(Rules(), 2).tolist())
    assert ACTION_NAMES.index("play WS G +1 uno") in two
    assert ACTION_NAMES.index("play WS G +2") not in two  # no third seat
    assert ACTION_NAMES.index("play R7 +1") not in two  # no seven_zero
    assert ACTION_NAMES.index("play R7 +1") in compact_actions(Rules(seven_zero=True), 2)
    assert ACTION_NAMES.index("play WC B R") not in two  # plain rule: no discarded colour
    assert ACTION_NAMES.index("play WC B R") in compact_actions(
        Rules(custom_rule="discard_color"), 2)
    # every preset's compact space lies within the 683 actions of the preset policy head
    assert set(compact_actions(Rules(custom_rule="chosen_draw", seven_zero=True), 10)) <= set(
        PRESET_ACTIONS.tolist())
    with pytest.raises(ValueError, match="never legal"):
        CompactActions(Rules(), 2).from_full(ACTION_NAMES.index("play WS G +2"))
    with pytest.raises(ValueError, match="not in"):
        CompactActions(Rules(), 2).to_full(10_000)


def test_pettingzoo_api_test_in_the_compact_space() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(uno_v0.env(players=3, rules={"jump_in": True, "custom_rule": "chosen_draw"},
                            actions="compact"), num_cycles=200)


def test_compact_pettingzoo_plays_the_same_episode_as_the_full_space() -> None:
    full = uno_v0.env(players=3, rules={"seven_zero": True})
    small = uno_v0.env(players=3, rules={"seven_zero": True}, actions="compact")
    compact = small.unwrapped.compact
    full.reset(seed=5)
    small.reset(seed=5)
    rng = random.Random(1)
    for agent in full.agent_iter():
        assert agent == small.agent_selection
        obs, reward, terminated, truncated, _ = full.last()
        obs_small, reward_small, _, _, _ = small.last()
        assert np.array_equal(obs["observation"], obs_small["observation"])
        assert np.array_equal(obs["action_mask"][compact.actions], obs_small["action_mask"])
        assert reward == reward_small
        if terminated or truncated:
            full.step(None)
            small.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs_small["action_mask"])))
        small.step(action)
        full.step(compact.to_full(action))
        assert small.unwrapped.action_name(action) == ACTION_NAMES[compact.to_full(action)]
    assert not small.agents


def test_gymnasium_check_env_in_the_compact_space() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = SingleAgentUno(players=4, opponents=["rule"], actions="compact",
                             rules={"custom_rule": "chosen_draw"})
        check_env(env)
    assert env.action_space.n == env.compact.size == env.action_masks().size  # type: ignore


# ------------------------------------------------------------------ Gymnasium opponents

def test_gymnasium_opponents_may_be_bot_objects() -> None:
    bot = make_bot("medium", 3)
    env = SingleAgentUno(players=3, opponents=[bot])
    assert env.levels == ["medium", "medium"]
    played = 0
    for episode in range(3):
        env.reset(seed=episode)
        done = False
        while not done:
            action = int(np.flatnonzero(env.action_masks())[0])
            _, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        played += env.core.steps
    assert played > 30 and bot.seat is not None  # the object given played


def test_gymnasium_self_play_with_a_function_needs_no_file() -> None:
    """An opponent may be a function of its own observation and mask (a policy playing
    itself): it is asked at its own seat only, with that seat's legal actions."""
    asked: list[tuple[int, int]] = []

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        assert observation.shape == (945,) and mask.dtype == np.int8
        legal = np.flatnonzero(mask)
        asked.append((int(env.core.seat), len(legal)))
        return int(legal[0])

    env = SingleAgentUno(players=2, opponents=[policy], seat=0, actions="compact",
                         rules={"jump_in": True})
    env.reset(seed=2)
    done = False
    while not done:
        legal = np.flatnonzero(env.action_masks())
        _, reward, terminated, truncated, _ = env.step(int(legal[0]))
        done = terminated or truncated
    assert asked and all(seat == 1 and count > 0 for seat, count in asked)
    assert reward in (-1.0, 1.0)


def test_an_opponent_function_that_acts_illegally_gets_a_clear_error() -> None:
    env = SingleAgentUno(players=2, opponents=[lambda observation, mask: NO_REACTION], seat=1)
    with pytest.raises(ValueError, match="opponent function at seat 0 chose an illegal"):
        env.reset(seed=0)
    with pytest.raises(ValueError, match="a level name, a Bot or a callable"):
        SingleAgentUno(players=2, opponents=[3])  # type: ignore[list-item]


# ------------------------------------------------------------------ round-length cap

@pytest.mark.parametrize("stepper", [True, False])
@pytest.mark.parametrize("reward", ["share", "points"])
def test_the_round_cap_ends_long_rounds_scored_from_the_hands(stepper: bool,
                                                               reward: Any) -> None:
    """Random agents that draw at will play long rounds: with ``round_cap`` each ends by
    the cap at the latest, as a termination, the fewest cards winning; the C step and the
    Python step agree."""
    rng = random.Random(0)
    capped = 0
    for number in range(12):
        core = UnoCore(3, Rules(), reward=reward, round_cap=60, stepper=stepper)
        core.reset(seed=number)
        while not core.over:
            actions = core.legal_actions()
            core.step(actions[int(rng.random() * len(actions))])
        assert not core.truncated and core.steps <= 60
        assert abs(sum(core.returns)) < 1e-9
        if core.game.winner is None:
            capped += 1
            sizes = core.game.hand_sizes()
            winners = {seat for seat in range(3) if core.returns[seat] > 0}
            assert winners == {seat for seat in range(3) if sizes[seat] == min(sizes)} or \
                not winners
    assert capped >= 6


def test_the_round_cap_is_offered_by_both_envs_and_checked() -> None:
    env = SingleAgentUno(players=2, round_cap=5)
    env.reset(seed=1)
    done, steps = False, 0
    while not done:
        _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        done, steps = terminated or truncated, steps + 1
    assert terminated and not truncated and env.core.steps <= 5
    aec = uno_v0.env(players=2, round_cap=4)
    aec.reset(seed=1)
    for agent in aec.agent_iter():
        _, _, terminated, truncated, _ = aec.last()
        aec.step(None if terminated or truncated else
                 int(np.flatnonzero(aec.observe(agent)["action_mask"])[0]))
    assert aec.unwrapped.core.steps <= 4
    with pytest.raises(ValueError, match="round_cap"):
        UnoCore(2, round_cap=0)
    with pytest.raises(ValueError, match="round_cap"):
        UnoCore(2, match=True, round_cap=10)


# ------------------------------------------------------------------ beliefs under gives

GIVE_THEN_SWAP = [
    [{"who": "chosen", "what": "give"}, {"who": "chosen", "what": "swap"}],
    [{"who": "next", "what": "give"}, {"who": "next", "what": "swap"}],
    [{"who": "chosen", "what": "give"}, {"who": "next", "what": "swap"}],
    [{"who": "chosen", "what": "give"}, {"who": "everyone", "what": "pass_hands"}],
]


@pytest.mark.parametrize("steps", GIVE_THEN_SWAP)
def test_known_cards_are_held_after_an_unseen_give_and_a_swap(steps: list[Any]) -> None:
    """Issue 23's wrong belief: under a family's rule that gives a card and then swaps
    hands, a third seat kept every card it knew the giver held, so the swap carried the
    given card's memory to the wrong seat (3 players, seed 1: at step 15 seat 2 believed
    seat 0 held R1, which had gone back to seat 1). Every card a seat believes another
    holds must be there, in the env's memories and in the bots' trackers alike."""
    from unogame.env.observation import SeatMemory

    rules = Rules.from_dict({"custom_rule": {"name": "G", "text": "t", "steps": steps}})
    checked = 0
    for seed in range(10):
        core = UnoCore(3, rules, max_steps=700)
        core.reset(seed)
        memories = [SeatMemory(seat, 3) for seat in range(3)]
        for seat, memory in enumerate(memories):
            memory.new_round(core.game.view(seat))
        rng = random.Random(seed)
        while not core.over:
            actions = core.legal_actions()
            core.step(actions[int(rng.random() * len(actions))])
            if core.over:
                break
            hands = core.game.card_hands
            for observer, memory in enumerate(memories):
                for event in core.events:
                    memory.observe(event.for_seat(observer))
                memory.tracker.sync(core.game.view(observer))
                for seat in range(3):
                    if seat == observer:
                        continue
                    for known in (core.tracker(observer).known[seat],
                                  memory.tracker.known[seat]):
                        assert not Counter(known) - Counter(hands[seat]), (
                            seed, core.steps, observer, seat, known, hands[seat])
                        checked += len(known)
    assert checked > 1000


# ------------------------------------------------------------------ the jump-in side channel

def _order(position: dict[str, Any], stepper: bool) -> list[tuple[int, bool, list[int]]]:
    """The decisions after seat 0 plays R5, every reaction declined, up to the next turn."""
    rules = Rules(jump_in=True)
    core = UnoCore(3, rules, stepper=stepper, native=stepper or None)
    core.start_from(Game.from_position(position, rules))
    while not core.on_turn:  # the deal is a moment to react to as well
        core.step(NO_REACTION)
    core.step(ACTION_NAMES.index("play R5"))
    seen = []
    while not core.on_turn:
        seen.append((core.seat, core.on_turn, [a for a in core.legal_actions()
                                               if a == NO_REACTION]))
        core.step(NO_REACTION)
    seen.append((core.seat, core.on_turn, []))
    return seen


@pytest.mark.parametrize("stepper", [True, False])
def test_the_order_of_agents_is_the_same_for_deals_differing_in_a_hidden_card(
        stepper: bool) -> None:
    """Issue 23's side channel: a seat got a reaction step only when it held the top
    card's twin, so the order of agents showed that hidden card. Two deals that differ
    only in one card of seat 2's hand give the same decisions, and a seat that cannot
    jump in may only pass."""
    with_twin = {"players": 3, "hands": [["R5", "G1", "B2"], ["Y3", "G7", "B4"],
                                         ["R5", "Y8", "G9"]],
                 "draw_pile": ["B9", "Y1", "G2", "R3"], "discard_pile": ["R1"], "color": "R",
                 "turn": 0}
    without = {**with_twin, "hands": [["R5", "G1", "B2"], ["Y3", "G7", "B4"],
                                      ["R6", "Y8", "G9"]]}
    assert _order(with_twin, stepper) == _order(without, stepper) == [
        (2, False, [NO_REACTION]), (0, False, [NO_REACTION]), (1, True, [])]


@pytest.mark.parametrize("stepper", [True, False])
def test_the_next_decision_never_depends_on_hidden_cards_under_jump_in(stepper: bool) -> None:
    """Random rounds with jump-in: after each action, the seat that decides next (and
    whether on its turn) is the same in a world whose hidden cards were dealt again from
    the acting seat's view (a draw is left out: what it draws belongs to the rules)."""
    rng = random.Random(6)
    rules = Rules(jump_in=True, stacking=True, seven_zero=True)
    compared = 0
    for seed in range(6):
        core = UnoCore(3 + seed % 2, rules, stepper=stepper, max_steps=400)
        core.reset(seed)
        while not core.over:
            actions = core.legal_actions()
            action = playable_first(actions, core, rng)
            if ACTION_NAMES[action] not in ("draw",):
                world = core.resample(core.seat, random.Random(compared))
                world.step(action)
                core.step(action)
                if core.over or world.over:
                    break
                assert (world.seat, world.on_turn) == (core.seat, core.on_turn)
                compared += 1
            else:
                core.step(action)
    assert compared > 300
