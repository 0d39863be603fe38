"""A real redis-server (Debian's) and a real nginx for the tests, each on a free loopback port
in a temporary directory, started and cleaned up by the test (never a fixed port)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from test_server_support import free_port, stop_process

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
NGINX_CONF = Path(__file__).resolve().parent.parent / "docs" / "nginx.conf"
"""The configuration docs/deploy.md ships; the test runs it with its ports filled in."""


def wait_until(condition: object, timeout: float, what: str, every: float = 0.05) -> None:
    """Wait for ``condition()`` to be true (generous limits: the machine may be loaded)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if condition():  # type: ignore[operator]
                return
        except Exception:  # not ready yet
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} did not happen within {timeout:g} s")
        time.sleep(every)


class RedisServer:
    """``redis-server`` with AOF on (``appendfsync always``): a restart loses nothing.
    ``options``: more ``redis-server`` options, after those (``["--appendonly", "no"]``:
    a Redis that keeps nothing, as Debian's default keeps little)."""

    def __init__(self, directory: Path, options: list[str] | None = None) -> None:
        self.directory = directory
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.options = options or []

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=5, decode_responses=True)

    def start(self) -> RedisServer:
        self.directory.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1",
             "--dir", str(self.directory), "--appendonly", "yes", "--appendfsync", "always",
             "--save", "", "--daemonize", "no", "--loglevel", "warning", *self.options],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(lambda: self.client().ping(), 20, "redis-server answering")
        return self

    def stop(self) -> None:
        stop_process(self.process)
        self.process = None

    def kill9(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(10)
        self.process = None

    def pause(self) -> None:
        """Unreachable: the process stops answering (connections hang), as a cut network."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGCONT)

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGCONT)
        self.stop()


class RoundTripCounter:
    """A TCP relay in front of a redis-server that counts round trips: a client's bytes sent
    after Redis last answered it (or first on its connection) start one more. A pipeline is
    one round trip however many commands it holds, and however the bytes are cut up on their
    way. Point a client at :attr:`url`; :meth:`close` ends the relay and its connections."""

    def __init__(self, redis_port: int) -> None:
        self.redis_port = redis_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.round_trips = 0
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = [self.listener]
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _accept(self) -> None:
        while True:
            try:
                client, _address = self.listener.accept()
            except OSError:  # closed
                return
            upstream = socket.create_connection(("127.0.0.1", self.redis_port))
            self._sockets += [client, upstream]
            answered = [True]  # this connection's client has its answer: its next send counts
            threading.Thread(target=self._relay, args=(client, upstream, answered, True),
                             daemon=True).start()
            threading.Thread(target=self._relay, args=(upstream, client, answered, False),
                             daemon=True).start()

    def _relay(self, source: socket.socket, target: socket.socket, answered: list[bool],
               asking: bool) -> None:
        while True:
            try:
                data = source.recv(65536)
            except OSError:
                data = b""
            if not data:
                with contextlib.suppress(OSError):
                    target.shutdown(socket.SHUT_WR)
                return
            with self._lock:  # counted before passing on: the answer cannot come first
                if asking and answered[0]:
                    self.round_trips += 1
                answered[0] = not asking
            try:
                target.sendall(data)
            except OSError:
                return

    def close(self) -> None:
        for sock in self._sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()


@pytest.fixture(scope="module", name="redis_server")
def redis_server_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A real redis-server for the module (AOF, appendfsync always), on a free port; a test
    module uses it by importing it."""
    with RedisServer(tmp_path_factory.mktemp("redis")) as server:
        yield server


LEASE = 3.0
"""The tests' processes' lease (and liveness) in seconds: shorter than the default 5 s so that
a room is taken over soon, long enough that a process starved by a loaded machine for a
second or two is not taken for dead (its people for gone: the lobby's host role moved away
under a starting game)."""


class ServeProcess:
    """``uno serve --redis URL`` in a subprocess on a free port."""

    def __init__(self, redis_url: str, lease: float = LEASE, bot_think: float = 0.05,
                 env: dict[str, str] | None = None, options: list[str] | None = None) -> None:
        """``env``: more environment for the process (e.g. libfaketime's); ``options``:
        more ``uno serve`` options."""
        self.redis_url = redis_url
        self.lease = lease
        self.bot_think = bot_think
        self.env = env
        self.options = options or []
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.log: Path | None = None

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self, log: Path | None = None) -> ServeProcess:
        return self.launch(log).wait_ready()

    def launch(self, log: Path | None = None) -> ServeProcess:
        """Start the process (:meth:`wait_ready` waits for it: start several, then wait)."""
        self.log = log
        output = open(log, "ab") if log is not None else subprocess.DEVNULL  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, "-m", "unogame", "serve", "--port", str(self.port),
             "--redis", self.redis_url, "--lease", str(self.lease),
             "--bot-think", str(self.bot_think), "--per-address", "100000", *self.options],
            stdout=output, stderr=output,
            env={**os.environ, **self.env} if self.env is not None else None)
        if log is not None:
            output.close()  # type: ignore[union-attr]
        return self

    def wait_ready(self, timeout: float = 60) -> ServeProcess:
        """Until /healthz answers with the link to Redis up (generous: a loaded machine)."""
        def healthy() -> bool:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"uno serve exited ({self.process.returncode})")
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz",
                                        timeout=2) as response:
                return bool(response.status == 200 and b'"redis":true' in response.read())

        deadline = time.monotonic() + timeout
        while True:
            try:
                if healthy():
                    return self
            except RuntimeError:
                raise
            except Exception:  # not listening yet
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("uno serve --redis did not become healthy")
            time.sleep(0.05)

    def kill9(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(10)

    def stop(self) -> None:
        stop_process(self.process)


@contextlib.contextmanager
def two_servers(redis_server: RedisServer, logs: Path) -> Iterator[list[ServeProcess]]:
    """Two ``uno serve --redis`` processes on one Redis, logging into ``logs``: both start
    at once, then both are waited for; both stopped at the end."""
    started: list[ServeProcess] = []
    try:
        for number in range(2):
            started.append(ServeProcess(redis_server.url).launch(logs / f"serve{number}.log"))
        for server in started:
            server.wait_ready()
        yield started
    finally:
        for server in started:
            server.stop()


class Nginx:
    """Debian's nginx with the shipped docs/nginx.conf (its upstream ports and listening
    port filled in), its own prefix, pid and logs in a temporary directory."""

    def __init__(self, directory: Path, upstream_ports: list[int]) -> None:
        self.directory = directory
        self.port = free_port()
        self.upstream_ports = upstream_ports
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def config(self) -> str:
        text = NGINX_CONF.read_text()
        servers = "\n".join(f"        server 127.0.0.1:{port};" for port in self.upstream_ports)
        start = text.index("    upstream uno {")
        end = text.index("    }", start)
        prefix = str(self.directory)
        text = text[:start] + "    upstream uno {\n" + servers + "\n" + text[end:]
        text = text.replace("listen 80;", f"listen 127.0.0.1:{self.port};")
        text = text.replace("/var/log/nginx", prefix).replace("/run/nginx.pid",
                                                                f"{prefix}/nginx.pid")
        self.access_log = self.directory / "uno-access.log"
        temporary = "".join(f"    {kind}_temp_path {prefix}/{kind.split('_')[0]};\n"
                            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        text = text.replace("http {\n", "http {\n" + temporary, 1)
        user = "user root;\n" if os.geteuid() == 0 else ""  # workers write the temp dirs
        return "daemon off;\n" + user + text

    def start(self) -> Nginx:
        self.directory.mkdir(parents=True, exist_ok=True)
        for sub in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.directory / sub).mkdir(exist_ok=True)
        conf = self.directory / "nginx.conf"
        conf.write_text(self.config())
        self.process = subprocess.Popen([NGINX, "-p", str(self.directory), "-c", str(conf)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

        def listening() -> bool:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError("nginx exited: " + (self.process.stderr.read().decode()
                                                        if self.process.stderr else ""))
            with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return True

        deadline = time.monotonic() + 20
        while True:
            try:
                if listening():
                    return self
            except RuntimeError:
                raise
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("nginx did not start listening")
            time.sleep(0.05)

    def stop(self) -> None:
        stop_process(self.process)
