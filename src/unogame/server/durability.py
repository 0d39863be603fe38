"""Whether a Redis keeps the writes it acknowledged (checked by ``uno serve --redis`` at start).

Rooms live only in Redis. Debian's redis-server keeps its data in snapshots (no append-only
file): a crash or restart loses every change since the last one, so every room may vanish at
once. ``uno serve`` refuses such a Redis unless told ``--allow-volatile``.

What is asked: ``CONFIG GET appendonly`` and ``appendfsync``; where ``CONFIG`` is refused
(managed Redis services rename or forbid it), ``INFO persistence`` (``aof_enabled``); where
that is refused too, nothing can be told, which counts as not keeping writes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

KEEP = "turn on Redis's append-only file (appendonly yes, appendfsync always: docs/deploy.md)"
ADVICE = KEEP + ", or start with --allow-volatile to run anyway"


@dataclass
class Durability:
    """What a Redis said about keeping writes."""

    keeps_writes: bool
    problems: list[str] = field(default_factory=list)
    """Why writes may be lost altogether (refused unless ``--allow-volatile``)."""
    warnings: list[str] = field(default_factory=list)
    """Weaker guarantees worth saying (the server starts)."""


def _config(db: Any, name: str) -> str | None:
    """A configuration value, ``None`` where ``CONFIG`` is not allowed."""
    import redis

    try:
        reply = db.config_get(name)
    except redis.exceptions.ResponseError:  # renamed, disabled, or no permission
        return None
    value = reply.get(name) if isinstance(reply, dict) else None
    return str(value) if value is not None else None


def check(db: Any) -> Durability:
    """Ask the Redis behind the client ``db`` (a synchronous ``redis.Redis``, decoded
    responses) whether it keeps acknowledged writes. Connection errors are raised."""
    import redis

    appendonly = _config(db, "appendonly")
    appendfsync = _config(db, "appendfsync")
    try:
        info: dict[str, Any] | None = db.info("persistence")
    except redis.exceptions.ResponseError:
        info = None
    if appendonly is None and info is not None and "aof_enabled" in info:
        appendonly = "yes" if int(info["aof_enabled"]) else "no"
    if appendonly is None:
        return Durability(False, ["cannot tell whether Redis keeps its writes (CONFIG and "
                                  "INFO persistence are both refused)"])
    if appendonly != "yes":
        return Durability(False, ["Redis does not keep its writes (appendonly no): a crash "
                                  "or restart of Redis loses every room"])
    result = Durability(True)
    if info is not None and str(info.get("aof_last_write_status", "ok")) != "ok":
        result.keeps_writes = False
        result.problems.append("Redis's last write to its append-only file failed "
                               "(aof_last_write_status: "
                               f"{info.get('aof_last_write_status')}); is its disk full?")
    if appendfsync is None:
        result.warnings.append("cannot read Redis's appendfsync (CONFIG is refused): with "
                               "anything but 'always', a power cut loses the last changes")
    elif appendfsync != "always":
        result.warnings.append(f"Redis writes its append-only file to disk with appendfsync "
                               f"{appendfsync}: a power cut or a crash of its machine loses "
                               f"the last changes (appendfsync always loses none)")
    return result


__all__ = ["ADVICE", "KEEP", "Durability", "check"]
