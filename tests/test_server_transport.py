"""The transport's cost per frame (issue 22): a frame the socket takes is written at once,
with no task per connection waiting to send and no task woken per frame; a client's socket
is not stopped and restarted around every message it sends; a client that does not read
still gets its messages in order until its bound, then is dropped (test_server_costs.py)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from test_server_support import (
    Client,
    ServerThread,
    autoplay,
    create_room,
    join,
    loopback_limits,
    run,
)

from unogame.server.connections import QUEUED_MESSAGES, DirectWebSocketProtocol


class CountingProtocol(DirectWebSocketProtocol):
    """The real protocol, counting how often it stops reading its socket."""

    pauses = 0

    def send_receive_event_to_app(self) -> None:
        before = self.read_paused
        super().send_receive_event_to_app()
        if self.read_paused and not before:
            type(self).pauses += 1


def _server_tasks(server: ServerThread) -> int:
    async def count() -> int:
        return len(asyncio.all_tasks())

    return int(server.submit(count).result(5))


def _writers(server: ServerThread) -> list[Any]:
    async def writers() -> list[Any]:
        return [conn.writer_task for conn in server.app.state.server.connections]

    return list(server.submit(writers).result(5))


def test_frames_go_straight_to_the_socket_with_no_writer_task_per_connection() -> None:
    """Four players finish a match: every frame arrives in order, and afterwards no
    connection holds a task waiting to send (before: one writer task per connection, each
    woken for every frame)."""
    with ServerThread() as server:
        async def scenario() -> None:
            host = await create_room(server.ws_url, seats=4)
            guests = [await join(server.ws_url, host.room or "", f"G{n}") for n in range(3)]
            idle_tasks = _server_tasks(server)
            await host.request({"type": "start"}, "state")
            players = [host, *guests]
            await asyncio.gather(*(autoplay(player, seed, deal=True,
                                            until=lambda m: len(m.get("results", [])) >= 1)
                                   for seed, player in enumerate(players)))
            versions = [m["version"] for m in host.messages if m.get("type") == "update"]
            assert versions == sorted(versions) and len(versions) > 20
            assert _writers(server) == [None] * 4  # nothing waits to be sent
            # the server's tasks: the same with four clients playing as idle, i.e. about
            # one per connection (its reader), none per frame or per connection's writer
            assert _server_tasks(server) <= idle_tasks + 2, (idle_tasks, _server_tasks(server))
            for player in players:
                await player.close()

        run(scenario())


def test_a_clients_socket_is_not_stopped_around_each_message() -> None:
    """A client sending one message at a time: the server reads on (before: it stopped
    reading the socket after every message and started again once the app took it, two
    epoll changes a message)."""
    CountingProtocol.pauses = 0
    with ServerThread(ws_protocol=CountingProtocol) as server:
        async def scenario() -> None:
            client = await Client.connect(server.ws_url)
            for _ in range(20):
                await client.request({"type": "ping"}, "pong")
            # a burst: more than QUEUED_MESSAGES waiting for the app at once may pause it
            for _ in range(3 * QUEUED_MESSAGES):
                await client.send({"type": "ping"})
            await client.wait_for(lambda m: m["type"] == "pong", start=20 + 3 * QUEUED_MESSAGES - 1)
            await client.close()

        run(scenario())
    assert CountingProtocol.pauses <= 3, CountingProtocol.pauses


def test_a_frame_written_at_once_is_the_frame_websockets_writes() -> None:
    """The direct write builds the text frame itself: the same bytes as ``websockets``
    (unmasked, final, each length form)."""
    from websockets.frames import Frame, Opcode

    from unogame.server.connections import text_frame

    for size in (0, 1, 125, 126, 127, 65_535, 65_536, 70_000):
        payload = ("ก" * size).encode()[:size]
        assert text_frame(payload) == Frame(Opcode.TEXT, payload, True).serialize(
            mask=False, extensions=[]), size


def test_messages_are_encoded_as_the_standard_library_would() -> None:
    """``hub.encode`` (orjson) gives the text ``json.dumps`` gave, and what orjson refuses
    still encodes."""
    import json

    from unogame.server.hub import encode

    samples: list[dict[str, Any]] = [
        {"type": "update", "version": 12, "view": {"hands": [7, ["R1", "W+4"]],
                                                   "pending": None}, "timer_left": 12.5,
         "events": [{"kind": "say", "seat": 0, "name": "สมชาย 🎉", "ok": True}]},
        {"type": "room", "name": 'a "quoted" \\ name\n', "seats": [], "empty": {}},
        {"big": 2 ** 100, "list": [1, 2.0, -3]},  # past 64 bits: the standard library's
        {"keys": {1: "one"}},  # a key that is not text: the standard library's
    ]
    for message in samples:
        assert encode(message) == json.dumps(message, ensure_ascii=False,
                                             separators=(",", ":"))


class PingCounting(DirectWebSocketProtocol):
    """The real protocol, counting the keepalive pings it sends."""

    pings = 0

    def send_keepalive_ping(self) -> None:
        before = self.pending_ping_payload
        super().send_keepalive_ping()
        if self.pending_ping_payload is not None and self.pending_ping_payload != before:
            type(self).pings += 1


def test_a_client_heard_within_the_ping_interval_is_not_pinged() -> None:
    """The keepalive pings a client that sends (a page's beat every 2 s) only once in
    PINGED_ANYWAY intervals, not every interval; once it falls silent it is pinged every
    interval again, and a client that answers stays connected (before: every connection
    pinged every interval)."""
    from unogame.server.connections import PINGED_ANYWAY

    PingCounting.pings = 0
    with ServerThread(ws_protocol=PingCounting, ws_ping=(0.5, 1.0)) as server:
        async def scenario() -> None:
            client = await Client.connect(server.ws_url)
            started = time.monotonic()
            while time.monotonic() - started < 0.5 * PINGED_ANYWAY - 0.4:  # heard every 0.2 s
                await client.request({"type": "ping"}, "pong")
                await asyncio.sleep(0.2)
            assert PingCounting.pings == 0  # 3 intervals talking: no ping
            while time.monotonic() - started < 2 * 0.5 * PINGED_ANYWAY:  # 4 s in all
                await client.request({"type": "ping"}, "pong")
                await asyncio.sleep(0.2)
            assert 1 <= PingCounting.pings <= 2  # once in 4 intervals (was 8 here)
            talking = PingCounting.pings
            await asyncio.sleep(2.0)  # silent: pinged each interval, answered by the library
            assert PingCounting.pings >= talking + 2
            await client.request({"type": "ping"}, "pong")
            await client.close()

        run(scenario())


def _raw_websocket(port: int) -> Any:
    """A socket through the WebSocket handshake, read and written by hand."""
    import socket

    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                 b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                 b"Sec-WebSocket-Version: 13\r\n\r\n")
    sock.settimeout(5)
    assert b"101" in sock.recv(4096).split(b"\r\n")[0]
    return sock


def _masked_text(payload: bytes) -> bytes:
    """A client's final text frame (masked, as RFC 6455 wants from a client)."""
    mask = b"\x01\x02\x03\x04"
    return (bytes([0x81, 0x80 | len(payload)]) + mask
            + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def test_a_client_that_talks_but_never_answers_a_ping_is_closed() -> None:
    """A client whose messages come but whose pongs never do (a link dead one way, a client
    that ignores pings): closed within PINGED_ANYWAY intervals and the timeout."""

    with ServerThread(ws_ping=(0.5, 1.0)) as server:
        sock = _raw_websocket(server.port)
        started = time.monotonic()
        frame = _masked_text(b'{"type":"ping","beat":true}')
        closed_after = None
        while time.monotonic() - started < 8:  # beats every 0.2 s, never a pong
            try:
                sock.sendall(frame)
            except OSError:
                closed_after = time.monotonic() - started
                break
            time.sleep(0.2)
        sock.close()
    assert closed_after is not None and closed_after <= 2.0 + 1.0 + 1.5, closed_after


def test_a_link_gone_silent_after_talking_is_closed_within_interval_and_timeout() -> None:
    """A client that sent messages and then holds everything (no pong): closed within the
    interval and the timeout of the last bytes it sent."""
    import time

    with ServerThread(ws_ping=(0.5, 1.0)) as server:
        sock = _raw_websocket(server.port)
        frame = _masked_text(b'{"type":"ping"}')
        for _ in range(5):  # talking for a second: no ping needed
            sock.sendall(frame)
            time.sleep(0.2)
        last = time.monotonic()
        received = b""
        while True:  # never answer: pongs, then the close after the timeout
            chunk = sock.recv(4096)
            if not chunk:
                break
            received += chunk
        closed_after = time.monotonic() - last
        sock.close()
    assert b"\x89\x04" in received  # a ping came (4-byte payload), unanswered
    assert 1.0 <= closed_after <= 3.0, closed_after


def _count_handled(server: ServerThread) -> list[str]:
    """The texts the app's reading path handles from now on (``Server.handle_text``)."""
    handled: list[str] = []
    app_server = server.app.state.server
    handle = app_server.handle_text

    async def counting(conn: Any, text: str) -> None:
        handled.append(text)
        await handle(conn, text)

    app_server.handle_text = counting
    return handled


@pytest.mark.parametrize("deflate", [False, True])
def test_a_pages_beat_is_answered_where_it_arrives(deflate: bool) -> None:
    """The page's heartbeat (its exact text) is answered with a pong by the protocol, with
    no reading task woken and no parsing: the connection is marked as beating and heard;
    any other ping still goes through the app (before: every beat did). With or without
    permessage-deflate (the protocol reads the text decompressed)."""
    with ServerThread(ws_deflate=deflate) as server:
        handled = _count_handled(server)

        async def scenario() -> None:
            client = await Client.connect(server.ws_url)
            for index in range(10):
                await client.send('{"type":"ping","beat":true}')  # the page's very text
                await client.message_at(index)
                await asyncio.sleep(0.05)
            assert [m["type"] for m in client.messages] == ["pong"] * 10
            assert handled == []
            (conn,) = server.app.state.server.connections
            assert conn.beat and time.monotonic() - conn.heard < 1.0
            await client.request({"type": "ping", "beat": True}, "pong")  # json.dumps' spaces
            assert handled == ['{"type": "ping", "beat": true}']
            await client.close()

        run(scenario())


def test_beats_still_spend_the_message_allowance() -> None:
    """A client that floods beats is refused as rate_limited as for any message: the
    protocol's answer spends the same allowance."""
    with ServerThread(limits=loopback_limits(message_burst=10, messages_per_second=1.0)) \
            as server:
        async def scenario() -> None:
            client = await Client.connect(server.ws_url)
            for _ in range(30):
                await client.send('{"type":"ping","beat":true}')
            await client.wait_for(lambda m: m.get("code") == "rate_limited")
            await asyncio.sleep(0.3)
            pongs = sum(1 for m in client.messages if m["type"] == "pong")
            refused = sum(1 for m in client.messages if m.get("code") == "rate_limited")
            assert pongs <= 11 and pongs + refused == 30, (pongs, refused)
            await client.close()

        run(scenario())


def test_a_beat_never_overtakes_a_message_the_app_has_not_read() -> None:
    """Beats sent right behind other messages are answered after them, in order: a beat is
    answered at the protocol only when nothing waits for the app."""
    with ServerThread() as server:
        async def scenario() -> None:
            client = await Client.connect(server.ws_url)
            for round_no in range(20):
                await client.send({"type": "why", "card": "R1"})  # refused: no room
                await client.send('{"type":"ping","beat":true}')
                pong = await client.wait_for(lambda m: m["type"] == "pong",
                                             start=2 * round_no)
                at = next(i for i, m in enumerate(client.messages) if m is pong)
                before = client.messages[:at]
                assert sum(1 for m in before if m["type"] == "error") == round_no + 1
            await client.close()

        run(scenario())


def test_a_beat_waits_for_the_answer_to_a_message_being_handled() -> None:
    """A beat that arrives while the app handles an earlier message (here one that takes
    half a second) is answered after that message's answer, as every message is."""
    with ServerThread() as server:
        app_server = server.app.state.server

        async def slow_why(conn: Any, message: dict[str, Any]) -> None:
            await asyncio.sleep(0.5)
            conn.send({"type": "why", "slow": True})

        app_server.on_why = slow_why

        async def scenario() -> None:
            client = await Client.connect(server.ws_url)
            for round_no in range(3):
                await client.send({"type": "why", "card": "R1"})
                await asyncio.sleep(0.1)
                await client.send('{"type":"ping","beat":true}')
                await client.wait_for(lambda m: m["type"] == "pong", start=2 * round_no)
                assert [m["type"] for m in client.messages[2 * round_no:]] == ["why", "pong"]
            await client.close()

        run(scenario())
