"""The compiled core against the engine (the reference): the differential test, exact
chance, the in-core playouts and the boundary checks. Skipped when the core is not built
or is disabled (``UNOGAME_NO_NATIVE=1``); ``test_core_disabled`` runs in that pass."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from unogame.engine import Game, Rules
from unogame.engine.playout import play_random_round
from unogame.native import CORE, DISABLE_VARIABLE, new_game, rules_tuple

needs_core = pytest.mark.skipif(CORE is None, reason="the compiled core is not available")

sys.path.insert(0, os.path.dirname(__file__))
import native_diff  # noqa: E402


def test_core_disabled_by_environment() -> None:
    """With the variable set, nothing loads the core and games are the engine's."""
    code = ("import unogame.native as n; from unogame.engine import Game; "
            "print(n.CORE is None, type(n.new_game(3, seed=1)) is Game)")
    env = {**os.environ, DISABLE_VARIABLE: "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout
    assert out.split() == ["True", "True"]


@needs_core
def test_differential_20000_moves() -> None:
    games, moves = native_diff.run(20_000)
    assert moves == 20_000 and games > 20


@needs_core
@pytest.mark.slow
def test_differential_1000000_moves() -> None:
    games, moves = native_diff.run(1_000_000, first_seed=10_000)
    assert moves == 1_000_000 and games > 1000


@needs_core
def test_set_order_is_cpythons() -> None:
    """The core lays out its sets as CPython does, so it iterates them in the same order."""
    assert CORE is not None
    rng = random.Random(5)
    for _ in range(2000):
        ops = []
        reference: set[int] = set()
        top = rng.choice([10, 56])
        for _ in range(rng.randint(0, 60)):
            op, key = rng.choice([0, 0, 0, 1, 1, 2] if top == 10 else [0]), rng.randrange(top)
            ops.append((op, key))
            if op == 0:
                reference.add(key)
            elif op == 1:
                reference.discard(key)
            else:
                reference.clear()
        assert CORE.set_order(ops) == list(reference), ops


@needs_core
@pytest.mark.parametrize("players", [2, 4, 10])
def test_new_deals_the_engines_deal(players: int) -> None:
    """Same seed, same dealer and cards: CPython's generator seeded by "seed/count"."""
    for seed in [0, 1, 2**40 + 3, 2**62, *range(10, 60)]:
        assert (new_game(players, Rules(), seed).position()
                == Game.new(players, Rules(), seed).position())


@needs_core
def test_random_rounds_match_the_engines_playouts() -> None:
    """A random playout in the core is engine.playout's, generator call for generator call."""
    assert CORE is not None
    for players in (2, 4, 7):
        for seed in range(30):
            game = Game.new(players, Rules(), seed)
            moves = play_random_round(game, random.Random(seed))
            native = new_game(players, Rules(), seed)
            assert native.state.random_round(seed) == moves
            assert native.position() == game.position()
        played, wins = CORE.random_rounds(players, rules_tuple(Rules()), 0, 30)
        assert sum(wins) == 30 and played > 0


@needs_core
def test_load_refuses_bad_input() -> None:
    assert CORE is not None
    table = rules_tuple(Rules())
    good = ([[1], [2]], [3], [4], 0, 1, 0, 1, [0, 0], (0, -1, -1, 0, -1, 0), [], [], -1, -1)
    CORE.State.load(2, table, 0, 0, *good)
    bad_cases = [
        (11, table, 0, 0, *good),
        (2, table[:5], 0, 0, *good),
        (2, table, 0, 0, [[1], [99]], *good[1:]),
        (2, table, 0, 0, [[1]], *good[1:]),
        (2, table, 0, 0, [[1] * 120, [2] * 20], *good[1:]),
        (2, table, 0, 0, *good[:3], 5, *good[4:]),
        (2, table, 0, 0, *good[:5], 2, *good[6:]),
        (2, table, 0, 0, *good[:8], (1, -1, 0, 0, -1, 4), *good[9:]),
        (2, table, 0, 0, [[1], [2]], [3], [], 0, 1, 0, 1, [0, 0], (4, -1, -1, 0, -1, 2),
         [], [], -1, -1),
        (2, table, 0, 0, *good[:9], [7], *good[10:]),
    ]
    for case in bad_cases:
        with pytest.raises((ValueError, TypeError)):
            CORE.State.load(*case)
    state = CORE.State.load(2, table, 0, 0, *good)
    with pytest.raises(ValueError):
        state.push(0, 12345)
    with pytest.raises(ValueError):
        state.push(1, state.legal_moves(0)[0])
    assert state.legal_moves(0) == CORE.State.load(2, table, 0, 0, *good).legal_moves(0)
