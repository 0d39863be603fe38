"""The WebSocket protocol against a real uvicorn server on loopback (issue 4, sections 1, 2, 4).

Many simulated clients create, join, watch, reconnect, send stale, repeated and out-of-turn
moves and garbage; complete games are played while every message is scanned for cards its
client may not see.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from typing import Any

import pytest
from redis_support import (
    redis_server_fixture,  # noqa: F401 - the fixture redis_server
    wait_until,
)
from test_server_support import (
    Client,
    ServerThread,
    autoplay,
    create_room,
    join,
    loopback_limits,
    run,
    stored_and_applied,
    stored_games,
)

from unogame.engine import Game
from unogame.server.flow import STAND_IN_PREFIX
from unogame.server.rooms import CODE_LENGTH, LOG_KEEP, Room


@pytest.fixture(scope="module", params=["sqlite", "redis"])
def server(request: pytest.FixtureRequest) -> Any:
    """The same protocol on both backends: one process on SQLite, or rooms in Redis."""
    redis_url = request.getfixturevalue("redis_server").url \
        if request.param == "redis" else None
    with ServerThread(limits=loopback_limits(max_rooms=200), redis_url=redis_url) as running:
        if redis_url is not None:
            wait_until(lambda: running.manager.hub.link_up, 20, "the Redis link")
        yield running


def room_of(server: ServerThread, code: str) -> Room:
    room: Room = server.manager.rooms[code]
    return room


def test_create_join_start_and_views(server: ServerThread) -> None:
    async def scenario() -> None:
        host = await create_room(server.ws_url, bots=["random"], seats=4)
        assert host.seat == 0 and host.token and len(host.room or "") == CODE_LENGTH
        bob = await join(server.ws_url, host.room or "", "Bob")
        assert bob.seat == 2 and bob.token and bob.token != host.token
        lobby = await bob.wait_for(lambda m: m["type"] == "room" and len(m["seats"]) == 3)
        assert [s["name"] for s in lobby["seats"]] == ["Host", "Bot 1", "Bob"]
        # Only the host starts.
        refused = await bob.request({"type": "start"}, "error")
        assert refused["code"] == "not_host"
        await host.request({"type": "start"}, "state")
        state = await bob.wait_for(lambda m: m["type"] == "state" and m["view"] is not None)
        hands = state["view"]["hands"]
        # 7 dealt; more if a Draw Two came first or a bot already made Bob draw (random deal)
        assert isinstance(hands[2], list) and len(hands[2]) >= 7
        assert all(isinstance(hands[s], int) for s in (0, 1))
        assert isinstance(state["view"]["draw_pile"], int)
        # A late joiner cannot take a seat once the game runs, but may watch.
        late = await Client.connect(server.ws_url)
        error = await late.request({"type": "join", "room": host.room, "name": "Late"}, "error")
        assert error["code"] == "already_started"
        watching = await late.request({"type": "watch", "room": host.room}, "state")
        assert all(isinstance(h, int) for h in watching["view"]["hands"])
        assert watching["legal"] == []
        refused = await late.request({"type": "move", "move": "draw",
                                      "version": watching["version"]}, "error")
        assert refused["code"] == "not_seated"
        for client in (host, bob, late):
            await client.close()

    run(scenario())


def _turn_client(clients: list[Client]) -> tuple[Client, dict[str, Any]]:
    for client in clients:
        message = client.game()
        if message["view"]["turn"] == client.seat and message["legal"]:
            return client, message
    raise AssertionError("nobody to act")


def test_stale_repeated_and_out_of_turn_moves_change_nothing(server: ServerThread) -> None:
    async def scenario() -> None:
        host = await create_room(server.ws_url, seats=2)
        guest = await join(server.ws_url, host.room or "", "Guest")
        await host.request({"type": "start"}, "state")
        await guest.wait_for(lambda m: m["type"] == "state" and m["view"] is not None)
        room = room_of(server, host.room or "")
        assert room.game is not None
        if room.game.pending is not None:  # a first wild: choose its colour
            actor, state = _turn_client([host, guest])
            await actor.request({"type": "move", "move": "color R",
                                 "version": state["version"]}, "update")
        actor, state = _turn_client([host, guest])
        other = guest if actor is host else host
        version = state["version"]
        before = room.game.position()

        # Out of turn: refused with the engine's reason, nothing changes.
        error = await other.request({"type": "move", "move": "draw", "version": version},
                                    "error")
        assert error["code"] == "illegal" and "R4.1" in error["message"]
        # Wrong version: refused.
        error = await actor.request({"type": "move", "move": "draw", "version": version - 1},
                                    "error")
        assert error["code"] == "stale"
        # Not notation / missing version.
        error = await actor.request({"type": "move", "move": "play XYZ", "version": version},
                                    "error")
        assert error["code"] == "illegal"
        error = await actor.request({"type": "move", "move": "draw"}, "error")
        assert error["code"] == "stale"
        assert room.game.position() == before and room.version == version

        # The move, then the same message again (a phone resending): applied once.
        message = {"type": "move", "move": "draw", "version": version}
        update = await actor.request(message, "update")
        assert update["version"] == version + 1
        after = room.game.position()
        length = room.log_length
        error = await actor.request(message, "error")
        assert error["code"] == "stale"
        assert room.game.position() == after and room.log_length == length
        moves, applied = await server.settled_async(room.code, stored_and_applied)
        assert moves[-1] == (actor.seat, "draw") and applied == length == len(moves)
        await host.close()
        await guest.close()

    run(scenario())


def test_garbage_floods_and_oversize_keep_connection_and_room(server: ServerThread) -> None:
    async def scenario() -> None:
        host = await create_room(server.ws_url, seats=2, bots=["random"])
        await host.request({"type": "start"}, "state")
        room = room_of(server, host.room or "")
        for bad, code in [
            ("{not json", "bad_json"),
            ("[1, 2]", "bad_message"),
            ('{"no": "type"}', "bad_message"),
            ('{"type": "explode"}', "unknown_type"),
            ('{"type": "__init__"}', "unknown_type"),
            ('{"type": "move", "move": 42, "version": 1}', "bad_move"),
            (json.dumps({"type": "move", "move": "x" * 5000}), "too_large"),
            ("[" * 3000 + "]" * 3000, "too_large"),
        ]:
            version = room.version
            error = await host.request(bad, "error")  # type: ignore[arg-type]
            assert error["code"] == code, (bad[:30], error)
            assert room.version >= version
        # A flood: most messages are refused as rate limited, the connection survives.
        start = len(host.messages)
        for _ in range(200):
            await host.send({"type": "ping"})
        await host.wait_for(lambda m: m.get("code") == "rate_limited", start=start)
        await asyncio.sleep(1.0)
        pong = await host.request({"type": "ping"}, "pong")
        assert pong == {"type": "pong"}
        # The room carries on: a move is still accepted.
        state = host.game()
        if state["view"]["turn"] == 0 and state["status"] == "playing":
            move = next(m for m in state["legal"] if not m.startswith("catch"))
            reply = await host.request({"type": "move", "move": move,
                                        "version": state["version"]}, ("update", "error"))
            assert reply["type"] == "update" or reply["code"] == "stale"
        await host.close()

    run(scenario())


def test_reconnect_with_token_and_bad_token(server: ServerThread) -> None:
    async def scenario() -> None:
        host = await create_room(server.ws_url, seats=3, bots=["random"])
        guest = await join(server.ws_url, host.room or "", "Guest")
        await host.request({"type": "start"}, "state")
        await guest.wait_for(lambda m: m["type"] == "state" and m["view"] is not None)
        token, seat = guest.token, guest.seat
        await guest.close()
        room = room_of(server, host.room or "")
        seats = (await host.wait_for(lambda m: m["type"] == "room"
                                     and len(m["seats"]) == 3
                                     and not m["seats"][2]["connected"]))["seats"]
        assert seats[2]["name"] == "Guest"
        back = await Client.connect(server.ws_url)
        state = await back.request({"type": "resume", "room": (host.room or "").lower(),
                                    "token": token}, "state")
        assert back.seat == seat and back.token is None  # the token is never sent again
        # The room's bot plays on meanwhile: the state is the stored game at the version
        # the server sent (read on the server's loop, as one of the room's changes).
        version, games = await server.settled_async(
            room.code, lambda live, moves: (live.version, stored_games(live, moves)))
        assert state["version"] in games and state["version"] <= version
        game = games[state["version"]]
        assert state["view"] == game.view(seat)
        assert state["legal"] == [m.text for m in game.legal_moves(seat)]
        thief = await Client.connect(server.ws_url)
        error = await thief.request({"type": "resume", "room": host.room,
                                     "token": "guessed-token"}, "error")
        assert error["code"] == "bad_token" and thief.seat is None
        error = await thief.request({"type": "resume", "room": "ZZZZZ", "token": token},
                                    "error")
        assert error["code"] == "no_room"
        for client in (host, back, thief):
            await client.close()

    run(scenario())


def test_host_removes_player_and_bots(server: ServerThread) -> None:
    async def scenario() -> None:
        host = await create_room(server.ws_url, seats=4, bots=["random"])
        guest = await join(server.ws_url, host.room or "", "Guest")
        await host.request({"type": "add_bot", "level": "random"}, "room")
        error = await host.request({"type": "add_bot", "level": "genius"}, "error")
        assert error["code"] == "bad_level"
        error = await host.request({"type": "remove", "seat": 0}, "error")
        assert error["code"] == "bad_seat"
        room = await host.request({"type": "remove", "seat": 1}, "room")  # a bot
        assert [s["name"] for s in room["seats"]] == ["Host", "Guest", "Bot 2"]
        await guest.wait_for(lambda m: m["type"] == "room" and m["you"] == 1)  # moved up
        await host.request({"type": "start"}, "state")
        await guest.wait_for(lambda m: m["type"] == "state" and m["view"] is not None)
        # In a game a removed player is replaced by a bot, the game goes on.
        await host.request({"type": "remove", "seat": 1}, "room")
        await guest.wait_for(lambda m: m["type"] == "removed")
        watching = await guest.wait_for(lambda m: m["type"] == "state" and m["view"] is not None
                                        and all(isinstance(h, int)
                                                for h in m["view"]["hands"]))
        assert watching["legal"] == []
        info = room_of(server, host.room or "").seats[1]
        assert info.kind == "bot" and info.token_hash is None
        error = await guest.request({"type": "resume", "room": host.room,
                                     "token": guest.token}, "error")
        assert error["code"] == "bad_token"
        await host.close()
        await guest.close()

    run(scenario())


def test_settings_and_limits(server: ServerThread) -> None:
    async def scenario() -> None:
        client = await Client.connect(server.ws_url)
        for settings, bots in [({"seats": 1}, []), ({"seats": 11}, []),
                               ({"seats": 4, "rules": {"stakcing": True}}, []),
                               ({"seats": 4, "rules": {"hand_size": 0}}, []),
                               ({"seats": 4, "timer": 2}, []),
                               ({"seats": 2}, ["random", "random"])]:
            error = await client.request({"type": "create", "settings": settings,
                                          "bots": bots}, "error")
            assert error["code"] == "bad_settings", settings
        error = await client.request({"type": "join", "room": "?????", "name": "x"}, "error")
        assert error["code"] == "no_room"
        error = await client.request({"type": "start"}, "error")
        assert error["code"] == "no_room"
        full = await create_room(server.ws_url, seats=2, bots=["random"])
        error = await client.request({"type": "join", "room": full.room, "name": "x"}, "error")
        assert error["code"] == "room_full"
        await client.close()
        await full.close()

    run(scenario())


def test_room_limit_per_server() -> None:
    async def scenario(url: str) -> None:
        first = await create_room(url)
        client = await Client.connect(url)
        error = await client.request({"type": "create", "settings": {}}, "error")
        assert error["code"] == "too_many_rooms"
        await first.close()
        await client.close()

    with ServerThread(limits=loopback_limits(max_rooms=1)) as small:
        run(scenario(small.ws_url))


def test_one_connection_creates_a_few_rooms_only(server: ServerThread) -> None:
    async def scenario() -> None:
        client = await Client.connect(server.ws_url)
        for _ in range(5):
            await client.request({"type": "create", "settings": {}}, "state")
        error = await client.request({"type": "create", "settings": {}}, "error")
        assert error["code"] == "too_many_rooms"
        await client.close()

    run(scenario())


def test_idle_rooms_make_way_for_new_ones() -> None:
    async def scenario(url: str) -> tuple[str, str]:
        first = await create_room(url)
        await first.close()  # nobody is left in the room
        client = await Client.connect(url)
        deadline = asyncio.get_running_loop().time() + 30
        while True:  # once the server has seen it empty for 0.2 s, it makes way
            reply = await client.request({"type": "create", "settings": {}}, ("state", "error"))
            if reply["type"] == "state":
                break
            assert reply["code"] == "too_many_rooms", reply
            assert asyncio.get_running_loop().time() < deadline, "the idle room stayed"
            await asyncio.sleep(0.1)
        await client.close()
        return first.room or "", client.room or ""

    with ServerThread(limits=loopback_limits(max_rooms=1, idle_room_seconds=0.2)) as small:
        old, new = run(scenario(small.ws_url))
        assert list(small.manager.rooms) == [new]
        assert old not in small.manager.storage.load_rooms()


# ---------------------------------------------------------------- the leak scan

CARD_PATTERN = re.compile(r"(?<![A-Za-z0-9+])(W\+4|WS|WC|W|[RYGB](?:\+2|[0-9SR]))(?![A-Za-z0-9+])")


def _cards_in(value: Any) -> Counter[str]:
    return Counter(CARD_PATTERN.findall(json.dumps(value)))


def _bound(counter: Counter[str], other: Counter[str]) -> Counter[str]:
    return counter | other


def check_no_leaks(room: Room, clients: list[Client]) -> int:
    """Every game message equals the engine's gate for its seat, and holds no card beyond
    what that seat sees. Returns the number of messages checked."""
    game = Game.new(len(room.seats), room.rules, room.game_seed)
    seats: list[int | None] = [*range(len(room.seats)), None]
    views: dict[int, dict[int | None, Any]] = {}
    positions: dict[int, dict[str, Any]] = {}
    events_at: dict[int, list[Any]] = {}
    all_events: dict[int, list[Any]] = {}
    history: list[Any] = game.start_events()  # round 1 starts with its deal too
    version = room.version_base

    def snapshot() -> None:
        views[version] = {seat: game.view(seat) for seat in seats}
        positions[version] = game.position()
        all_events[version] = history[-LOG_KEEP:]

    snapshot()
    events_at[version] = []
    for seat, move in room.storage.load_moves(room.code, room.game_no):
        move = move.removeprefix(STAND_IN_PREFIX)  # a bot's move for a person is a move
        events = game.next_round() if seat < 0 else game.push(seat, move)
        history.extend(events)
        version += 1
        events_at[version] = events
        snapshot()
    checked = 0
    for client in clients:
        seat = client.seat
        for message in client.messages:
            kind = message["type"]
            if kind == "room":
                assert not _cards_in(message), message
                continue
            if kind == "error":  # not_saved: storage was slow (a loaded machine), no change
                assert message["code"] in ("stale", "illegal", "rate_limited", "not_saved"), (
                    message)
                continue
            if kind not in ("state", "update") or message["view"] is None:
                continue
            if message["version"] not in views:
                continue  # from the previous game of the room
            v = message["version"]
            checked += 1
            assert message["view"] == views[v][seat]
            if kind == "update":
                assert message["events"] == [e.for_seat(seat) for e in events_at[v]]
            else:
                assert message["log"] == [e.for_seat(seat) for e in all_events[v]]
            # What seat may see now: its hand before and after, the discard pile, the hand
            # shown to it by a challenge, the hands shown at the end of a round.
            allowed: Counter[str] = Counter()
            for at in (v - 1, v):
                if at in positions:
                    visible = Counter(positions[at]["discard_pile"])
                    if seat is not None:
                        visible += Counter(positions[at]["hands"][seat])
                    allowed |= visible
            for event in events_at[v]:
                if event.type == "challenge" and event.public["seat"] == seat:
                    allowed |= Counter(positions[v - 1]["hands"][event.public["by"]])
                if event.type == "round_over":
                    allowed |= sum((Counter(hand) for hand in event.public["hands"]),
                                   Counter())
            # Each part on its own (the same card shows in the hand, in legal moves and
            # in a draw event): what one part shows must be visible.
            view = dict(message["view"])
            seen = (_cards_in(view.pop("pending")) | _cards_in(view)
                    | Counter(set(_cards_in(message["legal"]))))
            for event in message.get("events", []):
                seen |= _cards_in({k: v for k, v in event.items() if k != "move"})
                seen |= _cards_in(event.get("move"))
            assert not seen - allowed, (seat, v, seen - allowed, message)
            hands = message["view"]["hands"]
            for other, hand in enumerate(hands):
                assert isinstance(hand, list) == (other == seat)
    return checked


@pytest.mark.parametrize("rules", [
    {"target_score": 150},
    {"target_score": 120, "seven_zero": True, "jump_in": True, "custom_rule": "pass_hands"},
    {"target_score": 120, "stacking": True, "custom_rule": "chosen_draw",
     "draw_until_playable": True, "uno_penalty": 4},
    {"target_score": 100, "custom_rule": "discard_color", "must_play_drawn": True,
     "hand_size": 5},
])
def test_complete_games_leak_nothing(server: ServerThread, rules: dict[str, Any]) -> None:
    """Three human clients (played by a client-side policy), a server bot and a spectator
    play a whole match; every message they receive is scanned."""

    async def scenario() -> list[Client]:
        host = await create_room(server.ws_url, seats=4, bots=["random"], rules=rules)
        players = [host] + [await join(server.ws_url, host.room or "", f"P{i}")
                            for i in (1, 2)]
        spectator = await Client.connect(server.ws_url)
        await spectator.request({"type": "watch", "room": host.room}, "state")
        await host.request({"type": "start"}, "state")
        results = await asyncio.gather(*[
            autoplay(client, seed=index, deal=True, timeout=120)  # each presses
            for index, client in enumerate(players)])
        assert all(result["status"] == "match_over" for result in results)
        await spectator.wait_for(lambda m: m.get("status") == "match_over")
        for client in [*players, spectator]:
            await client.close()
        return [*players, spectator]

    clients = run(scenario())
    room = room_of(server, clients[0].room or "")
    assert room.game is not None and room.game.game_winner is not None
    checked = check_no_leaks(room, clients)
    assert checked > 50


def test_rematch_starts_a_new_game(server: ServerThread) -> None:
    async def scenario() -> None:
        host = await create_room(server.ws_url, seats=2, bots=["random"],
                                 rules={"target_score": 1})
        await host.request({"type": "start"}, "state")
        final = await autoplay(host, seed=3, deal=True, timeout=60)
        assert final["status"] == "match_over"
        code = host.room or ""
        game_no = await server.settled_async(code, lambda room, moves: room.game_no)
        deadline = asyncio.get_running_loop().time() + 30
        while True:  # the quick autoplay may have spent the message allowance: wait for it
            state = await host.request({"type": "rematch"}, ("state", "error"))
            if state.get("code") != "rate_limited":
                break
            assert asyncio.get_running_loop().time() < deadline, "still rate limited"
            await asyncio.sleep(0.25)
        assert state["type"] == "state", state
        assert state["status"] == "playing" and state["version"] > final["version"]
        now, scores = await server.settled_async(code, lambda room, moves: (
            room.game_no, room.game.scores if room.game is not None else None))
        assert now == game_no + 1 and scores == [0, 0]
        await host.close()

    run(scenario())


def test_the_leak_scan_catches_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scan is not vacuous: a server that shows every hand is caught."""
    monkeypatch.setattr(Game, "view", lambda self, seat: self.position())

    async def scenario(url: str) -> list[Client]:
        host = await create_room(url, seats=2, bots=["random"], rules={"target_score": 1})
        await host.request({"type": "start"}, "state")
        await autoplay(host, seed=1, deal=True, timeout=60)
        await host.close()
        return [host]

    with ServerThread() as leaky:
        clients = run(scenario(leaky.ws_url))
        room = room_of(leaky, clients[0].room or "")
        with pytest.raises(AssertionError):
            check_no_leaks(room, clients)
