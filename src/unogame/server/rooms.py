"""Rooms: seats, the authoritative game, bots driven server-side, and the move log.

All room logic runs on the server's event loop and is synchronous between awaits, so a
move is checked, logged and broadcast before any other message is looked at. Every
change of the game goes through :meth:`Room._commit`: the engine checks the move, the
storage appends it, and only then do clients hear of it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import hashlib
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from ..bots.base import BOT_LEVELS, Bot, make_bot
from ..engine import CUSTOM_RULES, Event, Game, IllegalMoveError, Move, NotationError, Rules
from ..engine.errors import RulesError
from ..engine.events import event_kinds_json
from ..engine.game import MAX_PLAYERS, MIN_PLAYERS
from ..engine.moves import SEAT_PURPOSE
from .hub import Hub
from .storage import ROUND_BOUNDARY, Storage

log = logging.getLogger("unogame.server")

CODE_ALPHABET: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH: Final = 5
MAX_NAME: Final = 24
LOG_KEEP: Final = 300
"""Events kept for a (re)joining client's log."""

THINKERS: Final = concurrent.futures.ThreadPoolExecutor(max_workers=2,
                                                       thread_name_prefix="bot-think")
"""Bots choose their turn moves here, not in the event loop: a searching bot (``hard``)
thinks for 50-150 ms, which would hold up every other room."""

LOBBY: Final = "lobby"
PLAYING: Final = "playing"
ROUND_OVER: Final = "round_over"
MATCH_OVER: Final = "match_over"


class RoomError(Exception):
    """A request the room refuses; ``code`` is a key the client translates."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Timing:
    """Delays of the server-side bots, in seconds (tests and benchmarks shorten them)."""

    think: float = 0.9
    """A bot's own turn."""
    reaction_scale: float = 1.0
    """Multiplies each bot's ``reaction_delay`` (off-turn UNO, catch, jump-in)."""


def default_bot_level() -> str:
    return "medium" if "medium" in BOT_LEVELS else next(iter(BOT_LEVELS))


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: Any, fallback: str) -> str:
    if not isinstance(name, str):
        return fallback
    name = " ".join(name.split())[:MAX_NAME]
    return name or fallback


@dataclass
class Seat:
    name: str
    kind: str  # "human" or "bot"
    level: str | None = None
    token_hash: str | None = None
    connected: int = 0
    gone_since: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "level": self.level,
                "token_hash": self.token_hash}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        return cls(name=data["name"], kind=data["kind"], level=data.get("level"),
                   token_hash=data.get("token_hash"), gone_since=time.monotonic())


def parse_settings(data: dict[str, Any]) -> dict[str, Any]:
    """Check a room's settings from a client: name, seats, rules, timer. Raises RoomError."""
    seats = data.get("seats", 4)
    if type(seats) is not int or not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        raise RoomError("bad_settings", f"seats must be from {MIN_PLAYERS} to {MAX_PLAYERS}")
    rules_data = data.get("rules", {})
    try:
        rules = Rules.from_dict(rules_data)
    except (RulesError, TypeError) as error:
        raise RoomError("bad_settings", f"rules: {error}") from None
    timer = data.get("timer", 0)
    if type(timer) is not int or not (timer == 0 or 5 <= timer <= 600):
        raise RoomError("bad_settings", "timer must be 0 (off) or 5 to 600 seconds")
    return {"name": clean_name(data.get("name"), "UNO"), "capacity": seats,
            "rules": rules.to_dict(), "timer": timer}


class Room:
    """One room: settings, seats, the current game (rebuilt from its log) and its bots."""

    def __init__(self, code: str, settings: dict[str, Any], storage: Storage, hub: Hub,
                 timing: Timing) -> None:
        self.code = code
        self.name: str = settings["name"]
        self.capacity: int = settings["capacity"]
        self.rules_dict: dict[str, Any] = settings["rules"]
        self.rules = Rules.from_dict(self.rules_dict)
        self.timer: int = settings["timer"]
        self.storage = storage
        self.hub = hub
        self.timing = timing
        self.seats: list[Seat] = []
        self.host = 0
        self.status = LOBBY
        self.game_no = 0
        self.game_seed = 0
        self.version_base = 0
        self.game: Game | None = None
        self.log_length = 0
        self.events: deque[Event] = deque(maxlen=LOG_KEEP)
        self.results: list[dict[str, Any]] = []
        self.bots: dict[int, Bot] = {}
        self._stand_ins: dict[int, Bot] = {}
        self._timers: list[asyncio.TimerHandle] = []
        self._thinking: dict[int, list[Callable[[], None]]] = {}
        """Bots (by id) choosing in a thread, with what they are told once they are done."""
        self._closed = False
        self.spectators = 0
        self.last_active = time.monotonic()
        self.deal: dict[str, Any] | None = None
        """A stacked deal for every game of the room (``dealer``, ``deck``, ``seed``):
        set from Python only, for tests and prepared lessons; players never send one."""

    # ------------------------------------------------------------ persistence

    @property
    def version(self) -> int:
        """The position's version: it grows by one with every logged entry, across games."""
        return self.version_base + self.log_length

    def record(self) -> dict[str, Any]:
        return {
            "name": self.name, "capacity": self.capacity, "rules": self.rules_dict,
            "timer": self.timer, "seats": [seat.to_dict() for seat in self.seats],
            "host": self.host, "status": self.status, "game_no": self.game_no,
            "game_seed": self.game_seed, "version_base": self.version_base,
            "deal": self.deal,
        }

    def save(self) -> None:
        self.storage.save_room(self.code, self.record())

    @classmethod
    def restore(cls, code: str, data: dict[str, Any], storage: Storage, hub: Hub,
                timing: Timing) -> Room:
        """A room as stored; its game is rebuilt by replaying the move log."""
        room = cls(code, data, storage, hub, timing)
        room.seats = [Seat.from_dict(seat) for seat in data["seats"]]
        room.host = data["host"]
        room.status = data["status"]
        room.game_no = data["game_no"]
        room.game_seed = data["game_seed"]
        room.version_base = data["version_base"]
        room.deal = data.get("deal")
        if room.game_no:
            room._new_game()
            for seat, move in storage.load_moves(code, room.game_no):
                if seat < 0 and move == ROUND_BOUNDARY:
                    room._apply_next_round()
                else:
                    room._apply_move(seat, Move.parse(move))
                room.log_length += 1
            room._update_status()
        return room

    # ------------------------------------------------------------ seats

    def find_token(self, token: Any) -> int | None:
        if not isinstance(token, str) or not token:
            return None
        wanted = hash_token(token)
        for index, seat in enumerate(self.seats):
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, wanted):
                return index
        return None

    def join(self, name: Any) -> tuple[int, str]:
        """A new player takes a free seat in the lobby; returns the seat and its secret token."""
        if self.status != LOBBY:
            raise RoomError("already_started", "the game has started; you may watch")
        if len(self.seats) >= self.capacity:
            raise RoomError("room_full", "every seat is taken")
        token = secrets.token_urlsafe(18)
        self.seats.append(Seat(clean_name(name, f"Player {len(self.seats) + 1}"), "human",
                               token_hash=hash_token(token)))
        self.save()
        self.publish_room()
        return len(self.seats) - 1, token

    def add_bot(self, level: Any) -> None:
        if self.status != LOBBY:
            raise RoomError("already_started", "bots are added before the game starts")
        if not isinstance(level, str) or level not in BOT_LEVELS:
            raise RoomError("bad_level", f"unknown bot level {level!r}")
        if len(self.seats) >= self.capacity:
            raise RoomError("room_full", "every seat is taken")
        number = sum(1 for seat in self.seats if seat.kind == "bot") + 1
        self.seats.append(Seat(f"Bot {number}", "bot", level=level))
        self.save()
        self.publish_room()

    def remove_seat(self, index: Any) -> None:
        """The host removes a bot or a player: gone from the lobby; in a game, a bot plays on."""
        if type(index) is not int or not 0 <= index < len(self.seats):
            raise RoomError("bad_seat", "no such seat")
        if index == self.host:
            raise RoomError("bad_seat", "the host cannot remove their own seat")
        removed = self.seats[index]
        if self.status == LOBBY:
            del self.seats[index]
            if self.host > index:
                self.host -= 1
            for client in self.hub.clients(self.code):
                if client.seat == index:
                    client.seat = None
                elif client.seat is not None and client.seat > index:
                    client.seat -= 1
        else:
            removed.kind = "bot"
            removed.level = default_bot_level()
            removed.token_hash = None
            self.bots[index] = self._make_bot(index, removed.level)
            for client in self.hub.clients(self.code):
                if client.seat == index:
                    client.seat = None
        self.save()
        self.publish_room()
        self.publish_state()
        self.schedule()

    def connected(self, seat: int | None) -> None:
        if seat is None:
            self.spectators += 1
        else:
            self.seats[seat].connected += 1
            self.seats[seat].gone_since = None
            self._stand_ins.pop(seat, None)
        self.publish_room()
        self.schedule()

    def disconnected(self, seat: int | None) -> None:
        if seat is None:
            self.spectators = max(0, self.spectators - 1)
        elif 0 <= seat < len(self.seats):
            info = self.seats[seat]
            info.connected = max(0, info.connected - 1)
            if not info.connected:
                info.gone_since = time.monotonic()
        self.publish_room()
        self.schedule()

    # ------------------------------------------------------------ game flow

    def _make_bot(self, seat: int, level: str | None) -> Bot:
        bot = make_bot(level or default_bot_level(), seed=self.game_seed * 16 + seat)
        if self.game is not None:
            bot.new_round(seat, self.game.view(seat), self.game.rules)
        return bot

    def _new_game(self) -> None:
        if self.deal is not None:
            self.game = Game.deal(len(self.seats), self.deal["dealer"], self.deal["deck"],
                                  self.rules, self.game_seed)
        else:
            self.game = Game.new(len(self.seats), self.rules, self.game_seed)
        self.log_length = 0
        self.events.clear()
        self.results = []
        self._stand_ins.clear()
        self.bots = {index: self._make_bot(index, seat.level)
                     for index, seat in enumerate(self.seats) if seat.kind == "bot"}

    def start(self) -> None:
        if self.status != LOBBY:
            raise RoomError("already_started", "the game has already started")
        if len(self.seats) < MIN_PLAYERS:
            raise RoomError("not_enough_players", "a game needs at least two players")
        self._begin_game()

    def rematch(self) -> None:
        if self.status != MATCH_OVER:
            raise RoomError("not_over", "the match is not over")
        self._begin_game()

    def _begin_game(self) -> None:
        self.version_base = self.version + 1
        self.game_no += 1
        self.game_seed = (self.deal["seed"] if self.deal is not None
                          else secrets.randbelow(2**31))
        self._new_game()
        self.status = PLAYING
        self.save()
        self.publish_room()
        self.publish_state()
        self.schedule()

    def _apply_move(self, seat: int, move: Move) -> list[Event]:
        assert self.game is not None
        events = self.game.push(seat, move)
        self._after(events)
        return events

    def _apply_next_round(self) -> list[Event]:
        assert self.game is not None
        events = self.game.next_round()
        self._after(events)
        for index, bot in [*self.bots.items(), *self._stand_ins.items()]:
            self._tell(bot, functools.partial(bot.new_round, index, self.game.view(index),
                                              self.game.rules))
        return events

    def _tell(self, bot: Bot, call: Callable[[], None]) -> None:
        """Call into a bot now, or once it has finished thinking in its thread."""
        waiting = self._thinking.get(id(bot))
        if waiting is None:
            call()
        else:
            waiting.append(call)

    def _after(self, events: list[Event]) -> None:
        self.events.extend(events)
        for event in events:
            if event.type == "round_over":
                self.results.append({"winner": event.public["winner"],
                                     "points": event.public["points"],
                                     "scores": event.public["scores"]})
            for index, bot in [*self.bots.items(), *self._stand_ins.items()]:
                self._tell(bot, functools.partial(bot.observe, event.for_seat(index)))

    def _update_status(self) -> None:
        game = self.game
        if game is None:
            self.status = LOBBY
        elif game.game_winner is not None:
            self.status = MATCH_OVER
        elif game.winner is not None:
            self.status = ROUND_OVER
        else:
            self.status = PLAYING

    def _commit(self, seat: int, move: Move | None) -> list[Event]:
        """Log a checked move (``None``: deal the next round), apply it, then tell everyone.

        The log is written first: if the write fails nothing has changed, and no client
        ever sees a move the server could lose.
        """
        assert self.game is not None
        if move is None:
            self.storage.append_move(self.code, self.game_no, self.log_length, -1,
                                     ROUND_BOUNDARY)
            self.log_length += 1
            events = self._apply_next_round()
        else:
            self.storage.append_move(self.code, self.game_no, self.log_length, seat, move.text)
            self.log_length += 1
            events = self._apply_move(seat, move)
        old_status = self.status
        self._update_status()
        if self.status != old_status:
            self.save()
        self.publish_update(events)
        if self.status != old_status:
            self.publish_room()
        self.schedule()
        return events

    def play(self, seat: int | None, text: Any, version: Any) -> None:
        """A client's move: its seat, the move text and the version it was made on."""
        if seat is None:
            raise RoomError("not_seated", "spectators cannot play")
        if self.game is None or self.status == LOBBY:
            raise RoomError("not_started", "the game has not started")
        if not isinstance(text, str) or len(text) > 40:
            raise RoomError("bad_move", "a move is a short text in the notation")
        if type(version) is not int or version != self.version:
            raise RoomError("stale", f"the position has moved on (version {self.version})")
        try:
            move = Move.parse(text)
            if move not in self.game.legal_moves(seat):
                raise IllegalMoveError(self.game.explain_illegal(seat, move))
        except (NotationError, IllegalMoveError) as error:
            raise RoomError("illegal", str(error)) from None
        self._commit(seat, move)

    def next_round(self, seat: int | None, version: Any) -> None:
        if seat is None:
            raise RoomError("not_seated", "spectators cannot deal")
        if self.status != ROUND_OVER:
            raise RoomError("not_over", "the round is not over")
        if type(version) is not int or version != self.version:
            raise RoomError("stale", f"the position has moved on (version {self.version})")
        self._commit(-1, None)

    # ------------------------------------------------------------ bots and timers

    def _cancel_timers(self) -> None:
        for handle in self._timers:
            handle.cancel()
        self._timers.clear()

    def _later(self, delay: float, callback: Any, *args: Any) -> None:
        loop = asyncio.get_running_loop()
        self._timers.append(loop.call_later(max(0.0, delay), self._guarded, callback, *args))

    def _guarded(self, callback: Any, *args: Any) -> None:
        try:
            callback(*args)
        except Exception:  # a bot's mistake must not stop the room
            log.exception("room %s: bot step failed", self.code)

    def _driver(self, seat: int) -> Bot | None:
        """Who plays ``seat`` now without its player: its bot, or a stand-in for one gone."""
        info = self.seats[seat]
        if info.kind == "bot":
            return self.bots.get(seat)
        if self.timer and info.gone_since is not None \
                and time.monotonic() - info.gone_since >= self.timer:
            return self._stand_in(seat)
        return None

    def _stand_in(self, seat: int) -> Bot:
        bot = self._stand_ins.get(seat)
        if bot is None:
            bot = self._stand_ins[seat] = self._make_bot(seat, default_bot_level())
            self.publish_room()  # everyone sees that a bot now plays this seat
        return bot

    def schedule(self) -> None:
        """Plan the bots' next moves (and the turn timer) for the current version."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        self._cancel_timers()
        game = self.game
        if game is None:
            return
        version = self.version
        if self.status == ROUND_OVER:
            if self.timer:  # nobody waits for a player who is gone
                self._later(max(5.0, float(self.timer)), self._auto_next_round, version)
            return
        if self.status != PLAYING:
            return
        turn = game.turn
        if self._driver(turn) is not None:
            self._later(self.timing.think, self._bot_turn, version)
        elif self.timer:
            info = self.seats[turn]
            wait = float(self.timer)
            if info.gone_since is not None:
                wait = max(0.0, self.timer - (time.monotonic() - info.gone_since))
            self._later(wait, self._timeout, version)
        reactions = [bot.reaction_delay for index, bot in self._off_turn_drivers()]
        if reactions:
            self._later(min(reactions) * self.timing.reaction_scale, self._bot_react, version)

    def _off_turn_drivers(self) -> Iterable[tuple[int, Bot]]:
        game = self.game
        assert game is not None
        for index in range(len(self.seats)):
            if index != game.turn:
                bot = self._driver(index)
                if bot is not None and game.legal_moves(index):
                    yield index, bot

    def _choose(self, seat: int, bot: Bot) -> Move | None:
        game = self.game
        assert game is not None
        legal = game.legal_moves(seat)
        if not legal:
            return None
        move = bot.choose(game.view(seat), legal)
        if move is not None and move not in legal:
            log.warning("room %s: bot at seat %d chose illegal %s", self.code, seat, move)
            move = None
        if move is None and seat == game.turn:
            turn_moves = [m for m in legal if m.text not in ("uno",) and
                          not m.text.startswith("catch")]
            move = random.choice(turn_moves or legal)
        return move

    def _bot_turn(self, version: int) -> None:
        """The bot to act chooses in a worker thread from a copy of its view."""
        if version != self.version or self.game is None or self.status != PLAYING:
            return
        seat = self.game.turn
        bot = self._driver(seat)
        if bot is None or id(bot) in self._thinking:
            return
        legal = self.game.legal_moves(seat)
        if not legal:
            return
        self._thinking[id(bot)] = []
        future = asyncio.get_running_loop().run_in_executor(
            THINKERS, bot.choose, self.game.view(seat), legal)
        future.add_done_callback(functools.partial(self._bot_chose, seat, bot, version, legal))

    def _bot_chose(self, seat: int, bot: Bot, version: int, legal: list[Move],
                   future: asyncio.Future[Move | None]) -> None:
        for call in self._thinking.pop(id(bot), []):
            call()
        if self._closed:
            return
        try:
            move = future.result()
        except Exception:
            log.exception("room %s: bot at seat %d failed", self.code, seat)
            move = None
        game = self.game
        if version != self.version or game is None or self.status != PLAYING \
                or game.turn != seat or self._driver(seat) is not bot:
            self.schedule()  # the game moved on while it thought: plan again
            return
        if move is None or move not in legal:
            if move is not None:
                log.warning("room %s: bot at seat %d chose illegal %s", self.code, seat, move)
            turn_moves = [m for m in legal if m.text != "uno" and not m.text.startswith("catch")]
            move = random.choice(turn_moves or legal)
        self._commit(seat, move)

    def _timeout(self, version: int) -> None:
        """The turn timer ran out: a stand-in bot makes this one move."""
        if version != self.version or self.game is None or self.status != PLAYING:
            return
        seat = self.game.turn
        move = self._choose(seat, self._stand_in(seat))
        if move is not None:
            self._commit(seat, move)

    def _bot_react(self, version: int) -> None:
        if version != self.version or self.game is None or self.status != PLAYING:
            return
        for seat, bot in list(self._off_turn_drivers()):
            legal = self.game.legal_moves(seat)
            move = bot.choose(self.game.view(seat), legal)
            if move is not None and move in legal:
                self._commit(seat, move)
                return

    def _auto_next_round(self, version: int) -> None:
        if version == self.version and self.status == ROUND_OVER:
            self._commit(-1, None)

    def close(self) -> None:
        self._closed = True
        self._cancel_timers()

    # ------------------------------------------------------------ messages

    def room_message(self, seat: int | None) -> dict[str, Any]:
        return {
            "type": "room", "room": self.code, "name": self.name, "capacity": self.capacity,
            "rules": self.rules_dict, "timer": self.timer, "status": self.status,
            "host": self.host, "you": seat, "spectators": self.spectators,
            "game_no": self.game_no,
            "seats": [{"name": info.name, "kind": info.kind, "level": info.level,
                       "connected": info.kind == "bot" or info.connected > 0,
                       "away": info.kind == "human" and self.timer > 0 and
                       info.gone_since is not None and
                       time.monotonic() - info.gone_since >= self.timer}
                      for info in self.seats],
        }

    def _game_part(self, seat: int | None) -> dict[str, Any]:
        game = self.game
        assert game is not None
        playing = seat is not None and seat < game.players
        return {
            "version": self.version, "status": self.status,
            "view": game.view(seat if playing else None),
            "legal": [move.text for move in game.legal_moves(seat)] if playing else [],
            "results": self.results,
        }

    def state_message(self, seat: int | None) -> dict[str, Any]:
        """Everything a (re)joining client needs: its view, legal moves, log, scoreboard."""
        if self.game is None:
            return {"type": "state", "version": self.version, "status": self.status,
                    "view": None, "legal": [], "results": [], "log": []}
        return {"type": "state", **self._game_part(seat),
                "log": [event.for_seat(seat) for event in self.events]}

    def publish_room(self) -> None:
        self.last_active = time.monotonic()
        self.hub.publish(self.code, self.room_message)

    def publish_state(self) -> None:
        self.hub.publish(self.code, self.state_message)

    def publish_update(self, events: list[Event]) -> None:
        self.last_active = time.monotonic()
        def message_for(seat: int | None) -> dict[str, Any]:
            return {"type": "update", **self._game_part(seat),
                    "events": [event.for_seat(seat) for event in events]}

        self.hub.publish(self.code, message_for)


@dataclass
class Limits:
    max_rooms: int = 1000
    max_message_bytes: int = 4096
    messages_per_second: float = 20.0
    message_burst: int = 40
    max_clients_per_room: int = 60
    idle_room_seconds: float = 6 * 3600.0
    """A room nobody is connected to and nothing happened in for this long may be dropped
    when the server is at ``max_rooms``."""


@dataclass
class RoomManager:
    """Every room of this server, loaded from storage at start."""

    storage: Storage
    hub: Hub
    timing: Timing = field(default_factory=Timing)
    limits: Limits = field(default_factory=Limits)
    rooms: dict[str, Room] = field(default_factory=dict)

    def load(self) -> None:
        for code, data in self.storage.load_rooms().items():
            try:
                self.rooms[code] = Room.restore(code, data, self.storage, self.hub, self.timing)
            except Exception:
                log.exception("room %s could not be restored", code)

    def resume_all(self) -> None:
        """Start the bots of every restored room (needs the running loop)."""
        for room in self.rooms.values():
            room.schedule()

    def evict_idle(self) -> int:
        """Drop rooms with nobody connected and no activity for ``idle_room_seconds``."""
        now = time.monotonic()
        idle = [code for code, room in self.rooms.items()
                if not self.hub.clients(code)
                and now - room.last_active >= self.limits.idle_room_seconds]
        for code in idle:
            self.rooms.pop(code).close()
            self.storage.delete_room(code)
        return len(idle)

    def create(self, settings: dict[str, Any]) -> Room:
        if len(self.rooms) >= self.limits.max_rooms:
            self.evict_idle()
        if len(self.rooms) >= self.limits.max_rooms:
            raise RoomError("too_many_rooms", "this server has no room for another room")
        checked = parse_settings(settings)
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms:
                break
        room = Room(code, checked, self.storage, self.hub, self.timing)
        self.rooms[code] = room
        return room

    def get(self, code: Any) -> Room:
        room = self.rooms.get(code.strip().upper()) if isinstance(code, str) else None
        if room is None:
            raise RoomError("no_room", "no room with this code")
        return room

    def close(self) -> None:
        for room in self.rooms.values():
            room.close()


def meta() -> dict[str, Any]:
    """What the create-room form offers: bot levels, custom rules, rule defaults."""
    from dataclasses import asdict

    return {"bot_levels": list(BOT_LEVELS), "default_bot_level": default_bot_level(),
            "custom_rules": list(CUSTOM_RULES), "rules": asdict(Rules()),
            "min_seats": MIN_PLAYERS, "max_seats": MAX_PLAYERS,
            "seat_purpose": SEAT_PURPOSE, "event_kinds": event_kinds_json()}
