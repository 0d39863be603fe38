"""Rooms, seats and move logs in Redis, shared by several server processes.

Every change is one atomic Lua script: a room's record is replaced only if nobody changed it
since this process read it (its ``rev``), a move is appended only if the log is exactly as
long as the version the move was made on (and the room is still in that game); the same
script publishes the change on the room's channel, so no process hears of a change that is
not stored, and a stale or repeated move is refused whichever process got it.

Keys (``{CODE}`` is a hash tag: a room's keys stay together on a Redis Cluster slot):

- ``uno:rooms``: the set of room codes;
- ``uno:room:{CODE}``: hash ``data`` (the record as JSON), ``rev``, ``game_no``, ``moves``;
- ``uno:log:{CODE}:GAME``: the game's log, entries ``"SEAT|MOVE"`` (seat -1: next round);
- ``uno:ev:{CODE}``: the room's channel (see :mod:`.redis_hub`);
- ``uno:aside:{CODE}``: a room that could not be restored, kept for someone to look at;
- ``uno:allow:KIND:ADDRESS``: a token bucket of the per-address limits.

The client is synchronous: the server calls it in its storage thread (``commits.py``).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from .storage import LogEntry, StaleError, Storage, StorageError

try:
    import redis
except ImportError:  # pragma: no cover - the [redis] extra is not installed
    redis = None  # type: ignore[assignment]

log = logging.getLogger("unogame.server")

PREFIX = "uno:"
TIMEOUT = 2.0
"""Seconds a call to Redis may take before it counts as failed (nothing stored)."""
DEADLINE = 0.75 * TIMEOUT
"""A change must reach Redis within this many seconds of being sent, or it is refused there
(before its server gives up on it, after ``TIMEOUT``)."""
CLOCK_CHECK_SECONDS = 10.0
"""How often a process reads Redis's clock again (see :class:`RedisClock`)."""

LATE = """
local now = redis.call('TIME')
if tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) > tonumber(ARGV[#ARGV]) then
  return redis.error_reply('LATE the server had given up on this change')
end
"""
"""A change reaching Redis after its deadline (the last argument: a time on Redis's own
clock, in ms) is refused: the server that sent it already told its client it was not saved
(a Redis that stopped answering, then read the change once it was resumed, must not store
it)."""

SAVE_ROOM = LATE + """
local rev = tonumber(redis.call('HGET', KEYS[1], 'rev') or '0')
if rev ~= tonumber(ARGV[3]) then
  return redis.error_reply('STALE the room was changed elsewhere')
end
rev = rev + 1
redis.call('HSET', KEYS[1], 'data', ARGV[2], 'rev', rev, 'game_no', ARGV[4])
if redis.call('HEXISTS', KEYS[1], 'moves') == 0 then redis.call('HSET', KEYS[1], 'moves', 0) end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('PUBLISH', KEYS[3], cjson.encode({k='rec', rev=rev, p=ARGV[5]}))
return rev
"""

APPEND_MOVE = LATE + """
if redis.call('HGET', KEYS[1], 'game_no') ~= ARGV[1] then
  return redis.error_reply('STALE the room is not in this game any more')
end
local n = redis.call('LLEN', KEYS[2])
if n ~= tonumber(ARGV[2]) then
  return redis.error_reply('STALE the position has moved on')
end
redis.call('RPUSH', KEYS[2], ARGV[3] .. '|' .. ARGV[4])
redis.call('HSET', KEYS[1], 'moves', n + 1)
redis.call('PUBLISH', KEYS[3], cjson.encode({k='m', g=tonumber(ARGV[1]), i=n,
                                             s=tonumber(ARGV[3]), t=ARGV[4], p=ARGV[5]}))
return n + 1
"""

DELETE_ROOM = """
local games = tonumber(redis.call('HGET', KEYS[1], 'game_no') or '0')
for game = 1, games do redis.call('DEL', ARGV[2] .. game) end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[1])
redis.call('PUBLISH', KEYS[3], cjson.encode({k='del', p=ARGV[3]}))
return 1
"""

TAKE_TOKEN = """
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local burst = tonumber(ARGV[1])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'last')
local tokens = tonumber(state[1]) or burst
local last = tonumber(state[2]) or now
tokens = math.min(burst, tokens + (now - last) * tonumber(ARGV[2]))
local ok = 0
if tokens >= 1 then tokens = tokens - 1; ok = 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'last', now)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return ok
"""


def room_key(code: str) -> str:
    return f"{PREFIX}room:{{{code}}}"


def log_key(code: str, game_no: int) -> str:
    return f"{PREFIX}log:{{{code}}}:{game_no}"


def channel(code: str) -> str:
    return f"{PREFIX}ev:{{{code}}}"


class RedisClock:
    """Redis's clock, as this process can tell it without comparing its own wall clock with
    Redis's machine's: Redis's ``TIME`` read with this process's monotonic clock around
    it. A change's deadline is then a time on Redis's clock, whatever this machine's clock
    says (a process 3 s behind once had every change refused as late).

    The reading is taken as of the moment the answer arrived, so it can only be early:
    a deadline is at most :data:`DEADLINE` after the change is sent, in Redis's time
    (earlier by the reading's round trip, the best of a few). It is read again every
    :data:`CLOCK_CHECK_SECONDS` (Redis's clock may be set), and at once after a change was
    refused as late although it came back in time (the reading was off)."""

    SAMPLES = 3

    def __init__(self, read_time: Callable[[], tuple[int, int]]) -> None:
        self._read_time = read_time
        self._offset_ms: float | None = None
        """Redis's time minus this process's monotonic time (ms), a lower bound."""
        self._read_at = 0.0

    def read(self) -> None:
        best: float | None = None
        for _ in range(self.SAMPLES):  # a reading held up on its way back is too early:
            seconds, micros = self._read_time()  # the latest of a few is the truest
            arrived = time.monotonic() * 1000
            offset = seconds * 1000 + micros / 1000 - arrived
            best = offset if best is None else max(best, offset)
        self._offset_ms = best
        self._read_at = time.monotonic()

    def deadline(self) -> int:
        """The deadline of a change sent now, in ms on Redis's clock."""
        if self._offset_ms is None or time.monotonic() - self._read_at > CLOCK_CHECK_SECONDS:
            self.read()
        assert self._offset_ms is not None
        return int(time.monotonic() * 1000 + self._offset_ms + DEADLINE * 1000)

    def forget(self) -> None:
        """Read Redis's clock again before the next deadline."""
        self._offset_ms = None


def _need_redis() -> Any:
    if redis is None:
        raise RuntimeError("the Redis backend needs the redis package: "
                           "pip install 'unogame[redis]'")
    return redis


class RedisStorage(Storage):
    """The :class:`Storage` of several server processes sharing one Redis database."""

    shared = True

    def __init__(self, url: str, process: str = "") -> None:
        module = _need_redis()
        self.url = url
        self.process = process
        """This process's id, in what it publishes (it ignores its own messages)."""
        self._db = module.Redis.from_url(url, socket_timeout=TIMEOUT,
                                         socket_connect_timeout=TIMEOUT,
                                         decode_responses=True)
        self._save = self._db.register_script(SAVE_ROOM)
        self._append = self._db.register_script(APPEND_MOVE)
        self._delete = self._db.register_script(DELETE_ROOM)
        self._take = self._db.register_script(TAKE_TOKEN)
        self.clock = RedisClock(lambda: self._call(self._db.time))
        self._revs: dict[str, int] = {}
        """The record's rev this process last read or wrote, per room."""
        self._on_stale: Callable[[str], None] | None = None
        """See :meth:`tell_stale`."""
        self._call(self._db.ping)
        # a group's scripts go by their hash alone (``_queue``): Redis must have this one
        self._call(self._db.script_load, APPEND_MOVE)

    def _call(self, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return call(*args, **kwargs)
        except redis.exceptions.ResponseError as error:
            if str(error).startswith("STALE"):
                raise StaleError(str(error)) from None
            raise StorageError(f"Redis: {error}") from error
        except redis.exceptions.RedisError as error:
            raise StorageError(f"Redis: {type(error).__name__}: {error}") from error

    def _change(self, script: Callable[..., Any], keys: list[str], args: list[Any]) -> Any:
        """Run a change's script with its deadline on Redis's clock (the last argument).
        Refused as late although it came back within the deadline: the reading of Redis's
        clock was off (its clock was set, or this process was held up while reading it),
        so it is read again and the change, not stored, sent once more."""
        deadline = self.clock.deadline()
        sent = time.monotonic()
        try:
            return self._call(script, keys=keys, args=[*args, deadline])
        except StorageError as error:
            # Redis ran it less than DEADLINE after it was sent: it cannot be late, unless
            # the deadline was wrong
            if not str(error).startswith("Redis: LATE") \
                    or time.monotonic() - sent >= DEADLINE - 0.05:
                raise
        self.clock.forget()
        log.info("a change was refused as late in time; Redis's clock read again")
        return self._call(script, keys=keys, args=[*args, self.clock.deadline()])

    def tell_stale(self, callback: Callable[[str], None] | None) -> None:
        """From now on, ``callback`` is called (in the storage thread) with a room's code
        when a change to it was refused as stale: the room should catch up (``None``:
        nobody is told)."""
        self._on_stale = callback

    def _stale(self, code: str, error: StaleError) -> StaleError:
        callback = self._on_stale  # read once: the loop may unset it meanwhile
        if callback is not None:
            callback(code)
        return error

    def known_rev(self, code: str) -> int:
        return self._revs.get(code, 0)

    # ------------------------------------------------------------ Storage

    def save_room(self, code: str, data: dict[str, Any]) -> None:
        text = json.dumps(data, ensure_ascii=False)
        try:
            rev = self._change(self._save, [room_key(code), PREFIX + "rooms", channel(code)],
                               [code, text, self._revs.get(code, 0),
                                int(data.get("game_no", 0)), self.process])
        except StaleError as error:
            raise self._stale(code, error) from None
        self._revs[code] = int(rev)

    def delete_room(self, code: str) -> None:
        self._call(self._delete, keys=[room_key(code), PREFIX + "rooms", channel(code)],
                   args=[code, log_key(code, 0)[:-1], self.process])
        self._revs.pop(code, None)

    def load_rooms(self, unreadable: dict[str, str] | None = None) -> dict[str, dict[str, Any]]:
        rooms: dict[str, dict[str, Any]] = {}
        for code in sorted(self._call(self._db.smembers, PREFIX + "rooms")):
            loaded = self.load_room(code, unreadable)
            if loaded is not None:
                rooms[code] = loaded[0]
        return rooms

    def load_room(self, code: str, unreadable: dict[str, str] | None = None
                  ) -> tuple[dict[str, Any], list[tuple[int, str]]] | None:
        """A room's record and its current game's log, read together (``None``: no such
        room, or unreadable: then it is noted in ``unreadable``)."""
        record = self._call(self._db.hgetall, room_key(code))
        if not record:
            return None
        try:
            data = json.loads(record["data"])
            if not isinstance(data, dict):
                raise ValueError("the record is not a JSON object")
            game_no = int(record.get("game_no", 0))
        except (KeyError, ValueError, TypeError, RecursionError) as error:
            if unreadable is not None:
                unreadable[code] = f"{type(error).__name__}: {error}"
            return None
        moves = self.load_moves(code, game_no) if game_no else []
        self._revs[code] = int(record.get("rev", 0))
        return data, moves

    def set_aside(self, code: str, reason: str) -> None:
        record = self._call(self._db.hgetall, room_key(code))
        self._call(self._db.hset, f"{PREFIX}aside:{{{code}}}",
                   mapping={**record, "reason": reason})
        self._call(self._db.srem, PREFIX + "rooms", code)

    def append_move(self, code: str, game_no: int, index: int, seat: int, move: str) -> None:
        refused = self.append_moves([(code, game_no, index, seat, move)])[0]
        if refused is not None:
            raise refused

    def append_moves(self, entries: Sequence[LogEntry]) -> list[Exception | None]:
        """The entries of one loop turn in one round trip: each entry's own script
        (``APPEND_MOVE``) queued in one pipeline. Not a transaction: each script is atomic
        on its own and checks its own entry (a stale or repeated one is refused, the others
        stored); Redis runs one connection's commands in the order sent. A group Redis does
        not answer is refused whole; if Redis reads it later, its deadline has passed and
        each script refuses its entry (:data:`LATE`).

        Sent again only where nothing of it was run: entries refused as late although the
        group came back in time (the reading of Redis's clock was off, as in
        :meth:`_change`), and entries whose script Redis no longer had (restarted, or
        ``SCRIPT FLUSH``): one more round trip for those, rare."""
        results: list[Exception | None] = [None] * len(entries)
        pending = list(range(len(entries)))
        reload_script = reloaded = clock_read_again = False
        while pending:
            try:
                if reload_script:
                    self._append.sha = self._call(self._db.script_load, APPEND_MOVE)
                    reload_script, reloaded = False, True
                deadline = self.clock.deadline()
                sent = time.monotonic()
                replies = self._call(self._queue(entries, pending, deadline).execute,
                                     raise_on_error=False)
            except StorageError as error:  # the link failed: none of these is stored
                for position in pending:  # one error each: each waiter raises its own
                    results[position] = StorageError(str(error))
                return results
            unloaded: list[int] = []
            late: list[int] = []
            for position, reply in zip(pending, replies, strict=True):
                if not isinstance(reply, Exception):
                    continue
                text = str(reply)
                if isinstance(reply, redis.exceptions.NoScriptError) and not reloaded:
                    unloaded.append(position)  # not run
                elif text.startswith("LATE") and not clock_read_again \
                        and time.monotonic() - sent < DEADLINE - 0.05:
                    late.append(position)  # back in time: the deadline was wrong, not run
                elif text.startswith("STALE"):
                    results[position] = self._stale(entries[position][0], StaleError(text))
                else:
                    results[position] = StorageError(f"Redis: {text}")
            if unloaded:
                reload_script = True
            if late:
                clock_read_again = True
                self.clock.forget()
                log.info("a change was refused as late in time; Redis's clock read again")
            pending = sorted(unloaded + late)  # in the order they were asked
        return results

    def _queue(self, entries: Sequence[LogEntry], positions: list[int], deadline: int) -> Any:
        """A pipeline (no MULTI/EXEC) of ``APPEND_MOVE`` for the entries at ``positions``.
        By its hash (EVALSHA) alone: a script object in a pipeline would first ask Redis
        whether it has the script, a round trip more per group."""
        pipe = self._db.pipeline(transaction=False)
        for position in positions:
            code, game_no, index, seat, move = entries[position]
            pipe.evalsha(self._append.sha, 3, room_key(code), log_key(code, game_no),
                         channel(code), game_no, index, seat, move, self.process, deadline)
        return pipe

    def load_moves(self, code: str, game_no: int) -> list[tuple[int, str]]:
        entries = self._call(self._db.lrange, log_key(code, game_no), 0, -1)
        moves = []
        for entry in entries:
            seat, _, text = str(entry).partition("|")
            moves.append((int(seat), text))
        return moves

    def close(self) -> None:
        self._db.close()

    # ------------------------------------------------------------ limits across processes

    def room_count(self) -> int:
        return int(self._call(self._db.scard, PREFIX + "rooms"))

    def allowance(self, kind: str, burst: int, per_minute: float) -> SharedAllowance:
        return SharedAllowance(self, kind, burst, per_minute)

    def take_token(self, kind: str, address: str, burst: int, per_minute: float) -> bool:
        """One request from ``address``'s allowance of ``kind``, shared by every process."""
        rate_per_ms = per_minute / 60_000.0
        keep_ms = int(burst / rate_per_ms) + 1000 if rate_per_ms > 0 else 3_600_000
        return bool(self._call(self._take, keys=[f"{PREFIX}allow:{kind}:{address}"],
                               args=[burst, rate_per_ms, keep_ms]))


class SharedAllowance:
    """A per-address allowance (``limits.AddressAllowance``'s job) kept in Redis, so that it
    holds across every server process. Its :meth:`take` waits for Redis: call it off the
    loop."""

    remote = True

    def __init__(self, storage: RedisStorage, kind: str, burst: int, per_minute: float) -> None:
        self.storage = storage
        self.kind = kind
        self.burst = burst
        self.per_minute = per_minute

    def take(self, address: str) -> bool:
        return self.storage.take_token(self.kind, address, self.burst, self.per_minute)


__all__ = ["RedisStorage", "SharedAllowance", "StaleError", "channel", "log_key", "room_key"]
