"""Every rule scenario under tests/scenarios/ played through the compiled core too, where
the core plays its rules: the same refusals (the error object of ``uno scenario``), the
same events, legal moves, positions and every seat's view after each action.

The core plays every rule set but a family's composed Wild Customizable rule; a document
the engine refuses as malformed (``expect_invalid``) never reaches a game. Skipped when the
core is not built or is disabled (``UNOGAME_NO_NATIVE=1``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from unogame.engine import Game, Move, Rules
from unogame.engine.cards import NotationError
from unogame.engine.errors import IllegalMoveError
from unogame.engine.scenario import load_scenario, run_scenario
from unogame.native import CORE, supports
from unogame.native.game import NativeGame

needs_core = pytest.mark.skipif(CORE is None, reason="the compiled core is not available")

FILES = sorted((Path(__file__).parent / "scenarios").glob("*.json"))
CASES = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in FILES}


def core_plays(case: dict[str, Any]) -> bool:
    """Whether the core plays this scenario: a well-formed document whose rules it plays
    (checked on the rules alone, so that it holds without the core too)."""
    if case.get("expect_invalid"):
        return False
    rules = Rules.from_dict(case["scenario"].get("rules"))
    return isinstance(rules.custom_rule, str)


ON_CORE = [name for name, case in CASES.items() if core_plays(case)]


def native_start(document: dict[str, Any]) -> NativeGame:
    """The scenario's start in the core (the engine has checked the document)."""
    rules = Rules.from_dict(document.get("rules"))
    seed = document.get("seed", 0)
    if "state" in document:
        return NativeGame.from_position(document["state"], rules, seed)
    deal = document["deal"]
    players = deal["players"]
    return NativeGame.deal(players, deal.get("dealer", players - 1), deal["deck"], rules, seed)


def same_game(engine: Game, native: NativeGame, where: str) -> None:
    assert native.position() == engine.position(), f"{where}: positions differ"
    for seat in range(engine.players):
        assert native.view(seat) == engine.view(seat), f"{where}: views of seat {seat} differ"
        assert native.legal_moves(seat) == engine.legal_moves(seat), \
            f"{where}: legal moves of seat {seat} differ"


def run_on_both(document: dict[str, Any]) -> tuple[NativeGame, dict[str, Any] | None]:
    """Play the actions on the engine and the core side by side, comparing after each;
    the core's game and its refusal object (as ``run_scenario`` writes it)."""
    engine, actions = load_scenario(document)
    native = native_start(document)
    assert native.start_events() == engine.start_events(), "start events differ"
    same_game(engine, native, "start")
    for index, (seat, text) in enumerate(actions):
        where = f"action {index} ({seat}, {text!r})"
        try:
            move = Move.parse(text)
        except NotationError as error:
            return native, {"error": f"not understood: {error}", "action": index,
                            "state": native.position()}
        try:
            events = engine.push(seat, move)
        except IllegalMoveError as refused:
            with pytest.raises(IllegalMoveError) as core_refused:
                native.push(seat, move)
            assert str(core_refused.value) == str(refused), f"{where}: refusals differ"
            same_game(engine, native, f"{where}, refused")
            return native, {"error": str(core_refused.value), "action": index,
                            "state": native.position()}
        assert native.push(seat, move) == events, f"{where}: events differ"
        same_game(engine, native, where)
    return native, None


@needs_core
@pytest.mark.parametrize("name", ON_CORE)
def test_scenario_on_the_core(name: str) -> None:
    document = CASES[name]["scenario"]
    assert supports(Rules.from_dict(document.get("rules")))
    native, error = run_on_both(document)
    result = run_scenario(document)  # the engine's `uno scenario` output
    assert error == result.error
    assert native.position() == result.game.position()
    for seat in range(native.players):
        assert native.view(seat) == result.game.view(seat)


def test_the_core_meets_every_scenario_it_can_play() -> None:
    """Only malformed documents and family-composed Wild Customizable rules stay on the
    engine alone; every other scenario runs on both."""
    left = {name for name, case in CASES.items() if name not in ON_CORE}
    for name in left:
        case = CASES[name]
        rules = case["scenario"].get("rules") or {} if isinstance(case["scenario"], dict) else {}
        composed = isinstance(rules, dict) and isinstance(rules.get("custom_rule"), dict)
        assert case.get("expect_invalid") or composed, name
    assert len(ON_CORE) >= 184, len(ON_CORE)
