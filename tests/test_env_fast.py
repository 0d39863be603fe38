"""The environment's fast path (issue 11) against its reference, step by step.

The reference observation of a seat is ``observation.encode(game.view(seat), memory)``,
``memory`` a :class:`SeatMemory` fed with that seat's own events (``Event.for_seat``) and
synced with its view after every step; the reference legal actions are the engine's legal
moves as actions. The fast path (int readers, :class:`SeenCards`, the compiled core and its
C encoder) must give the same arrays for every seat at every step, over random games of
2-10 players with house rules and presets (core on and off) and with a family's composed
rules (the engine only: the core plays the presets)."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import composed_rules, rules_for

pytest.importorskip("gymnasium")

from unogame import native
from unogame.engine import Rules
from unogame.engine.moves import DRAW, PLAY
from unogame.env import NO_REACTION, UnoCore, move_to_action
from unogame.env.encoder import NATIVE
from unogame.env.observation import SeatMemory, encode

CORE_MODES = [False, True] if NATIVE is not None else [False]


def reference_actions(core: UnoCore) -> list[int]:
    game, seat = core.game, core.seat
    actions = sorted({move_to_action(move, seat, core.players)
                      for move in game.legal_moves(seat)})
    return actions if core.on_turn else [*actions, NO_REACTION]


def random_action(core: UnoCore, rng: random.Random) -> int:
    """Mostly plays (random rounds with voluntary draws run long), sometimes anything."""
    actions = core.legal_actions()
    if rng.random() < 0.3:
        return rng.choice(actions)
    kinds = {move_to_action(move, core.seat, core.players): move.kind
             for move in core.legal_moves()}
    plays = [action for action in actions if kinds.get(action) == PLAY]
    others = [action for action in actions if kinds.get(action) != DRAW]
    return rng.choice(plays if core.on_turn and plays else others or actions)


def check_against_reference(core: UnoCore, seed: int, steps: int) -> int:
    """Play ``steps`` random decisions, comparing every seat's observation and the
    decider's actions and mask with the reference; returns the decisions checked."""
    rng = random.Random(seed)
    core.reset(seed=seed)
    rules = core.rules
    memories: list[SeatMemory] = []
    seen_round = 0
    checked = 0
    for _ in range(steps):
        game = core.game
        if core.round != seen_round:  # a new deal (match mode): fresh memories
            seen_round = core.round
            memories = [SeatMemory(seat, core.players) for seat in range(core.players)]
            for seat, memory in enumerate(memories):
                memory.new_round(game.view(seat))
        for seat, memory in enumerate(memories):
            view = game.view(seat)
            memory.tracker.sync(view)
            expected = encode(view, memory, rules)
            assert np.array_equal(core.observe(seat), expected), (seat, core.steps)
        if core.over:
            break
        actions = reference_actions(core)
        assert core.legal_actions() == actions
        assert np.flatnonzero(core.action_mask()).tolist() == actions
        core.step(random_action(core, rng))
        checked += 1
        if core.round == seen_round:
            for event in core.events:
                for seat, memory in enumerate(memories):
                    memory.observe(event.for_seat(seat))
    return checked


@pytest.mark.parametrize("use_core", CORE_MODES)
@settings(max_examples=25, deadline=None)
@given(data=st.data(), players=st.integers(2, 10), seed=st.integers(0, 10**6))
def test_fast_observations_equal_the_views_encoding_under_house_rules(
        use_core: bool, data: st.DataObject, players: int, seed: int) -> None:
    rules = data.draw(rules_for(players, composed="none"))
    core = UnoCore(players, rules, match=data.draw(st.booleans()), native=use_core)
    assert core.native == use_core
    check_against_reference(core, seed, 150)


@settings(max_examples=25, deadline=None)
@given(data=st.data(), players=st.integers(2, 10), seed=st.integers(0, 10**6))
def test_fast_observations_equal_the_views_encoding_under_composed_rules(
        data: st.DataObject, players: int, seed: int) -> None:
    rules = data.draw(rules_for(players, composed="none"))
    rule = data.draw(composed_rules(players, rules.two_player_reverse_skips, bounded=True))
    rules = dataclasses.replace(rules, custom_rule=rule)
    core = UnoCore(players, rules)
    assert not core.native  # the compiled core plays the presets only
    check_against_reference(core, seed, 150)


@pytest.mark.parametrize("use_core", CORE_MODES)
def test_swaps_reveals_and_gifts_keep_the_fast_memory_equal(use_core: bool) -> None:
    """Rules that move knowledge around most: seven_zero swaps and passes, challenges,
    and (engine only) a rule that gives, reveals and swaps."""
    rules = [Rules(seven_zero=True, jump_in=True, hand_size=4)]
    if not use_core:
        rules.append(Rules.from_dict({"seven_zero": True, "hand_size": 4, "custom_rule": {
            "name": "Mix", "steps": [{"who": "chosen", "what": "give"},
                                     {"who": "others", "what": "reveal"},
                                     {"who": "chosen", "what": "swap"}]}}))
    checked = 0
    for rule_set in rules:
        for players in (2, 3, 5):
            for seed in range(4):
                checked += check_against_reference(
                    UnoCore(players, rule_set, native=use_core), seed, 200)
    assert checked > 1000


def test_the_core_is_used_when_it_can_play_the_rules() -> None:
    assert UnoCore(2).native == (NATIVE is not None)
    assert not UnoCore(2, native=False).native
    if NATIVE is None:
        with pytest.raises(ValueError, match="compiled core"):
            UnoCore(2, native=True)
    assert native.supports(Rules()) or NATIVE is None
