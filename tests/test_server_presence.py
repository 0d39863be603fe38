"""Phones on real networks (issue 21, item 5), with a real server and real sockets: a held
link found dead within ~15 s, a move sent again after a reconnect applied once, a hidden
page on its turn standing in after the grace (and the host's hand-over), the creator
getting the host role back."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from link_proxy import LinkProxy
from redis_support import (
    RedisServer,
    redis_server_fixture,  # noqa: F401 - the fixture redis_server
    wait_until,
)
from test_server_helper import stacked
from test_server_support import Client, ServerThread, create_room, join, loopback_limits, run

from unogame.server.commits import off_loop
from unogame.server.flow import STAND_IN_PREFIX, Timing
from unogame.server.rooms import Room

HANDS = [["R1", "R2", "G4", "G5", "B6", "Y7", "B2"],
         ["Y1", "G2", "B3", "Y4", "G6", "B7", "R9"]]
"""Numbers only, every colour in both hands: dealt by seat 1 on R3 (seat 0 plays first)."""


@pytest.fixture(scope="module")
def server() -> Any:
    with ServerThread(timing=Timing(think=0.05, reaction_scale=0.05, next_round=60.0)) as running:
        yield running


async def two_people(server: ServerThread, url: str | None = None,
                     grace: int = 5) -> tuple[Client, Client]:
    """Ann (seat 0, the host) and Ben (seat 1) in a started room, Ann to play R3."""
    ann = await create_room(url or server.ws_url, "Ann", seats=2, timer=0, grace=grace)
    ben = await join(server.ws_url, ann.room or "", "Ben")
    server.manager.rooms[ann.room].deal = {"dealer": 1, "deck": stacked(HANDS, "R3"),
                                           "seed": 1}
    await ann.request({"type": "start"}, "state")
    await ben.wait_for(lambda m: m["type"] == "state" and m["status"] == "playing")
    return ann, ben


def stand_ins(room: Room, moves: list[tuple[int, str]], seat: int) -> list[str]:
    return [text for who, text in moves if who == seat and text.startswith(STAND_IN_PREFIX)]


def own_moves(room: Room, moves: list[tuple[int, str]], seat: int) -> list[str]:
    return [text for who, text in moves if who == seat and not text.startswith(STAND_IN_PREFIX)]


# ----------------------------------------------------------------------------- a held link

def test_a_held_link_is_found_dead_within_15_s_and_the_grace_starts(server: ServerThread) -> None:
    """The page beats; its Wi-Fi then holds every packet (nothing is closed). The server
    took 48 s to notice (uvicorn's ping); it leaves the room within ~15 s now."""
    async def scenario() -> None:
        with LinkProxy(server.port) as link:
            ann, ben = await two_people(server, link.ws_url, grace=600)
            await ann.request({"type": "ping", "beat": True}, "pong")
            await asyncio.sleep(1.0)
            start = len(ben.messages)
            link.hold()
            held = time.monotonic()
            gone = await ben.wait_for(lambda m: m["type"] == "room"
                                      and not m["seats"][0]["connected"], 25.0, start)
            noticed = ben.arrival(gone) - held
            assert 13.0 <= noticed <= 18.0, noticed
            assert gone["host"] == 1  # Ann is gone: Ben hosts meanwhile
            link.resume()
            await ben.close()

    run(scenario())


def test_a_move_sent_again_after_a_reconnect_is_applied_once_or_answered_stale(
        server: ServerThread) -> None:
    """The move reached the server, its answer did not (the link went): the page sends it
    again, on the same version, from a new connection. It is not applied twice, and the
    state tells the page it was applied."""
    async def scenario() -> None:
        with LinkProxy(server.port) as link:
            ann, ben = await two_people(server, link.ws_url)
            version = ann.game()["version"]
            link.hold(answers_only=True)
            await ann.send({"type": "move", "move": "play R1", "version": version})
            await ben.wait_for(lambda m: m["type"] == "update" and m["version"] == version + 1)
            again = await Client.connect(server.ws_url)
            state = await again.request({"type": "resume", "room": ann.room,
                                         "token": ann.token}, "state")
            assert state["last_move"] == {"version": version, "move": "play R1"}
            refused = await again.request({"type": "move", "move": "play R1",
                                           "version": version}, "error")
            assert refused["code"] == "stale"
            moves = await server.settled_async(ann.room or "",
                                               lambda room, moves: own_moves(room, moves, 0))
            assert moves == ["play R1"]
            link.resume()
            await again.close()
            await ben.close()

    run(scenario())


# ----------------------------------------------------------------------------- hidden pages

def test_a_hidden_page_on_its_turn_gets_a_stand_in_after_the_grace(server: ServerThread) -> None:
    """A phone in the background on its turn (timer off) froze the table; off its turn it
    is not replaced; visible again it plays itself."""
    async def scenario() -> None:
        ann, ben = await two_people(server, grace=5)
        start = len(ann.messages)
        await ben.send({"type": "visibility", "hidden": True})  # off his turn
        shown = await ann.wait_for(lambda m: m["type"] == "room" and m["seats"][1]["hidden"],
                                   start=start)
        assert shown["seats"][1]["connected"] and not shown["seats"][1]["away"]
        await asyncio.sleep(6.0)  # past the grace, off his turn: nobody plays for him
        played = await ann.request({"type": "move", "move": "play R1",
                                    "version": ann.game()["version"]}, "update")
        turn_at = time.monotonic()
        assert played["view"]["turn"] == 1
        marker = await ann.wait_for(lambda m: m["type"] == "update" and any(
            e["type"] == "stand_in_move" for e in m["events"]), 20.0)
        waited = ann.arrival(marker) - turn_at
        assert 4.5 <= waited <= 12.0, waited  # the grace counts from his turn's start
        assert {"type": "stand_in_move", "seat": 1, "name": "Ben"} in marker["events"]
        # Visible again: he plays himself (nobody plays for him on his next turn).
        start = len(ann.messages)
        await ben.send({"type": "visibility", "hidden": False})
        await ann.wait_for(lambda m: m["type"] == "room" and not m["seats"][1]["hidden"],
                           start=start)
        while ann.game()["view"]["turn"] != 1:
            game = ann.game()
            move = next(m for m in game["legal"] if m.startswith(("play", "draw", "pass")))
            await ann.request({"type": "move", "move": move, "version": game["version"]},
                              ("update", "error"))
        await asyncio.sleep(6.5)
        taken = await server.settled_async(ann.room or "",
                                           lambda room, moves: stand_ins(room, moves, 1))
        assert len(taken) == 1 and ann.game()["view"]["turn"] == 1
        await ann.close()
        await ben.close()

    run(scenario())


def test_the_host_may_let_a_bot_play_for_a_hidden_page(server: ServerThread) -> None:
    async def scenario() -> None:
        ann, ben = await two_people(server, grace=600)
        await ann.request({"type": "move", "move": "play R1",
                           "version": ann.game()["version"]}, "update")
        refused = await ann.request({"type": "hand_to_bot", "seat": 1}, "error")
        assert refused["code"] == "present"  # Ben looks at his screen
        start = len(ann.messages)
        await ben.send({"type": "visibility", "hidden": True})
        await ann.wait_for(lambda m: m["type"] == "room" and m["seats"][1]["hidden"],
                           start=start)
        room = await ann.request({"type": "hand_to_bot", "seat": 1}, "room")
        assert room["seats"][1]["handed"]
        await ann.wait_for(lambda m: m["type"] == "update" and any(
            e["type"] == "stand_in_move" for e in m["events"]))
        bad = await ben.request({"type": "visibility", "hidden": "yes"}, "error")
        assert bad["code"] == "bad_visibility"
        await ann.close()
        await ben.close()

    run(scenario())


# ----------------------------------------------------------------------------- the host

def test_the_creator_gets_the_host_role_back_after_a_reload(server: ServerThread) -> None:
    """A host's reload handed the role to someone else for good."""
    async def scenario() -> None:
        ann = await create_room(server.ws_url, "Ann", seats=3)
        token = ann.token
        ben = await join(server.ws_url, ann.room or "", "Ben")
        await ann.close()  # Ann reloads the lobby
        await ben.wait_for(lambda m: m["type"] == "room" and m["host"] == 1)
        ann = await Client.connect(server.ws_url)
        start = len(ben.messages)
        await ann.request({"type": "resume", "room": ben.room, "token": token}, "state")
        back = await ben.wait_for(lambda m: m["type"] == "room" and m["host"] == 0, start=start)
        assert back["status"] == "lobby"
        started = await ann.request({"type": "start"}, "state")
        assert started["status"] == "playing"
        await ann.close()  # and in a game
        await ben.wait_for(lambda m: m["type"] == "room" and m["host"] == 1)
        again = await Client.connect(server.ws_url)
        start = len(ben.messages)
        await again.request({"type": "resume", "room": ben.room, "token": token}, "state")
        await ben.wait_for(lambda m: m["type"] == "room" and m["host"] == 0, start=start)
        host = await server.settled_async(ben.room or "", lambda room, moves: (
            room.host, room.creator, room.table.host if room.table else None))
        assert host == (0, 0, 0)
        refused = await ben.request({"type": "hand_to_bot", "seat": 0}, "error")
        assert refused["code"] == "not_host"
        stored = await asyncio.wrap_future(server.submit(
            lambda: off_loop(server.manager.storage.load_rooms)))
        assert stored[ben.room]["host"] == 0  # a restart keeps it
        await again.close()
        await ben.close()

    run(scenario())


# ----------------------------------------------------------------------------- several processes

def test_a_page_hidden_on_another_process_is_away_on_this_one(redis_server: RedisServer) -> None:
    """The presence each process publishes says which of its connections are hidden: the
    host on one process sees the guest on the other as away, and may hand his seat over."""
    with ServerThread(redis_url=redis_server.url, limits=loopback_limits()) as one, \
            ServerThread(redis_url=redis_server.url, limits=loopback_limits()) as two:
        for running in (one, two):
            wait_until(lambda s=running: s.manager.hub.link_up, 20, "the Redis link")

        async def scenario() -> None:
            ann = await create_room(one.ws_url, "Ann", seats=2, timer=0, grace=600)
            ben = await join(two.ws_url, ann.room or "", "Ben")
            await ann.wait_for(lambda m: m["type"] == "room" and len(m["seats"]) == 2
                               and m["seats"][1]["connected"])
            await ann.request({"type": "start"}, "state")
            await ben.wait_for(lambda m: m["type"] == "state" and m["status"] == "playing")
            start = len(ann.messages)
            await ben.send({"type": "visibility", "hidden": True})
            await ann.wait_for(lambda m: m["type"] == "room" and m["seats"][1]["hidden"]
                               and m["seats"][1]["connected"], start=start)
            room = await ann.request({"type": "hand_to_bot", "seat": 1}, ("room", "error"))
            assert room["type"] == "room" and room["seats"][1]["handed"], room
            start = len(ann.messages)
            await ben.send({"type": "visibility", "hidden": False})
            back = await ann.wait_for(lambda m: m["type"] == "room"
                                      and not m["seats"][1]["hidden"], start=start)
            assert not back["seats"][1]["handed"]
            await ann.close()
            await ben.close()

        run(scenario())
