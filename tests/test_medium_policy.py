"""``medium``'s turn choice as a policy on full games (bots.medium_policy), the same in the
compiled core (medium.c) and the same as the medium bot itself."""

from __future__ import annotations

import random

import pytest
from native_diff import random_rules

from unogame.bots import MediumBot
from unogame.bots.medium_policy import medium_move, table_bluff_chance
from unogame.engine import Game, Move, Rules
from unogame.engine.moves import ACCEPT, CHALLENGE, PLAY
from unogame.native import CORE, rules_tuple
from unogame.native.game import NativeGame

needs_core = pytest.mark.skipif(CORE is None, reason="the compiled core is not built")


def positions(count: int, seed: int) -> list[Game]:
    """On-turn positions of random games (2-10 players, random house rules the core plays),
    reached by random moves that favour plays."""
    rng = random.Random(seed)
    found: list[Game] = []
    while len(found) < count:
        players = rng.randint(2, 10)
        rules = random_rules(rng, players)
        if rules_tuple(rules) is None:  # rules the core plays, built or not
            continue
        try:
            game = Game.new(players, rules, rng.randrange(1 << 30))
        except ValueError:
            continue
        for _ in range(rng.randint(0, 120)):
            if game.winner is not None:
                break
            legal = game.legal_moves()
            plays = [m for m in legal if m.kind == PLAY]
            game.push(game.turn, rng.choice(plays if plays and rng.random() < 0.8 else legal))
        if game.winner is None:
            found.append(game)
    return found


@needs_core
def test_the_core_plays_the_python_policy_move_for_move() -> None:
    """medium.c chooses what bots.medium_policy chooses, in 3,000 random positions under
    random house rules (pending colours, challenges, stacks, drawn cards included)."""
    kinds = set()
    for game in positions(3000, 11):
        seat = game.turn
        expected = medium_move(game, seat)
        kinds.add(game.pending.kind if game.pending is not None else "turn")
        core = NativeGame.from_game(game).state.medium_move(seat)
        assert Move.from_code(core) == expected, game.position()
    assert {"turn", "color", "drawn", "challenge"} <= kinds


def test_the_policy_is_the_medium_bot_when_it_sees_everything_it_needs() -> None:
    """On a game where the medium bot's choice does not hang on tie-breaks or on what it
    remembers (its generator's jitter, its card tracker), both choose the same move."""
    compared = 0
    for game in positions(600, 5):
        seat = game.turn
        if game.pending is not None and game.pending.kind == "challenge":
            continue  # the bot judges a bluff by the cards it tracked
        bot = MediumBot(seed=3)
        view = game.view(seat)
        bot.new_round(seat, view, game.rules)
        legal = game.legal_moves(seat)
        first = bot.choose(view, legal)
        scores_tied = any(bot.choose(view, legal) != first for _ in range(4))
        if scores_tied:
            continue
        assert first == medium_move(game, seat, legal), game.position()
        compared += 1
    assert compared > 400


def test_a_challenge_is_judged_by_the_unseen_cards() -> None:
    """R5.4 from the challenger's side: medium challenges a Wild Draw Four when the cards it
    has not seen (the other hands, the draw pile) make a bluff likely, else accepts."""
    def after_wild_draw_four(player_hand: list[str], draw_pile: list[str]) -> Game:
        game = Game.from_position({
            "players": 3, "hands": [player_hand, ["B1", "B2"], ["Y1", "Y2"]],
            "draw_pile": draw_pile, "discard_pile": ["R5"], "color": "R"})
        game.push(0, "play W+4 G")
        assert game.pending is not None and game.pending.kind == "challenge"
        return game

    likely = after_wild_draw_four(["W+4", "R2", "G3"], ["R6", "R7", "R8", "R9", "B3"])
    assert table_bluff_chance(likely, 1) == pytest.approx(1 - (4 / 9) * (3 / 8))
    assert medium_move(likely, 1).kind == CHALLENGE
    unlikely = after_wild_draw_four(["W+4", "G2", "G3"], ["B3", "B4", "B5", "B6", "B7"])
    assert table_bluff_chance(unlikely, 1) == 0.0
    assert medium_move(unlikely, 1).kind == ACCEPT
    if CORE is not None:
        for game in (likely, unlikely):
            core = NativeGame.from_game(game).state.medium_move(1)
            assert Move.from_code(core) == medium_move(game, 1)


def test_a_forbidden_drawn_wild_draw_four_is_kept_under_must_play_drawn() -> None:
    """R4.4 with must_play_drawn, R5.4: a Wild Draw Four drawn while holding the colour to
    match may be kept; medium (which bluffs only against a player close to winning) passes,
    in Python and in the core."""
    game = Game.from_position({
        "players": 3, "hands": [["R1", "G2", "B3"], ["B1", "B2", "Y5", "Y6"], ["Y1", "Y2", "G7"]],
        "draw_pile": ["W+4", "Y9"], "discard_pile": ["R5"], "color": "R"},
        Rules(must_play_drawn=True))
    game.push(0, "draw")
    assert medium_move(game, 0) == Move.parse("pass")
    if CORE is not None:
        assert Move.from_code(NativeGame.from_game(game).state.medium_move(0)) \
            == Move.parse("pass")


@needs_core
def test_the_search_step_and_rollout_on_the_core_are_the_engines() -> None:
    """What hard's tree asks of the policy (its first move at a node) and whole medium
    rollouts, on core states, are those of the engine: the same move, the same plies and
    the same rewards (reshuffles included: the same chance)."""
    from unogame.bots.ismcts import _EngineSimulator
    from unogame.bots.medium_policy import medium_tree_move
    from unogame.bots.rollout import search_moves

    for game in positions(400, 23):
        seat = game.turn
        core = NativeGame.from_game(game).state
        moves = search_moves(game, seat)
        codes, policy = core.search_step(seat, True)
        assert codes == [move.code for move in moves]
        assert Move.from_code(policy) == medium_tree_move(game, seat, moves)
        reference = game.copy()
        assert core.medium_rollout(400, 0.6) == _EngineSimulator.medium_rollout(reference,
                                                                                400, 0.6)
