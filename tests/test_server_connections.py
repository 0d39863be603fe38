"""Issue 21, items 1 and 4: silent connections, connections per address, a bounded log, who
may open a WebSocket, resumes under a neighbour's lookups, seats per address, people the
host removed. Real ``uno serve`` processes (or uvicorn in a thread for the rooms' rules);
other clients come from other loopback addresses (127.0.0.x) where a test is about one
address. The issue's own sizes run with ``-m slow``."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from test_server_support import (
    Client,
    ServerProcess,
    ServerThread,
    create_room,
    free_port,
    loopback_limits,
    run,
)

WAIT = 30.0
"""The longest a test waits for something the server does by itself (a loaded machine)."""


@contextlib.contextmanager
def serve(tmp_path: Path, *extra: str, nofile: int | None = None) -> Iterator[ServerProcess]:
    """``uno serve`` with ``extra`` options; its log in ``tmp_path/server.log``."""
    process = ServerProcess(tmp_path / "games.sqlite3", free_port(), extra=list(extra),
                            log=tmp_path / "server.log", nofile=nofile)
    process.start()
    try:
        yield process
    finally:
        process.stop()


def silent_sockets(port: int, count: int, source: str, half: bool = False) -> list[socket.socket]:
    """``count`` connections from ``source`` that send nothing (or half a request line)."""
    sockets = []
    for _ in range(count):
        sock = socket.socket()
        sock.bind((source, 0))
        sock.connect(("127.0.0.1", port))
        if half:
            sock.sendall(b"GET / HT")
        sock.setblocking(False)
        sockets.append(sock)
    return sockets


def is_closed(sock: socket.socket) -> bool:
    """The server closed this socket (end of stream or reset)."""
    try:
        return sock.recv(4096) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def closed_within(sockets: list[socket.socket], seconds: float) -> list[float]:
    """When (seconds from now) each socket was closed by the server; inf: not in time."""
    start = time.monotonic()
    closed = [float("inf")] * len(sockets)
    while time.monotonic() - start < seconds and float("inf") in closed:
        for index, sock in enumerate(sockets):
            if closed[index] == float("inf") and is_closed(sock):
                closed[index] = time.monotonic() - start
        time.sleep(0.05)
    return closed


def page_loads(port: int) -> bool:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as page:
        return bool(page.status == 200 and b"<html" in page.read().lower())


async def connect_from(url: str, source: str, **options: Any) -> Client:
    ws = await websockets.connect(url, local_addr=(source, 0), max_size=2**22, **options)
    return Client(ws)


async def answers_ping(url: str, source: str = "127.0.0.1") -> bool:
    client = await connect_from(url, source)
    try:
        await client.request({"type": "ping"}, "pong", timeout=10)
        return True
    finally:
        await client.close()


def log_of(process: ServerProcess) -> str:
    assert process.log is not None
    return process.log.read_text(errors="replace")


# ---------------------------------------------------------------- 1. silent connections


def test_silent_sockets_are_closed_and_a_client_still_gets_in(tmp_path: Path) -> None:
    with serve(tmp_path) as server:  # 5 s to send a request
        silent = silent_sockets(server.port, 30, "127.0.0.2")
        halves = silent_sockets(server.port, 20, "127.0.0.3", half=True)
        assert page_loads(server.port)  # while they are open
        assert run(answers_ping(server.ws_url))
        closed = closed_within(silent + halves, WAIT)
        assert max(closed) < WAIT, f"{closed.count(float('inf'))} silent sockets still open"
        # Closed for their silence, not at once: each had its seconds.
        assert min(closed) > 0.5
        for sock in silent + halves:
            sock.close()
        # A connection that talks is not cut at the deadline: a WebSocket stays.
        async def stays() -> None:
            client = await connect_from(server.ws_url, "127.0.0.1")
            await asyncio.sleep(3)
            await client.request({"type": "ping"}, "pong")
            await client.close()

        run(stays())
    assert "Traceback" not in log_of(server)


def test_sockets_and_websockets_per_address_are_capped(tmp_path: Path) -> None:
    # 3 WebSockets per address, 6 sockets in all; silence is allowed 60 s here.
    with serve(tmp_path, "--connections-per-address", "3", "--request-timeout", "60") as server:
        held = silent_sockets(server.port, 6, "127.0.0.4")
        extra = silent_sockets(server.port, 4, "127.0.0.4")
        assert max(closed_within(extra, WAIT)) < WAIT  # refused at once
        assert closed_within(held, 1.0) == [float("inf")] * 6  # the first six stay
        # Another address is not affected, and the page loads from it.
        assert run(answers_ping(server.ws_url, "127.0.0.5"))
        for sock in held:
            sock.close()

        async def websockets_of_one_address() -> None:
            clients = [await connect_from(server.ws_url, "127.0.0.6") for _ in range(3)]
            with pytest.raises(websockets.InvalidStatus) as refused:
                await connect_from(server.ws_url, "127.0.0.6")
            assert refused.value.response.status_code == 403
            assert await answers_ping(server.ws_url, "127.0.0.7")
            await clients[0].close()  # one leaves: the next may come
            deadline = time.monotonic() + WAIT
            while True:
                try:
                    clients[0] = await connect_from(server.ws_url, "127.0.0.6")
                    break
                except websockets.InvalidStatus:
                    assert time.monotonic() < deadline
                    await asyncio.sleep(0.1)
            for client in clients:
                await client.close()

        run(websockets_of_one_address())


def test_out_of_files_the_oldest_silent_socket_makes_way_and_the_log_stays_small(
        tmp_path: Path) -> None:
    # 300 open files: far fewer than the silent sockets of 20 addresses (under their cap).
    with serve(tmp_path, "--request-timeout", "30", nofile=300) as server:
        before = len(log_of(server))
        silent = [sock for index in range(20)
                  for sock in silent_sockets(server.port, 20, f"127.0.1.{index + 2}")]
        for _ in range(3):
            assert page_loads(server.port)
            assert run(answers_ping(server.ws_url))
        time.sleep(2)  # what the accept loop says meanwhile
        closed = closed_within(silent, 1.0)
        assert sum(1 for at in closed if at < float("inf")) >= 200  # they made way
        for sock in silent:
            sock.close()
        said = log_of(server)[before:]
    assert len(said) < 4000, said[:2000]
    assert "Traceback" not in said


def test_a_resource_error_is_logged_once_per_interval() -> None:
    """asyncio's own handler reports each failed accept() with a traceback: the limiter
    turns a thousand of them into one line."""
    from unogame.server.log_limits import LogLimiter

    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    logger = logging.getLogger("asyncio")
    handler = Keep()
    logger.addHandler(handler)
    limiter = LogLimiter(interval=60.0)
    limiter.install(logger)
    loop = asyncio.new_event_loop()
    try:
        for _ in range(1000):
            loop.call_exception_handler({
                "message": "socket.accept() out of system resource",
                "exception": OSError(errno.EMFILE, "Too many open files")})
    finally:
        loop.close()
        limiter.uninstall(logger)
        logger.removeHandler(handler)
    assert len(records) == 1
    assert records[0].exc_info is None and "EMFILE" in records[0].getMessage()


def test_the_open_file_limit_is_raised_at_start(tmp_path: Path) -> None:
    import resource

    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard < 600:
        pytest.skip("needs a finite hard limit above 600")
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "unogame", "serve", "--port", str(port), "--db",
         str(tmp_path / "games.sqlite3")], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (512, hard)))
    try:
        deadline = time.monotonic() + WAIT
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                    break
            except OSError:
                assert time.monotonic() < deadline and process.poll() is None
                time.sleep(0.1)
        limits = Path(f"/proc/{process.pid}/limits").read_text()
        line = next(line for line in limits.splitlines() if line.startswith("Max open files"))
        assert line.split()[3] == str(hard), line
    finally:
        process.terminate()
        process.wait(10)


@pytest.mark.slow
def test_the_issues_sizes_1100_silent_sockets_and_900_idle_websockets(tmp_path: Path) -> None:
    """1,100 silent sockets against the usual 1,024 open files, from one address and from
    twenty; 900 idle WebSockets from one address."""
    with serve(tmp_path, nofile=1024) as server:
        before = len(log_of(server))
        for addresses in (1, 20):
            silent = [sock for index in range(1100)
                      for sock in silent_sockets(server.port, 1,
                                                 f"127.0.2.{index % addresses + 2}")]
            started = time.monotonic()
            assert page_loads(server.port)
            assert run(answers_ping(server.ws_url))
            assert time.monotonic() - started < 10
            closed = closed_within(silent, WAIT)
            assert max(closed) < WAIT
            for sock in silent:
                sock.close()

        async def idle_websockets() -> int:
            opened = []
            for _ in range(900):
                with contextlib.suppress(websockets.InvalidStatus):
                    opened.append(await websockets.connect(server.ws_url,
                                                           local_addr=("127.0.0.8", 0)))
            assert await answers_ping(server.ws_url)
            for ws in opened:
                await ws.close()
            return len(opened)

        assert run(idle_websockets()) == 32
        said = log_of(server)[before:]
    assert len(said) < 10_000, said[:2000]


# ---------------------------------------------------------------- 4. who may talk


def test_only_the_pages_own_and_configured_origins_open_a_websocket(tmp_path: Path) -> None:
    async def check(url: str, refused: list[str | None], accepted: list[str | None]) -> None:
        for origin in refused:
            with pytest.raises(websockets.InvalidStatus) as refusal:
                await connect_from(url, "127.0.0.1", origin=origin)
            assert refusal.value.response.status_code == 403, origin
        for origin in accepted:
            client = await connect_from(url, "127.0.0.1", origin=origin)
            await client.request({"type": "ping"}, "pong")
            await client.close()

    foreign = ["https://evil.example", "null", f"http://127.0.0.1:{free_port()}",
               "https://family.example"]
    with serve(tmp_path) as server:
        own = f"http://127.0.0.1:{server.port}"
        run(check(server.ws_url, foreign, [own, None]))  # None: no browser
    with serve(tmp_path, "--allow-origin", "https://family.example") as server:
        own = f"http://127.0.0.1:{server.port}"
        run(check(server.ws_url, foreign[:-1], [own, None, "https://family.example"]))


def test_behind_nginx_websockets_count_per_forwarded_address_and_its_origin_passes(
        tmp_path: Path) -> None:
    """The shipped docs/nginx.conf in front of one process that trusts it: a client's
    WebSockets count under its own address (not nginx's), and a page served through nginx
    (Origin: nginx's address and port) may open one."""
    from redis_support import Nginx

    with serve(tmp_path, "--forwarded-allow-ips", "127.0.0.1",
               "--connections-per-address", "3") as server:
        proxy = Nginx(tmp_path / "nginx", [server.port]).start()
        try:
            async def scenario() -> None:
                clients = [await connect_from(proxy.ws_url, "127.0.0.2") for _ in range(3)]
                with pytest.raises(websockets.InvalidStatus) as refused:
                    await connect_from(proxy.ws_url, "127.0.0.2")
                assert refused.value.response.status_code == 403
                page = await connect_from(proxy.ws_url, "127.0.0.3",
                                          origin=f"http://127.0.0.1:{proxy.port}")
                await page.request({"type": "ping"}, "pong")
                with pytest.raises(websockets.InvalidStatus):
                    await connect_from(proxy.ws_url, "127.0.0.3", origin="https://evil.example")
                for client in [*clients, page]:
                    await client.close()

            run(scenario())
        finally:
            proxy.stop()


def test_forwarded_allow_ips_star_is_refused_unless_asked_for(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "unogame", "serve", "--port", str(free_port()),
               "--db", str(tmp_path / "games.sqlite3"), "--forwarded-allow-ips", "*"]
    refused = subprocess.run(command, capture_output=True, text=True, timeout=WAIT,
                             env={**os.environ})
    assert refused.returncode == 2
    assert "chooses its own address" in refused.stderr and "--trust-any-proxy" in refused.stderr
    with serve(tmp_path, "--forwarded-allow-ips", "*", "--trust-any-proxy") as server:
        assert page_loads(server.port)


def test_a_resume_is_never_refused_for_a_neighbours_lookups() -> None:
    limits = loopback_limits(lookups_per_address=(3, 3.0))
    with ServerThread(limits=limits) as server:

        async def scenario() -> None:
            host = await create_room(server.ws_url, bots=["random"])
            neighbour = await Client.connect(server.ws_url)
            for _ in range(5):  # the neighbour spends the address's allowance
                await neighbour.request({"type": "watch", "room": "ZZZZZZZZ"}, "error")
            error = await neighbour.request({"type": "watch", "room": host.room}, "error")
            assert error["code"] == "lookup_limited"
            for _ in range(4):  # the player reloads: each time a new connection
                player = await Client.connect(server.ws_url)
                joined = await player.request({"type": "resume", "room": host.room,
                                               "token": host.token}, ("joined", "error"))
                assert joined["type"] == "joined" and joined["seat"] == 0, joined
                await player.close()
            # A page with a stored token joins through "join" too.
            player = await Client.connect(server.ws_url)
            joined = await player.request({"type": "join", "room": host.room,
                                           "token": host.token}, ("joined", "error"))
            assert joined["type"] == "joined" and joined["seat"] == 0, joined
            # A wrong token or code learns nothing while the allowance is spent.
            for message in ({"type": "resume", "room": host.room, "token": "nope"},
                            {"type": "resume", "room": "ZZZZZZZZ", "token": host.token}):
                await asyncio.sleep(1.1)  # one token lookup a second per connection
                error = await player.request(message, "error")
                assert error["code"] == "lookup_limited", error
            await player.close()
            await neighbour.close()
            await host.close()

        run(scenario())


def test_one_address_cannot_fill_a_lobby_and_removed_people_stay_out(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    limits = loopback_limits(joined_seats_per_address=4)

    async def join_from(url: str, source: str, room: str, name: str) -> tuple[Client, Any]:
        client = await connect_from(url, source)
        answer = await client.request({"type": "join", "room": room, "name": name},
                                      ("joined", "error"))
        return client, answer

    with ServerThread(db, limits=limits) as server:

        async def scenario() -> tuple[str, str]:
            host = await create_room(server.ws_url, seats=10)
            assert host.room is not None
            answers = [await join_from(server.ws_url, "127.0.0.3", host.room, f"X{n}")
                       for n in range(9)]
            seated = [client for client, answer in answers if answer["type"] == "joined"]
            codes = [answer.get("code") for _, answer in answers if answer["type"] == "error"]
            assert len(seated) == 5 and codes == ["address_full"] * 4  # half of 10 seats
            removed = seated[0]
            room = await host.request({"type": "remove", "seat": removed.seat}, "room")
            assert room["removed"] == 1
            await removed.wait_for(lambda m: m["type"] == "removed")
            again = await removed.request({"type": "join", "room": host.room,
                                           "name": "Back"}, ("joined", "error"))
            assert again["type"] == "error" and again["code"] == "removed_by_host"
            fresh, answer = await join_from(server.ws_url, "127.0.0.3", host.room, "New")
            assert answer["code"] == "removed_by_host"  # a new socket of that address too
            other, answer = await join_from(server.ws_url, "127.0.0.9", host.room, "Bea")
            assert answer["type"] == "joined"  # someone else is welcome
            for client in [*(c for c, _ in answers), fresh, other, host]:
                await client.close()
            assert host.token is not None
            return host.room, host.token

        code, host_token = run(scenario())
    # After a restart the room still keeps them out; the host lets them back.
    with ServerThread(db, limits=limits) as server:

        async def after_restart() -> None:
            _, answer = await join_from(server.ws_url, "127.0.0.3", code, "Again")
            assert answer["code"] == "removed_by_host"
            host = await Client.connect(server.ws_url)
            owner = await host.request({"type": "resume", "room": code,
                                        "token": host_token}, ("joined", "error"))
            assert owner["type"] == "joined"
            error = await _guest_unban(server.ws_url, code)
            assert error["code"] == "not_host"
            start = len(host.messages)
            await host.send({"type": "unban"})
            await host.wait_for(lambda m: m["type"] == "room" and m["removed"] == 0,
                                start=start)
            client, answer = await join_from(server.ws_url, "127.0.0.3", code, "Welcome")
            assert answer["type"] == "joined", answer
            await client.close()
            await host.close()

        run(after_restart())


async def _guest_unban(url: str, code: str) -> dict[str, Any]:
    guest = await connect_from(url, "127.0.0.9")
    await guest.request({"type": "watch", "room": code}, "state")
    error = await guest.request({"type": "unban"}, "error")
    await guest.close()
    return error


def test_invalid_utf8_logs_no_traceback(tmp_path: Path) -> None:
    with serve(tmp_path, "--log-level", "info") as server:
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                     b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     b"Sec-WebSocket-Version: 13\r\n\r\n")
        assert b"101" in sock.recv(4096).split(b"\r\n")[0]
        payload, mask = b'{"type": "\xff\xfe"}', b"\x01\x02\x03\x04"
        sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask
                     + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        sock.settimeout(WAIT)
        closing = sock.recv(4096)
        assert closing[:1] == b"\x88" and closing[2:4] == (1007).to_bytes(2, "big")
        sock.close()
        assert run(answers_ping(server.ws_url))
        said = log_of(server)
    assert "invalid UTF-8" in said
    assert "Traceback" not in said and "ERROR" not in said, said


def test_the_log_limiter_holds_back_repeats_only() -> None:
    """The limiter holds back repeats only: different messages all get through."""
    from unogame.server.log_limits import LogLimiter

    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record.getMessage())

    logger = logging.getLogger("log_limiter_test")
    logger.propagate = False
    logger.addHandler(Keep())
    limiter = LogLimiter(repeats=2)
    limiter.install(logger)
    for number in range(10):
        logger.warning("room %s: not saved", number)
        logger.warning(json.dumps({"different": number}))
    limiter.uninstall(logger)
    assert len(records) == 12  # the template twice, the ten different texts
