"""Rooms: settings, seats and tokens, the lobby, storage of the room and its messages.

All room logic runs on the server's event loop; storage calls run off it (``commits.py``).
A room's changes run one at a time (:func:`~.commits.one_at_a_time`), so a move is
checked, stored and broadcast before the room looks at the next one, and a message that
arrives while a write is in flight is checked against the position that write leaves. The
game itself is a :class:`~unogame.table.Table` run by :class:`~.flow.RoomGame`: the table
checks every move, the storage appends it, and only then do clients hear of it.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from ..bots.base import BOT_LEVELS
from ..engine import CUSTOM_RULES, Event, Game, Rules
from ..engine.custom import (
    ALLOWED_WHO,
    COUNT_RANGE,
    MAX_NAME,
    MAX_STEPS,
    MAX_TEXT,
    PRESET_STEPS,
    WHAT,
    WHO,
    CustomRuleError,
)
from ..engine.errors import PositionError, RulesError
from ..engine.events import event_kinds_json
from ..engine.game import MAX_PLAYERS, MIN_PLAYERS
from ..engine.moves import SEAT_PURPOSE
from ..engine.state import PlayableGame
from ..table import MATCH_OVER as MATCH_OVER
from ..table import PLAYING as PLAYING
from ..table import ROUND_OVER as ROUND_OVER
from ..table import SeatSpec, Table, TableError, TableSettings, fill_empty_seats
from .commits import Commits, off_loop, one_at_a_time
from .flow import RoomGame
from .flow import Timing as Timing
from .hub import Client, Hub
from .names import BadNameError, clean_name
from .storage import Storage, StorageError
from .why import card_refusals, move_refusal

log = logging.getLogger("unogame.server")

CODE_ALPHABET: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH: Final = 8
"""40 bits: at the lookup limit per address, guessing a live room's code takes years. Read
out in two groups of four ("HK7P 3RXD"); spaces and dashes in a typed code are ignored."""
SEED_BITS: Final = 128
LOG_KEEP: Final = 300
MATCHES_KEPT: Final = 20
"""The finished matches a room remembers for its scoreboard ("Play again" keeps them)."""
"""Events kept for a (re)joining client's log."""

GRACE_DEFAULT: Final = 20
"""Seconds a player may be gone before a bot stands in for them (a room setting)."""

LOBBY: Final = "lobby"


class RoomError(Exception):
    """A request the room refuses; ``code`` is a key the client translates."""

    def __init__(self, code: str, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or {}
        """More for the client to translate (a refused custom rule: its reason and fields)."""


def rules_error(error: RulesError | TypeError, prefix: str = "") -> RoomError:
    """A rule option refused: a family's Wild Customizable rule says why by its reason key
    (the client shows ``common.custom_error.KEY`` in its language)."""
    if isinstance(error, CustomRuleError):
        return RoomError("bad_rule", f"{prefix}{error}",
                         {"reason": error.key, "fields": error.fields})
    return RoomError("bad_settings", f"{prefix}{error}")


def default_bot_level() -> str:
    return "medium" if "medium" in BOT_LEVELS else next(iter(BOT_LEVELS))


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def normal_code(code: str) -> str:
    """A room code as typed or read out: case, spaces and dashes do not matter."""
    return "".join(char for char in code.upper() if char not in " -")[:CODE_LENGTH * 2]


def person_name(name: Any, fallback: str) -> str:
    try:
        return clean_name(name, fallback)
    except BadNameError as error:
        raise RoomError("bad_name", str(error)) from None


@dataclass
class Seat:
    name: str
    kind: str  # "human" or "bot"
    level: str | None = None
    token_hash: str | None = None
    connected: int = 0
    gone_since: float | None = None
    helper: bool = False
    """The children's helper is on for this seat (its person turned it on)."""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "level": self.level,
                "token_hash": self.token_hash, "helper": self.helper}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        return cls(name=data["name"], kind=data["kind"], level=data.get("level"),
                   token_hash=data.get("token_hash"), gone_since=time.monotonic(),
                   helper=data.get("helper") is True)


def parse_settings(data: dict[str, Any]) -> dict[str, Any]:
    """Check a room's settings from a client: name, seats, rules, turn timer, the grace
    before a bot stands in for someone gone, and the level of the bots that fill the free
    seats at the start (``fill``: ``None`` leaves them empty). Raises RoomError."""
    seats = data.get("seats", 4)
    if type(seats) is not int or not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        raise RoomError("bad_settings", f"seats must be from {MIN_PLAYERS} to {MAX_PLAYERS}")
    rules_data = data.get("rules", {})
    try:
        rules = Rules.from_dict(rules_data)
    except (RulesError, TypeError) as error:
        raise rules_error(error, "rules: ") from None
    try:  # the engine's own limits: every seat taken must still be dealt
        Game.new(seats, rules, 0)
    except PositionError as error:
        raise RoomError("bad_settings", str(error)) from None
    except RulesError as error:  # a family's rule that makes no sense with these seats
        raise rules_error(error) from None
    timer = data.get("timer", 0)
    if type(timer) is not int or not (timer == 0 or 5 <= timer <= 600):
        raise RoomError("bad_settings", "timer must be 0 (off) or 5 to 600 seconds")
    grace = data.get("grace", GRACE_DEFAULT)
    if type(grace) is not int or not 5 <= grace <= 600:
        raise RoomError("bad_settings", "grace must be 5 to 600 seconds")
    fill = data.get("fill")
    if fill is not None and (not isinstance(fill, str) or fill not in BOT_LEVELS):
        raise RoomError("bad_settings", f"fill: null or a bot level from {list(BOT_LEVELS)}")
    try:
        name = clean_name(data.get("name"), "UNO", person=False)
    except BadNameError as error:
        raise RoomError("bad_name", f"room name: {error}") from None
    return {"name": name, "capacity": seats,
            "rules": rules.to_dict(), "timer": timer, "grace": grace, "fill": fill}


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
        self.grace: int = settings.get("grace", GRACE_DEFAULT)
        self.fill: str | None = settings.get("fill")
        self.storage = storage
        self.hub = hub
        self.timing = timing
        self.seats: list[Seat] = []
        self.host = 0
        self.game_no = 0
        self.game_seed = 0
        self.version_base = 0
        self.current: RoomGame | None = None
        """The game being played (its table), from the first start on."""
        self._last_status = LOBBY
        self.spectators = 0
        self.last_active = time.monotonic()
        self.commits = Commits(after=self.schedule)
        """The room's changes, one at a time (its games' too)."""
        self._closed = False
        self.deal: dict[str, Any] | None = None
        self.matches: list[dict[str, Any]] = []
        self.seeds: dict[str, int] = {}
        """The deal seeds of the finished matches in ``matches``, by game number (kept for
        their replays; never sent to a client: they would show every hidden card)."""
        """A stacked deal for every game of the room (``dealer``, ``deck``, ``seed``):
        set from Python only, for tests and prepared lessons; players never send one."""

    # ------------------------------------------------------------ persistence

    @property
    def version(self) -> int:
        """The position's version: it grows by one with every logged entry, across games."""
        return self.version_base + self.log_length

    @property
    def log_length(self) -> int:
        """Entries in the current game's log (moves and round boundaries)."""
        return self.current.table.version if self.current is not None else 0

    @property
    def table(self) -> Table | None:
        return self.current.table if self.current is not None else None

    @property
    def game(self) -> PlayableGame | None:
        return self.current.table.game if self.current is not None else None

    @property
    def status(self) -> str:
        return self.current.table.status if self.current is not None else LOBBY

    def record(self) -> dict[str, Any]:
        return {
            "name": self.name, "capacity": self.capacity, "rules": self.rules_dict,
            "timer": self.timer, "grace": self.grace, "fill": self.fill,
            "seats": [seat.to_dict() for seat in self.seats],
            "host": self.host, "status": self.status, "game_no": self.game_no,
            "game_seed": self.game_seed, "version_base": self.version_base,
            "deal": self.deal, "matches": self.matches, "seeds": self.seeds,
        }

    async def _store(self, record: dict[str, Any]) -> None:
        """Store the room's record (off the loop); the caller changes the room after."""
        await off_loop(self.storage.save_room, self.code, record)

    async def _store_seats(self, seats: list[Seat]) -> None:
        """Store the room with these seats; the caller changes ``self.seats`` after."""
        await self._store({**self.record(), "seats": [seat.to_dict() for seat in seats]})

    def save_later(self, what: str) -> None:
        """Store the room's record as it will be then, as one of its changes, nobody
        waiting: a change already applied that a restore would derive anyway (the host, the
        status), logged if it fails."""
        async def save() -> None:
            if self._closed:
                return
            try:
                await self._store(self.record())
            except StorageError as error:
                log.warning("room %s: %s not saved: %s", self.code, what, error)

        self.commits.start(save)

    @classmethod
    def restore(cls, code: str, data: dict[str, Any], storage: Storage, hub: Hub,
                timing: Timing) -> Room:
        """A room as stored; its game is rebuilt by replaying the move log."""
        room = cls(code, data, storage, hub, timing)
        room.seats = [Seat.from_dict(seat) for seat in data["seats"]]
        room.host = data["host"]
        room.game_no = data["game_no"]
        room.game_seed = data["game_seed"]
        room.version_base = data["version_base"]
        room.deal = data.get("deal")
        room.matches = list(data.get("matches", []))
        room.seeds = dict(data.get("seeds", {}))
        if room.game_no:
            room._new_game()
            assert room.current is not None
            room.current.replay(storage.load_moves(code, room.game_no))
        room._last_status = room.status
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

    @one_at_a_time
    async def join(self, name: Any) -> tuple[int, str]:
        """A new player takes a free seat in the lobby; returns the seat and its secret token."""
        if self.status != LOBBY:
            raise RoomError("already_started", "the game has started; you may watch")
        if len(self.seats) >= self.capacity:
            raise RoomError("room_full", "every seat is taken")
        token = secrets.token_urlsafe(18)
        seat = Seat(person_name(name, f"Player {len(self.seats) + 1}"), "human",
                    token_hash=hash_token(token))
        await self._store_seats([*self.seats, seat])
        self.seats.append(seat)
        self.publish_room()
        return len(self.seats) - 1, token

    @one_at_a_time
    async def add_bot(self, level: Any) -> None:
        if self.status != LOBBY:
            raise RoomError("already_started", "bots are added before the game starts")
        if not isinstance(level, str) or level not in BOT_LEVELS:
            raise RoomError("bad_level", f"unknown bot level {level!r}")
        if len(self.seats) >= self.capacity:
            raise RoomError("room_full", "every seat is taken")
        number = sum(1 for seat in self.seats if seat.kind == "bot") + 1
        seat = Seat(f"Bot {number}", "bot", level=level)
        await self._store_seats([*self.seats, seat])
        self.seats.append(seat)
        self.publish_room()

    @one_at_a_time
    async def remove_seat(self, index: Any) -> list[Client]:
        """The host removes a bot or a player: gone from the lobby; in a game, a bot plays on.
        Returns the clients that had the seat (they watch now)."""
        if type(index) is not int or not 0 <= index < len(self.seats):
            raise RoomError("bad_seat", "no such seat")
        if index == self.host:
            raise RoomError("bad_seat", "the host cannot remove their own seat")
        removed = self.seats[index]
        if self.status != LOBBY and removed.kind == "bot":
            raise RoomError("bad_seat", "a bot already plays this seat")
        lobby = self.status == LOBBY
        if lobby:
            host = self.host - 1 if self.host > index else self.host
            await self._store({
                **self.record(), "host": host,
                "seats": [seat.to_dict() for seat in self.seats if seat is not removed]})
            del self.seats[index]
            self.host = host
        else:
            as_bot = Seat(removed.name, "bot", level=default_bot_level())
            await self._store_seats([as_bot if seat is removed else seat for seat in self.seats])
            removed.kind = "bot"
            removed.level = as_bot.level
            removed.token_hash = None
            removed.connected = 0
            assert self.current is not None
            self.current.table.seat_to_bot(index, default_bot_level())
        unseated = [client for client in self.hub.clients(self.code) if client.seat == index]
        for client in self.hub.clients(self.code):
            if client.seat == index:
                client.seat = None
            elif lobby and client.seat is not None and client.seat > index:
                client.seat -= 1
        self.publish_room()
        self.publish_state()
        self.schedule()
        return unseated

    def connected(self, seat: int | None) -> None:
        if seat is None:
            self.spectators += 1
        else:
            info = self.seats[seat]
            info.connected += 1
            info.gone_since = None
            table = self.table
            if info.connected == 1 and table is not None and info.kind == "human":
                table.set_present(seat, True)  # back: a bot standing in leaves
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
                if info.kind == "human":
                    self._gone(seat)
        self.publish_room()
        self.schedule()

    def _gone(self, seat: int) -> None:
        """A person's last connection closed: the table starts their grace; a host who
        leaves hands the role to the next connected person."""
        table = self.table
        if table is not None:
            if self.current is not None:
                self.current.sync()
            table.set_present(seat, False)
            host = table.host if table.host is not None else self.host
        elif seat == self.host:  # the lobby: the next connected person hosts
            count = len(self.seats)
            following = [(seat + step) % count for step in range(1, count)]
            host = next((index for index in following if self.seats[index].kind == "human"
                         and self.seats[index].connected), self.host)
        else:
            return
        if host != self.host:
            self.host = host
            self.save_later("the new host")  # if it fails, a restart keeps the former host

    # ------------------------------------------------------------ game flow

    def _new_game(self) -> None:
        """The game's table (seats, rules, seed, settings), from the stored room."""
        settings = TableSettings(grace=float(self.grace),
                                 turn_timer=float(self.timer) if self.timer else None,
                                 next_round_countdown=self.timing.next_round,
                                 stand_in_level=default_bot_level())
        seats = [SeatSpec(seat.name, seat.level or default_bot_level()
                          if seat.kind == "bot" else None) for seat in self.seats]
        game = None
        if self.deal is not None:
            game = Game.deal(len(self.seats), self.deal["dealer"], self.deal["deck"],
                             self.rules, self.game_seed)
        present = [index for index, seat in enumerate(self.seats) if seat.connected]
        table = Table(seats, self.rules, self.game_seed, settings, game=game,
                      present=present,
                      host=self.host if self.seats[self.host].kind == "human" else None)
        if self.current is not None:
            self.current.close()
        self.current = RoomGame(self.code, self.game_no, table, self.storage, self.timing,
                                self._changed, self.publish_room, self.not_saved,
                                self.commits)

    @one_at_a_time
    async def start(self) -> None:
        if self.status != LOBBY:
            raise RoomError("already_started", "the game has already started")
        seats = self.seats
        if self.fill is not None:
            filled = fill_empty_seats([SeatSpec(s.name, s.level if s.kind == "bot" else None)
                                       for s in seats], self.capacity, self.fill)
            seats = [*seats, *(Seat(spec.name, "bot", level=spec.bot)
                               for spec in filled[len(seats):])]
        if len(seats) < MIN_PLAYERS:
            raise RoomError("not_enough_players", "a game needs at least two players")
        await self._begin_game(seats)

    @one_at_a_time
    async def rematch(self) -> None:
        """"Play again": a new match with the same seats; the one just played joins the
        room's match history (its scoreboard stays visible)."""
        if self.status != MATCH_OVER:
            raise RoomError("not_over", "the match is not over")
        table = self.table
        assert table is not None
        finished = {"game_no": self.game_no, "results": table.results,
                    "names": [seat.name for seat in self.seats],
                    "winner": table.game.game_winner}
        matches = [*self.matches, finished][-MATCHES_KEPT:]
        kept = {str(match["game_no"]) for match in matches}
        seeds = {number: seed for number, seed in
                 {**self.seeds, str(self.game_no): self.game_seed}.items() if number in kept}
        await self._begin_game(self.seats, matches, seeds)

    async def _begin_game(self, seats: list[Seat],
                          matches: list[dict[str, Any]] | None = None,
                          seeds: dict[str, int] | None = None) -> None:
        seed = self.deal["seed"] if self.deal is not None else secrets.randbits(SEED_BITS)
        matches = self.matches if matches is None else matches
        seeds = self.seeds if seeds is None else seeds
        await self._store({  # stored first: a failed write changes nothing
            **self.record(), "version_base": self.version + 1, "game_no": self.game_no + 1,
            "game_seed": seed, "status": PLAYING, "matches": matches, "seeds": seeds,
            "seats": [seat.to_dict() for seat in seats]})
        self.matches = matches
        self.seeds = seeds
        self.version_base = self.version + 1
        self.game_no += 1
        self.game_seed = seed
        self.seats = seats
        self._new_game()
        self._last_status = self.status
        self.publish_room()
        self.publish_state()
        self.schedule()

    def _changed(self, events: list[Event]) -> None:
        """A stored and applied change: tell everyone, then plan the next step."""
        self.last_active = time.monotonic()
        old = self._last_status
        self._last_status = self.status
        if self.status != old:  # the move is logged: a restore derives the status anyway
            self.save_later("the status")
        self.publish_update(events)
        if self.status != old:
            self.publish_room()
        self.schedule()

    def not_saved(self, error: Exception) -> None:
        """A bot's or the timer's move could not be stored: nothing changed (the room tries
        again shortly); everyone is told."""
        log.warning("room %s: move not saved, retrying: %s", self.code, error)
        self.hub.publish(self.code, lambda seat: {
            "type": "error", "code": "not_saved", "message": "the game could not be saved"})

    def _running(self) -> RoomGame:
        if self.current is None or self.status == LOBBY:
            raise RoomError("not_started", "the game has not started")
        return self.current

    def _check_version(self, version: Any) -> None:
        if type(version) is not int or version != self.version:
            raise RoomError("stale", f"the position has moved on (version {self.version})")

    @one_at_a_time
    async def play(self, seat: int | None, text: Any, version: Any) -> None:
        """A client's move: its seat, the move text and the version it was made on."""
        if seat is None or not 0 <= seat < len(self.seats) or self.seats[seat].kind != "human":
            raise RoomError("not_seated", "spectators cannot play")  # or removed meanwhile
        current = self._running()
        if not isinstance(text, str) or len(text) > 40:
            raise RoomError("bad_move", "a move is a short text in the notation")
        self._check_version(version)
        try:
            move = current.table.check(seat, text)
        except TableError as error:
            reason = move_refusal(current.table.game, seat, text) if error.code == "illegal" \
                else None
            raise RoomError("illegal", error.message,
                            {"refusal": reason} if reason else None) from None
        current.sync()
        self._changed(await current.store_and_play(seat, move))

    @one_at_a_time
    async def next_round(self, seat: int | None, version: Any) -> None:
        """A person pressed "next round": their scoreboard closes; the table deals once every
        connected person has pressed it (or its countdown ran out)."""
        if seat is None:
            raise RoomError("not_seated", "spectators cannot deal")
        current = self._running()
        if self.status != ROUND_OVER:
            raise RoomError("not_over", "the round is not over")
        self._check_version(version)
        try:
            current.table.press_next(seat)
        except TableError as error:
            raise RoomError(error.code, error.message) from None
        self.publish_state()
        self.schedule()

    @one_at_a_time
    async def hand_to_bot(self, by: int | None, seat: Any) -> None:
        """The host hands a disconnected person's seat to a bot until they come back."""
        current = self._running()
        if type(seat) is not int or not 0 <= seat < len(self.seats):
            raise RoomError("bad_seat", "no such seat")
        current.sync()
        try:
            current.table.hand_to_bot(by, seat)
        except TableError as error:
            raise RoomError(error.code, error.message) from None
        self.publish_room()
        self.schedule()

    @one_at_a_time
    async def set_helper(self, seat: int | None, on: Any) -> None:
        """A person turns the children's helper on or off for their own seat (stored with
        the seats, so it survives a restart)."""
        if seat is None or not 0 <= seat < len(self.seats) or self.seats[seat].kind != "human":
            raise RoomError("not_seated", "only a player turns their helper on or off")
        if type(on) is not bool:
            raise RoomError("bad_helper", "on: true or false")
        changed = dataclasses.replace(self.seats[seat], helper=on)
        await self._store_seats([changed if index == seat else other
                                 for index, other in enumerate(self.seats)])
        self.seats[seat].helper = on
        self.publish_room()

    def replay_source(self, game_no: Any, round_no: Any) -> tuple[int, int, dict[str, Any] | None]:
        """For a finished round of a game of this room: (players, seed, stacked deal);
        raises RoomError for a game or round that is not there or not finished."""
        if type(game_no) is not int or type(round_no) is not int or round_no < 1:
            raise RoomError("no_replay", "game_no and round: numbers of a finished round")
        table = self.table
        if game_no == self.game_no and table is not None:
            finished = table.round - 1 if table.status == PLAYING else table.round
            players, seed = table.players, self.game_seed
        else:
            match = next((m for m in self.matches if m.get("game_no") == game_no), None)
            seed_kept = self.seeds.get(str(game_no))
            if match is None or seed_kept is None:
                raise RoomError("no_replay", "this game is not kept for replays")
            finished, players, seed = len(match["results"]), len(match["names"]), seed_kept
        if round_no > finished:
            raise RoomError("no_replay", "only a finished round can be replayed")
        return players, seed, self.deal

    def schedule(self) -> None:
        """Plan the game's next step (bots, stand-ins, timers, the next round). A room whose
        people are all gone waits for one of them: its bots do not play on for nobody."""
        current = self.current
        if current is not None:
            people = [seat for seat in self.seats if seat.kind == "human"]
            current.paused = bool(people) and not any(seat.connected for seat in people)
            current.schedule()

    def close(self) -> None:
        self._closed = True
        if self.current is not None:
            self.current.close()

    # ------------------------------------------------------------ messages

    def room_message(self, seat: int | None) -> dict[str, Any]:
        table = self.table
        infos = table.seats() if table is not None else None
        return {
            "type": "room", "room": self.code, "name": self.name, "capacity": self.capacity,
            "rules": self.rules_dict, "timer": self.timer, "grace": self.grace,
            "fill": self.fill, "status": self.status,
            "host": self.host, "you": seat, "spectators": self.spectators,
            "game_no": self.game_no, "matches": self.matches,
            "helper": seat is not None and 0 <= seat < len(self.seats)
            and self.seats[seat].helper,
            "seats": [{"name": info.name, "kind": info.kind, "level": info.level,
                       "connected": info.kind == "bot" or info.connected > 0,
                       "away": infos is not None and index < len(infos)
                       and infos[index].stand_in,
                       "handed": infos is not None and index < len(infos)
                       and infos[index].handed}
                      for index, info in enumerate(self.seats)],
        }

    def _game_part(self, seat: int | None) -> dict[str, Any]:
        current = self.current
        assert current is not None
        current.sync()
        table = current.table
        playing = seat is not None and seat < table.players
        view = table.view(seat if playing else None)
        legal = [move.text for move in table.legal_moves(seat)] if playing else []
        hand = view["hands"][seat] if playing and seat is not None else []
        return {
            "version": self.version, "status": self.status,
            "view": view, "legal": legal,
            "why": card_refusals(table.game, seat, hand, legal)
            if playing and seat is not None and isinstance(hand, list) else {},
            "results": table.results, "round": table.round,
            "ready": sorted(table.ready),
            "timer_left": _seconds(table.turn_remaining()),
            "next_round_left": _seconds(table.next_round_remaining()),
        }

    def state_message(self, seat: int | None) -> dict[str, Any]:
        """Everything a (re)joining client needs: its view, legal moves, log, scoreboard,
        and the time left on the turn timer and the scoreboard's countdown."""
        table = self.table
        if table is None:
            return {"type": "state", "version": self.version, "status": self.status,
                    "view": None, "legal": [], "results": [], "log": [], "round": 0,
                    "ready": [], "timer_left": None, "next_round_left": None}
        return {"type": "state", **self._game_part(seat),
                "log": table.feed(seat, table.event_count - LOG_KEEP)}

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


def _seconds(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


@dataclass
class Limits:
    max_rooms: int = 1000
    max_message_bytes: int = 4096
    messages_per_second: float = 20.0
    message_burst: int = 40
    max_clients_per_room: int = 60
    """Spectators and players together; a seat's owner always gets in."""
    max_spectators_per_room: int = 40
    max_connections_per_seat: int = 4
    """One person's tabs and devices on a seat; the oldest makes way for a new one."""
    max_seats_per_connection: int = 5
    """Rooms one connection creates or joins (it holds one seat per room)."""
    rooms_per_address: tuple[int, float] = (10, 2.0)
    """Rooms created per client address: a burst, then so many a minute."""
    lookups_per_address: tuple[int, float] = (30, 30.0)
    """Room codes looked up (join, watch, resume) per address: a burst, then per minute."""
    idle_room_seconds: float = 6 * 3600.0
    """A room nobody is connected to and nothing happened in for this long may be dropped
    when the server is at ``max_rooms``."""
    lobby_expiry_seconds: float = 300.0
    """A lobby that never started and has nobody in it is forgotten after this long."""
    sweep_seconds: float = 30.0
    """How often expired lobbies are looked for."""


@dataclass
class RoomManager:
    """Every room of this server, loaded from storage at start."""

    storage: Storage
    hub: Hub
    timing: Timing = field(default_factory=Timing)
    limits: Limits = field(default_factory=Limits)
    rooms: dict[str, Room] = field(default_factory=dict)
    unrestored: dict[str, str] = field(default_factory=dict)
    """Rooms in storage that could not be restored, with why (their data is kept aside)."""
    creating: set[str] = field(default_factory=set)
    """Codes of rooms being stored (they count against ``max_rooms`` already)."""

    def load(self) -> None:
        """Restore every room that can be; the others are reported and kept aside."""
        unreadable: dict[str, str] = {}
        for code, data in self.storage.load_rooms(unreadable).items():
            try:
                self.rooms[code] = Room.restore(code, data, self.storage, self.hub, self.timing)
            except Exception as error:  # a damaged or tampered record: the others still load
                unreadable[code] = f"{type(error).__name__}: {error}"[:300]
        for code, reason in sorted(unreadable.items()):
            log.warning("room %s could not be restored (kept aside): %s", code, reason)
            self.storage.set_aside(code, reason)
        self.unrestored.update(unreadable)

    def resume_all(self) -> None:
        """Start the bots of every restored room (needs the running loop)."""
        for room in self.rooms.values():
            room.schedule()

    async def evict_idle(self) -> int:
        """Drop rooms with nobody connected and no activity for ``idle_room_seconds``."""
        now = time.monotonic()
        return await self._forget(lambda room: not self.hub.clients(room.code)
                                  and now - room.last_active >= self.limits.idle_room_seconds)

    async def expire_lobbies(self) -> int:
        """Forget lobbies that never started and nobody has been in for a few minutes."""
        now = time.monotonic()
        return await self._forget(
            lambda room: room.status == LOBBY and room.game_no == 0
            and not self.hub.clients(room.code)
            and now - room.last_active >= self.limits.lobby_expiry_seconds)

    async def _forget(self, unwanted: Callable[[Room], bool]) -> int:
        """Delete the rooms that are ``unwanted`` (still, when their turn comes)."""
        forgotten = 0
        for code in [code for code, room in self.rooms.items() if unwanted(room)]:
            room = self.rooms.get(code)
            if room is not None and unwanted(room):
                forgotten += await self._delete(room)
        return forgotten

    async def _delete(self, room: Room) -> bool:
        """Out of reach at once, deleted from storage (after its changes already asked),
        then closed; a room that could not be deleted stays as it was."""
        code = room.code
        del self.rooms[code]
        try:
            await room.commits.run(functools.partial(off_loop, self.storage.delete_room, code))
        except StorageError as error:
            log.warning("room %s: not deleted (kept, tried again later): %s", code, error)
            self.rooms.setdefault(code, room)
            return False
        room.close()
        return True

    async def create(self, settings: Any, host_name: Any, bots: Any) -> tuple[Room, int, str]:
        """A new room with its host in seat 0 and its bots; returns the room, seat, token.

        Checked completely and stored before it exists: a refused or unstorable room
        leaves nothing behind.
        """
        if not isinstance(settings, dict):
            raise RoomError("bad_settings", "settings must be an object")
        if not isinstance(bots, list) or not all(isinstance(level, str) and level in BOT_LEVELS
                                                 for level in bots):
            raise RoomError("bad_level", f"bots: a list of levels from {list(BOT_LEVELS)}")
        checked = parse_settings(settings)
        if len(bots) + 1 > checked["capacity"]:
            raise RoomError("bad_settings", "more bots than free seats")
        name = person_name(host_name, "Player 1")
        if len(self.rooms) + len(self.creating) >= self.limits.max_rooms:
            await self.expire_lobbies()
            await self.evict_idle()
        if len(self.rooms) + len(self.creating) >= self.limits.max_rooms:
            raise RoomError("too_many_rooms", "this server has no room for another room")
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms and code not in self.unrestored \
                    and code not in self.creating:
                break
        room = Room(code, checked, self.storage, self.hub, self.timing)
        token = secrets.token_urlsafe(18)
        room.seats = [Seat(name, "human", token_hash=hash_token(token))]
        room.seats += [Seat(f"Bot {number}", "bot", level=level)
                       for number, level in enumerate(bots, 1)]
        self.creating.add(code)
        try:
            await off_loop(self.storage.save_room, code, room.record())
        finally:
            self.creating.discard(code)
        self.rooms[code] = room
        return room, 0, token

    def get(self, code: Any) -> Room:
        room = self.rooms.get(normal_code(code)) if isinstance(code, str) else None
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
            "seat_purpose": SEAT_PURPOSE, "event_kinds": event_kinds_json(),
            "custom_composer": composer_json()}


def composer_json() -> dict[str, Any]:
    """What the Wild Customizable rule builder offers (engine/custom.py, DECISIONS.md D17):
    the steps, who each can act on, the counts, the limits, and every preset's steps
    (``count`` null where it is the rules' ``custom_count``)."""
    return {"who": list(WHO), "what": list(WHAT),
            "allowed_who": {what: list(who) for what, who in ALLOWED_WHO.items()},
            "count_range": {what: list(bounds) for what, bounds in COUNT_RANGE.items()},
            "max_steps": MAX_STEPS, "max_name": MAX_NAME, "max_text": MAX_TEXT,
            "presets": {name: [{"who": who, "what": what, "count": None if counted else 1}
                               for who, what, counted in PRESET_STEPS[name]]
                        for name in CUSTOM_RULES}}
