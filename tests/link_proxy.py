"""A TCP proxy that can hold a link the way a phone's Wi-Fi does: nothing is closed, nothing
gets through (issue 21, item 5).

Browsers keep an open WebSocket going through ``context.set_offline``; this proxy sits
between a client and the server instead. :meth:`LinkProxy.hold` stops forwarding (both
ways, or only the server's answers with ``answers_only``): the bytes wait in the kernel's
buffers and every socket stays open, as on a link that drops every packet. New
connections are accepted but get nowhere either. :meth:`LinkProxy.resume` lets it all
through again, in order. :data:`HIDE`, the other thing a phone does to a page: it puts it
in the background.
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading
from typing import Any

HIDE = """(hidden) => {
  Object.defineProperty(document, "visibilityState", {configurable: true,
    get: () => hidden ? "hidden" : "visible"});
  Object.defineProperty(document, "hidden", {configurable: true, get: () => hidden});
  document.dispatchEvent(new Event("visibilitychange"));
}"""
"""The Page Visibility API as a phone in the background shows it (Chromium's headless pages
are always visible): the state read by the page, and the event it listens to."""


class LinkProxy:
    """Forwards 127.0.0.1:``port`` to the server at ``target_port``, in threads."""

    def __init__(self, target_port: int) -> None:
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = int(self.listener.getsockname()[1])
        self.to_server = threading.Event()
        self.to_client = threading.Event()
        self.to_server.set()
        self.to_client.set()
        self.closed = threading.Event()
        self.sockets: list[socket.socket] = []
        self.threads: list[threading.Thread] = []
        self._start(self._accept)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def hold(self, answers_only: bool = False) -> None:
        """Stop forwarding: the server's bytes (and, unless ``answers_only``, the client's)."""
        self.to_client.clear()
        if not answers_only:
            self.to_server.clear()

    def resume(self) -> None:
        self.to_server.set()
        self.to_client.set()

    def _start(self, target: Any, *args: Any) -> None:
        thread = threading.Thread(target=target, args=args, daemon=True)
        self.threads.append(thread)
        thread.start()

    def _accept(self) -> None:
        while not self.closed.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            self.sockets += [client, server]
            self._start(self._pump, client, server, self.to_server)
            self._start(self._pump, server, client, self.to_client)

    def _pump(self, source: socket.socket, sink: socket.socket, flowing: threading.Event) -> None:
        while not self.closed.is_set():
            if not flowing.wait(0.1):
                continue  # held: nothing read, nothing closed
            try:
                ready, _, _ = select.select([source], [], [], 0.1)
                if not ready:
                    continue
                data = source.recv(65536)
                if not data:
                    break
                while not flowing.wait(0.1):  # held while it was read: it waits too
                    if self.closed.is_set():
                        return
                sink.sendall(data)
            except (OSError, ValueError):  # closed under it (the proxy is closing)
                break
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        self.closed.set()
        for sock in [self.listener, *self.sockets]:
            with contextlib.suppress(OSError):
                sock.close()
        for thread in self.threads:
            thread.join(2)

    def __enter__(self) -> LinkProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
