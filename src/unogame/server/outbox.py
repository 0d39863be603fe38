"""A connection's messages waiting to be sent, bounded in bytes as well as in number.

A client that does not read (or reads too slowly) lets its messages pile up in the
server's memory. The outbox refuses a message that would take it past :data:`OUTBOX_BYTES`
(or :data:`OUTBOX_MESSAGES`) and forgets what it held: the connection is then dropped
(``clients.py``), never waited for. A text goes into the outbox only when the socket does
not take it at once (its buffer is full); most are written straight to the socket.
"""

from __future__ import annotations

import collections
from typing import Final

OUTBOX_BYTES: Final = 1 << 20
"""Bytes (UTF-8) waiting for one client before it is dropped: about 16 replay pages, or
hundreds of updates of a busy room."""
OUTBOX_MESSAGES: Final = 512
"""Messages waiting for one client before it is dropped."""


def utf8_size(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


class Outbox:
    """Texts to send, in order; ``close()`` ends it after the texts already in it."""

    __slots__ = ("_bytes", "_texts", "closed", "max_bytes", "max_messages")

    def __init__(self, max_bytes: int = OUTBOX_BYTES,
                 max_messages: int = OUTBOX_MESSAGES) -> None:
        self.max_bytes = max_bytes
        self.max_messages = max_messages
        self._texts: collections.deque[tuple[str, int]] = collections.deque()
        self._bytes = 0
        self.closed = False
        """No more texts are taken (those in it are still sent)."""

    @property
    def bytes(self) -> int:
        """Bytes waiting now."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._texts)

    def put(self, text: str) -> bool:
        """Queue ``text``; ``False`` (and the outbox emptied) if it would go over a bound."""
        if self.closed:
            return True  # closing: nothing more is sent, nothing more is kept
        size = utf8_size(text)
        if self._bytes + size > self.max_bytes or len(self._texts) >= self.max_messages:
            self.clear()
            return False
        self._texts.append((text, size))
        self._bytes += size
        return True

    def clear(self) -> None:
        self._texts.clear()
        self._bytes = 0

    def close(self) -> None:
        """No more texts: :meth:`take` gives the ones waiting, then ``None``."""
        self.closed = True

    def take(self) -> str | None:
        """The next text; ``None`` when empty."""
        if not self._texts:
            return None
        text, size = self._texts.popleft()
        self._bytes -= size
        return text


__all__ = ["OUTBOX_BYTES", "OUTBOX_MESSAGES", "Outbox", "utf8_size"]
