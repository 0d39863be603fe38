"""Quick reactions between players: a fixed set (never free text), rate limited per seat."""

from __future__ import annotations

from typing import Final

EMOTES: Final = ("hi", "nice", "wow", "oops", "hurry", "gg")
"""The reactions a player may send (the page translates each)."""

EMOTE_GAP: Final = 2.0
"""Seconds between two reactions of one connection."""


class EmoteAllowance:
    """One reaction per :data:`EMOTE_GAP` seconds; the caller gives the time."""

    def __init__(self) -> None:
        self.last: float | None = None

    def take(self, now: float) -> bool:
        if self.last is not None and now - self.last < EMOTE_GAP:
            return False
        self.last = now
        return True
