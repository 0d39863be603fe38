"""Agents as players (issue 23): plugin levels and ``policy:PATH`` in ``uno play``, levels an
operator names for the web (``uno serve --bot-level NAME=SPEC``); a browser can pick only
those names, never load a path."""

from __future__ import annotations

import argparse
import importlib.metadata
from collections.abc import Iterator
from typing import Any

import pytest
from test_server_support import ServerThread, autoplay, create_room, run

from unogame.bots import Bot, RuleBot, make_bot
from unogame.bots.base import NAMED_LEVELS, add_named_level, level_names
from unogame.server.rooms import Timing


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
        return RuleBot(seed)

    real = importlib.metadata.entry_points

    def entry_points(**query: Any) -> Any:
        if query.get("group") == "unogame.bots" and query.get("name") == "fake":
            return [_EntryPoint(factory)]
        return real(**query)

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
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
