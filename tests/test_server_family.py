"""A family room on the server (issue 24, item 3): its bots wait before catching a person's
forgotten UNO; the setting is checked, shown to everyone and kept across a restart."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from test_server_support import Client, ServerThread, create_room, run

from unogame.engine import card_code, full_deck
from unogame.server.rooms import Timing
from unogame.server.seats import FAMILY_CATCH_GRACE, RoomError, parse_settings


def deck(hands: list[list[str]], first: str) -> list[str]:
    """A deck dealing ``hands`` (the seat after the dealer first), then ``first``."""
    dealt = [hands[seat][i] for i in range(len(hands[0])) for seat in range(len(hands))]
    dealt.append(first)
    rest = [card_code(card) for card in full_deck()]
    for code in dealt:
        rest.remove(code)
    return dealt + rest


# Ann (seat 0) plays first (dealer 1): R5 leaves her one card; the bot holds no red card.
HANDS = [["R5", "G6"], ["Y1", "Y2"]]


def test_the_family_setting_is_checked() -> None:
    assert parse_settings({"seats": 2})["family"] is False
    assert parse_settings({"seats": 2, "family": True})["family"] is True
    with pytest.raises(RoomError, match="family"):
        parse_settings({"seats": 2, "family": "yes"})


async def play_forgetting_uno(url: str, server: ServerThread, family: bool, level: str,
                              say_after: float | None) -> tuple[Client, list[str]]:
    """Ann plays R5 without UNO against one bot; says UNO ``say_after`` seconds later (or
    never); the moves of the next five seconds."""
    ann = await create_room(url, "Ann", seats=2, bots=[level], rules={"hand_size": 2},
                            family=family)
    assert ann.room is not None
    server.manager.rooms[ann.room].deal = {"dealer": 1, "deck": deck(HANDS, "R3"), "seed": 1}
    await ann.request({"type": "start"}, "state")
    version = ann.game()["version"]
    start = len(ann.messages)
    await ann.request({"type": "move", "move": "play R5", "version": version}, "update")
    if say_after is not None:
        await asyncio.sleep(say_after)
        await ann.request({"type": "move", "move": "uno", "version": ann.game()["version"]},
                          ("update", "error"))  # refused when caught already
    await asyncio.sleep(5.0 - (say_after or 0.0))
    moves = [event["move"] if event["type"] == "play" else event["type"]
             for message in ann.messages[start:] if message["type"] == "update"
             for event in message["events"]]
    return ann, moves


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_bot_of_a_family_room_waits_and_a_child_who_says_uno_is_not_caught(
        level: str) -> None:
    with ServerThread(timing=Timing(think=0.0, reaction_scale=0.0)) as server:
        async def scenario() -> None:
            plain, moves = await play_forgetting_uno(server.ws_url, server, False, level, 2.5)
            assert "catch" in moves, moves  # no family room: caught at once
            room = plain.last("room")
            assert room["family"] is False and room["catch_grace"] is None
            await plain.close()
            family, moves = await play_forgetting_uno(server.ws_url, server, True, level, 2.5)
            assert "catch" not in moves and "uno" in moves, moves
            room = family.last("room")
            assert room["family"] is True and room["catch_grace"] == FAMILY_CATCH_GRACE
            await family.close()

        run(scenario())


def test_a_family_room_still_catches_after_the_grace() -> None:
    with ServerThread(timing=Timing(think=0.0, reaction_scale=0.0)) as server:
        async def scenario() -> None:
            started = time.monotonic()
            ann, moves = await play_forgetting_uno(server.ws_url, server, True, "medium", None)
            assert "catch" in moves, moves
            caught = next(ann.arrival(message) for message in ann.messages
                          if message["type"] == "update"
                          and any(e["type"] == "catch" for e in message["events"]))
            assert caught - started >= FAMILY_CATCH_GRACE
            await ann.close()

        run(scenario())


def test_a_restart_keeps_a_family_room(tmp_path: Path) -> None:
    db = tmp_path / "uno.sqlite3"
    first = ServerThread(db)
    port = first.port
    with first as server:
        async def make() -> str:
            host = await create_room(server.ws_url, "Ann", seats=3, family=True)
            await host.close()
            assert host.room is not None
            return host.room

        code = run(make())
    with ServerThread(db, port=port) as again:
        room: Any = again.manager.rooms.get(code)
        if room is None:  # restored on first use
            async def look() -> dict[str, Any]:
                client = await Client.connect(again.ws_url)
                message = await client.request({"type": "watch", "room": code}, "room")
                await client.close()
                return message

            assert run(look())["family"] is True
        else:
            assert room.family is True
            table = room._table([*room.seats, *room.seats], 1)
            assert table.settings.catch_grace == FAMILY_CATCH_GRACE


def test_blank_names_are_numbered_by_the_people_who_joined() -> None:
    """Issue 24, item 7: a host, a bot, then a guest, all without names: the guest is
    "Player 2" (the second person), not "Player 3" (the third seat)."""
    with ServerThread() as server:
        async def scenario() -> list[str]:
            host = await Client.connect(server.ws_url)
            await host.request({"type": "create", "name": None, "bots": ["easy"],
                                "settings": {"name": "Room", "seats": 4}}, "state")
            guest = await Client.connect(server.ws_url)
            await guest.request({"type": "join", "room": host.room, "name": None}, "state")
            room = await guest.wait_for(lambda m: m["type"] == "room")
            await host.close()
            await guest.close()
            return [seat["name"] for seat in room["seats"]]

        assert run(scenario()) == ["Player 1", "Bot 1", "Player 2"]


def test_standings_count_wins_across_matches_and_survive_a_restart(tmp_path: Path) -> None:
    """Issue 24, warmth: wins per person across the room's matches, kept with the room."""
    db = tmp_path / "uno.sqlite3"
    first = ServerThread(db, timing=Timing(think=0.0, reaction_scale=0.0))
    port = first.port
    won = {"dealer": 1, "deck": deck([["R5"], ["Y1"]], "R3"), "seed": 1}

    async def win_a_match(ann: Client, server: ServerThread, rematch: bool) -> dict[str, Any]:
        assert ann.room is not None
        server.manager.rooms[ann.room].deal = won
        await ann.request({"type": "rematch" if rematch else "start"}, "state")
        start = len(ann.messages)
        await ann.send({"type": "move", "move": "play R5", "version": ann.game()["version"]})
        return await ann.wait_for(lambda m: m["type"] == "room"
                                  and m["status"] == "match_over", start=start)

    with first as server:
        async def two_matches() -> tuple[str, list[Any], list[Any]]:
            ann = await create_room(server.ws_url, "Ann", seats=2, bots=["random"],
                                    rules={"hand_size": 1, "target_score": 1})
            once = (await win_a_match(ann, server, False))["standings"]
            twice = (await win_a_match(ann, server, True))["standings"]
            await ann.close()
            assert ann.room is not None
            return ann.room, once, twice

        code, once, twice = run(two_matches())
    assert once == [{"name": "Ann", "bot": False, "wins": 1}]
    assert twice == [{"name": "Ann", "bot": False, "wins": 2}]
    with ServerThread(db, port=port) as again:
        async def look() -> dict[str, Any]:
            client = await Client.connect(again.ws_url)
            message = await client.request({"type": "watch", "room": code}, "room")
            await client.close()
            return message

        assert run(look())["standings"] == [{"name": "Ann", "bot": False, "wins": 2}]
