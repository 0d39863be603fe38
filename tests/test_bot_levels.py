"""Agents as players (issue 23): plugin levels and ``policy:PATH`` in ``uno play``, levels an
operator names for the web (``uno serve --bot-level NAME=SPEC``); a browser can pick only
those names, never load a path."""

from __future__ import annotations

import argparse
import importlib.metadata
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from test_server_support import ServerThread, autoplay, create_room, run

from unogame.bots import Bot, RuleBot, make_bot
from unogame.bots.base import NAMED_LEVELS, add_named_level, level_names
from unogame.engine import Move
from unogame.server.rooms import Timing


class PluginBot(RuleBot):
    """The ``fake`` plugin's bot: ``rule``'s play under a class of its own, counting the
    moves it makes (so a test sees that this bot, not another, played its seat)."""

    level = "fake"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.moves_made = 0

    def choose(self, view: dict[str, Any], legal: Sequence[Move]) -> Move | None:
        move = super().choose(view, legal)
        self.moves_made += move is not None
        return move


made_bots: list[PluginBot] = []
"""Every bot the ``fake`` plugin made in the running test."""


class _EntryPoint:
    def __init__(self, factory: Any) -> None:
        self.factory = factory

    def load(self) -> Any:
        return self.factory


@pytest.fixture
def plugin(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """A ``fake`` plugin level in the ``unogame.bots`` group: ``fake:ARG`` plays as ``rule``;
    the arguments it was asked to load are recorded."""
    loaded: list[str] = []

    def factory(argument: str, seed: int) -> Bot:
        loaded.append(argument)
        made_bots.append(PluginBot(seed))
        return made_bots[-1]

    real = importlib.metadata.entry_points

    def entry_points(**query: Any) -> Any:
        if query.get("group") == "unogame.bots" and query.get("name") == "fake":
            return [_EntryPoint(factory)]
        return real(**query)

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    made_bots.clear()
    yield loaded
    NAMED_LEVELS.clear()


def test_named_levels_play_as_their_spec_and_are_checked_when_added(plugin: list[str]) -> None:
    add_named_level("mybot", "fake:weights-1")
    assert plugin == ["weights-1"]  # made once when added
    assert "mybot" in level_names() and "learned" in level_names()
    bot = make_bot("mybot", seed=3)
    assert isinstance(bot, RuleBot) and plugin == ["weights-1", "weights-1"]
    with pytest.raises(ValueError, match="exists already"):
        add_named_level("mybot", "random")
    with pytest.raises(ValueError, match="exists already"):
        add_named_level("hard", "random")
    with pytest.raises(ValueError, match="lower-case"):
        add_named_level("policy:x", "random")
    with pytest.raises(ValueError, match="no 'nothere' bot plugin"):
        add_named_level("other", "nothere:x")
    assert "other" not in level_names()


def test_uno_serve_bot_level_flag_refuses_a_bad_spec(plugin: list[str]) -> None:
    from unogame.bots.base import add_bot_levels

    assert add_bot_levels(["ppo=fake:model.zip"]) is None
    assert NAMED_LEVELS == {"ppo": "fake:model.zip"}
    problem = add_bot_levels(["broken"])
    assert problem is not None and "NAME=SPEC" in problem
    problem = add_bot_levels(["gone=nothere:model.zip"])
    assert problem is not None and "nothere" in problem
    assert list(NAMED_LEVELS) == ["ppo"]


def test_uno_play_seats_plugin_and_learned_levels(plugin: list[str]) -> None:
    from unogame.tui.cli import config_from_args
    from unogame.tui.match import Match

    args = argparse.Namespace(players=None, bots="fake:abc, learned", names=None, lang="en",
                              seed=4, target=None, custom_rule=None, rules=None,
                              bot_delay=0.0)
    config = config_from_args(args)
    assert config is not None
    assert [seat.level for seat in config.seats] == [None, "fake:abc", "learned"]
    match = Match(config)
    assert match.bot_seats == [1, 2] and "abc" in plugin
    args.bots = "nothere:abc"
    with pytest.raises(ValueError, match="no 'nothere' bot plugin"):
        config_from_args(args)
    args.bots = "genius"
    with pytest.raises(ValueError, match="unknown bot level 'genius'"):
        config_from_args(args)


@pytest.fixture
def server(plugin: list[str]) -> Iterator[ServerThread]:
    add_named_level("mybot", "fake:operator-file")
    with ServerThread(timing=Timing(think=0.0, reaction_scale=0.0)) as running:
        yield running


def test_a_room_seats_named_levels_and_never_loads_a_path_from_a_browser(
        server: ServerThread, plugin: list[str]) -> None:
    import json
    import urllib.request

    with urllib.request.urlopen(f"{server.url}/api/meta") as response:
        levels = json.loads(response.read())["bot_levels"]
    assert levels[-2:] == ["learned", "mybot"] and not any(":" in level for level in levels)
    plugin.clear()

    async def scenario() -> None:
        host = await create_room(server.ws_url, seats=3, bots=["mybot"])
        for message in (
                {"type": "create", "name": "H", "bots": ["fake:/tmp/evil.zip"],
                 "settings": {"name": "x", "seats": 3, "rules": {}, "timer": 0}},
                {"type": "create", "name": "H", "bots": ["policy:/tmp/evil.zip"],
                 "settings": {"name": "x", "seats": 3, "rules": {}, "timer": 0}},
                {"type": "add_bot", "level": "fake:/tmp/evil.zip"},
                {"type": "create", "name": "H", "bots": [],
                 "settings": {"name": "x", "seats": 3, "rules": {}, "timer": 0,
                              "fill": "fake:/tmp/evil.zip"}}):
            error = await host.request(message, "error")
            assert error["code"] in ("bad_level", "bad_settings"), error
        room = await host.request({"type": "add_bot", "level": "learned"}, "room")
        assert [seat.get("level") for seat in room["seats"]] == [None, "mybot", "learned"]
        await host.request({"type": "start"}, "state")
        await autoplay(host, seed=2, deal=True,
                       until=lambda message: message["version"] >= 20, timeout=60)
        moves = await server.settled_async(host.room or "", lambda room, moves: moves)
        assert {seat for seat, _ in moves} >= {1, 2}  # both bots played
        await host.close()

    run(scenario())
    assert plugin and set(plugin) == {"operator-file"}  # never the browser's path


# --- the terminal: `uno play --bot-level NAME=SPEC`, its setup screen and saved matches ---


@pytest.fixture
def screens_opened(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """``uno play``'s apps, kept instead of run: a test drives them with Textual's pilot
    (and sees that no screen opened when none may)."""
    from unogame.tui.app import UnoApp

    apps: list[Any] = []
    monkeypatch.setattr(UnoApp, "run", lambda self, *args, **kwargs: apps.append(self))
    return apps


def test_uno_play_bot_level_refuses_a_bad_spec_before_any_screen_opens(
        plugin: list[str], screens_opened: list[Any],
        capsys: pytest.CaptureFixture[str]) -> None:
    from unogame.cli import main

    for flag, problem in [("gone=nothere:model.zip", "no 'nothere' bot plugin"),
                          ("broken", "give NAME=SPEC"),
                          ("hard=random", "exists already"),
                          ("Big Bot=random", "lower-case")]:
        assert main(["play", "--bot-level", flag]) == 2
        error = capsys.readouterr().err
        assert error.startswith(f"uno play: --bot-level {flag!r}: ") and problem in error
    assert main(["play", "--bot-level", "ok=fake:w", "--bot-level", "gone=nothere:x",
                 "--bots", "ok"]) == 2
    assert screens_opened == [] and "gone" not in level_names()
    NAMED_LEVELS.clear()  # a new `uno play`
    assert main(["play", "--bot-level", "ok=fake:w", "--bots", "ok,rule", "--seed", "1"]) == 0
    [app] = screens_opened  # --bots may name it: the match starts at once
    assert [seat.level for seat in app.initial_config.seats] == [None, "ok", "rule"]


def test_the_setup_screen_offers_a_named_level_and_its_bot_plays_the_seat(
        plugin: list[str], screens_opened: list[Any]) -> None:
    from textual.widgets import Input, Select
    from tui_helpers import human_turn, screen_text, shown, until
    from tui_helpers import run as run_app

    from unogame.cli import main
    from unogame.tui.screens.game import GameScreen
    from unogame.tui.screens.setup import SetupScreen

    assert main(["play", "--bot-level", "mybot=fake:weights-2"]) == 0
    [app] = screens_opened
    assert app.initial_config is None  # neither --players nor --bots: the setup screen
    assert plugin == ["weights-2"]

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await shown(pilot, app, SetupScreen)
            setup = app.screen
            setup.query_one("#setup-players", Select).value = 2
            kind = setup.query_one("#kind-1", Select)
            assert ("bot: mybot", "mybot") in kind._options  # after the built-in levels
            assert [value for _, value in kind._options][-2:] == ["learned", "mybot"]
            kind.value = "mybot"
            await pilot.pause()
            assert "bot: mybot" in screen_text(app)
            await pilot.press("f2")
            await until(pilot, lambda: "บอท: mybot" in screen_text(app))
            await pilot.press("f2")
            setup.query_one("#seed", Input).value = "5"
            await pilot.press("ctrl+s")
            await shown(pilot, app, GameScreen)
            match = app.match
            assert match is not None
            assert [seat.level for seat in match.config.seats] == [None, "mybot"]
            match.config.bot_delay = 0.0
            match.config.reaction_delay = 0.0
            game = match.game

            def seat_one_moved() -> bool:
                return any(seat == 1 for seat, _ in game.history)

            while not seat_one_moved():
                await until(pilot, lambda: seat_one_moved() or game.is_round_over
                            or (game.turn == 0 and isinstance(app.screen, GameScreen)))
                if seat_one_moved() or game.is_round_over:
                    break
                before = len(game.history)
                await human_turn(pilot, app)
                await until(pilot, lambda b=before: len(game.history) > b)
            assert seat_one_moved()
            played = sum(1 for seat, _ in game.history if seat == 1)
            # the seat's bot is the plugin's: its moves are the seat's (none of it elsewhere)
            assert sum(bot.moves_made for bot in made_bots) == played > 0

    run_app(scenario)
    assert set(plugin) == {"weights-2"}


def test_a_match_with_a_named_level_resumes_only_with_the_same_flag(
        tmp_path: Any, plugin: list[str], screens_opened: list[Any],
        capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from unogame.cli import main
    from unogame.tui import saving
    from unogame.tui.match import Match, MatchConfig, SeatConfig

    add_named_level("mybot", "fake:weights-3")
    match = Match(MatchConfig([SeatConfig("Ann"), SeatConfig("Bo", "mybot")], seed=3))
    path = tmp_path / "match.json"
    saving.save(match, path)
    assert json.loads(path.read_text())["seats"][1] == {"name": "Bo", "level": "mybot"}
    NAMED_LEVELS.clear()  # a later `uno play --resume`, without the flag
    assert main(["play", "--resume", str(path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("uno play: ") and "Traceback" not in error
    assert "Bo is a bot of level 'mybot'" in error and "--bot-level mybot=SPEC" in error
    assert screens_opened == []
    assert main(["play", "--resume", str(path), "--bot-level", "mybot=fake:weights-3"]) == 0
    [app] = screens_opened
    assert app.resumed.config == match.config
    assert plugin[-1] == "weights-3"


def test_a_new_match_after_a_plugin_level_match_offers_that_level_again(
        plugin: list[str]) -> None:
    """After ``uno play --bots fake:ARG`` the setup screen opens on the last match's seats;
    it used to stop with InvalidSelectValueError (the level was not among its options)."""
    from textual.widgets import Select
    from tui_helpers import run as run_app
    from tui_helpers import shown, until

    from unogame.tui.app import UnoApp
    from unogame.tui.match import MatchConfig, SeatConfig
    from unogame.tui.screens.game import GameScreen
    from unogame.tui.screens.setup import SetupScreen

    last = MatchConfig([SeatConfig("Ann"), SeatConfig("Bo", "fake:w"), SeatConfig("Cy", "rule")],
                       seed=8)

    async def scenario() -> None:
        app = UnoApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await shown(pilot, app, SetupScreen)
            app.switch_screen(SetupScreen(last))
            await until(pilot, lambda: isinstance(app.screen, SetupScreen)
                        and app.screen.last is last)
            await pilot.pause()
            assert app.screen.query_one("#kind-1", Select).value == "fake:w"
            await pilot.press("ctrl+s")
            await shown(pilot, app, GameScreen)
            assert app.match is not None
            assert [seat.level for seat in app.match.config.seats] == [None, "fake:w", "rule"]

    run_app(scenario)


def test_a_saved_match_whose_plugin_is_gone_says_so_not_damaged(
        tmp_path: Any, plugin: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from unogame.tui import saving
    from unogame.tui.match import Match, MatchConfig, SeatConfig

    path = tmp_path / "match.json"
    saving.save(Match(MatchConfig([SeatConfig("Ann"), SeatConfig("Bo", "fake:w")])), path)
    monkeypatch.undo()  # the plugin is uninstalled since
    with pytest.raises(saving.SaveError) as refused:
        saving.load(path)
    assert str(refused.value) == (f"{path}: bot level 'fake:w': unknown bot level 'fake:w': "
                                  "no 'fake' bot plugin is installed")
