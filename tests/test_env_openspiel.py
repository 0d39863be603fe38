"""The OpenSpiel game python_unogame (issue 11): OpenSpiel's own random simulation test,
its IS-MCTS bot playing whole rounds, and resampling from an information state."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts  # noqa: E402

from unogame.engine import Move, Rules  # noqa: E402
from unogame.env import openspiel_game  # noqa: E402
from unogame.env.actions import ACTION_NAMES, NO_REACTION, NUM_ACTIONS, move_to_action  # noqa: E402
from unogame.env.core import UnoCore  # noqa: E402
from unogame.env.observation import SIZE  # noqa: E402

DRAW_ACTION = move_to_action(Move.parse("draw"), seat=0, players=2)


@pytest.mark.parametrize(("players", "rules"), [
    (2, ""),
    (3, "jump_in;seven_zero;custom_rule:chosen_draw;hand_size:4"),
    (5, "stacking;challenge:false;custom_rule:discard_color;hand_size:3"),
    (3, openspiel_game.rules_parameter(Rules.from_dict({"hand_size": 4, "custom_rule": {
        "name": "Gift; a family's (rule)", "steps": [
            {"who": "chosen", "what": "give"}, {"who": "self", "what": "discard_color"},
            {"who": "others", "what": "reveal"}]}}))),
])
def test_random_sim_test(players: int, rules: str) -> None:
    game = pyspiel.load_game("python_unogame",
                             {"players": players, "rules": rules, "max_steps": 400})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_type_and_sizes() -> None:
    game = pyspiel.load_game("python_unogame", {"players": 4})
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.provides_information_state_string and kind.provides_observation_tensor
    assert game.num_players() == 4 and game.num_distinct_actions() == NUM_ACTIONS == 23083
    assert game.observation_tensor_size() == SIZE
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == openspiel_game.NUM_SEEDS


def test_rules_parameter_round_trips() -> None:
    rules = Rules(stacking=True, challenge=False, custom_rule="skip", custom_count=3)
    assert openspiel_game.parse_rules(openspiel_game.rules_parameter(rules)) == rules
    family = Rules.from_dict({"jump_in": True, "custom_rule": {
        "name": "a;b", "text": "x: {y}; z", "steps": [{"who": "chosen", "what": "give"}]}})
    text = openspiel_game.rules_parameter(family)
    assert openspiel_game.parse_rules(text) == family
    assert "," not in text and "(" not in text  # it survives OpenSpiel's game string
    raw = ('jump_in;custom_rule:{"name": "a;b", "text": "x: {y}; z", '
           '"steps": [{"who": "chosen", "what": "give"}]}')
    assert openspiel_game.parse_rules(raw) == family
    with pytest.raises(ValueError, match="after custom_rule"):
        openspiel_game.parse_rules(raw + " junk;stacking")


def test_a_familys_rule_is_in_the_observation_tensor() -> None:
    from unogame.env.observation import SLICES, read_custom_rule

    text = 'custom_rule:{"name": "G", "steps": [{"who": "next", "what": "give"}]}'
    state = pyspiel.load_game("python_unogame", {"players": 3, "rules": text}) \
        .new_initial_state()
    state.apply_action(5)
    tensor = np.asarray(state.observation_tensor(state.current_player()))
    steps, table = read_custom_rule(tensor[SLICES["custom_rule"]])
    assert [(step.who, step.what) for step in steps] == [("next", "give")] and not table
    with pytest.raises(ValueError, match="unknown rule option"):
        openspiel_game.parse_rules("stakcing")


def test_resample_keeps_the_information_state_and_hides_nothing_it_should_not() -> None:
    game = pyspiel.load_game("python_unogame", {"players": 3, "rules": "jump_in"})
    state = game.new_initial_state()
    state.apply_action(17)
    rng = random.Random(0)
    changed = 0
    for _ in range(60):
        if state.is_terminal():
            break
        player = state.current_player()
        for _ in range(3):
            sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0, 1))
            assert sample.information_state_string(player) == state.information_state_string(
                player)
            assert sample.legal_actions() == state.legal_actions()
            assert np.array_equal(sample.observation_tensor(player),
                                  state.observation_tensor(player))
            changed += str(sample) != str(state)
        state.apply_action(rng.choice(state.legal_actions()))
    assert changed > 100  # the hidden cards really are dealt again


def test_resample_by_a_reacting_seat_chooses_the_hidden_drawn_card() -> None:
    """A reacting seat cannot see the card the player to act just drew (D8); a resampled
    state must still give that player a real, playable drawn card (found by IS-MCTS:
    it used to be card -1, the move 'play WC' without a colour)."""
    from unogame.engine import Game
    from unogame.env.core import UnoCore

    core = UnoCore(2, Rules(hand_size=2))
    core.start_from(Game.from_position({
        "players": 2, "hands": [["R1", "G2"], ["B5"]], "draw_pile": ["R3", "G9"],
        "discard_pile": ["R5"], "color": "R", "turn": 1}, Rules(hand_size=2)))
    assert core.on_turn and core.seat == 1
    core.step(DRAW_ACTION)  # seat 1 draws R3 (top of the pile, playable): a pending drawn card
    assert core.game.pending is not None and core.game.pending.kind == "drawn"
    for number in range(20):
        world = core.resample(0, random.Random(number)).game
        assert world.pending is not None and world.pending.card >= 0
        assert world.is_playable(world.pending.card)
        assert world.legal_moves(1)[0].card_code in world.hand(1)


def test_information_state_holds_own_events_only() -> None:
    """A draw is private: a world dealt again from the other seat's information keeps that
    seat's information state and changes the drawer's (the cards it drew differ)."""
    game = pyspiel.load_game("python_unogame", {"players": 2})
    state = game.new_initial_state()
    state.apply_action(3)
    while state.current_player() == 0 and DRAW_ACTION not in state.legal_actions():
        state.apply_action(state.legal_actions()[0])
    drawer = state.current_player()
    state.apply_action(DRAW_ACTION)  # draw: the cards drawn are private
    other = 1 - drawer
    differ = 0
    for number in range(8):
        world = state.resample_from_infostate(
            other, pyspiel.UniformProbabilitySampler(number, number + 1))
        assert world.information_state_string(other) == state.information_state_string(other)
        differ += world.information_state_string(drawer) != state.information_state_string(
            drawer)
    assert differ >= 6


def test_information_state_strings_stay_small_however_long_the_round() -> None:
    """Perfect recall in a fixed-size digest (issue 23: 45 KB keys), distinct for distinct
    histories of a seat."""
    game = pyspiel.load_game("python_unogame", {"players": 3, "max_steps": 1500,
                                                "rules": "draw_until_playable"})
    state = game.new_initial_state()
    state.apply_action(11)
    rng = random.Random(2)
    seen: dict[str, int] = {}
    longest = 0
    while not state.is_terminal():
        player = state.current_player()
        text = state.information_state_string(player)
        longest = max(longest, len(text))
        assert seen.setdefault(text, state.core.steps) == state.core.steps
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.core.steps > 300 and longest < 6000


def test_information_state_tensor_raises_instead_of_an_empty_list() -> None:
    state = pyspiel.load_game("python_unogame", {"players": 2}).new_initial_state()
    state.apply_action(1)
    with pytest.raises(Exception, match="no information_state_tensor"):
        state.information_state_tensor(state.current_player())
    assert len(state.observation_tensor(state.current_player())) == SIZE


def test_tree_walks_stop_with_a_reason_and_outcome_sampling_runs() -> None:
    """CFR walks the whole tree, one Python frame per move: it stops with a clear reason
    before Python's limit (issue 23: a bare RecursionError). Outcome-sampling MCCFR, one
    sampled path per iteration, runs with a small ``max_steps``."""
    from open_spiel.python.algorithms import cfr, outcome_sampling_mccfr

    game = pyspiel.load_game("python_unogame", {"players": 2})
    with pytest.raises(RecursionError, match="python_unogame: this algorithm recurses"):
        cfr.CFRSolver(game)
    short = pyspiel.load_game("python_unogame", {"players": 2, "max_steps": 120})
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(short)
    for _ in range(5):
        solver.iteration()
    assert solver._infostates  # the solver's own table: regrets were stored


def test_one_max_steps_default_everywhere() -> None:
    from unogame.env import SingleAgentUno, uno_v0
    from unogame.env.core import MAX_STEPS

    game = pyspiel.load_game("python_unogame", {"players": 2})
    assert game.max_game_length() == MAX_STEPS == UnoCore(2).max_steps
    assert SingleAgentUno().core.max_steps == MAX_STEPS
    assert uno_v0.raw_env().core.max_steps == MAX_STEPS


def play_ismcts_rounds(rules: str, rounds: int, simulations: int,
                       self_play: bool) -> list[float]:
    """OpenSpiel's IS-MCTS bot (with our playout evaluator) at seat 0, against itself or
    against a random player that plays a card when it can; seat 0's returns."""
    game = pyspiel.load_game("python_unogame", {"players": 2, "rules": rules})
    random_state = np.random.RandomState(7)
    bot = ismcts.ISMCTSBot(game, openspiel_game.PlayoutEvaluator(seed=1, max_moves=30),
                           uct_c=2.0, max_simulations=simulations, random_state=random_state)
    rng = random.Random(3)
    results = []
    for round_number in range(rounds):
        state = game.new_initial_state()
        state.apply_action(round_number)
        while not state.is_terminal():
            actions = state.legal_actions()
            if len(actions) == 1:
                action = actions[0]
            elif self_play or state.current_player() == 0:
                action = bot.step(state)
            else:
                plays = [action for action in actions if ACTION_NAMES[action].startswith("play")]
                action = rng.choice(plays or actions)
            assert action in actions
            state.apply_action(action)
        returns = state.returns()
        assert sorted(returns) == [-1.0, 1.0]
        results.append(returns[0])
    return results


def test_ismcts_plays_twenty_rounds() -> None:
    results = play_ismcts_rounds("jump_in", rounds=20, simulations=4, self_play=False)
    assert len(results) == 20


@pytest.mark.slow
def test_ismcts_plays_twenty_rounds_against_itself() -> None:
    results = play_ismcts_rounds("jump_in;stacking", rounds=20, simulations=8, self_play=True)
    assert set(results) == {-1.0, 1.0}


def test_no_reaction_is_offered_off_turn_only() -> None:
    game = pyspiel.load_game("python_unogame", {"players": 3, "rules": "hand_size:1"})
    state = game.new_initial_state()
    state.apply_action(0)  # one card each: every seat may say UNO off turn at once
    core = state.core
    assert not core.on_turn and state.legal_actions()[-1] == NO_REACTION
    while not core.on_turn:
        state.apply_action(NO_REACTION)
    assert NO_REACTION not in state.legal_actions()


def _clone_bytes(state: Any) -> int:
    """Python memory held by one clone of ``state`` (OpenSpiel's random_sim_test keeps a
    clone per step: a clone that grows with the round makes its memory quadratic)."""
    import gc
    import tracemalloc

    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        clone = state.clone()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert clone.information_state_string(0) == state.information_state_string(0)
    return held


def test_a_clone_has_a_fixed_size_however_long_the_round() -> None:
    """Issue 23: random_sim_test's memory grew quadratically with max_steps (196 MB /
    577 MB / 2.1 GB at 1k / 2k / 4k) because every clone copied the round's records."""
    game = pyspiel.load_game("python_unogame", {"players": 3, "max_steps": 5000,
                                                "rules": "draw_until_playable"})
    state = game.new_initial_state()
    state.apply_action(4)
    rng = random.Random(1)
    sizes = {}
    while not state.is_terminal() and state.core.steps < 1200:
        if state.core.steps in (100, 1100):
            sizes[state.core.steps] = _clone_bytes(state)
        state.apply_action(rng.choice(state.legal_actions()))
    assert set(sizes) == {100, 1100}
    assert sizes[1100] < 2 * sizes[100], sizes
    child = state.clone()
    child.apply_action(child.legal_actions()[0])  # a clone plays on
    assert child.core.steps == state.core.steps + 1
