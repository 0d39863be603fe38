"""A hostile client against the real server on loopback (issue 9): each hole the attack
found, reproduced exactly, plus a bounded fuzz of the protocol.

Every test here failed on the server before the fixes of issue 9.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import sqlite3
import struct
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from test_server_support import (
    Client,
    ServerThread,
    autoplay,
    check_shown_was_stored,
    create_room,
    join,
    loopback_limits,
    run,
    stored_games,
)

from unogame.engine import replay
from unogame.server import Limits, Timing
from unogame.server.rooms import CODE_ALPHABET, CODE_LENGTH, Room
from unogame.server.storage import SqliteStorage


@pytest.fixture(autouse=True)
def uvicorn_log(caplog: pytest.LogCaptureFixture) -> Any:
    """uvicorn's loggers do not propagate to the root: hear them too."""
    logger = logging.getLogger("uvicorn")
    logger.addHandler(caplog.handler)
    yield
    logger.removeHandler(caplog.handler)


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Log records of this test that carry a traceback (or say the server failed)."""
    return [f"{record.name}: {record.getMessage()}" for record in caplog.records
            if record.exc_info or "Traceback" in record.getMessage()
            or "message failed" in record.getMessage()]


def room_of(server: ServerThread, code: str) -> Room:
    room: Room = server.manager.rooms[code]
    return room


async def alive(client: Client) -> bool:
    """The server answers this client's ping (after its message allowance comes back, when
    the client spent it: a fast game's moves can, and the ping is then refused as
    rate_limited, not lost)."""
    deadline = asyncio.get_running_loop().time() + 10
    while asyncio.get_running_loop().time() < deadline:
        try:
            answer = await client.request({"type": "ping"}, ("pong", "error"), timeout=5)
        except TimeoutError:
            return False
        if answer["type"] == "pong":
            return True
        if answer.get("code") == "rate_limited":
            await asyncio.sleep(0.5)
        # another error answers a move still in flight: ask again
    return False


# ---------------------------------------------------------------- 2. lone surrogates


def test_a_lone_surrogate_is_refused_and_kills_nothing(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    with ServerThread() as server:
        async def scenario() -> None:
            host = await create_room(server.ws_url, seats=4)
            watcher = await Client.connect(server.ws_url)
            await watcher.request({"type": "watch", "room": host.room}, "state")
            room = room_of(server, host.room or "")
            evil = await Client.connect(server.ws_url)
            for _ in range(3):
                error = await evil.request({"type": "join", "room": host.room,
                                            "name": "\ud800"}, "error")
                assert error["code"] == "bad_text"
            assert len(room.seats) == 1  # no ghost seat
            rooms = len(server.manager.rooms)
            for _ in range(15):  # 30 creates (within the message rate)
                error = await evil.request({"type": "create", "name": "\ud800",
                                            "settings": {}}, "error")
                assert error["code"] == "bad_text"
                error = await evil.request({"type": "create", "name": "ok",
                                            "settings": {"name": "x\udfff"}}, "error")
                assert error["code"] == "bad_text"
            assert len(server.manager.rooms) == rooms  # no orphan room
            error = await evil.request({"type": "resume", "room": host.room,
                                        "token": "\ud800"}, "error")
            assert error["code"] == "bad_text"
            # The room's people are still connected and hear the next join.
            guest = await join(server.ws_url, host.room or "", "Guest")
            for client in (host, watcher, guest, evil):
                assert await alive(client)
            await host.wait_for(lambda m: m["type"] == "room" and len(m["seats"]) == 2)
            for client in (host, watcher, guest, evil):
                await client.close()

        run(scenario())
    assert tracebacks(caplog) == []


def test_a_join_that_cannot_be_stored_adds_no_seat(tmp_path: Path) -> None:
    """A state change happens only after it is stored: with the database locked by another
    process, a join is refused with "not saved" and the lobby is as it was."""
    db = tmp_path / "rooms.sqlite3"
    with ServerThread(db) as server:
        async def scenario() -> None:
            host = await create_room(server.ws_url, seats=4)
            room = room_of(server, host.room or "")
            locker = sqlite3.connect(db, isolation_level=None)
            locker.execute("BEGIN IMMEDIATE")  # holds the write lock
            try:
                guest = await Client.connect(server.ws_url)
                error = await guest.request({"type": "join", "room": host.room,
                                             "name": "Guest"}, "error")
                assert error["code"] == "not_saved"
                assert len(room.seats) == 1
                error = await guest.request({"type": "create", "name": "G", "settings": {}},
                                            "error")
                assert error["code"] == "not_saved"
                assert len(server.manager.rooms) == 1
            finally:
                locker.execute("ROLLBACK")
                locker.close()
            await guest.request({"type": "join", "room": host.room, "name": "Guest"}, "state")
            assert [seat.name for seat in room.seats] == ["Host", "Guest"]
            await guest.close()
            await host.close()

        run(scenario())


# ---------------------------------------------------------------- 3. names


def test_names_are_cleaned_and_bots_cannot_be_impersonated() -> None:
    with ServerThread() as server:
        async def scenario() -> None:
            host = await create_room(server.ws_url, seats=6, bots=["random"])
            room = room_of(server, host.room or "")
            guest = await Client.connect(server.ws_url)
            for name in ("Bot 2", "bot", "🤖 Ann", "B\u043et 3", "\u200b\u200d", "   ",
                         "\u202e\u2066", "\u3164"):
                error = await guest.request({"type": "join", "room": host.room,
                                             "name": name}, "error")
                assert error["code"] == "bad_name", name
            await guest.request({"type": "join", "room": host.room,
                                 "name": "\u202eAnn\u200b\u0007 Lee\u2069"}, "state")
            lobby = guest.last("room")
            assert [(s["name"], s["kind"]) for s in lobby["seats"]] == [
                ("Host", "human"), ("Bot 1", "bot"), ("Ann Lee", "human")]
            thai = await Client.connect(server.ws_url)
            await thai.request({"type": "join", "room": host.room, "name": "น้ำฝน"}, "state")
            assert room.seats[-1].name == "น้ำฝน"  # Thai marks are kept
            for client in (host, guest, thai):
                await client.close()

        run(scenario())


# ---------------------------------------------------------------- 4. denial of service


def test_one_connection_takes_one_seat_and_a_stored_token_goes_back_to_it() -> None:
    with ServerThread() as server:
        async def scenario() -> None:
            host = await create_room(server.ws_url, seats=10)
            room = room_of(server, host.room or "")
            grabber = await Client.connect(server.ws_url)
            await grabber.request({"type": "join", "room": host.room, "name": "G"}, "state")
            for _ in range(8):
                error = await grabber.request({"type": "join", "room": host.room,
                                               "name": "G"}, "error")
                assert error["code"] == "already_seated"
            assert len(room.seats) == 2
            # The same browser (its stored token) on a new connection: back into its seat.
            again = await Client.connect(server.ws_url)
            joined = await again.request({"type": "join", "room": host.room, "name": "G",
                                          "token": grabber.token}, "joined")
            assert joined["seat"] == 1 and len(room.seats) == 2
            for client in (host, grabber, again):
                await client.close()

        run(scenario())


def test_spectators_cannot_lock_a_player_out_of_their_seat() -> None:
    limits = loopback_limits(max_spectators_per_room=20, max_clients_per_room=60)
    with ServerThread(limits=limits) as server:
        async def scenario() -> None:
            host = await create_room(server.ws_url, seats=2, bots=["random"])
            await host.close()
            watchers = []
            for _ in range(25):
                client = await Client.connect(server.ws_url)
                reply = await client.request({"type": "watch", "room": host.room},
                                             ("state", "error"))
                watchers.append((client, reply))
            refused = [reply for _, reply in watchers if reply["type"] == "error"]
            assert len(refused) == 5 and {r["code"] for r in refused} == {"room_crowded"}
            back = await Client.connect(server.ws_url)
            state = await back.request({"type": "resume", "room": host.room,
                                        "token": host.token}, ("state", "error"))
            assert state["type"] == "state"
            for client, _ in watchers:
                await client.close()
            await back.close()

        run(scenario())


def test_the_owner_gets_in_even_when_sixty_watch() -> None:
    """The issue's reproduction with the default caps: 60 people watching."""
    with ServerThread(limits=loopback_limits()) as server:
        async def scenario() -> None:
            host = await create_room(server.ws_url, seats=2, bots=["random"])
            await host.close()
            watchers = [await Client.connect(server.ws_url) for _ in range(60)]
            await asyncio.gather(*(w.request({"type": "watch", "room": host.room},
                                             ("state", "error")) for w in watchers))
            back = await Client.connect(server.ws_url)
            state = await back.request({"type": "resume", "room": host.room,
                                        "token": host.token}, ("state", "error"))
            assert state["type"] == "state", state
            await asyncio.gather(*(w.close() for w in watchers))
            await back.close()

        run(scenario())


def test_room_creation_is_limited_per_address() -> None:
    with ServerThread(limits=Limits(rooms_per_address=(10, 2.0))) as server:
        async def scenario() -> list[str]:
            clients = [await Client.connect(server.ws_url) for _ in range(20)]
            codes = []
            for client in clients:
                for _ in range(5):
                    reply = await client.request({"type": "create", "settings": {}},
                                                 ("state", "error"))
                    if reply["type"] == "error":
                        assert reply["code"] in ("create_limited", "too_many_rooms")
                    else:
                        codes.append(client.room or "")
            await asyncio.gather(*(client.close() for client in clients))
            return codes

        codes = run(scenario())
        assert len(codes) == 10 and len(server.manager.rooms) == 10


def test_empty_lobbies_expire_within_minutes(tmp_path: Path) -> None:
    assert Limits().lobby_expiry_seconds <= 600
    db = tmp_path / "rooms.sqlite3"
    limits = loopback_limits(lobby_expiry_seconds=0.3, sweep_seconds=0.1)
    with ServerThread(db, limits=limits) as server:
        async def scenario() -> tuple[str, str, str]:
            left = await create_room(server.ws_url)
            await left.close()
            staying = await create_room(server.ws_url)
            playing = await create_room(server.ws_url, seats=2, bots=["random"])
            await playing.request({"type": "start"}, "state")
            await playing.close()
            await asyncio.sleep(1.0)  # more than the expiry: the lobby with its host stays
            deadline = asyncio.get_running_loop().time() + 20
            while left.room in server.manager.rooms:  # the empty one goes (a loaded machine)
                assert asyncio.get_running_loop().time() < deadline, "the empty lobby stayed"
                await asyncio.sleep(0.05)
            assert await alive(staying)
            await staying.close()
            return left.room or "", staying.room or "", playing.room or ""

        left, staying, playing = run(scenario())
        assert left not in server.manager.rooms
        assert staying in server.manager.rooms and playing in server.manager.rooms
    assert left not in SqliteStorage(db).load_rooms()  # not back after a restart


def test_room_codes_are_hard_to_guess_and_lookups_are_limited() -> None:
    bits = CODE_LENGTH * (len(CODE_ALPHABET).bit_length() - 1)
    assert bits >= 40  # 1,000 rooms, 30 guesses a minute: one hit in ~70 years
    limits = Limits(lookups_per_address=(30, 30.0), messages_per_second=1000, message_burst=1000)
    with ServerThread(limits=limits) as server:
        async def scenario() -> list[str]:
            guesser = await Client.connect(server.ws_url)
            codes = []
            for guess in range(60):
                reply = await guesser.request({"type": "watch", "room": f"AAAA{guess:04d}"},
                                              "error")
                codes.append(reply["code"])
            await guesser.close()
            return codes

        codes = run(scenario())
        assert codes[:30] == ["no_room"] * 30
        assert set(codes[30:]) == {"lookup_limited"}


# ---------------------------------------------------------------- 6. corruption


def test_a_damaged_room_does_not_stop_the_others(tmp_path: Path,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "rooms.sqlite3"
    with ServerThread(db) as server:
        async def scenario() -> list[str]:
            codes = []
            for _ in range(4):
                host = await create_room(server.ws_url, seats=2, bots=["random"])
                await host.request({"type": "start"}, "state")
                await asyncio.sleep(0.3)
                codes.append(host.room or "")
                await host.close()
            return codes

        good, not_json, tampered, unknown = run(scenario())
    store = sqlite3.connect(db, isolation_level=None)
    store.execute("UPDATE rooms SET data = '{\"name\": ' WHERE code = ?", (not_json,))
    for code, seat, move in ((tampered, 7, "draw"), (unknown, 0, "fly away")):
        store.execute("INSERT INTO moves SELECT ?, 1, COUNT(*), ?, ? FROM moves WHERE room = ?",
                      (code, seat, move, code))
    store.close()
    caplog.set_level(logging.WARNING)
    with ServerThread(db) as server:
        assert set(server.manager.rooms) == {good}
        assert set(server.manager.unrestored) == {not_json, tampered, unknown}
        said = [r.getMessage() for r in caplog.records if "could not be restored" in r.getMessage()]
        assert len(said) == 3 and all("kept aside" in line for line in said)
    store = sqlite3.connect(db)
    aside = dict(store.execute("SELECT code, data FROM rooms_aside").fetchall())
    assert set(aside) == {not_json, tampered, unknown}
    assert aside[not_json] == '{"name": '  # kept exactly as it was
    moves = {code for (code,) in store.execute("SELECT DISTINCT room FROM moves_aside")}
    assert {tampered, unknown} <= moves
    store.close()
    with ServerThread(db) as server:  # the next start is quiet about them: they are aside
        assert set(server.manager.rooms) == {good} and server.manager.unrestored == {}


def test_a_corrupted_page_loses_only_its_room(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite3"
    store = SqliteStorage(db)
    store.save_room("GOODROOM", {"name": "fine"})
    store.save_room("BADPAGES", {"name": "big", "filler": "Q" * 20_000})  # overflow pages
    store.close()
    data = bytearray(db.read_bytes())
    page_size = struct.unpack(">H", data[16:18])[0]
    hit = data.rfind(b"Q" * 64)  # an overflow page (the table's leaf page holds both rooms)
    start = hit - hit % page_size
    data[start:start + page_size] = b"\xff" * page_size
    db.write_bytes(bytes(data))
    unreadable: dict[str, str] = {}
    rooms = SqliteStorage(db).load_rooms(unreadable)
    assert rooms == {"GOODROOM": {"name": "fine"}}
    assert list(unreadable) == ["BADPAGES"]


# ---------------------------------------------------------------- 7. input that raised


def test_bad_bots_and_undealable_settings_are_refused(caplog: pytest.LogCaptureFixture) -> None:
    with ServerThread() as server:
        async def scenario() -> None:
            client = await Client.connect(server.ws_url)
            for bots in ([[1]], [{}], [None], "easy", [1.5]):
                error = await client.request({"type": "create", "bots": bots,
                                              "settings": {}}, "error")
                assert error["code"] == "bad_level", bots
            for settings in ({"seats": 10, "rules": {"hand_size": 20}},
                             {"seats": 6, "rules": {"hand_size": 19}}):
                error = await client.request({"type": "create", "settings": settings},
                                             "error")
                assert error["code"] == "bad_settings", settings
            assert server.manager.rooms == {}
            await client.request({"type": "create", "settings": {
                "seats": 10, "rules": {"hand_size": 11}}}, "state")
            await client.close()

        run(scenario())
    assert tracebacks(caplog) == []


def _raw_frame(opcode: int, payload: bytes) -> bytes:
    mask = b"\x01\x02\x03\x04"
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked


def _raw_socket(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                 b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                 b"Sec-WebSocket-Version: 13\r\n\r\n")
    assert b"101" in sock.recv(4096).split(b"\r\n")[0]
    return sock


def test_invalid_utf8_and_leaving_mid_send_log_no_traceback(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    with ServerThread() as server:
        # uvicorn's Config set up its loggers afresh (their handlers too): hear them again
        logging.getLogger("uvicorn").addHandler(caplog.handler)
        sock = _raw_socket(server.port)
        sock.sendall(_raw_frame(0x1, b'{"type": "\xff\xfe"}'))
        sock.settimeout(5)
        with pytest.raises(OSError):
            while sock.recv(4096):
                pass
            raise OSError("closed")
        sock.close()

        async def scenario() -> None:
            host = await create_room(server.ws_url, seats=4, bots=["random"] * 3)
            await host.request({"type": "start"}, "state")
            playing = asyncio.create_task(autoplay(host, seed=1, deal=True, timeout=30))
            # Watchers that vanish without a close frame while the game goes on.
            watch = _raw_frame(0x1, json.dumps({"type": "watch", "room": host.room}).encode())
            for _ in range(40):
                leaver = _raw_socket(server.port)
                leaver.sendall(watch)
                await asyncio.sleep(0.02)
                leaver.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                leaver.close()  # a reset: the server's next send fails
            playing.cancel()
            with contextlib.suppress(BaseException):  # the test's own task, not the server
                await playing
            assert await alive(host)
            await host.close()

        run(scenario())
    assert tracebacks(caplog) == []


# ---------------------------------------------------------------- 8. the deal's secret


def test_the_deal_seed_has_128_bits_and_replays_exactly() -> None:
    with ServerThread() as server:
        async def scenario() -> str:
            host = await create_room(server.ws_url, seats=3, bots=["random", "random"])
            await host.request({"type": "start"}, "state")
            await autoplay(host, seed=1, until=lambda m: m["version"] >= 5, timeout=30)
            await host.close()
            return host.room or ""

        code = run(scenario())

        def read(room: Room, moves: list[tuple[int, str]]) -> tuple[int, Any, Any]:
            assert room.game is not None
            return room.game_seed, json.loads(json.dumps(room.game.record())), room.game.view(0)

        seed, record, view = server.at_rest(code, read)  # the bots have stopped
        assert seed >= 2**64  # fails with probability 2**-64
        again = replay(record)
        assert again.view(0) == view and again.seed == seed


# ---------------------------------------------------------------- the fuzz

FUZZ_EXAMPLES = 40
FUZZ_TYPES = ["create", "join", "resume", "watch", "start", "add_bot", "remove", "move",
              "next_round", "hand_to_bot", "rematch", "bogus", "__init__", "handle_text", ""]


def _json_values() -> Any:
    from hypothesis import strategies as st

    odd = st.sampled_from(["\ud800", "a\udfffb", "Bot 1", "<svg onload=P=1>", "\u202e", "",
                           " " * 30, "\u200b", "🤖"])
    scalars = (st.none() | st.booleans() | st.integers(-2**70, 2**70)
               | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=30) | odd)
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                        max_leaves=8)


def _messages(codes: list[str], versions: list[int]) -> Any:
    from hypothesis import strategies as st

    from unogame.bots import BOT_LEVELS
    from unogame.engine import Rules

    any_json = _json_values()
    rule_names = list(Rules().__dataclass_fields__)
    fields = {
        "room": st.sampled_from([*codes, codes[0].lower(), "ZZZZZZZZ", "AB CD-12"]) | any_json,
        "name": st.text(max_size=40) | any_json,
        "token": st.text(max_size=30) | any_json,
        "move": st.sampled_from(["draw", "pass", "uno", "play R5", "play W R", "catch 1",
                                 "challenge", "accept", "color R", "play WS 0"]) | any_json,
        "version": st.sampled_from(versions) | any_json,
        "seat": st.integers(-2, 12) | any_json,
        "level": st.sampled_from([*BOT_LEVELS, "godlike"]) | any_json,
        "settings": st.just({}) | st.fixed_dictionaries({}, optional={
            "seats": st.integers(0, 12) | any_json, "timer": st.integers(-1, 700) | any_json,
            "name": st.text(max_size=30) | any_json,
            "rules": st.dictionaries(st.sampled_from(rule_names),
                                     st.integers(-1, 30) | st.booleans() | any_json,
                                     max_size=5) | any_json}) | any_json,
        "bots": st.lists(st.sampled_from(list(BOT_LEVELS)) | any_json, max_size=5) | any_json,
    }
    message = st.builds(lambda kind, rest: {"type": kind, **rest}, st.sampled_from(FUZZ_TYPES),
                        st.fixed_dictionaries({}, optional=fields))
    raw = st.sampled_from(["{", "[]", "null", '{"type": 5}', '{"type": "join", "room": '
                           '"\\ud800"}', "x" * 5000, "[" * 500 + "]" * 500]) | st.text(max_size=50)
    return st.lists(st.one_of(message.map(json.dumps), raw), min_size=25, max_size=35)


def _snapshot(server: ServerThread) -> dict[str, Any]:
    return {code: (room.status, room.version, room.game_no, room.host, room.name,
                   room.capacity, room.timer, dict(room.rules_dict),
                   [(seat.name, seat.kind, seat.level, seat.token_hash) for seat in room.seats])
            for code, room in list(server.manager.rooms.items())}


@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisDeprecationWarning")
def test_a_protocol_fuzz_breaks_nothing(caplog: pytest.LogCaptureFixture) -> None:
    """Over a thousand forged messages: no server error, no traceback, no other client's
    connection closed, and a refused message changes nothing."""
    from hypothesis import HealthCheck, given, settings
    from websockets.sync.client import connect

    caplog.set_level(logging.INFO)
    limits = loopback_limits(messages_per_second=1e6, message_burst=10**6)
    frozen = Timing(think=1000.0, reaction_scale=1000.0)  # nothing moves by itself
    with ServerThread(timing=frozen, limits=limits) as server:
        async def setup() -> tuple[list[Client], list[str], list[int]]:
            host = await create_room(server.ws_url, seats=3, bots=["random"])
            guest = await join(server.ws_url, host.room or "", "Guest")
            await host.request({"type": "start"}, "state")
            lobby = await create_room(server.ws_url, seats=4)
            watcher = await Client.connect(server.ws_url)
            await watcher.request({"type": "watch", "room": host.room}, "state")
            version = room_of(server, host.room or "").version
            return [host, guest, lobby, watcher], [host.room or "", lobby.room or ""], \
                [version, version - 1, 0]

        loop = asyncio.new_event_loop()  # the victims keep reading while the attack runs
        reader = threading.Thread(target=loop.run_forever, daemon=True)
        reader.start()
        victims, codes, versions = asyncio.run_coroutine_threadsafe(setup(), loop).result(30)
        sent = 0
        refused = 0

        @settings(max_examples=FUZZ_EXAMPLES, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        @given(_messages(codes, versions))
        def attack(batch: list[str]) -> None:
            nonlocal sent, refused
            with connect(server.ws_url, max_size=2**22) as ws:
                for text in batch:
                    before = _snapshot(server)
                    ws.send(text)
                    ws.send('{"type": "ping"}')
                    replies = []
                    while (reply := json.loads(ws.recv(timeout=10)))["type"] != "pong":
                        replies.append(reply)
                    sent += 1
                    codes_seen = [r.get("code") for r in replies if r["type"] == "error"]
                    assert "server_error" not in codes_seen, (text, replies)
                    if replies and all(r["type"] == "error" for r in replies):
                        refused += 1
                        assert _snapshot(server) == before, (text, replies)

        switch = sys.getswitchinterval()
        sys.setswitchinterval(0.0002)  # four threads hand each message along: hand it fast
        try:
            attack()
        finally:
            sys.setswitchinterval(switch)

        async def check() -> None:
            for victim in victims:
                assert await alive(victim)
                assert not [m for m in victim.messages if m.get("code") == "replaced"]
                await victim.close()

        asyncio.run_coroutine_threadsafe(check(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        reader.join(5)
    assert sent >= 1000 and refused >= 500, (sent, refused)
    assert tracebacks(caplog) == []
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


# ---------------------------------------------------------------- 5. storage faults

LOCKER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
db.execute("ROLLBACK")
"""


async def _respond(client: Client) -> None:
    """A person who plays (and deals the next round) whenever it is up to them, and tries
    again when a move was not saved; it never acts for anyone else."""
    acted: dict[int, float] = {}
    loop = asyncio.get_running_loop()
    while True:
        await asyncio.sleep(0.05)
        try:
            game = client.game()
        except LookupError:
            continue
        version = game["version"]
        if loop.time() - acted.get(version, -9.0) < 0.5 or game["view"] is None:
            continue
        if game["status"] == "round_over":
            await client.send({"type": "next_round", "version": version})
        elif game["status"] == "playing" and game["view"]["turn"] == client.seat \
                and game["legal"]:
            move = next((m for m in game["legal"] if not m.startswith("catch")),
                        game["legal"][0])
            await client.send({"type": "move", "move": move, "version": version})
        acted[version] = loop.time()


async def _bot_room(server: ServerThread) -> tuple[str, Client, Client, asyncio.Task[None]]:
    """A room of bots and one person who only acts on their own turn; returns the code, a
    spectator watching from the start, the person and their playing task."""
    host = await create_room(server.ws_url, seats=3, bots=["random", "random"])
    await host.request({"type": "start"}, "state")
    playing = asyncio.create_task(_respond(host))
    watcher = await Client.connect(server.ws_url)
    await watcher.request({"type": "watch", "room": host.room}, "state")
    await watcher.wait_for(lambda m: m["type"] == "update", timeout=15)
    return host.room or "", watcher, host, playing


async def _done(*clients: Client, task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(BaseException):
        await task
    for client in clients:
        await client.close()


def _logged_everything(server: ServerThread, code: str, *clients: Client) -> None:
    """No move lost, nothing shown that was not stored. Read once the room has stopped by
    itself (its person gone: no bot thinking, nothing being stored), on the server's loop:
    the room applied exactly its stored log, and every position the clients were shown is
    the stored game at that version."""
    def read(room: Room, moves: list[tuple[int, str]]) -> tuple[int, dict[int, Any]]:
        assert room.game is not None
        return room.log_length, stored_games(room, moves)

    length, games = server.at_rest(code, read)
    assert len(games) - 1 == length, (length, len(games) - 1)
    assert check_shown_was_stored(games, *clients) > 0


def test_a_locked_database_stalls_neither_the_loop_nor_the_bots(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite3"
    with ServerThread(db, timing=Timing(think=0.05)) as server:
        async def scenario() -> None:
            code, watcher, host, playing = await _bot_room(server)
            pinger = await Client.connect(server.ws_url)
            locker = await asyncio.create_subprocess_exec(
                sys.executable, "-c", LOCKER, str(db), "4", stdout=asyncio.subprocess.PIPE)
            assert locker.stdout is not None
            assert (await locker.stdout.readline()).strip() == b"locked"
            during = {client: len(client.messages) for client in (watcher, host)}
            slowest = 0.0
            while locker.returncode is None:  # the lock is held for four seconds
                started = asyncio.get_running_loop().time()
                await pinger.request({"type": "ping"}, "pong")
                slowest = max(slowest, asyncio.get_running_loop().time() - started)
                await asyncio.sleep(0.1)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(locker.wait(), 0.01)
            assert slowest < 0.5, f"a ping took {slowest:.2f} s while the file was locked"
            # A bot's unsaved move is told to everyone, a person's to that person.
            said = [m for client, mark in during.items() for m in client.messages[mark:]
                    if m.get("code") == "not_saved"]
            assert said, "the players were not told that the game could not be saved"
            # Nobody connects; the bots go on by themselves once the lock is gone.
            after = len(watcher.messages)
            await watcher.wait_for(lambda m: m["type"] == "update", timeout=5, start=after)
            await _done(pinger, watcher, host, task=playing)
            _logged_everything(server, code, watcher, host)

        run(scenario())


def _mount_small_disk(path: Path) -> bool:
    path.mkdir()
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(path)],
                              capture_output=True, check=False)
    except OSError:
        return False
    return done.returncode == 0


def test_a_full_disk_says_not_saved_and_loses_nothing(tmp_path: Path) -> None:
    disk = tmp_path / "small"
    if not _mount_small_disk(disk):
        pytest.skip("needs root to mount a 1 MiB tmpfs (a real full disk)")
    try:
        db = disk / "rooms.sqlite3"
        with ServerThread(db, timing=Timing(think=0.05)) as server:
            async def scenario() -> None:
                code, watcher, host, playing = await _bot_room(server)
                filler = disk / "filler"
                with filler.open("wb", buffering=0) as out, contextlib.suppress(OSError):
                    while True:
                        out.write(b"\0" * 4096)
                # A bot's move that cannot be stored is announced to everyone; a person's
                # only to that person: whichever comes first, someone hears "not saved".
                marks = {client: len(client.messages) for client in (watcher, host)}
                deadline = asyncio.get_running_loop().time() + 20
                while not any(m.get("code") == "not_saved"
                              for client, mark in marks.items()
                              for m in client.messages[mark:]):
                    assert asyncio.get_running_loop().time() < deadline, "nobody heard not_saved"
                    await asyncio.sleep(0.05)
                guest = await Client.connect(server.ws_url)
                error = await guest.request({"type": "create", "settings": {}}, "error")
                assert error["code"] == "not_saved"
                filler.unlink()  # space comes back: the room goes on by itself
                after = len(watcher.messages)
                await watcher.wait_for(lambda m: m["type"] == "update", timeout=10,
                                       start=after)
                await _done(guest, watcher, host, task=playing)
                _logged_everything(server, code, watcher, host)

            run(scenario())
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


# ---------------------------------------------------------------- 1. the page itself


def test_the_page_builds_markup_only_through_the_escaping_template() -> None:
    """Every piece of markup in the page's modules comes from html`...`, which escapes what
    it is given (the browser test shows it with hostile names); nothing else writes HTML.
    The one place markup becomes elements is html.js's toNodes (a template element); the
    card drawings (cards.js) are this project's own SVG, made from card codes only."""
    import re

    from unogame.server.app import STATIC_DIR

    modules = sorted(STATIC_DIR.glob("*.js"))
    assert len(modules) > 10  # the page is split into modules; each is checked
    writers = re.compile(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|"
                         r"createContextualFragment|DOMParser|srcdoc")
    for path in modules:
        source = path.read_text(encoding="utf-8")
        found = writers.findall(source)
        if path.name == "html.js":
            assert found == ["innerHTML"] and "template.innerHTML = piece(value)" in source
        else:
            assert found == [], (path.name, found)
        if path.name != "cards.js":  # a template literal that starts markup is html`...`
            assert re.findall(r"(?<!html)`\s*<", source) == [], path.name
        assert len(source.splitlines()) <= 400, f"{path.name} is past 400 lines"
