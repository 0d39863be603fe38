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
    games, moves, fallbacks = native_diff.run(20_000)
    assert moves == 20_000 and games > 20 and fallbacks > 5


@needs_core
@pytest.mark.slow
def test_differential_1000000_moves() -> None:
    games, moves, fallbacks = native_diff.run(1_000_000, first_seed=10_000)
    assert moves == 1_000_000 and games > 1000 and fallbacks > 250


@needs_core
def test_differential_drawn_wild_draw_fours_20000_moves() -> None:
    """must_play_drawn and draw_until_playable from positions whose draw pile is stacked
    with Wild Draw Fours: drawn while the colour to match is held (R5.4 forbids playing
    them), passed, drawn on past; the core agrees move by move."""
    games, moves, counts = native_diff.run_drawn_wild_draw_fours(20_000)
    assert moves == 20_000 and games > 100
    assert counts["drawn"] > 400 and counts["passed"] > 80 and counts["drawn_on_past"] > 200, \
        counts


@needs_core
@pytest.mark.slow
def test_differential_drawn_wild_draw_fours_200000_moves() -> None:
    games, moves, counts = native_diff.run_drawn_wild_draw_fours(200_000, first_seed=50_000)
    assert games > 1000
    assert moves == 200_000 and counts["passed"] > 1000, counts


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
    for seed in [0, 1, 2**40 + 3, 2**62, -1, -(2**50), *range(10, 60)]:
        assert (new_game(players, Rules(), seed).position()
                == Game.new(players, Rules(), seed).position())


def test_rules_the_core_cannot_play_fall_back_silently() -> None:
    rules = Rules(target_score=2_000_000_000)
    assert rules_tuple(rules) is None
    game = new_game(3, rules, seed=2)
    assert type(game) is Game and game.position() == Game.new(3, rules, seed=2).position()
    assert type(new_game(3, Rules(), seed=2**70)) is Game


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
def test_batched_rounds_match_the_engine_across_seeding_lanes() -> None:
    """random_rounds seeds the deals 32 at a time (vector lanes; a short batch of 8 or more
    fills its unused lanes); a batch whose texts change length ("99/0" to "100/0": 17 to 18
    key words), or of fewer than 8, is seeded one by one. Either way each round is the
    engine's: the same moves and winner as Game.new plus play_random_round(Random(seed))."""
    assert CORE is not None
    table = rules_tuple(Rules())
    for players, first, count in ((4, 0, 17), (3, 90, 21), (2, 1_000_003, 9), (4, 200, 75)):
        moves, wins = 0, [0] * players
        for seed in range(first, first + count):
            game = Game.new(players, Rules(), seed)
            moves += play_random_round(game, random.Random(seed))
            assert game.winner is not None
            wins[game.winner] += 1
        played, native_wins = CORE.random_rounds(players, table, first, count)
        assert (played, list(native_wins)[:players]) == (moves, wins)


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


@needs_core
def test_sim_gives_the_same_results_with_and_without_the_core() -> None:
    from unogame.sim.runner import SimConfig, run_rounds

    for bots, rules in ((("medium", "easy", "random", "medium"), Rules(stacking=True)),
                        (("random", "medium", "random"),
                         Rules(seven_zero=True, jump_in=True, custom_rule="discard_color"))):
        config = SimConfig(len(bots), bots, 12, seed=4, rules=rules)
        engine = SimConfig(len(bots), bots, 12, seed=4, rules=rules, native=False)
        assert run_rounds(config, workers=1) == run_rounds(engine, workers=1)


@needs_core
def test_hard_searches_alike_on_the_core_and_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same budget gives the same move: the core simulates what the engine would."""
    from unogame.bots import HardBot, ismcts

    def choices() -> list[str]:
        out = []
        for seed in range(12):
            rules = Rules(stacking=seed % 2 == 0, custom_rule="chosen_draw")
            game = Game.new(2 + seed % 3, rules, seed)
            for _ in range(seed % 5):
                game.push(game.turn, game.legal_moves()[-1])
            bot = HardBot(seed=seed, budget=3000)
            seat = game.turn
            bot.new_round(seat, game.view(seat), game.rules)
            out.append(str(bot.choose(game.view(seat), game.legal_moves(seat))))
        return out

    native = choices()
    monkeypatch.setattr(ismcts.native, "supports", lambda rules: False)
    assert choices() == native


@needs_core
@pytest.mark.parametrize(("policy", "flat", "opponent_widening", "halving"),
                         [("medium", False, -1, False), ("greedy", False, 4, False),
                          ("medium", True, -1, False), ("medium", False, -1, True)])
def test_the_cores_whole_search_is_the_python_loops(monkeypatch: pytest.MonkeyPatch,
                                                    policy: str, flat: bool,
                                                    opponent_widening: int,
                                                    halving: bool) -> None:
    """hard's search in C (determinizations from what the tracker knows, tree, widening,
    rollouts; the medium policy or the greedy one; root halving; or the flat search) makes
    the Python loop's decisions, with as many iterations and the same generator state after, through
    whole rounds (cards learned from swaps, challenges and draws; hands dealt again until they
    explain the others' plays, under the rules that keep them) under mixed house rules."""
    from unogame.bots import HardBot, make_bot

    monkeypatch.setattr(HardBot, "policy", policy)
    monkeypatch.setattr(HardBot, "flat", flat)
    monkeypatch.setattr(HardBot, "opponent_widening", opponent_widening)
    monkeypatch.setattr(HardBot, "root_halving", halving)

    def play(core: bool) -> list[tuple[int, int, int]]:
        if not core:  # the Python loop over core states, the reference of the C loop
            monkeypatch.setattr(HardBot, "_core_search", lambda *args: None)
        out = []
        for seed in range(11):
            rules = Rules(seven_zero=seed % 3 == 0, stacking=seed % 3 == 1,
                          draw_until_playable=seed % 4 == 2, jump_in=seed % 5 == 1,
                          custom_rule=("skip", "chosen_draw", "pass_hands", "discard_color",
                                       "others_draw")[seed % 5]) if seed < 9 else Rules()
            players = 2 + seed % 3
            game = Game.new(players, rules, seed)
            bots = [HardBot(seed=seed, budget=1200) if seat == 0
                    else make_bot("medium", seed * 10 + seat) for seat in range(players)]
            for seat, bot in enumerate(bots):
                bot.new_round(seat, game.view(seat), game.rules)
            while game.winner is None:
                seat = game.turn
                move = bots[seat].choose(game.view(seat), game.legal_moves(seat))
                assert move is not None
                if seat == 0:
                    out.append((move.code, bots[0].last_iterations,
                                hash(bots[0].rng.getstate())))
                for event in game.push(seat, move):
                    for other, bot in enumerate(bots):
                        bot.observe(event.for_seat(other))
        return out

    in_c = play(True)
    assert len(in_c) > 100 and play(False) == in_c


@needs_core
def test_opponents_on_the_policy_search_alike_in_c_and_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``opponent_widening`` -1 (the other seats play the policy's moves only) and the
    greedy policy the C search still makes the Python loop's decisions; a value below -1 is
    refused."""
    from unogame.bots import HardBot, make_bot
    from unogame.native import game as native_game

    def play(core: bool) -> list[tuple[int, int]]:
        if not core:
            monkeypatch.setattr(HardBot, "_core_search", lambda *args: None)
        out = []
        for seed in range(2):
            game = Game.new(3, Rules(), seed)
            bots = [HardBot(seed=seed, budget=1500) if seat == 0
                    else make_bot("medium", seed * 10 + seat) for seat in range(3)]
            bots[0].opponent_widening = -1  # type: ignore[attr-defined]
            bots[0].policy = "greedy"  # type: ignore[attr-defined]
            for seat, bot in enumerate(bots):
                bot.new_round(seat, game.view(seat), game.rules)
            while game.winner is None:
                seat = game.turn
                move = bots[seat].choose(game.view(seat), game.legal_moves(seat))
                assert move is not None
                if seat == 0:
                    out.append((move.code, bots[0].last_iterations))  # type: ignore[attr-defined]
                for event in game.push(seat, move):
                    for other, bot in enumerate(bots):
                        bot.observe(event.for_seat(other))
        return out

    in_c = play(True)
    assert len(in_c) > 10 and play(False) == in_c
    game = Game.new(2, Rules(), 1)
    base = native_game.SampleTemplate(game).sample(0, {}, [], None)
    with pytest.raises(ValueError, match="nothing to search"):
        native_game.search(base, game.turn, [0], [], [7, 7], [[], []], [[-1] * 5] * 2,
                           [-1, -1], 80, False, 0.7, 0.6, 40, 4, -2, 1000, 10, 0.0,
                           random.Random(1).getstate()[1])


SANITIZED_RUN = """
import importlib.util, random, sys
spec = importlib.util.spec_from_file_location("unogame.native._core", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
sys.modules["unogame.native._core"] = module
sys.path.insert(0, sys.argv[2])
import native_diff
from unogame.bots import HardBot
from unogame.engine import Game, Rules
from unogame.native import CORE, rules_tuple
assert CORE is module
print(native_diff.run(int(sys.argv[3])))
print(native_diff.run_drawn_wild_draw_fours(int(sys.argv[3]) // 4))
import test_native_scenarios as scenarios  # every scenario file, deals included
for name in scenarios.ON_CORE:
    scenarios.run_on_both(scenarios.CASES[name]["scenario"])
for players in (2, 4, 10):
    print(CORE.random_rounds(players, rules_tuple(Rules(jump_in=True)), 0, 50))
    for seed in range(4):
        game = Game.new(players, Rules(seven_zero=True, custom_rule="pass_hands"), seed)
        bot = HardBot(seed=seed, budget=5000)
        bot.flat = seed == 1  # the flat search, root halving and the greedy policy too
        bot.root_halving = seed == 2
        bot.policy = "greedy" if seed == 3 else "medium"
        bot.new_round(game.turn, game.view(game.turn), game.rules)
        bot.choose(game.view(game.turn), game.legal_moves())
from unogame.bots import make_bot  # a round under plain rules: the others' decisions kept
game = Game.new(4, Rules(), 7)
bots = [HardBot(seed=7, budget=3000)] + [make_bot("medium", seat) for seat in (1, 2, 3)]
for seat, bot in enumerate(bots):
    bot.new_round(seat, game.view(seat), game.rules)
kept = 0
while game.winner is None:
    seat = game.turn
    kept += seat == 0 and any(bots[0].tracker.decisions.by_seat)
    for event in game.push(seat, bots[seat].choose(game.view(seat), game.legal_moves(seat))):
        for other, bot in enumerate(bots):
            bot.observe(event.for_seat(other))
assert kept
print("sanitized run done")
"""


@needs_core
@pytest.mark.slow
def test_core_under_address_and_undefined_behaviour_sanitizers(tmp_path: object) -> None:
    """The core built with -fsanitize=address,undefined (array bounds included) plays the
    differential games, batches and searches (hands dealt again to explain the others'
    decisions too) without a report."""
    import pathlib
    import shutil

    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("no gcc")
    out = pathlib.Path(str(tmp_path))
    source = pathlib.Path(__file__).parent.parent / "src" / "unogame" / "native"
    include = subprocess.run([sys.executable, "-c",
                              "import sysconfig; print(sysconfig.get_paths()['include'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    library = out / "_core_sanitized.so"
    subprocess.run([gcc, "-shared", "-fPIC", "-g", "-O1", "-std=c11", "-Wall", "-Wextra",
                    "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                    "-fno-omit-frame-pointer", f"-I{include}",
                    *sorted(str(path) for path in source.glob("*.c")),
                    "-o", str(library), "-lm"], check=True)
    asan = subprocess.run([gcc, "-print-file-name=libasan.so"], capture_output=True,
                          text=True, check=True).stdout.strip()
    ubsan = subprocess.run([gcc, "-print-file-name=libubsan.so"], capture_output=True,
                           text=True, check=True).stdout.strip()
    env = {**os.environ, "LD_PRELOAD": f"{asan} {ubsan}",
           "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1",
           "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1", "PYTHONMALLOC": "malloc"}
    env.pop(DISABLE_VARIABLE, None)
    done = subprocess.run([sys.executable, "-c", SANITIZED_RUN, str(library),
                           os.path.dirname(__file__), "20000"],
                          env=env, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "sanitized run done" in done.stdout
    assert "runtime error" not in done.stderr and "AddressSanitizer" not in done.stderr


@needs_core
def test_sim_plays_its_tables_on_the_core_and_composed_rules_on_the_engine(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``uno sim`` hands the Table a NativeGame for preset rules (played to the end there),
    and the engine's Game for a family's composed rule, which the core does not play."""
    from unogame.engine.custom import CustomRule
    from unogame.native.game import NativeGame
    from unogame.sim import runner

    made: list[object] = []

    def recording(players: int, rules: Rules, seed: int) -> object:
        made.append(new_game(players, rules, seed))
        return made[-1]

    monkeypatch.setattr(runner, "new_game", recording)
    bots = ("medium", "random", "easy")
    runner.run_rounds(runner.SimConfig(3, bots, 4, seed=2, rules=Rules(stacking=True)), 1)
    assert len(made) == 4
    assert all(type(game) is NativeGame and game.winner is not None for game in made)
    made.clear()
    rule = CustomRule.from_dict({"name": "G", "steps": [{"who": "others", "what": "draw",
                                                         "count": 1}]})
    composed = runner.SimConfig(3, bots, 4, seed=2, rules=Rules(custom_rule=rule))
    results = runner.run_rounds(composed, 1)
    assert len(made) == 4 and all(type(game) is Game for game in made)
    assert results == runner.run_rounds(
        runner.SimConfig(3, bots, 4, seed=2, rules=Rules(custom_rule=rule), native=False), 1)


@needs_core
def test_direction_and_match_winner_read_without_an_export() -> None:
    """The fields the table reads every step come from the state's own getters (an export
    of the whole state each time made `uno sim` slower with the core than without) and
    equal the exported ones and the engine's, through a reverse and to the match's end."""
    game = Game.new(3, Rules(target_score=60), 8)
    from unogame.native.game import NativeGame

    native = NativeGame.new(3, Rules(target_score=60), 8)
    rng = random.Random(2)
    directions = set()
    while True:
        fields = native.state.export()
        assert native.state.direction == fields["direction"] == game.direction
        assert native.state.game_winner == fields["game_winner"]
        assert native.game_winner == game.game_winner and native.direction == game.direction
        directions.add(game.direction)
        if game.winner is not None:
            if game.game_winner is not None:
                break
            assert native.next_round() == game.next_round()
            continue
        move = rng.choice(game.legal_moves())
        assert native.push(game.turn, move) == game.push(game.turn, move)
    assert directions == {1, -1} and native.game_winner is not None
