"""The :class:`~.hub.Hub` of several server processes sharing rooms through Redis.

Each process delivers a room's messages to its own sockets (as :class:`~.hub.LocalHub`);
what a room's other processes must hear travels on the room's Redis channel:

- stored changes: the storage's Lua scripts publish them (a move with its log index, a
  record with its rev); a process that missed one catches up from Redis by version;
- what is not stored: "next round" pressed, a seat handed to a bot (:meth:`share`), and
  which seats and spectators each process has connected (presence, also kept in the hash
  ``uno:pres:{CODE}`` for a process that loads the room later);
- liveness: ``uno:proc:ID`` lives while the process renews it (with its leases); it is set
  before the process publishes any presence (a process whose key is missing is taken for
  gone: its people with it), and a process that finds its own key had lapsed (held up
  past it) publishes its presence again;
- the lease: ``uno:lease:{CODE}`` names the one process that drives the room's bots,
  stand-ins and timers (``SET NX PX``, renewed every third of its length); a process that
  stops renewing (killed, cut off) loses it when it expires and another takes the room.

Everything here uses the asyncio client (no call blocks the event loop); the stored changes
themselves go through the storage thread (``commits.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any, Protocol

from .hub import Client, LocalHub
from .redis_store import PREFIX, TIMEOUT, channel, room_key

try:
    import redis.asyncio as aioredis
    from redis.exceptions import RedisError
except ImportError:  # pragma: no cover - the [redis] extra is not installed
    aioredis = None  # type: ignore[assignment]
    RedisError = OSError  # type: ignore[assignment,misc]

log = logging.getLogger("unogame.server")

LEASE_SCRIPT = """
local out = {}
local n = #KEYS / 2
for i = 1, n do
  local key = KEYS[i]
  local holder = redis.call('GET', key)
  if holder == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2]); out[i] = 1
  elseif (not holder) and ARGV[2 + i] == '1' then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
    -- newly taken: where the room stands, so the process catches up only if it must
    local room = redis.call('HMGET', KEYS[n + i], 'rev', 'game_no', 'moves')
    out[i] = {2, tonumber(room[1]) or 0, tonumber(room[2]) or 0, tonumber(room[3]) or 0}
  else
    out[i] = 0
  end
end
return out
"""
"""Per room: renew the lease this process holds (1), take a free one it wants (the room's
``rev``, ``game_no`` and log length as stored), or neither (0)."""

RELEASE_SCRIPT = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

Presence = dict[str, Any]
"""One process's clients of a room: ``{"seats": {"0": 2}, "hidden": {"0": 1}, "watchers": 1,
"seq": 7}`` (``hidden``: of those, the connections whose page is hidden)."""


def lease_key(code: str) -> str:
    return f"{PREFIX}lease:{{{code}}}"


def presence_key(code: str) -> str:
    return f"{PREFIX}pres:{{{code}}}"


def process_key(process: str) -> str:
    return f"{PREFIX}proc:{process}"


def code_of(channel_name: str) -> str:
    return channel_name[channel_name.index("{") + 1:channel_name.index("}")]


class HubListener(Protocol):
    """What a :class:`RedisHub` tells this process's cluster (``cluster.Cluster``), and what
    it asks it when renewing its leases."""

    def heard(self, code: str, payload: dict[str, Any]) -> None:
        """A message of another process about a room this process follows."""

    def followed(self, code: str) -> None:
        """A room's channel is subscribed now: what was published before may have been
        missed (the room catches up from Redis)."""

    def lease(self, code: str, held: bool, stored: tuple[int, int, int] | None) -> None:
        """This process now drives (``held``) or no longer drives a room; when it took the
        lease, the room's (rev, game_no, log length) in Redis then."""

    def link(self, up: bool) -> None:
        """Redis became unreachable (``False``) or reachable again."""

    def dead(self, processes: set[str]) -> None:
        """Processes whose liveness key expired (their presence no longer counts)."""

    def wanted(self) -> dict[str, bool]:
        """The rooms this process follows, each with whether it wants to drive it."""

    def others(self) -> set[str]:
        """The other processes this one has presence from."""


class NoListener:
    """A hub nobody listens to yet: what it hears is dropped, it wants no room."""

    def heard(self, code: str, payload: dict[str, Any]) -> None:
        pass

    def followed(self, code: str) -> None:
        pass

    def lease(self, code: str, held: bool, stored: tuple[int, int, int] | None) -> None:
        pass

    def link(self, up: bool) -> None:
        pass

    def dead(self, processes: set[str]) -> None:
        pass

    def wanted(self) -> dict[str, bool]:
        return {}

    def others(self) -> set[str]:
        return set()


class RedisHub(LocalHub):
    """Local delivery, plus the room channels, presence and leases shared through Redis."""

    def __init__(self, url: str, process: str, lease_seconds: float = 5.0) -> None:
        super().__init__()
        if aioredis is None:
            raise RuntimeError("the Redis backend needs the redis package: "
                               "pip install 'unogame[redis]'")
        self.url = url
        self.process: str = process  # one of several
        self.lease_seconds = lease_seconds
        self._listener: HubListener = NoListener()
        """Told what this hub hears (:meth:`tell`)."""
        self.followed: set[str] = set()
        self.held: set[str] = set()
        self.link_up = False
        self._linked = False
        """The link was up once (a later "up" is a reconnection)."""
        self._db: Any = None
        self._pubsub: Any = None
        self._tasks: list[asyncio.Task[None]] = []
        self._dirty: set[str] = set()
        self._seq = 0
        self._renewed = time.monotonic()
        self._stopped = False
        """Stopping: its liveness key is deleted and not set again."""

    def tell(self, listener: HubListener) -> None:
        """What this hub hears and how its leases go, told to ``listener`` from now on."""
        self._listener = listener

    # ------------------------------------------------------------ Hub

    def attach(self, code: str, client: Client) -> None:
        super().attach(code, client)
        self._presence_changed(code)

    def detach(self, code: str, client: Client) -> None:
        super().detach(code, client)
        self._presence_changed(code)

    def share(self, code: str, payload: dict[str, Any]) -> None:
        """Tell the room's other processes something that is not stored."""
        self._spawn(self._publish(code, {**payload, "p": self.process}))

    def follow(self, code: str) -> None:
        if code not in self.followed:
            self.followed.add(code)
            if self._pubsub is not None and self.link_up:
                self._spawn(self._subscribe(self._pubsub, code))

    def unfollow(self, code: str) -> None:
        if code in self.followed:
            self.followed.discard(code)
            if self._pubsub is not None and self.link_up:
                self._spawn(self._pubsub.unsubscribe(channel(code)))
        if code in self.held:
            self.held.discard(code)
            self._spawn(self._release(code))

    # ------------------------------------------------------------ running

    def start(self) -> None:
        """Start listening and renewing (needs the running loop)."""
        self._db = aioredis.Redis.from_url(self.url, socket_timeout=TIMEOUT,
                                           socket_connect_timeout=TIMEOUT,
                                           decode_responses=True)
        self._lease = self._db.register_script(LEASE_SCRIPT)
        self._release_script = self._db.register_script(RELEASE_SCRIPT)
        self._tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._renew())]

    async def stop(self) -> None:
        self._stopped = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):  # let another process take the rooms at once
            for code in list(self.held):
                await asyncio.wait_for(self._release(code), TIMEOUT)
            await asyncio.wait_for(self._db.delete(process_key(self.process)), TIMEOUT)
        with contextlib.suppress(Exception):
            await self._db.aclose()

    async def _subscribe(self, pubsub: Any, code: str) -> None:
        """Subscribe to a room's channel; then the room catches up once (a change another
        process published before the subscription took effect was not heard)."""
        await pubsub.subscribe(channel(code))
        if code in self.followed:
            self._listener.followed(code)

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        task.add_done_callback(_quiet)

    async def _publish(self, code: str, payload: dict[str, Any]) -> None:
        await self._db.publish(channel(code), json.dumps(payload, separators=(",", ":")))

    async def _release(self, code: str) -> None:
        await self._release_script(keys=[lease_key(code)], args=[self.process])

    def _set_link(self, up: bool) -> None:
        if up != self.link_up:
            self.link_up = up
            if up and self._linked:
                log.warning("redis reachable again")
            elif not up:
                log.warning("redis unreachable; reconnecting")
            self._linked = True
            self._listener.link(up)

    async def _listen(self) -> None:
        """Receive the followed rooms' messages; on a lost link, reconnect and resubscribe
        (the rooms then catch up from Redis: nothing published meanwhile is missed)."""
        while True:
            pubsub = self._db.pubsub(ignore_subscribe_messages=True)
            try:
                subscribed = set(self.followed)
                await asyncio.wait_for(pubsub.subscribe(PREFIX + "hello",
                                                        *[channel(c) for c in subscribed]),
                                       TIMEOUT)
                self._pubsub = pubsub
                missed = self.followed - subscribed  # followed while this subscribed
                if missed:
                    await asyncio.wait_for(pubsub.subscribe(*map(channel, missed)), TIMEOUT)
                # Alive before anything is published: the presence sent once the link is
                # up must not reach a process that finds no liveness key and drops it.
                await asyncio.wait_for(self._db.set(process_key(self.process), "1",
                                                    px=self._liveness_ms()), TIMEOUT)
                self._set_link(True)  # every room catches up (``Cluster.link``)
                pinged = time.monotonic()
                while True:
                    message = await pubsub.get_message(timeout=0.5)
                    if message is not None and message.get("type") == "message":
                        self._deliver(message)
                    if time.monotonic() - pinged > 1.0:  # a silent, stopped server is noticed
                        await asyncio.wait_for(self._db.ping(), TIMEOUT)
                        pinged = time.monotonic()
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError, TimeoutError) as error:
                log.info("redis subscription lost: %s", error)
            except Exception:  # keep listening whatever one message did
                log.exception("redis subscription failed")
            self._pubsub = None
            self._set_link(False)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pubsub.aclose(), TIMEOUT)
            await asyncio.sleep(0.25)

    def _deliver(self, message: dict[str, Any]) -> None:
        try:
            payload = json.loads(message["data"])
            code = code_of(message["channel"])
        except (ValueError, TypeError):
            return
        if isinstance(payload, dict) and payload.get("p") != self.process:
            try:
                self._listener.heard(code, payload)
            except Exception:
                log.exception("room %s: a message from another process failed", code)

    async def _renew(self) -> None:
        """Every third of the lease: this process is alive; renew the rooms it drives, take
        the ones it wants that nobody holds, note the processes that died."""
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            wanted = self._listener.wanted()
            codes = sorted(wanted)
            others = sorted(self._listener.others())
            ms = int(self.lease_seconds * 1000)
            try:
                async with self._db.pipeline(transaction=False) as pipe:
                    pipe.exists(process_key(self.process))
                    pipe.set(process_key(self.process), "1", px=self._liveness_ms())
                    pipe.mget([process_key(other) for other in others or [self.process]])
                    replies = await asyncio.wait_for(pipe.execute(), TIMEOUT)
                held = await asyncio.wait_for(self._lease(
                    keys=[*(lease_key(code) for code in codes), *map(room_key, codes)],
                    args=[self.process, ms, *("1" if wanted[c] else "0" for c in codes)]),
                    TIMEOUT) if codes else []
            except asyncio.CancelledError:
                raise
            except Exception as error:  # cut off: after the lease's time, drive nothing
                log.info("lease renewal failed: %s", error)
                if time.monotonic() - self._renewed > self.lease_seconds * 0.8:
                    for code in list(self.held):
                        self.held.discard(code)
                        self._listener.lease(code, False, None)
                continue
            self._renewed = time.monotonic()
            if not replies[0]:  # this process's key had lapsed (starved, cut off): the
                self._lapsed()  # others may have dropped its presence; they hear it again
            if others:
                dead = {other for other, alive in zip(others, replies[2], strict=True)
                        if alive is None}
                if dead:
                    self._listener.dead(dead)
            for code, now_held in zip(codes, held, strict=True):
                if bool(now_held) != (code in self.held):
                    (self.held.add if now_held else self.held.discard)(code)
                    stored = tuple(int(v) for v in now_held[1:4]) \
                        if isinstance(now_held, list) else None
                    self._listener.lease(code, bool(now_held), stored)  # type: ignore[arg-type]

    def _liveness_ms(self) -> int:
        """How long this process's liveness key lives: the lease (renewed every third)."""
        return int(self.lease_seconds * 1000)

    def _lapsed(self) -> None:
        if self.link_up:
            log.warning("this process's liveness key had expired; publishing its presence "
                        "again")
            for code in self.followed:
                self._presence_changed(code)

    # ------------------------------------------------------------ presence

    def _presence_changed(self, code: str) -> None:
        if not self._dirty:
            with contextlib.suppress(RuntimeError):  # no loop: nobody to tell
                asyncio.get_running_loop().call_soon(self._flush_presence)
        self._dirty.add(code)

    def _flush_presence(self) -> None:
        dirty, self._dirty = self._dirty, set()
        for code in dirty:
            self._seq += 1
            self._spawn(self._send_presence(code, self.presence_of(code, self._seq)))

    def presence_of(self, code: str, seq: int = 0) -> Presence:
        seats: dict[str, int] = {}
        hidden: dict[str, int] = {}
        watchers = 0
        for client in self.clients(code):
            if client.seat is None:
                watchers += 1
            else:
                seats[str(client.seat)] = seats.get(str(client.seat), 0) + 1
                if getattr(client, "hidden", False):  # its page is in the background
                    hidden[str(client.seat)] = hidden.get(str(client.seat), 0) + 1
        return {"seats": seats, "hidden": hidden, "watchers": watchers, "seq": seq}

    def refresh_presence(self, code: str) -> None:
        """Publish this process's presence in the room again (its seats changed)."""
        self._presence_changed(code)

    async def _send_presence(self, code: str, presence: Presence) -> None:
        text = json.dumps(presence, separators=(",", ":"))
        async with self._db.pipeline(transaction=False) as pipe:
            if not self._stopped:  # alive first: whoever reads this finds this one live
                pipe.set(process_key(self.process), "1", px=self._liveness_ms())
            if presence["seats"] or presence["watchers"]:
                pipe.hset(presence_key(code), self.process, text)
            else:
                pipe.hdel(presence_key(code), self.process)
            pipe.publish(channel(code), json.dumps({"k": "pres", "p": self.process,
                                                    "pres": presence}))
            await asyncio.wait_for(pipe.execute(), TIMEOUT)

    async def read_presence(self, code: str) -> dict[str, Presence]:
        """The other live processes' presence in the room."""
        stored = await asyncio.wait_for(self._db.hgetall(presence_key(code)), TIMEOUT)
        others = [process for process in stored if process != self.process]
        if not others:
            return {}
        alive = await asyncio.wait_for(self._db.mget([process_key(p) for p in others]),
                                       TIMEOUT)
        return {process: json.loads(stored[process])
                for process, live in zip(others, alive, strict=True) if live is not None}


def _quiet(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.info("redis call failed: %s", task.exception())


__all__ = ["HubListener", "NoListener", "RedisHub", "lease_key", "presence_key", "process_key"]
