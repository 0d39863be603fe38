"""Hidden information on a real server (issue 21, item 3): a family rule that gives a card
names it to nobody but the two players, in any message any seat or a spectator receives;
with jump-in on, a bot's turn takes as long whether or not an easy bot holds a copy of
the top card. Real uvicorn, real sockets, a real SQLite file."""

from __future__ import annotations

import asyncio
import re
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

from test_server_helper import stacked
from test_server_support import Client, ServerThread, autoplay, create_room, join, run

from unogame.engine import Game, Move
from unogame.server.flow import STAND_IN_PREFIX, Timing

PRESENT = {"name": "A present", "steps": [{"who": "chosen", "what": "give"}]}
"""The card's player gives a card of their choice to the seat they name (D17, D18)."""

CARD = re.compile(r"(?<![A-Za-z0-9+])(W\+4|WS|WC|W|[RYGB](?:\+2|[0-9SR]))(?![A-Za-z0-9+])")


def cards_in(value: Any) -> Counter[str]:
    """Every card code written anywhere in a message part, move texts included."""
    return Counter(CARD.findall(str(value)))


def named_gift(event: dict[str, Any]) -> bool:
    return event.get("type") == "play" and Move.parse(event["move"]).gift >= 0


class Scan:
    """The room's game replayed from its stored log with its deal: per version, every
    seat's view and the events of the move as the engine's gate gives them."""

    def __init__(self, server: ServerThread, code: str) -> None:
        room = server.manager.rooms[code]
        deal = room.deal
        game = Game.deal(len(room.seats), deal["dealer"], deal["deck"], room.rules,
                         room.game_seed)
        self.seats: list[int | None] = [*range(len(room.seats)), None]
        self.positions = {room.version_base: game.position()}
        self.events: dict[int, list[Any]] = {room.version_base: game.start_events()}
        version = room.version_base
        for seat, text in room.storage.load_moves(room.code, room.game_no):
            move = text.removeprefix(STAND_IN_PREFIX)
            events = game.next_round() if seat < 0 else game.push(seat, move)
            version += 1
            self.events[version] = events
            self.positions[version] = game.position()

    def allowed(self, seat: int | None, version: int) -> Counter[str]:
        """The cards ``seat`` may see in the message of ``version``: its own hand before and
        after the move, the discard pile, a hand shown to it, the card given to or by it."""
        allowed: Counter[str] = Counter()
        for at in (version - 1, version):
            if at in self.positions:
                seen = Counter(self.positions[at]["discard_pile"])
                if seat is not None:
                    seen += Counter(self.positions[at]["hands"][seat])
                allowed |= seen
        for event in self.events[version]:
            allowed |= Counter(event.for_seat(seat).get("card") for _ in (0,)
                               if event.type == "give" and seat in event.private)
            if event.type == "challenge" and event.public["seat"] == seat:
                allowed |= Counter(self.positions[version - 1]["hands"][event.public["by"]])
            if event.type == "round_over":
                allowed |= sum((Counter(hand) for hand in event.public["hands"]), Counter())
            if event.type == "reveal":
                allowed |= Counter(event.public["hand"])
        return allowed


def leaks(scan: Scan, client: Client, seat: int | None) -> list[Any]:
    """The messages ``client`` (at ``seat``) received that name a card it may not see."""
    found = []
    for message in client.messages:
        if message["type"] not in ("state", "update") or message.get("view") is None:
            continue
        version = message["version"]
        events = message.get("events", message.get("log", []))
        named = [event for event in events if named_gift(event) and event["seat"] != seat]
        if message["type"] == "update" and version in scan.events:
            assert events == [event.for_seat(seat) for event in scan.events[version]]
            seen: Counter[str] = Counter()  # each part on its own: a card shows in several
            for event in events:
                seen |= cards_in({key: value for key, value in event.items() if key != "move"})
                seen |= cards_in(event.get("move", ""))
            extra = seen - scan.allowed(seat, version)
            if extra:
                named.append(dict(extra))
        if named:
            found.append((version, named))
    return found


def test_a_giving_rule_names_the_card_given_to_no_other_seat_nor_a_spectator(
        tmp_path: Path) -> None:
    """Three people (a client-side policy that plays its Wild Customizable whenever it may),
    a medium bot and a spectator play a round dealt so that every person holds a Wild
    Customizable; every message each of them receives is scanned, and each person's replay
    of the round."""
    hands = [["WC", "R1", "G2", "B3", "Y4"], ["WC", "R6", "G7", "B8", "Y9"],
             ["WC", "R2", "G3", "B4", "Y5"], ["R7", "G8", "B9", "Y1", "B1"]]
    deal = {"dealer": 3, "deck": stacked(hands, "R3"), "seed": 11}

    async def scenario(server: ServerThread) -> tuple[str, list[tuple[Client, int | None]]]:
        host = await create_room(server.ws_url, "Ann", seats=4, bots=[],
                                 rules={"custom_rule": PRESENT, "hand_size": 5,
                                        "target_score": 1})
        code = host.room or ""
        people = [host] + [await join(server.ws_url, code, name) for name in ("Ben", "Cat")]
        await host.request({"type": "add_bot", "level": "medium"}, "room")
        spectator = await Client.connect(server.ws_url)
        await spectator.request({"type": "watch", "room": code}, "state")
        server.manager.rooms[code].deal = deal
        await host.request({"type": "start"}, "state")
        await asyncio.gather(*[autoplay(client, seed=index, timeout=90,
                                        until=lambda m: m["status"] != "playing")
                               for index, client in enumerate(people)])
        await spectator.wait_for(lambda m: m.get("status") == "match_over", timeout=30)
        for client in people:
            replayed = await client.request({"type": "replay", "game_no": 1, "round": 1},
                                            ("replay", "error"), timeout=30)
            assert replayed["type"] == "replay", replayed
        for client in [*people, spectator]:
            await client.close()
        return code, [*((client, index) for index, client in enumerate(people)),
                      (spectator, None)]

    with ServerThread(tmp_path / "uno.sqlite3",
                      timing=Timing(think=0.0, reaction_scale=0.0)) as server:
        code, clients = run(scenario(server))
        scan = Scan(server, code)
    gifts = sum(1 for events in scan.events.values() for event in events
                if event.type == "give")
    assert gifts >= 2, "the deal should make the people give cards"
    found = {seat: leaks(scan, client, seat) for client, seat in clients}
    replayed = {seat: [step for step in client.last("replay")["steps"]
                       if any(named_gift(e) and e["seat"] != seat for e in step["events"])]
                for client, seat in clients if seat is not None}
    messages = sum(len(client.messages) for client, _seat in clients)
    print(f"{messages} messages scanned, {gifts} cards given; leaking: "
          f"{ {seat: len(found[seat]) for seat in found} } messages, "
          f"{ {seat: len(replayed[seat]) for seat in replayed} } replay steps")
    assert found == {seat: [] for _client, seat in clients}, found
    assert replayed == {seat: [] for seat in replayed}, replayed
    assert messages > 40


async def turn_durations(server: ServerThread, easy_holds_copy: bool, rounds: int) -> list[float]:
    """Ann plays R5; the medium bot is to play next; the easy bot holds the other R5 or
    not. The seconds from Ann's play reaching her page to the bot's move reaching it."""
    easy = ["R5", "Y7", "B9"] if easy_holds_copy else ["G6", "Y7", "B9"]
    hands = [["R5", "G1", "G2"], ["B1", "B2", "B4"], easy]
    durations = []
    for number in range(rounds):
        deck = stacked(hands, "R3", seed=number)
        host = await create_room(server.ws_url, "Ann", seats=3, bots=["medium", "easy"],
                                 rules={"jump_in": True, "hand_size": 3})
        server.manager.rooms[host.room].deal = {"dealer": 2, "deck": deck, "seed": number}
        state = await host.request({"type": "start"}, "state")
        start = len(host.messages)
        await host.send({"type": "move", "move": "play R5", "version": state["version"]})
        played = await host.wait_for(lambda m: m.get("type") == "update", start=start)
        moved = await host.wait_for(lambda m: m.get("type") == "update" and any(
            event.get("seat") == 1 for event in m["events"]), start=start, timeout=20)
        durations.append(host.arrival(moved) - host.arrival(played))
        await host.close()
    return durations


def test_a_bot_s_turn_takes_as_long_whether_or_not_an_easy_bot_holds_a_copy() -> None:
    """The issue measured 0.9 s against 2.5 s (the easy bot's reaction window). Here the
    think time is 0.1 s and the window 1.0 s (reaction delays x 0.4): every turn waits the
    window, copy or not. A loaded machine only makes turns longer, never shorter than
    the window, so the bound below holds under load and fails when a turn without the
    copy comes after the think time alone."""
    async def scenario(server: ServerThread) -> tuple[list[float], list[float]]:
        with_copy = await turn_durations(server, True, 3)
        without = await turn_durations(server, False, 3)
        return with_copy, without

    with ServerThread(timing=Timing(think=0.1, reaction_scale=0.4)) as server:
        with_copy, without = run(scenario(server))
    print(f"with a copy: {with_copy}, without: {without}")
    assert min(with_copy + without) >= 0.75, (with_copy, without)
    assert abs(statistics.median(with_copy) - statistics.median(without)) < 0.5
