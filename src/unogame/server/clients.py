"""One WebSocket client of the server: its seat, its outbox (a client that does not read is
dropped, never waited for), its message-rate allowance and its per-request gaps; and the
check that every string of a decoded message is valid Unicode."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket

from .admission import client_address
from .connections import ANSWER_BEATS, SEND_NOW
from .emotes import EmoteAllowance
from .helper import HINT_GAP, REPLAY_GAP, Gap
from .hub import encode
from .manager import Limits
from .names import is_text
from .outbox import Outbox
from .rooms import Room

log = logging.getLogger("unogame.server")
PONG = encode({"type": "pong"})
TOKEN_LOOKUP_GAP = 1.0
"""A connection whose address spent its lookups may still resume with a seat token once a
second: another client behind the same address cannot keep a player out of their seat."""


class Connection:
    """One WebSocket client: its seat, its outbox and its message-rate allowance."""

    def __init__(self, websocket: WebSocket, limits: Limits) -> None:
        self.websocket = websocket
        self.address = client_address(websocket.client.host if websocket.client else None)
        """The key of its per-address limits (IPv6: the /64; behind a proxy: forwarded)."""
        self.seats_taken: set[str] = set()
        """Rooms this connection took a seat in (one per room, a few in all)."""
        self.seat: int | None = None
        self.room: Room | None = None
        self.outbox = Outbox()
        """Texts the socket did not take at once, for the writer task."""
        self._send_now: Callable[[str], bool] | None = websocket.scope.get(SEND_NOW)
        self.limits = limits
        self.allowance = float(limits.message_burst)
        self.last = time.monotonic()
        self.overflowed = False
        self.writer_task: asyncio.Task[None] | None = None
        """Sends the outbox's texts; running only while it holds some (or to close)."""
        self.closing = False
        self.ended = False
        """The connection is over (closed by the server, dropped, a send failed)."""
        self.receiving = False
        """Its reading task waits for its next message (it handles none now)."""
        self.on_end: Callable[[], None] | None = None
        """Called once it is over: the reading stops."""
        self.beat = False
        """It pings every few seconds (the page): silence means a dead link."""
        self.hidden = False
        """Its page is hidden (the phone is in the background)."""
        self.heard = time.monotonic()
        self.emotes = EmoteAllowance()
        self.hints = Gap(HINT_GAP)
        self.replays = Gap(REPLAY_GAP)
        self.token_lookups = Gap(TOKEN_LOOKUP_GAP)
        """Room lookups with a seat token when the address's allowance is spent."""
        self._answer_beats: Callable[[Callable[[], bool] | None], None] | None = \
            websocket.scope.get(ANSWER_BEATS)
        if self._answer_beats is not None:
            self._answer_beats(self.answer_beat)

    def answer_beat(self) -> bool:
        """The page's heartbeat, answered where the protocol reads it (``Server.on_ping``'s
        answer to ``{"type": "ping", "beat": true}``, without the reading task); ``False``
        when it must go the usual way: the connection ending, its reading task busy with a
        message (the pong never comes before that message's answer), or its allowance spent
        (then refused there as ``rate_limited``)."""
        if (self.closing or self.overflowed or self.ended or not self.receiving
                or not self.rate_ok()):
            return False
        self.heard = time.monotonic()
        self.beat = True
        self.send_text(PONG)
        return True

    def send_text(self, text: str) -> None:
        """Send ``text``: straight to the socket when it takes it and nothing waits before
        it; else queued for the writer task (started then, ended when the queue is empty).
        A client that does not read is dropped, never waited for."""
        if self.closing or self.overflowed:
            return
        if self.writer_task is None and self._send_now is not None:
            try:
                if self._send_now(text):
                    return
            except Exception:  # the socket went: the writer finds out and closes it
                pass
        if not self.outbox.put(text):
            self.overflowed = True
            self.outbox.close()  # emptied already; nothing more is kept for it
            log.info("connection %s: more than %d bytes waiting to be sent; dropping it",
                     self.address, self.outbox.max_bytes)
            if self.writer_task is not None:  # it may wait on a socket that takes nothing
                self.writer_task.cancel()
            self._start_writer()
            return
        if self.writer_task is None:
            self._start_writer()

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message))

    def error(self, code: str, message: str, details: dict[str, Any] | None = None) -> None:
        self.send({"type": "error", "code": code, "message": message, **(details or {})})

    def rate_ok(self) -> bool:
        now = time.monotonic()
        self.allowance = min(float(self.limits.message_burst),
                             self.allowance + (now - self.last) * self.limits.messages_per_second)
        self.last = now
        if self.allowance < 1.0:
            return False
        self.allowance -= 1.0
        return True

    def close(self) -> None:
        """End this connection soon: what is queued is sent, then the socket is closed."""
        if self.closing:
            return
        self.closing = True
        self.outbox.close()
        if self.writer_task is None and not self.ended:
            self._start_writer()

    def _start_writer(self) -> None:
        task = self.writer_task = asyncio.ensure_future(self._write())
        task.add_done_callback(self._writer_done)

    def _writer_done(self, task: asyncio.Task[None]) -> None:
        if self.writer_task is task:
            self.writer_task = None
        if self.ended and self.on_end is not None:
            self.on_end()

    async def _write(self) -> None:
        """Send the queued texts in order; then close the socket if the connection ends
        (closing, overflowed, a failed send), else stop (the next text may go straight)."""
        while not self.overflowed:
            text = self.outbox.take()
            if text is None:
                break
            try:
                await self.websocket.send_text(text)
            except Exception as error:  # gone mid-send: this connection ends, nothing else
                log.info("connection %s: send failed (%s); closing it", self.address,
                         type(error).__name__)
                self.ended = True
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.websocket.close(1011), 1.0)
                return
        if self.overflowed or self.closing:
            self.ended = True
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.websocket.close(1008 if self.overflowed
                                                            else 1000), 1.0)

    async def finish(self) -> None:
        """The reading ended: send what is queued (up to a second), then close."""
        if self._answer_beats is not None:  # a beat now goes to no one: the app's way
            self._answer_beats(None)
        self.close()
        task = self.writer_task
        if task is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(task, 1.0)


def valid_text(message: Any) -> bool:
    """Every string of a decoded message (keys too) is valid Unicode (no lone surrogate)."""
    stack = [message]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if not is_text(value):
                return False
        elif isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return True


__all__ = ["TOKEN_LOOKUP_GAP", "Connection", "valid_text"]
