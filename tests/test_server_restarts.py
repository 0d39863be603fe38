"""Several ``uno serve --redis`` processes through restarts and clocks (issue 21, item 6):
a process restarted while people play through it, a process whose clock is behind
Redis's, a Redis that keeps nothing (refused at start, and the rooms it lost), a start
pressed right after a join through the other process. Real redis-server and server
processes; this file runs alone in CI (``scripts/test``): it restarts processes and
waits on leases.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cluster_players import Player, table_of_players
from redis_support import (
    LEASE,
    RedisServer,
    ServeProcess,
    redis_server_fixture,  # noqa: F401 - the fixture redis_server
)
from test_server_support import run

from unogame.server.flow import STAND_IN_PREFIX
from unogame.server.redis_store import log_key, room_key

ROOMS = 2


@pytest.fixture
def servers(redis_server: RedisServer, tmp_path: Path) -> Iterator[list[ServeProcess]]:
    started: list[ServeProcess] = []
    try:
        for number in range(2):
            started.append(ServeProcess(redis_server.url).launch(
                tmp_path / f"serve{number}.log"))
        for server in started:
            server.wait_ready()
        yield started
    finally:
        for server in started:
            server.stop()


async def until(condition: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} did not happen within {timeout:g} s")
        await asyncio.sleep(0.05)


def stand_ins_for(redis_server: RedisServer, code: str, seat: int, start: int) -> int:
    """Moves a bot made for the person in ``seat`` stored from log index ``start`` on."""
    db = redis_server.client()
    game_no = int(db.hget(room_key(code), "game_no") or 0)
    entries = db.lrange(log_key(code, game_no), start, -1)
    return sum(1 for entry in entries
               if entry.startswith(f"{seat}|{STAND_IN_PREFIX}"))


def log_length(redis_server: RedisServer, code: str) -> int:
    db = redis_server.client()
    return int(db.llen(log_key(code, int(db.hget(room_key(code), "game_no") or 0))))


def connected_here(player: Player, seat: int) -> bool:
    """The player's current connection was last told that ``seat`` is connected and
    played by its person (no bot standing in)."""
    client = player.client
    if client is None:
        return False
    rooms = [m for m in client.messages if m.get("type") == "room"]
    return bool(rooms) and rooms[-1]["seats"][seat]["connected"] \
        and not rooms[-1]["seats"][seat]["away"]


def test_people_back_on_a_restarted_process_are_not_played_for(
        servers: list[ServeProcess], redis_server: RedisServer, tmp_path: Path) -> None:
    """One process restarts while people play through it; they come back on it. The other
    process, which drives their rooms, must count them as present: no bot plays for them
    afterwards. (Before: the new process published their presence before its liveness key
    existed, the other took it for dead and its bots played for connected people.)"""
    staying, restarted = servers

    async def scenario() -> list[int]:
        players: list[Player] = []
        for index in range(ROOMS):
            players += await table_of_players([staying.ws_url, restarted.ws_url], seed=index,
                                              rules={"target_score": 10_000}, grace=5)
        hosts, guests = players[0::2], players[1::2]
        for host in hosts:
            host.urls = [staying.ws_url]
        for guest in guests:
            guest.urls = [restarted.ws_url]  # back on the same address once it is up again
            guest.think = 1.0
        tasks = [asyncio.create_task(player.play(lambda p: p.stop, timeout=150))
                 for player in players]
        await until(lambda: all(p.top_version() > 10 for p in players), 40, "play")
        restarted.stop()
        await asyncio.to_thread(restarted.start, tmp_path / "restarted.log")
        await until(lambda: all(g.connections >= 2 for g in guests), 40, "guests back")
        # Each guest is back on the new process; the hosts' process hears of it within
        # moments (a stand-in's move already under way may still land meanwhile).
        await asyncio.sleep(2.0)
        starts = [log_length(redis_server, g.room) for g in guests]
        # Long enough for the other process to check the new one's liveness several times
        # and for the grace to run out twice.
        await asyncio.sleep(4 * LEASE + 5)
        counts = [stand_ins_for(redis_server, g.room, g.seat, start)
                  for g, start in zip(guests, starts, strict=True)]
        seen = [connected_here(h, g.seat) for h, g in zip(hosts, guests, strict=True)]
        for player in players:
            player.stop = True
        await asyncio.wait_for(asyncio.gather(*tasks), 30)
        assert all(log_length(redis_server, g.room) > start + 10
                   for g, start in zip(guests, starts, strict=True))  # they did play on
        return counts, seen

    counts, seen = run(scenario())
    print("moves bots made for connected people after the restart, per room:", counts)
    assert counts == [0] * ROOMS
    assert seen == [True] * ROOMS  # the hosts are shown the guests connected
