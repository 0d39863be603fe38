"""Every rule scenario under tests/scenarios/ (format: tests/scenarios/README.md).

Each file goes through the same code path as ``uno scenario``; a few also go through the
real command line to check its exit codes and output.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from unogame.engine.scenario import ScenarioError, load_scenario, run_scenario

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def compare(actual: dict[str, Any], expected: dict[str, Any], where: str) -> None:
    for key, value in expected.items():
        if key == "hand_sizes":
            sizes = [h if isinstance(h, int) else len(h) for h in actual["hands"]]
            assert sizes == value, f"{where}: hand sizes {sizes} != {value}"
        elif key in ("draw_pile_size", "discard_pile_size"):
            pile = actual[key.removesuffix("_size")]
            size = pile if isinstance(pile, int) else len(pile)
            assert size == value, f"{where}: {key} {size} != {value}"
        elif key == "hands":
            assert len(actual["hands"]) == len(value), f"{where}: number of hands"
            for seat, (got, want) in enumerate(zip(actual["hands"], value, strict=True)):
                if isinstance(want, list) and isinstance(got, list):
                    assert Counter(got) == Counter(want), f"{where}: hand {seat} {got} != {want}"
                else:
                    assert got == want, f"{where}: hand {seat} {got} != {want}"
        else:
            assert key in actual, f"{where}: no field {key!r}"
            assert actual[key] == value, f"{where}: {key} = {actual[key]!r}, expected {value!r}"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    case = json.loads(path.read_text(encoding="utf-8"))
    assert "rule" in case and "title" in case, "every scenario names its rule and behaviour"
    document = case["scenario"]
    if case.get("expect_invalid"):
        with pytest.raises(ScenarioError):
            run_scenario(document)
        return
    result = run_scenario(document)
    if "expect_error" in case:
        assert result.error is not None, f"action {case['expect_error']['action']} was accepted"
        assert result.error["action"] == case["expect_error"]["action"], result.error
        if "contains" in case["expect_error"]:
            assert case["expect_error"]["contains"] in result.error["error"], result.error
        # the refused action changed nothing: the state is the position before it
        before, actions = load_scenario(document)
        for seat, move in actions[: result.error["action"]]:
            before.push(seat, move)
        assert result.error["state"] == before.position()
        return
    assert result.error is None, result.error
    compare(result.game.position(), case.get("expect", {}), "position")
    if "view" in case:
        compare(result.game.view(case["view"]), case.get("expect_view", {}), "view")


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 1


WORKED_EXAMPLE = {
    "seed": 7,
    "state": {"players": 3, "hands": [["R7", "W+4", "G2"], ["B7", "Y1"], ["R+2", "G9"]],
              "draw_pile": ["B3", "Y9", "G4", "R1", "Y2", "B8", "G6", "Y3", "B0"],
              "discard_pile": ["R5"], "color": "R", "direction": 1, "turn": 0},
    "actions": [[0, "play R7"], [1, "play B7"], [0, "catch 1"], [2, "draw"],
                [0, "play W+4 G uno"], [1, "challenge"]],
}
WORKED_OUTPUT = (
    '{"players": 3, "hands": [["G2"], ["Y1", "B3", "Y9", "R1", "Y2", "B8", "G6", "Y3", "B0"], '
    '["R+2", "G9", "G4"]], "draw_pile": [], "discard_pile": ["W+4", "B7", "R7", "R5"], '
    '"color": "G", "direction": 1, "turn": 2, "dealer": 2, "scores": [0, 0, 0], '
    '"pending": null, "uno": [0], "catchable": [], "winner": null, "game_winner": null}'
)


def uno(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "unogame", *args], input=stdin,
                          capture_output=True, text=True, check=False, timeout=60)


def test_command_prints_the_worked_example_exactly() -> None:
    """NOTATION.md's worked example, byte for byte, through the real command."""
    result = uno("scenario", stdin=json.dumps(WORKED_EXAMPLE))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == json.loads(WORKED_OUTPUT)
    view = uno("scenario", "--view", "1", stdin=json.dumps(WORKED_EXAMPLE))
    expected = json.loads(WORKED_OUTPUT)
    expected["hands"] = [1, expected["hands"][1], 3]
    expected["draw_pile"] = 0
    assert json.loads(view.stdout) == expected


def test_command_exit_2_with_the_error_object() -> None:
    document = dict(WORKED_EXAMPLE, actions=[[0, "play R7"], [1, "play G9"]])
    result = uno("scenario", stdin=json.dumps(document))
    assert result.returncode == 2
    error = json.loads(result.stdout)
    assert error["action"] == 1 and "G9" in error["error"]
    assert error["state"]["hands"][0] == ["W+4", "G2"]


@pytest.mark.parametrize("text", [
    "{not json", "[]", '{"state": {"players": 2, "hands": [["X9"], ["R1"]], '
    '"draw_pile": [], "discard_pile": ["R5"], "color": "R"}}',
    '{"state": {"players": 2, "hands": [["R1"], ["R2"]], "draw_pile": [], '
    '"discard_pile": ["R5"], "color": "R"}, "actions": [["0", "draw"]]}',
])
def test_command_exit_1_one_line_no_traceback(text: str) -> None:
    result = uno("scenario", stdin=text)
    assert result.returncode == 1
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_command_loads_the_notation_position_example() -> None:
    """NOTATION.md's position example, as a scenario with no actions, prints itself back."""
    position = {
        "players": 4, "hands": [["R7", "W"], ["G2", "G+2"], ["YS"], ["B1", "B1", "WS"]],
        "draw_pile": ["B3", "Y9"], "discard_pile": ["R5", "G5"], "color": "R", "direction": 1,
        "turn": 0, "dealer": 3, "scores": [0, 0, 0, 0], "pending": None, "uno": [],
        "catchable": [], "winner": None, "game_winner": None,
    }
    result = uno("scenario", stdin=json.dumps({"state": position}))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == position
    scenario = {"rules": {"target_score": 500, "must_play_drawn": False}, "seed": 7,
                "state": position, "actions": [[0, "play R7"], [1, "draw"], [1, "pass"]]}
    result = uno("scenario", stdin=json.dumps(scenario))
    assert result.returncode == 2, "B3 drawn on R7 is not playable: the turn ended, no pass"
    assert json.loads(result.stdout)["action"] == 2
