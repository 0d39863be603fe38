"""A change of a room's record that another process beat (several processes sharing Redis).

A room's record (seats, settings, status) is replaced only if nobody changed it since this
process read it. A host who presses "start" just after a guest joined through another
process would be refused (this process had not yet heard of the join): instead the room
reads what was stored (:attr:`Refreshable.refresh`), the change is checked again against it
(the new seat counts, a room started meanwhile refuses) and tried again, a few times.
Moves are not retried this way: a move made on a position that moved on is ``stale``, and
the person sees the new position.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Coroutine
from typing import Any, Concatenate, Final, ParamSpec, Protocol, TypeVar

from .coordination import Coordination
from .seats import RoomError
from .storage import StaleError

TRIES: Final = 3
"""Times a refused change is tried in all (each after reading the room again)."""

P = ParamSpec("P")
T = TypeVar("T")


class Refreshable(Protocol):
    async def refresh(self) -> None:
        """Read the room from the shared storage and apply what this copy missed."""

    @property
    def coordination(self) -> Coordination: ...

    @property
    def closed(self) -> bool: ...


R = TypeVar("R", bound=Refreshable)


def retry_stale(method: Callable[Concatenate[R, P], Coroutine[Any, Any, T]]
                ) -> Callable[Concatenate[R, P], Coroutine[Any, Any, T]]:
    """A room's record change, tried again on the room as stored when refused as stale.
    Run inside the room's change (under :func:`~.commits.one_at_a_time`)."""

    @functools.wraps(method)
    async def retrying(self: R, /, *args: P.args, **kwargs: P.kwargs) -> T:
        for attempt in range(1, TRIES + 1):
            try:
                return await method(self, *args, **kwargs)
            except StaleError:
                if not self.coordination.shared or attempt == TRIES:
                    raise
            await self.refresh()
            if self.closed:  # the room is not in storage any more
                raise RoomError("room_gone", "this room no longer exists")
        raise AssertionError("unreachable")

    return retrying


__all__ = ["TRIES", "Refreshable", "retry_stale"]
