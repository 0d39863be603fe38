"""Players for the several-process tests: each keeps playing its seat through faults,
reconnecting (to the next server address, or through the proxy) whenever its connection
ends, and remembers every position it was shown."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import random
from collections.abc import Callable
from typing import Any

import websockets
from test_server_support import Client, Message, choose, create_room


class Player:
    """A seat played by a client-side policy; on a lost connection, back in with its token
    on the next of ``urls``."""

    def __init__(self, urls: list[str], room: str, token: str, seat: int, seed: int,
                 start_at: int = 0) -> None:
        self.urls = urls
        self.room = room
        self.token = token
        self.seat = seat
        self.rng = random.Random(seed)
        self.at = start_at
        self.client: Client | None = None
        self.seen: list[Message] = []
        """Every message of every connection, in order."""
        self.connections = 0
        self.closed_by_server = 0
        self.stop = False
        self.think = 0.0
        """Seconds this player looks at its turn before moving, as a person does (a bot
        standing in for a person thought gone would move first)."""
        self.move_each_time = False
        """Through a proxy: come back on another process each time."""
        self.server: str | None = None
        self.servers: list[str | None] = []
        """The process of each connection, in order."""

    @property
    def positions(self) -> list[Message]:
        return [m for m in self.seen if m.get("type") in ("state", "update")]

    def top_version(self) -> int:
        return max((m["version"] for m in self.positions), default=0)

    def errors(self, code: str) -> list[Message]:
        return [m for m in self.seen if m.get("type") == "error" and m.get("code") == code]

    async def connect(self) -> Client:
        """Back into the seat on the current address (tried again on the next ones)."""
        tries = 0
        while True:
            url = self.urls[self.at % len(self.urls)]
            try:
                client = await Client.connect(url)
                start = len(client.messages)
                await client.send({"type": "resume", "room": self.room, "token": self.token})
                answer = await client.wait_for(lambda m: m["type"] in ("state", "error"), 30,
                                               start)
                if answer["type"] == "state":  # (later messages may be here already)
                    server = next(m.get("server") for m in client.messages
                                  if m["type"] == "joined")
                    if self.move_each_time and server == self.server and tries < 20:
                        tries += 1  # the same process again: a proxy's next pick is another
                        await client.close()
                        # ...unless another player's retry takes it each time: players
                        # coming back in step can each land on their old process 20 times.
                        await asyncio.sleep(random.uniform(0.0, 0.05))
                        continue
                    self.servers.append(server)
                    self.server = server
                    self.connections += 1
                    self.client = client
                    return client
                await client.close()
            except (OSError, TimeoutError, websockets.WebSocketException):
                pass
            self.at += 1
            await asyncio.sleep(0.1)

    async def play(self, until: Callable[[Player], bool], timeout: float = 60.0,
                   reconnect_every: int | None = None) -> None:
        """Play until ``until(self)``; ``reconnect_every``: close the connection after so
        many moves and come back (through a proxy: to another process)."""
        deadline = asyncio.get_running_loop().time() + timeout
        client = await self.connect()
        index = 0
        acted: set[int] = set()
        moves = 0
        while not until(self):
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise TimeoutError(f"seat {self.seat} of {self.room}: the play did not get "
                                   f"there (version {self.top_version()})")
            try:
                message = await client.message_at(index, min(remaining, 0.5))
            except TimeoutError:
                if client._reader.done():  # the server went away: the next one
                    self.closed_by_server += 1
                    self.seen += client.messages[index:]
                    self.at += 1
                    client = await self.connect()
                    index = 0
                    acted.clear()
                continue
            index += 1
            self.seen.append(message)
            if message.get("code") in ("not_saved", "reconnecting", "rate_limited"):
                acted.clear()  # as a person would: try again on the next position shown
            if message.get("type") not in ("state", "update") or message.get("view") is None:
                continue
            if message["status"] == "match_over" or any(
                    later.get("type") in ("state", "update")
                    for later in client.messages[index:]):
                continue
            version = message["version"]
            if version in acted:
                continue
            acted.add(version)
            with contextlib.suppress(websockets.ConnectionClosed):
                if message["status"] == "round_over":
                    await client.send({"type": "next_round", "version": version})
                    continue
                my_turn = message["view"]["turn"] == self.seat
                if my_turn and self.think:
                    await asyncio.sleep(self.think)
                    if any(later.get("type") in ("state", "update")
                           for later in client.messages[index:]):
                        continue  # the position moved on meanwhile: look at the new one
                move = choose(message["legal"], my_turn, self.rng)
                if move is None:
                    continue
                await client.send({"type": "move", "move": move, "version": version})
                moves += 1
                if reconnect_every and moves % reconnect_every == 0:
                    await client.wait_for(functools.partial(_answers, version), 10, index)
                    self.seen += client.messages[index:]
                    await client.close()
                    self.at += 1
                    client = await self.connect()
                    index = 0
                    acted.clear()
        self.seen += client.messages[index:]
        await client.close()


async def table_of_players(urls: list[str], seed: int, bots: int = 1,
                           rules: dict[str, Any] | None = None,
                           **settings: Any) -> list[Player]:
    """A room with its host on ``urls[0]``, a guest on ``urls[-1]`` and ``bots`` bots,
    started; its two players (``settings``: more room settings, e.g. grace)."""
    host = await create_room(urls[0], seats=2 + bots, bots=["random"] * bots,
                             rules=rules or {"target_score": 5_000}, **settings)
    guest = await Client.connect(urls[-1])
    await guest.request({"type": "join", "room": host.room, "name": "Guest"}, "state")
    deadline = asyncio.get_running_loop().time() + 30
    while True:
        start = len(host.messages)
        await host.send({"type": "start"})
        started = await host.wait_for(lambda m: m["type"] == "error" or (
            m["type"] == "state" and m["view"] is not None), 30, start)
        if started["type"] == "state":
            break
        # A start the host's process stores before hearing of the guest's join is read
        # again and retried there (retry.py); "not_saved" now only when Redis could not
        # store it in time (a loaded machine): "nothing changed, try again", as a person would.
        assert started["code"] == "not_saved", started
        assert asyncio.get_running_loop().time() < deadline, started
        await asyncio.sleep(0.2)
    await guest.wait_for(lambda m: m["type"] == "state" and m["view"] is not None, 30)
    players = [Player(urls, host.room or "", host.token or "", 0, seed),
               Player(urls, guest.room or "", guest.token or "", guest.seat or 0, seed + 1,
                      start_at=len(urls) - 1)]
    await host.close()
    await guest.close()
    return players


def _answers(version: int, message: Message) -> bool:
    return bool(message.get("version", 0) > version or message["type"] == "error")
