"""The web server and a family's Wild Customizable rule (issue 14): the builder's metadata,
a room created with the rule (stored, restored, announced to every seat), and a refused
rule answered with its reason key for the page to translate."""

from __future__ import annotations

import json
import sqlite3
import urllib.request
from pathlib import Path
from typing import Any

from test_server_support import Client, ServerProcess, ServerThread, create_room, free_port, run

from unogame.engine import card_code, full_deck
from unogame.engine.custom import ALLOWED_WHO, MAX_STEPS, PRESET_STEPS, CustomRule
from unogame.i18n import LANGUAGES, table
from unogame.server.rooms import Timing

GRANDMA = {"name": "Grandma's rule", "text": "ทุกคนจั่ว 1 ใบ <b>คนถัดไป</b>ถูกข้าม",
           "steps": [{"who": "others", "what": "draw", "count": 1},
                     {"who": "next", "what": "skip", "count": 1}]}


def grandma_deck() -> list[str]:
    """Ann (seat 0) holds the Wild Customizable; everyone else draws G1 and G2."""
    hands = (["WC", "R5", "G7"], ["B1", "B2", "B3"], ["Y1", "Y2", "Y3"])
    deck = [hands[seat][i] for i in range(3) for seat in range(3)] + ["R3", "G1", "G2"]
    rest = [card_code(card) for card in full_deck()]
    for code in deck:
        rest.remove(code)
    return deck + rest


def meta(url: str) -> Any:
    with urllib.request.urlopen(url + "/api/meta", timeout=5) as response:
        return json.loads(response.read())


def test_meta_describes_the_composer_from_the_engine() -> None:
    with ServerThread() as server:
        composer = meta(server.url)["custom_composer"]
    assert composer["allowed_who"] == {what: list(who) for what, who in ALLOWED_WHO.items()}
    assert composer["max_steps"] == MAX_STEPS
    assert composer["presets"]["next_draw_skip"] == [
        {"who": "next", "what": "draw", "count": None}, {"who": "next", "what": "skip",
                                                         "count": 1}]
    assert set(composer["presets"]) == set(PRESET_STEPS)
    for language in LANGUAGES:  # the page can say every step, player and action
        strings = table(language)
        for what, whos in ALLOWED_WHO.items():
            assert f"common.what.{what}" in strings
            for who in whos:
                assert f"common.step.{what}.{who}" in strings and f"common.who.{who}" in strings


async def create(server: ServerThread, rules: dict[str, Any], seats: int = 3) -> tuple[
        Client, Any]:
    host = await Client.connect(server.ws_url)
    reply = await host.request({"type": "create", "name": "Ann", "bots": ["random"] * (seats - 1),
                                "settings": {"name": "Family", "seats": seats, "rules": rules}},
                               ("state", "error"))
    return host, reply


def test_a_room_with_grandmas_rule_announces_it_to_every_seat() -> None:
    async def scenario(server: ServerThread) -> None:
        host, reply = await create(server, {"custom_rule": GRANDMA, "hand_size": 3})
        assert reply["type"] == "state", reply
        room = server.manager.rooms[host.room or ""]
        assert room.rules_dict == {"custom_rule": GRANDMA, "hand_size": 3}
        assert room.rules.custom_rule == CustomRule.from_dict(GRANDMA)
        info = host.last("room")
        assert info["rules"]["custom_rule"] == GRANDMA  # the page shows it as text
        room.deal = {"dealer": 2, "deck": grandma_deck(), "seed": 3}
        state = await host.request({"type": "start"}, "state")
        assert "play WC R" in state["legal"]
        start = len(host.messages)
        await host.send({"type": "move", "move": "play WC R", "version": state["version"]})
        update = await host.wait_for(lambda m: m.get("type") == "update" and any(
            e["type"] == "custom" for e in m["events"]), start=start)
        custom = next(e for e in update["events"] if e["type"] == "custom")
        assert custom == {"type": "custom", "seat": 0, "rule": "composed", **GRANDMA}
        kinds = [e["type"] for e in update["events"]]
        assert kinds[kinds.index("custom") + 1:][:3] == ["draw", "draw", "skip"], kinds
        game = room.game
        assert game is not None and game.hand_sizes()[1:] == [4, 4]
        await host.close()

    with ServerThread(timing=Timing(think=5.0, reaction_scale=30.0)) as server:
        run(scenario(server))


def test_a_refused_rule_answers_with_its_reason_and_creates_nothing() -> None:
    async def scenario(server: ServerThread) -> None:
        for rules, reason, fields in [
            ({"custom_rule": {**GRANDMA, "name": ""}}, "name_missing", {}),
            ({"custom_rule": {**GRANDMA, "text": "x" * 81}}, "text_too_long", {"limit": 80}),
            ({"custom_rule": {"name": "n", "steps": [{"what": "draw", "count": 0}]}},
             "count_range", {"step": 1, "what": "draw", "low": 1, "high": 20, "count": 0}),
        ]:
            host, reply = await create(server, rules)
            assert reply["type"] == "error" and reply["code"] == "bad_rule", reply
            assert reply["reason"] == reason and reply["fields"] == fields, reply
            await host.close()
        host, reply = await create(server, {"custom_rule": {
            "name": "Jump", "steps": [{"what": "skip", "count": 2}]}}, seats=2)
        assert reply["code"] == "bad_rule" and reply["reason"] == "skip_too_many", reply
        assert not server.manager.rooms
        await host.close()

    with ServerThread() as server:
        run(scenario(server))


SKIP_THREE = {"name": "Jump", "steps": [{"who": "next", "what": "skip", "count": 3}]}
"""Passes over three players: valid for a room of four, not for two players."""


def test_a_rule_the_seated_players_cannot_use_refuses_the_start_and_stores_nothing(
        tmp_path: Path) -> None:
    """Issue 21, item 7: "skip 3" in a room for four, started with two players and no bots
    filling the free seats, raised a raw CustomRuleError (the page read server_error), the
    room was already stored as playing, and a restart set it aside. The start is refused
    with its reason in both languages, the room stays in its lobby through a restart and
    starts once four players sit."""
    db = tmp_path / "uno.sqlite3"
    server = ServerProcess(db, free_port())
    server.start()
    try:
        async def first_life() -> tuple[str, str]:
            host = await create_room(server.ws_url, "Ann", seats=4, bots=["random"],
                                     rules={"custom_rule": SKIP_THREE})
            refused = await host.request({"type": "start"}, "error")
            assert refused["code"] == "rule_needs_players", refused
            assert refused["fields"] == {"players": 2, "limit": 1, "count": 3, "needed": 4}
            for language in LANGUAGES:  # the page's words, filled with these fields
                words = table(language)["web.error.rule_needs_players"]
                said = words.format(**refused["fields"])
                assert "4" in said and "2" in said and "{" not in said, (language, said)
            assert host.last("room")["status"] == "lobby"
            await host.send({"type": "ping"})  # the connection and the room live on
            await host.close()
            assert host.room is not None and host.token is not None
            return host.room, host.token

        code, token = run(first_life())
        with sqlite3.connect(db) as stored:  # the record was never written as playing
            (data,) = stored.execute("SELECT data FROM rooms WHERE code = ?",
                                     (code,)).fetchone()
            assert json.loads(data)["status"] == "lobby" and json.loads(data)["game_no"] == 0
        server.kill9()
        server.start()

        async def second_life() -> None:
            host = await Client.connect(server.ws_url)
            state = await host.request({"type": "resume", "room": code, "token": token},
                                       ("state", "error"))
            assert state["type"] == "state" and state["status"] == "lobby", state
            assert [seat["kind"] for seat in host.last("room")["seats"]] == ["human", "bot"]
            for _ in range(2):
                await host.request({"type": "add_bot", "level": "random"}, "room")
            started = await host.request({"type": "start"}, ("state", "error"))
            assert started["type"] == "state" and started["status"] == "playing", started
            await host.close()

        run(second_life())
        with sqlite3.connect(db) as stored:
            assert stored.execute("SELECT COUNT(*) FROM rooms_aside").fetchone() == (0,)
    finally:
        server.stop()
