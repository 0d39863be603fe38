"""Who drives a room and what other server processes did to it: one process is the
degenerate cluster.

A room asks its coordination whether this process drives it (plays its bots, stand-ins and
timers, saves the derived record) and, when a write was refused as stale, to catch up with
what was stored. :class:`LocalCoordination` is one process: it drives every room and there
is never anything to catch up with nor anyone elsewhere. Several processes sharing Redis use
:class:`~.cluster.Cluster`, which holds a room's lease and reads what the others stored.
The room manager tells the coordination which rooms this process holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .rooms import Room


class Coordination:
    """One process: it drives every room it holds, nobody else changes them."""

    shared = False
    """Other processes change the rooms too (a stale write can be caught up with)."""

    def hold(self, room: Room) -> None:
        """This process now has a copy of the room."""

    def drop(self, room: Room) -> None:
        """This process no longer has a copy of the room."""

    def drives(self, code: str) -> bool:
        """This process plays the room's bots, stand-ins and timers."""
        return True

    async def catch_up_now(self, room: Room) -> None:
        """Read the room as stored and apply what this copy missed (one process: it
        missed nothing)."""

    def elsewhere(self, code: str) -> Mapping[str, dict[str, Any]]:
        """The other processes' clients of the room, by process: per seat its connections
        (``seats``) and how many are hidden (``hidden``), and ``watchers`` (one process:
        none)."""
        return _NOBODY


_NOBODY: Mapping[str, dict[str, Any]] = {}


LocalCoordination = Coordination
"""The trivial coordination of one process."""

LOCAL = LocalCoordination()

__all__ = ["LOCAL", "Coordination", "LocalCoordination"]
