"""A match at the keyboard saved after every move and resumed exactly (issue 24:
``uno play --resume``): the same hands, turn, scores, rules and random states, so that
the bots go on as they would have; written atomically; a damaged file refused clearly.
Pilot tests at 80x24 and 120x40 in Thai and English."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

textual = pytest.importorskip("textual")

from tui_helpers import FROZEN, config, ready, run, screen_text, until  # noqa: E402

from unogame.cli import main  # noqa: E402
from unogame.engine import Rules  # noqa: E402
from unogame.table import DecisionRequest, NextRound  # noqa: E402
from unogame.tui import saving  # noqa: E402
from unogame.tui.app import UnoApp  # noqa: E402
from unogame.tui.match import Match, MatchConfig, SeatConfig  # noqa: E402
from unogame.tui.screens.game import GameScreen  # noqa: E402

SIZES = [(80, 24), (120, 40)]


def a_match(seed: int = 11) -> Match:
    rules = Rules.from_dict({"stacking": True, "jump_in": True, "target_score": 500,
                             "custom_rule": "others_draw"})
    return Match(MatchConfig(seats=[SeatConfig("Ann"), SeatConfig("Bo", "medium"),
                                    SeatConfig("Cy", "random")], rules=rules, seed=seed))


def advance(match: Match, steps: int) -> list[str]:
    """``steps`` moves or deals as the app makes them: the bots decide (drawing on their
    random generators), the person makes their first legal move; returns what was done."""
    done: list[str] = []
    for _ in range(steps):
        if match.game.is_game_over:
            break
        if match.game.is_round_over:
            match.scoreboard_closed()
        step = match.table.next_step()
        if isinstance(step, DecisionRequest):
            play = match.table.resolve(step, *step.decide())
            if play is not None:
                match.apply(play)
                done.append(f"{play.seat}:{play.move.text}")
        elif isinstance(step, NextRound):
            match.next_round()
            done.append("deal")
        else:
            legal = match.game.legal_moves(0)
            match.push(0, legal[0])
            done.append(f"0:{legal[0].text}")
    return done


def state(match: Match) -> dict[str, Any]:
    return {"position": match.game.position(), "version": match.version,
            "round": match.round, "results": match.table.results,
            "rules": match.config.rules.to_dict(), "random": match.table.random_states(),
            "log": match.log_for(0)}


def test_a_saved_match_resumes_exactly_and_its_bots_go_on_as_they_would_have(
        tmp_path: Path) -> None:
    match = a_match()
    while match.round < 2:  # into the second round: a deal in the saved moves
        advance(match, 1)
    advance(match, 7)
    assert not match.game.is_game_over
    path = tmp_path / "match.json"
    saving.save(match, path)
    resumed = saving.load(path)
    assert state(resumed) == state(match)
    assert resumed.config == match.config
    # the same future: the bots draw the same random numbers, the deals the same cards
    assert advance(resumed, 300) == advance(match, 300)
    assert state(resumed) == state(match)


def test_the_save_is_atomic_and_a_damaged_file_is_refused_clearly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    match = a_match()
    path = tmp_path / "match.json"
    advance(match, 40)
    saving.save(match, path)
    before = path.read_text(encoding="utf-8")
    advance(match, 5)

    def crash(*_args: Any) -> None:
        raise OSError("disk gone")

    monkeypatch.setattr(saving.os, "replace", crash)
    with pytest.raises(OSError):
        saving.save(match, path)
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == before  # the old save, whole
    assert os.listdir(tmp_path) == ["match.json"]  # no half-written file left
    record = json.loads(before)
    assert len(record["moves"]) >= 3
    record["moves"][2][1] = "catch 9"  # a move the position does not allow
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(saving.SaveError, match="move 3"):
        saving.load(path)
    path.write_text("{", encoding="utf-8")
    with pytest.raises(saving.SaveError, match="cannot be read"):
        saving.load(path)
    with pytest.raises(saving.SaveError, match="no saved match"):
        saving.load(tmp_path / "none.json")


def test_uno_play_resume_without_a_save_says_so(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--resume", str(tmp_path / "none.json")]) == 2
    assert "no saved match" in capsys.readouterr().err


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "th"])
def test_the_terminal_saves_every_move_and_resumes_the_same_table(
        tmp_path: Path, lang: str, size: tuple[int, int]) -> None:
    path = tmp_path / "match.json"
    settings = config(SeatConfig("Ann"), SeatConfig("Bo", "random"), seed=7, lang=lang,
                      **FROZEN)

    async def scenario() -> tuple[tuple[str, ...], str]:
        app = UnoApp(settings, lang=lang, save_to=path)
        async with app.run_test(size=size) as pilot:
            await ready(pilot, app)
            assert app.match is not None and app.match.game.turn == 0
            await pilot.press("d")  # a draw: saved at once
            await until(pilot, lambda: path.exists()
                        and len(json.loads(path.read_text())["moves"]) >= 1)
            assert json.loads(path.read_text())["moves"][0] == [0, "draw"]
            await pilot.pause()
            screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
            hand = screen.hand.cards
            status = screen_text(app).splitlines()[0]
        return hand, status

    async def resumed(hand: tuple[str, ...], status: str) -> None:
        app = UnoApp(lang=lang, save_to=path, resumed=saving.load(path))
        async with app.run_test(size=size) as pilot:
            await ready(pilot, app)
            screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
            assert screen.hand.cards == hand
            assert screen_text(app).splitlines()[0] == status
            assert "Ann" in screen_text(app)

    hand, status = run_two(scenario)
    run(lambda: resumed(hand, status))


def run_two(scenario: Any) -> Any:
    import asyncio

    return asyncio.run(scenario())
