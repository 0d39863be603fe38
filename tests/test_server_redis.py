"""Two server processes sharing rooms through a real redis-server (issue 13, section 1).

Two apps in one test process (each its own uvicorn loop, storage and hub, as two processes
would have) on one Redis: a client may connect to either; a move is committed in Redis
before anyone sees it, a stale or repeated move is refused whichever server got it, the
per-address limits hold across both, and when the server driving a room stops, the other
takes its bots over within the lease.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from redis_support import (
    RedisServer,
    RoundTripCounter,
    redis_server_fixture,  # noqa: F401 - the fixture redis_server
    wait_until,
)
from test_server_support import Client, ServerThread, autoplay, create_room, loopback_limits, run

from unogame.server.cluster import Cluster
from unogame.server.redis_hub import RedisHub
from unogame.server.redis_store import TIMEOUT, RedisStorage, log_key
from unogame.server.rooms import Room
from unogame.server.storage import LogEntry, StaleError, StorageError


@pytest.fixture(scope="module")
def pair(redis_server: RedisServer) -> Iterator[tuple[ServerThread, ServerThread]]:
    with ServerThread(redis_url=redis_server.url, limits=loopback_limits()) as one, \
            ServerThread(redis_url=redis_server.url, limits=loopback_limits()) as two:
        for server in (one, two):
            wait_until(lambda s=server: s.manager.hub.link_up, 20, "the Redis link")
        yield one, two


def stored(redis_server: RedisServer, room: Room) -> list[str]:
    return list(redis_server.client().lrange(log_key(room.code, room.game_no), 0, -1))


async def resume(url: str, client: Client) -> Client:
    again = await Client.connect(url)
    await again.request({"type": "resume", "room": client.room, "token": client.token},
                        "state")
    again.token = client.token
    return again


def test_a_room_is_played_from_both_servers(pair: tuple[ServerThread, ServerThread],
                                           redis_server: RedisServer) -> None:
    one, two = pair

    async def scenario() -> tuple[str, list[Client]]:
        host = await create_room(one.ws_url, seats=3, bots=["random"],
                                 rules={"target_score": 60})
        guest = await Client.connect(two.ws_url)
        await guest.request({"type": "join", "room": host.room, "name": "Guest"}, "state")
        room_two = await host.wait_for(lambda m: m["type"] == "room" and len(m["seats"]) == 3)
        assert [seat["name"] for seat in room_two["seats"]] == ["Host", "Bot 1", "Guest"]
        # The guest's connection is on the other server: this one counts them as present
        # (no stand-in bot for them, the room is not paused).
        room_one = one.manager.rooms[host.room]
        await asyncio.to_thread(wait_until, lambda: room_one.present_anywhere(2), 10,
                                "the guest present on the first server")
        assert room_one.seats[2].connected == 0
        await host.request({"type": "start"}, "state")
        await guest.wait_for(lambda m: m["type"] == "state" and m["view"] is not None)
        results = await asyncio.gather(autoplay(host, 1, deal=True, timeout=90),
                                       autoplay(guest, 2, deal=True, timeout=90))
        assert all(result["status"] == "match_over" for result in results)
        for client in (host, guest):
            await client.close()
        return host.room or "", [host, guest]

    code, clients = run(scenario())
    rooms = [one.manager.rooms[code], two.manager.rooms[code]]
    assert [room.driving for room in rooms].count(True) == 1  # one lease, one driver
    log = stored(redis_server, rooms[0])
    # Both copies are the stored game: same position, same log, same final version.
    assert rooms[0].game.position() == rooms[1].game.position()  # type: ignore[union-attr]
    assert rooms[0].version == rooms[1].version
    assert len(log) == rooms[0].log_length > 10
    for client in clients:  # every update each client saw is a version stored in order
        versions = [m["version"] for m in client.messages if m.get("type") == "update"]
        assert versions == sorted(versions) and versions[-1] == rooms[0].version


def test_a_stale_or_repeated_move_is_refused_by_either_server(
        pair: tuple[ServerThread, ServerThread], redis_server: RedisServer) -> None:
    one, two = pair

    async def scenario() -> None:
        host = await create_room(one.ws_url, seats=2)
        on_two = await Client.connect(two.ws_url)
        await on_two.request({"type": "join", "room": host.room, "name": "Guest"}, "state")
        await host.request({"type": "start"}, "state")
        await on_two.wait_for(lambda m: m["type"] == "state" and m["view"] is not None)
        for _ in range(2):  # a first wild: its colour first
            state = host.game()
            actor = host if state["view"]["turn"] == host.seat else on_two
            state = actor.game()
            if state["view"].get("pending") is None and state["legal"] != ["color R", "color Y",
                                                                            "color G", "color B"]:
                break
            await actor.request({"type": "move", "move": "color R",
                                 "version": state["version"]}, "update")
        state = host.game()
        actor = host if state["view"]["turn"] == host.seat else on_two
        # The player on turn has the seat open on both servers; the same move reaches both
        # at once: Redis takes it once, whichever server's copy had not heard of it yet.
        twin = await resume((two if actor is host else one).ws_url, actor)
        version = actor.game()["version"]
        room = one.manager.rooms[host.room]
        length = len(stored(redis_server, room))
        message = {"type": "move", "move": "draw", "version": version}
        await asyncio.gather(actor.send(message), twin.send(message))
        replies = [await client.wait_for(lambda m: m["type"] == "error"
                                         or m.get("version") == version + 1)
                   for client in (actor, twin)]
        await asyncio.sleep(0.3)
        assert len(stored(redis_server, room)) == length + 1
        # Sent again, to either server: refused.
        for client in (actor, twin):
            await client.wait_for(lambda m: m.get("version") == version + 1)
            error = await client.request(message, "error")
            assert error["code"] in ("stale", "illegal")
        assert len(stored(redis_server, room)) == length + 1
        assert [m["version"] for m in host.messages + on_two.messages
                if m.get("type") == "update"].count(version + 1) == 2, replies
        # And the script itself refuses an entry for a version that is not the log's end.
        with pytest.raises(StaleError):
            two.manager.storage.append_move(room.code, room.game_no, length, 0, "draw")
        assert len(stored(redis_server, room)) == length + 1
        for client in (host, on_two, twin):
            await client.close()

    run(scenario())


def test_the_lookup_limit_holds_across_servers(redis_server: RedisServer) -> None:
    limits = loopback_limits(lookups_per_address=(4, 0.001))
    with ServerThread(redis_url=redis_server.url, limits=limits) as one, \
            ServerThread(redis_url=redis_server.url, limits=limits) as two:
        async def scenario() -> list[str]:
            codes = []
            for index in range(6):
                client = await Client.connect((one if index % 2 else two).ws_url)
                reply = await client.request({"type": "watch", "room": "ZZZZZZZZ"}, "error")
                codes.append(reply["code"])
                await client.close()
            return codes

        codes = run(scenario())
    redis_server.client().delete("uno:allow:lookup:127.0.0.1")
    assert codes == ["no_room"] * 4 + ["lookup_limited"] * 2


def test_the_other_server_takes_the_bots_over(redis_server: RedisServer) -> None:
    """The server driving a room goes away; within the lease the other one drives it and the
    bots play on for the person connected to it."""
    first = ServerThread(redis_url=redis_server.url, lease=1.0).__enter__()
    try:
        with ServerThread(redis_url=redis_server.url, lease=1.0) as second:
            async def scenario() -> Any:
                host = await create_room(first.ws_url, seats=3, bots=["random", "random"])
                await host.request({"type": "start"}, "state")
                room = first.manager.rooms[host.room]
                await asyncio.to_thread(wait_until, lambda: room.driving, 20, "driving")
                again = await resume(second.ws_url, host)
                await host.close()
                first.__exit__(None, None, None)  # stopped: its lease is let go at once
                done = await autoplay(again, 3, deal=True, timeout=90,
                                      until=lambda m: m["version"] > 40)
                await again.close()
                return done, second.manager.rooms[host.room]

            done, room = run(scenario())
            assert room.driving and done["version"] > 40
    finally:
        first.__exit__(None, None, None)


def test_the_spectator_limit_holds_across_servers(redis_server: RedisServer) -> None:
    limits = loopback_limits(max_spectators_per_room=3)
    with ServerThread(redis_url=redis_server.url, limits=limits) as one, \
            ServerThread(redis_url=redis_server.url, limits=limits) as two:
        async def scenario() -> list[str]:
            host = await create_room(one.ws_url, seats=2)
            watchers = []
            for server in (two, two, one):
                watcher = await Client.connect(server.ws_url)
                await watcher.request({"type": "watch", "room": host.room}, "state")
                watchers.append(watcher)
            for server in (one, two):
                room = server.manager.rooms[host.room]
                await asyncio.to_thread(wait_until, lambda r=room: r.watchers() == 3, 10,
                                        "each server counting the other's spectators")
            codes = []
            for server in (one, two):
                late = await Client.connect(server.ws_url)
                reply = await late.request({"type": "watch", "room": host.room},
                                           ("state", "error"))
                codes.append(reply.get("code", reply["type"]))
                await late.close()
            for client in (host, *watchers):
                await client.close()
            return codes

        assert run(scenario()) == ["room_crowded", "room_crowded"]


def test_a_room_followed_meanwhile_catches_up_on_what_it_did_not_hear(
        redis_server: RedisServer) -> None:
    """A process starts following a room (a client of it arrived) just as another process
    changes it: a change published before the subscription took effect is never heard, so
    once the channel is subscribed the room is told to catch up from Redis. (Before, a
    guest on the second process of ``test_server_faults`` sometimes never saw the game
    its host had just started on the first one.)"""
    import json

    from unogame.server.redis_hub import NoListener
    from unogame.server.redis_store import channel

    caught_up: list[str] = []

    class Listener(NoListener):
        def followed(self, code: str) -> None:
            caught_up.append(code)

    async def scenario() -> list[str]:
        hub = RedisHub(redis_server.url, "a-test-process", lease_seconds=5.0)
        hub.tell(Listener())
        hub.start()
        try:
            await asyncio.to_thread(wait_until, lambda: hub.link_up, 20, "the Redis link")
            hub.follow("FOLLOWED")
            # Another process's change, published before this one's subscription went out
            # (nothing has run on this loop since follow()): this process cannot hear it.
            redis_server.client().publish(channel("FOLLOWED"), json.dumps(
                {"k": "rec", "rev": 2, "p": "another-process"}))
            await asyncio.to_thread(wait_until, lambda: caught_up, 20,
                                    "the room told to catch up")
            return caught_up
        finally:
            await hub.stop()

    assert run(scenario()) == ["FOLLOWED"]


def test_start_right_after_a_join_through_the_other_server(
        pair: tuple[ServerThread, ServerThread]) -> None:
    """The host presses start the moment a guest's join, through the other server, is
    answered: the host's server may not have heard of the join yet (its copy of the room
    is a version behind), so it reads the room again and starts it, with the guest, at
    the first press. (Before: "not_saved" once, the person had to press again.) Here the
    host's server hears the other's changes a second late (a busy loop, a slow link), so
    that the start always comes first."""
    one, two = pair
    hub, cluster = one.manager.hub, one.manager.coordination
    assert isinstance(hub, RedisHub) and isinstance(cluster, Cluster)

    class HeardLate:
        """The cluster, hearing the other server's messages a second late."""

        def heard(self, code: str, payload: dict[str, Any]) -> None:
            assert one.loop is not None
            one.loop.call_later(1.0, cluster.heard, code, payload)

        def followed(self, code: str) -> None:
            cluster.followed(code)

        def lease(self, code: str, held: bool, stored: tuple[int, int, int] | None) -> None:
            cluster.lease(code, held, stored)

        def link(self, up: bool) -> None:
            cluster.link(up)

        def dead(self, processes: set[str]) -> None:
            cluster.dead(processes)

        def wanted(self) -> dict[str, bool]:
            return cluster.wanted()

        def others(self) -> set[str]:
            return cluster.others()

    async def scenario() -> list[dict[str, Any]]:
        answers = []
        for _ in range(5):
            host = await create_room(one.ws_url, seats=3, bots=["random"])
            guest = await Client.connect(two.ws_url)
            await guest.request({"type": "join", "room": host.room, "name": "Guest"}, "state")
            start = len(host.messages)
            await host.send({"type": "start"})
            answer = await host.wait_for(lambda m: m["type"] == "error" or (
                m["type"] == "state" and m["view"] is not None), 20, start)
            answers.append(answer)
            if answer["type"] == "state":
                await guest.wait_for(lambda m: m["type"] == "state" and m["view"], 20)
                assert answer["view"]["players"] == 3  # the guest's seat is in the game
            for client in (host, guest):
                await client.close()
        return answers

    hub.tell(HeardLate())
    try:
        answers = run(scenario())
    finally:
        hub.tell(cluster)
    assert [answer.get("code", answer["type"]) for answer in answers] == ["state"] * 5


# ---------------------------------------------------------------- one loop turn's moves


@pytest.fixture
def counted(redis_server: RedisServer) -> Iterator[tuple[RedisStorage, RoundTripCounter]]:
    """A process's storage whose link to Redis counts round trips; three rooms in game 1."""
    counter = RoundTripCounter(redis_server.port)
    storage = RedisStorage(counter.url, "a-test-process")
    for code in GROUP_ROOMS:
        storage.save_room(code, {"game_no": 1})
    try:
        yield storage, counter
    finally:
        for code in GROUP_ROOMS:
            storage.delete_room(code)
        storage.close()
        counter.close()


GROUP_ROOMS = ["GROUPONE", "GROUPTWO", "GROUPTRI"]


def logs(redis_server: RedisServer) -> list[list[str]]:
    return [redis_server.client().lrange(log_key(code, 1), 0, -1) for code in GROUP_ROOMS]


def test_one_loop_turns_moves_are_one_round_trip(
        counted: tuple[RedisStorage, RoundTripCounter], redis_server: RedisServer) -> None:
    """Six moves of three rooms (two of one room, in order) asked in one loop turn: one
    round trip to Redis, each stored. (Before: a round trip per move.)"""
    storage, counter = counted
    group: list[LogEntry] = [("GROUPONE", 1, 0, 0, "draw"), ("GROUPTWO", 1, 0, 1, "R5"),
                             ("GROUPTRI", 1, 0, 2, "pass"), ("GROUPONE", 1, 1, 1, "B2"),
                             ("GROUPTWO", 1, 1, 2, "draw"), ("GROUPTRI", 1, 1, 3, "G7")]
    before = counter.round_trips
    assert storage.append_moves(group) == [None] * 6
    assert counter.round_trips - before == 1
    assert logs(redis_server) == [["0|draw", "1|B2"], ["1|R5", "2|draw"], ["2|pass", "3|G7"]]
    before = counter.round_trips  # one move alone: one round trip too
    storage.append_move("GROUPONE", 1, 2, 2, "Y1")
    assert counter.round_trips - before == 1


def test_a_repeated_move_in_a_group_is_refused_alone(
        counted: tuple[RedisStorage, RoundTripCounter], redis_server: RedisServer) -> None:
    """In one group, a move for a log index already taken and a move for a game the room
    is no longer in are refused (stale: the room is told to catch up); the others of the
    group are stored, still in one round trip."""
    storage, counter = counted
    assert storage.append_moves([("GROUPONE", 1, 0, 0, "draw"),
                                 ("GROUPTWO", 1, 0, 1, "R5")]) == [None, None]
    caught_up: list[str] = []
    storage.tell_stale(caught_up.append)
    before = counter.round_trips
    results = storage.append_moves([("GROUPONE", 1, 1, 1, "B2"),
                                    ("GROUPTWO", 1, 0, 2, "draw"),  # index 0 is taken
                                    ("GROUPTRI", 2, 0, 0, "pass"),  # the room is in game 1
                                    ("GROUPTRI", 1, 0, 3, "G7")])
    assert counter.round_trips - before == 1
    assert [type(result) for result in results] == [type(None), StaleError, StaleError,
                                                     type(None)], results
    assert "position has moved on" in str(results[1])
    assert "not in this game" in str(results[2])
    assert caught_up == ["GROUPTWO", "GROUPTRI"]
    assert logs(redis_server) == [["0|draw", "1|B2"], ["1|R5"], ["3|G7"]]
    assert redis_server.client().llen(log_key("GROUPTRI", 2)) == 0
    with pytest.raises(StaleError):  # one move alone: its own refusal raised
        storage.append_move("GROUPONE", 1, 1, 0, "draw")


def test_a_group_redis_does_not_take_is_refused_whole(tmp_path: Path) -> None:
    """Redis stops answering while a group is on its way: every move of the group is refused
    and none is stored, even once Redis reads them (their deadline passed). Redis stopped:
    the same; started again (from its append-only file, without the script it had), the
    next group is stored; and once more after Redis forgot the script."""
    with RedisServer(tmp_path / "redis") as server:
        storage = RedisStorage(server.url, "a-test-process")
        db = server.client()
        for code in GROUP_ROOMS:
            storage.save_room(code, {"game_no": 1})
        group: list[LogEntry] = [(code, 1, 0, seat, "draw")
                                 for seat, code in enumerate(GROUP_ROOMS)]
        server.pause()
        try:
            asked = time.monotonic()
            results = storage.append_moves(group)
            waited = time.monotonic() - asked
        finally:
            server.resume()
        assert all(type(result) is StorageError for result in results), results
        # one wait for the whole group, not one per move (before: 3 x TIMEOUT)
        assert TIMEOUT <= waited < 2 * TIMEOUT, waited
        assert len({id(result) for result in results}) == 3  # one each: raised apart
        time.sleep(0.5)  # Redis reads the group now, past its deadline
        assert [db.llen(log_key(code, 1)) for code in GROUP_ROOMS] == [0, 0, 0]
        server.stop()
        results = storage.append_moves(group)
        assert all(type(result) is StorageError for result in results), results
        server.start()
        db = server.client()
        assert [db.llen(log_key(code, 1)) for code in GROUP_ROOMS] == [0, 0, 0]
        assert db.hget("uno:room:{GROUPONE}", "game_no") == "1"  # the rooms kept
        assert storage.append_moves(group) == [None] * 3
        assert [db.lrange(log_key(code, 1), 0, -1) for code in GROUP_ROOMS] == \
            [["0|draw"], ["1|draw"], ["2|draw"]]
        db.script_flush()  # Redis forgets the script (sent by its hash): loaded, sent again
        assert storage.append_moves([(code, 1, 1, 0, "pass") for code in GROUP_ROOMS]) == \
            [None] * 3
        assert [db.llen(log_key(code, 1)) for code in GROUP_ROOMS] == [2, 2, 2]
        storage.close()
