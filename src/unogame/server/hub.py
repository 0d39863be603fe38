"""Where a room's messages go: the seam between room logic and the clients' sockets.

A room never writes to a socket. It hands :meth:`Hub.publish` a function that builds the
message one seat (``None``: a spectator) may see; the hub delivers it to every client of
the room. :class:`LocalHub` delivers to this process's connections. Several server
processes sharing rooms would use a hub that publishes each seat's message on a Redis
channel per room, each process delivering to its own sockets.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, Protocol

import orjson


class Client(Protocol):
    """A connected client: the seat it acts for (``None``: watching) and a non-blocking send."""

    seat: int | None

    def send_text(self, text: str) -> None: ...


MessageFor = Callable[[int | None], dict[str, Any] | str]
"""The message one seat may see (``None``: a spectator), or its text already encoded."""


class Hub(ABC):
    process: str | None = None
    """This process's id among several sharing rooms (``None``: one process)."""

    @abstractmethod
    def attach(self, code: str, client: Client) -> None:
        """The client now receives the room's messages."""

    @abstractmethod
    def detach(self, code: str, client: Client) -> None:
        """The client no longer receives the room's messages."""

    @abstractmethod
    def clients(self, code: str) -> list[Client]:
        """This process's clients of the room."""

    @abstractmethod
    def publish(self, code: str, message_for: MessageFor) -> None:
        """Send every client of the room the message its seat may see."""

    def share(self, code: str, payload: dict[str, Any]) -> None:  # noqa: B027 - optional
        """Tell the room's other server processes a change that is not stored (a shared
        hub; one process has nobody to tell)."""

    def follow(self, code: str) -> None:  # noqa: B027 - optional
        """This process holds the room: it hears the other processes' changes to it."""

    def unfollow(self, code: str) -> None:  # noqa: B027 - optional
        """This process no longer holds the room."""

    def refresh_presence(self, code: str) -> None:  # noqa: B027 - optional
        """The seats of this process's clients changed: tell the other processes."""


def encode(message: dict[str, Any]) -> str:
    """``message`` as compact JSON text, non-ASCII characters as themselves: what
    ``json.dumps(message, ensure_ascii=False, separators=(",", ":"))`` gives, a tenth of
    its cost (orjson; every move encodes its update and each seat's part). What orjson
    refuses (an int past 64 bits, a key that is not text) is left to ``json``."""
    try:
        return orjson.dumps(message).decode()
    except (TypeError, orjson.JSONEncodeError):
        return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


class LocalHub(Hub):
    def __init__(self) -> None:
        self._rooms: dict[str, list[Client]] = {}

    def attach(self, code: str, client: Client) -> None:
        clients = self._rooms.setdefault(code, [])
        if client not in clients:
            clients.append(client)

    def detach(self, code: str, client: Client) -> None:
        clients = self._rooms.get(code)
        if clients and client in clients:
            clients.remove(client)
            if not clients:
                del self._rooms[code]

    def clients(self, code: str) -> list[Client]:
        return list(self._rooms.get(code, ()))

    def publish(self, code: str, message_for: MessageFor) -> None:
        texts: dict[int | None, str] = {}
        for client in self._rooms.get(code, ()):
            seat = client.seat
            text = texts.get(seat)
            if text is None:
                message = message_for(seat)
                text = texts[seat] = message if isinstance(message, str) else encode(message)
            client.send_text(text)
