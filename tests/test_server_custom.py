"""The web server and a family's Wild Customizable rule (issue 14): the builder's metadata,
a room created with the rule (stored, restored, announced to every seat), and a refused
rule answered with its reason key for the page to translate."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from test_server_support import Client, ServerThread, run

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
