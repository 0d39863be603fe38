"""The web game on the table (issue 8, section 2): absent players and their grace, the host
handing a seat to a bot and passing the host role on, the visible turn timer, "bot played
for NAME", "next round" per person with its countdown, lobby bots filling the seats, and a
failing storage write that leaves the room a next step. Real server, real sockets."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest
from test_server_support import (
    Client,
    ServerThread,
    choose,
    create_room,
    join,
    run,
    stored_and_applied,
)

from unogame.server.commits import STORAGE_THREAD, off_loop
from unogame.server.flow import STAND_IN_PREFIX, Timing
from unogame.server.hub import LocalHub
from unogame.server.rooms import Room
from unogame.server.storage import SqliteStorage, StorageError


@pytest.fixture(scope="module")
def server() -> Any:
    with ServerThread(timing=Timing(think=0.05, reaction_scale=0.05, next_round=60.0)) as running:
        yield running


def room_of(server: ServerThread, client: Client) -> Room:
    room: Room = server.manager.rooms[client.room]
    return room


async def play_for(clients: list[Client], until: Any, timeout: float = 30.0,
                   seed: int = 1) -> dict[str, Any]:
    """The clients make moves (turn moves for the one to act) until ``until(message)`` holds
    for the latest message of the first client."""
    rng = random.Random(seed)
    deadline = time.monotonic() + timeout
    acted: set[tuple[int | None, int]] = set()
    while True:
        assert time.monotonic() < deadline, clients[0].messages[-3:]
        message = clients[0].game()
        if until(message):
            return message
        for client in clients:
            latest = client.game()
            key = (client.seat, latest["version"])
            if latest["status"] != "playing" or key in acted:
                continue
            mine = latest["view"]["turn"] == client.seat
            move = choose(latest["legal"], mine, rng) if latest["legal"] else None
            if move is not None and (mine or move == "uno"):
                acted.add(key)
                await client.send({"type": "move", "move": move, "version": latest["version"]})
        await asyncio.sleep(0.05)


def turn_of(client: Client) -> int:
    return int(client.game()["view"]["turn"])


# ----------------------------------------------------------------------------- absent players

def test_a_player_gone_on_their_turn_gets_a_stand_in_after_the_grace_even_without_timer(
        server: ServerThread) -> None:
    async def scenario() -> None:
        host = await create_room(server.ws_url, seats=2, timer=0, grace=5)
        guest = await join(server.ws_url, host.room or "", "Gita")
        await host.request({"type": "start"}, "state")
        token = guest.token
        await guest.close()  # the guest closes the tab
        gone = time.monotonic()
        room = room_of(server, host)
        await play_for([host], lambda m: any(seat == 1 for seat, _ in room.game.history)
                       if room.game else False, timeout=30)
        assert time.monotonic() - gone >= 4.5  # not before the grace
        marker = await host.wait_for(lambda m: m["type"] == "update" and any(
            e["type"] == "stand_in_move" for e in m["events"]))
        assert {"type": "stand_in_move", "seat": 1, "name": "Gita"} in marker["events"]
        assert host.last("room")["seats"][1]["away"] is True
        assert marker["timer_left"] is None  # no turn timer in this room
        # The log keeps it: a room restored from storage says so too (read on the server's
        # loop while nothing is being stored: the stand-in may still be playing).
        storage = server.manager.storage
        records = await asyncio.wrap_future(server.submit(lambda: off_loop(storage.load_rooms)))

        def restored(live: Room, stored: list[tuple[int, str]]) -> tuple[Any, Any, Any]:
            again = Room.restore(live.code, records[live.code], storage, LocalHub(), Timing(),
                                 moves=stored)
            assert again.table is not None and live.table is not None
            return stored, again.table.feed(0), live.table.feed(0, 0)

        stored, feed, live_feed = await server.settled_async(room.code, restored)
        assert any(seat == 1 and text.startswith(STAND_IN_PREFIX) for seat, text in stored)
        assert feed == live_feed
        assert {"type": "stand_in_move", "seat": 1, "name": "Gita"} in feed
        # Gita comes back: the seat is hers again, and on her turn no bot plays it.
        back = await Client.connect(server.ws_url)
        start = len(host.messages)
        await back.request({"type": "resume", "room": host.room, "token": token}, "state")
        await host.wait_for(lambda m: m["type"] == "room" and m["seats"][1]["connected"]
                            and not m["seats"][1]["away"], start=start)
        await play_for([host, back], lambda m: m["status"] == "playing"
                       and m["view"]["turn"] == 1, timeout=30)
        version = host.game()["version"]
        await asyncio.sleep(1.0)
        assert host.game()["version"] == version  # waits for Gita herself
        await back.close()
        await host.close()

    run(scenario())


def test_the_host_hands_a_disconnected_seat_to_a_bot_and_leaving_passes_the_host_role(
        server: ServerThread) -> None:
    async def scenario() -> None:
        host = await create_room(server.ws_url, seats=3, grace=600)
        ann = await join(server.ws_url, host.room or "", "Ann")
        ben = await join(server.ws_url, host.room or "", "Ben")
        await host.request({"type": "start"}, "state")
        refused = await host.request({"type": "hand_to_bot", "seat": 1}, "error")
        assert refused["code"] == "present"  # Ann is here
        refused = await ann.request({"type": "hand_to_bot", "seat": 2}, "error")
        assert refused["code"] == "not_host"
        await ben.close()
        await host.wait_for(lambda m: m["type"] == "room" and m["status"] == "playing"
                            and not m["seats"][2]["connected"])
        room = await host.request({"type": "hand_to_bot", "seat": 2}, "room")
        assert room["seats"][2]["away"] and room["seats"][2]["handed"]
        # Ben's seat now plays at once (the grace is ten minutes).
        table = room_of(server, host).table
        assert table is not None
        await play_for([host, ann], lambda m: any(
            seat == 2 for seat, _ in table.game.history), timeout=30)
        # The host leaves: Ann, the next connected person, hosts now.
        await host.close()
        hosting = await ann.wait_for(lambda m: m["type"] == "room" and m["host"] == 1)
        assert hosting["seats"][0]["connected"] is False
        await ann.close()

    run(scenario())


def test_the_host_role_passes_in_the_lobby_too(server: ServerThread) -> None:
    async def scenario() -> None:
        host = await create_room(server.ws_url, seats=3)
        ann = await join(server.ws_url, host.room or "", "Ann")
        await host.close()
        room = await ann.wait_for(lambda m: m["type"] == "room" and m["host"] == 1)
        assert room["status"] == "lobby"
        started = await ann.request({"type": "start"}, "state")
        assert started["status"] == "playing"
        await ann.close()

    run(scenario())


# ----------------------------------------------------------------------------- the turn timer

def test_the_turn_timer_is_shown_to_everyone_as_a_countdown(server: ServerThread) -> None:
    timer = 5  # the shortest a room may have

    async def scenario() -> None:
        host = await create_room(server.ws_url, seats=2, timer=timer)
        guest = await join(server.ws_url, host.room or "", "Gita")
        state = await host.request({"type": "start"}, "state")
        assert state["timer_left"] is not None and timer - 1 <= state["timer_left"] <= timer
        watcher = await Client.connect(server.ws_url)
        await asyncio.sleep(1.0)
        seen = await watcher.request({"type": "watch", "room": host.room}, "state")
        assert seen["timer_left"] is not None and seen["timer_left"] < state["timer_left"]
        # Nobody moves: a stand-in makes the move when it runs out, marked in the log.
        first = turn_of(host)
        update = await host.wait_for(lambda m: m["type"] == "update", timeout=15)
        assert update["events"][0] == {"type": "stand_in_move", "seat": first,
                                       "name": ["Host", "Gita"][first]}
        # The player is still here: the next decision is theirs again, with a full timer.
        assert update["timer_left"] is None or update["timer_left"] > timer - 1
        for client in (host, guest, watcher):
            await client.close()

    run(scenario())


# ----------------------------------------------------------------------------- next round

def round_over(message: dict[str, Any]) -> bool:
    return message["status"] == "round_over"


def test_next_round_closes_only_ones_own_scoreboard_and_waits_for_everyone(
        server: ServerThread) -> None:
    async def scenario() -> None:
        rules = {"hand_size": 2, "target_score": 5000}
        host = await create_room(server.ws_url, seats=3, rules=rules)
        ann = await join(server.ws_url, host.room or "", "Ann")
        ben = await join(server.ws_url, host.room or "", "Ben")
        await host.request({"type": "start"}, "state")
        players = [host, ann, ben]
        over = await play_for(players, round_over, timeout=60)
        assert over["next_round_left"] is not None and over["next_round_left"] > 50
        version = over["version"]
        pressed = await ann.request({"type": "next_round", "version": version}, "state")
        assert pressed["status"] == "round_over" and pressed["ready"] == [1]
        seen_by_host = await host.wait_for(lambda m: m["type"] == "state" and m["ready"] == [1])
        assert seen_by_host["status"] == "round_over"  # the host's scoreboard stays
        await ann.request({"type": "next_round", "version": version}, "state")  # twice: once
        await host.send({"type": "next_round", "version": version})
        await ben.send({"type": "next_round", "version": version})
        dealt = await ann.wait_for(lambda m: m["type"] == "update" and m["status"] == "playing"
                                   and m["round"] == 2)
        assert dealt["ready"] == [] and dealt["events"][0]["type"] == "deal"
        for client in players:
            await client.close()

    run(scenario())


def test_the_next_round_comes_when_its_countdown_runs_out() -> None:
    with ServerThread(timing=Timing(think=0.05, reaction_scale=0.05, next_round=2.0)) as quick:
        async def scenario() -> None:
            host = await create_room(quick.ws_url, seats=2, bots=["random"],
                                     rules={"hand_size": 2, "target_score": 5000})
            await host.request({"type": "start"}, "state")
            over = await play_for([host], round_over, timeout=60)
            assert over["next_round_left"] is not None and over["next_round_left"] <= 2.0
            dealt = await host.wait_for(lambda m: m["type"] == "update"
                                        and m.get("round") == 2, timeout=20)
            waited = host.arrival(dealt) - host.arrival(over)  # not when this test looked
            assert waited > 1.0 and dealt["status"] == "playing"
            await host.close()

        run(scenario())


# ----------------------------------------------------------------------------- lobby bots

def test_lobby_bots_fill_the_free_seats_when_the_host_starts(server: ServerThread) -> None:
    async def scenario() -> None:
        host = await create_room(server.ws_url, seats=4, fill="easy")
        lobby = host.last("room")
        assert lobby["fill"] == "easy" and len(lobby["seats"]) == 1
        state = await host.request({"type": "start"}, "state")
        assert len(state["view"]["hands"]) == 4
        room = host.last("room")
        assert [(s["name"], s["kind"], s["level"]) for s in room["seats"][1:]] == [
            ("Bot 1", "bot", "easy"), ("Bot 2", "bot", "easy"), ("Bot 3", "bot", "easy")]
        assert [s.kind for s in room_of(server, host).seats] == ["human", "bot", "bot", "bot"]
        alone = await create_room(server.ws_url, seats=4)  # no fill: the seats stay free
        refused = await alone.request({"type": "start"}, "error")
        assert refused["code"] == "not_enough_players"
        error = await alone.request({"type": "create", "name": "X", "bots": [], "settings": {
            "seats": 3, "fill": "grandmaster"}}, "error")
        assert error["code"] == "bad_settings"
        await host.close()
        await alone.close()

    run(scenario())


# ----------------------------------------------------------------------------- storage trouble

class FlakyStorage(SqliteStorage):
    """A real SQLite storage whose next move writes for some seats fail."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.failures: dict[int, int] = {}
        """Seat: how many of its next writes fail (set on the storage thread)."""

    def append_move(self, code: str, game_no: int, index: int, seat: int, move: str) -> None:
        if self.failures.get(seat, 0) > 0:
            self.failures[seat] -= 1
            raise StorageError("OperationalError: disk I/O error")
        super().append_move(code, game_no, index, seat, move)

    def fail(self, seat: int, times: int) -> None:
        """From a test: in the storage thread, after the writes already asked for."""
        STORAGE_THREAD.submit(self.failures.__setitem__, seat, times).result(30)


def test_a_failed_write_changes_nothing_and_the_room_goes_on() -> None:
    storage = FlakyStorage(":memory:")
    with ServerThread(storage, timing=Timing(think=0.3, reaction_scale=0.05)) as flaky:
        async def scenario() -> None:
            host = await create_room(flaky.ws_url, seats=2, bots=["random"])
            await host.request({"type": "start"}, "state")
            code = host.room or ""
            await play_for([host], lambda m: m["status"] == "playing" and turn_of(host) == 0,
                           timeout=30)
            before = host.game()
            storage.fail(0, 1)  # the host's move cannot be stored: refused, nothing changes
            move = "draw" if "draw" in before["legal"] else before["legal"][0]
            error = await host.request({"type": "move", "move": move,
                                        "version": before["version"]}, "error")
            assert error["code"] == "not_saved"
            moves, length = await flaky.settled_async(code, stored_and_applied)
            assert len(moves) == length and (0, move) not in moves[before["version"]:]
            # The bot's next two writes fail (armed before its turn comes): each is told to
            # everyone and tried again, and the room goes on by itself.
            start = len(host.messages)
            storage.fail(1, 2)
            await play_for([host], lambda m: m["status"] == "playing" and turn_of(host) == 1,
                           timeout=30)
            waiting = host.game()["version"]
            await host.wait_for(lambda m: m["type"] == "update" and m["version"] > waiting
                                and any(e.get("seat") == 1 for e in m["events"]), timeout=30,
                                start=start)
            told = [m for m in host.messages[start:] if m.get("code") == "not_saved"]
            assert len(told) == 2  # everyone hears that the game could not be saved
            assert storage.failures[1] == 0
            moves, length = await flaky.settled_async(code, stored_and_applied)
            assert len(moves) == length
            await host.close()

        run(scenario())
