"""The invite QR code (``/api/qr.svg``): bounded input, cached answers, made off the loop.

Making a QR code costs CPU in proportion to its data (300 emoji: about 65 ms). The data is
an invitation link (the page's own address and a room code, well under 100 bytes), so at
most :data:`QR_MAX_BYTES` bytes are accepted; an answer is kept for the next asker
(:data:`QR_CACHED` codes, least recently used dropped first), and a new one is made in one
thread of its own with at most :data:`QR_WAITING` waiting: a flood of different data costs
that thread, never the event loop.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import io
from typing import Final

import segno

from .outbox import utf8_size

QR_MAX_BYTES: Final = 200
"""The longest data (UTF-8 bytes) a QR code is made for."""
QR_CACHED: Final = 128
"""QR codes kept (a few kilobytes each)."""
QR_WAITING: Final = 4
"""QR codes that may wait to be made; more are refused (try again)."""
QR_MAKER: Final = concurrent.futures.ThreadPoolExecutor(max_workers=1,
                                                       thread_name_prefix="qr")


class QrBusy(Exception):
    """Too many QR codes are being made now."""


def make_svg(data: str) -> bytes:
    buffer = io.BytesIO()
    segno.make(data, error="m").save(buffer, kind="svg", scale=4, dark="#111", light="#fff")
    return buffer.getvalue()


class QrCodes:
    """One server's QR codes (use it on one event loop)."""

    def __init__(self, cached: int = QR_CACHED, waiting: int = QR_WAITING) -> None:
        self.cached = cached
        self.waiting = waiting
        self._cache: collections.OrderedDict[str, bytes] = collections.OrderedDict()
        self._making: dict[str, asyncio.Future[bytes]] = {}
        self.made = 0
        """QR codes made (not taken from the cache) so far."""

    @staticmethod
    def refusal(data: str) -> str | None:
        """Why ``data`` gets no QR code (``None``: it may have one)."""
        if not data or utf8_size(data) > QR_MAX_BYTES:
            return f"data: 1 to {QR_MAX_BYTES} bytes (an invitation link)"
        return None

    async def svg(self, data: str) -> bytes:
        """The QR code of ``data`` (checked with :meth:`refusal` first); raises
        :class:`QrBusy` when too many are being made."""
        svg = self._cache.get(data)
        if svg is not None:
            self._cache.move_to_end(data)
            return svg
        making = self._making.get(data)
        if making is not None:
            return await asyncio.shield(making)
        if len(self._making) > self.waiting:
            raise QrBusy("too many QR codes are being made; try again")
        future = asyncio.get_running_loop().run_in_executor(QR_MAKER, make_svg, data)
        self._making[data] = future
        try:
            svg = await asyncio.shield(future)
        finally:
            del self._making[data]
        self.made += 1
        self._cache[data] = svg
        while len(self._cache) > self.cached:
            self._cache.popitem(last=False)
        return svg


__all__ = ["QR_MAX_BYTES", "QrBusy", "QrCodes", "make_svg"]
