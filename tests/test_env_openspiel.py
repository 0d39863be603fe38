"""The OpenSpiel game python_unogame (issue 11): OpenSpiel's own random simulation test,
its IS-MCTS bot playing whole rounds, and resampling from an information state."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts  # noqa: E402

from unogame.engine import Move, Rules  # noqa: E402
from unogame.env import openspiel_game  # noqa: E402
from unogame.env.actions import ACTION_NAMES, NO_REACTION, NUM_ACTIONS, move_to_action  # noqa: E402
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
    game = pyspiel.load_game("python_unogame", {"players": 2})
    state = game.new_initial_state()
    state.apply_action(3)
    while state.current_player() == 0 and DRAW_ACTION not in state.legal_actions():
        state.apply_action(state.legal_actions()[0])
    drawer = state.current_player()
    state.apply_action(DRAW_ACTION)  # draw: the cards drawn are private
    core = state.core
    drawn = next(event for event in core.events if event.type == "draw")
    cards = drawn.private[drawer]["cards"]
    mine = state.information_state_string(drawer).splitlines()
    theirs = state.information_state_string(1 - drawer).splitlines()
    assert any('"cards"' in line and all(card in line for card in cards) for line in mine)
    assert not any('"cards"' in line for line in theirs[1:])


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
