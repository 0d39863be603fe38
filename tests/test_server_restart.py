"""Durability: ``uno serve`` killed with SIGKILL mid-game comes back with every room as it
was; players reconnect into their seats with their tokens (issue 4, sections 1 and 5)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from test_server_support import (
    Client,
    ServerProcess,
    autoplay,
    create_room,
    free_port,
    join,
    run,
)


async def quiet(clients: list[Client], seconds: float) -> None:
    """Wait until no client has received anything for ``seconds``."""
    while True:
        counts = [len(client.messages) for client in clients]
        await asyncio.sleep(seconds)
        if [len(client.messages) for client in clients] == counts:
            return


def seen_log(client: Client) -> list[dict[str, Any]]:
    """The log as the client has seen it: its last full state, then every update's events."""
    log: list[dict[str, Any]] = []
    for message in client.messages:
        if message["type"] == "state":
            log = list(message["log"])
        elif message["type"] == "update":
            log.extend(message["events"])
    return log[-300:]


def test_kill_9_and_restart_resumes_rooms_and_seats(tmp_path: Path) -> None:
    db = tmp_path / "uno.sqlite3"
    port = free_port()
    server = ServerProcess(db, port, bot_think=0.05)
    server.start()
    try:
        async def first_life() -> dict[str, Any]:
            host = await create_room(server.ws_url, seats=3, bots=["random"],
                                     rules={"target_score": 300})
            guest = await join(server.ws_url, host.room or "", "Guest")
            lobby = await create_room(server.ws_url, name="Other", seats=5)  # still in lobby
            await host.request({"type": "start"}, "state")

            def far_enough(message: dict[str, Any]) -> bool:
                return message["version"] >= 25 and message["status"] == "playing" \
                    and message["view"]["turn"] in (0, 2)

            await asyncio.gather(autoplay(host, 1, deal=True, until=far_enough),
                                 autoplay(guest, 2, deal=True, until=far_enough))
            await quiet([host, guest], 3.0)  # the bot's reactions are over
            snapshot = {
                "room": host.room, "lobby": lobby.room,
                "tokens": {0: host.token, 2: guest.token, "lobby": lobby.token},
                "last": {0: host.game(), 2: guest.game()},
                "logs": {0: seen_log(host), 2: seen_log(guest)},
                "seats": host.last("room")["seats"],
            }
            return snapshot

        before = run(first_life())
        server.kill9()  # the clients' sockets die with the process
        server.start()

        async def second_life() -> None:
            code = before["room"]
            clients = {}
            for seat in (0, 2):
                client = await Client.connect(server.ws_url)
                state = await client.request({"type": "resume", "room": code,
                                              "token": before["tokens"][seat]}, "state")
                assert client.seat == seat
                last = before["last"][seat]
                assert state["version"] == last["version"]
                assert state["view"] == last["view"]
                assert state["legal"] == last["legal"]
                assert state["results"] == last["results"]
                assert state["log"] == before["logs"][seat]
                clients[seat] = client
            room = clients[0].last("room")
            assert [s["name"] for s in room["seats"]] == [s["name"] for s in before["seats"]]
            assert room["status"] == "playing"
            # The room still in its lobby is back too, its host still its host.
            other = await Client.connect(server.ws_url)
            await other.request({"type": "resume", "room": before["lobby"],
                                 "token": before["tokens"]["lobby"]}, "state")
            assert other.seat == 0 and other.last("room")["status"] == "lobby"
            # And the game goes on: the bot plays again after the restart.
            version = clients[0].game()["version"]

            def moved_on(message: dict[str, Any]) -> bool:
                return message["version"] >= version + 10

            await asyncio.gather(autoplay(clients[0], 3, deal=True, until=moved_on),
                                 autoplay(clients[2], 4, deal=True, until=moved_on))
            for client in [*clients.values(), other]:
                await client.close()

        run(second_life())
    finally:
        server.stop()
