"""Rooms: settings, seats and tokens, the lobby, storage of the room and its messages.

All room logic runs on the server's event loop; storage calls run off it (``commits.py``).
A room's changes run one at a time (:func:`~.commits.one_at_a_time`), so a move is
checked, stored and broadcast before the room looks at the next one, and a message that
arrives while a write is in flight is checked against the position that write leaves. The
game itself is a :class:`~unogame.table.Table` run by :class:`~.flow.RoomGame`: the table
checks every move, the storage appends it, and only then do clients hear of it.
"""

from __future__ import annotations

import logging
import secrets
import time
from typing import Any

from ..engine import Event, Game, Rules
from ..engine.errors import PositionError, RulesError
from ..engine.game import MIN_PLAYERS
from ..engine.state import PlayableGame
from ..table import MATCH_OVER as MATCH_OVER
from ..table import PLAYING as PLAYING
from ..table import ROUND_OVER as ROUND_OVER
from ..table import SeatSpec, Table, TableError, TableSettings, fill_empty_seats
from .commits import Commits, off_loop, one_at_a_time
from .coordination import LOCAL, Coordination
from .flow import RoomGame
from .flow import Timing as Timing
from .hub import Hub
from .retry import retry_stale
from .room_lobby import RoomLobby
from .seats import CODE_ALPHABET as CODE_ALPHABET
from .seats import CODE_LENGTH as CODE_LENGTH
from .seats import (
    FAMILY_CATCH_GRACE,
    GRACE_DEFAULT,
    LOBBY,
    LOG_KEEP,
    MATCHES_KEPT,
    ROUND_MOVE_CAP,
    SEED_BITS,
    RoomError,
    Seat,
    default_bot_level,
    players_refusal,
)
from .storage import StaleError, Storage, StorageError
from .why import move_refusal

log = logging.getLogger("unogame.server")


class Room(RoomLobby):
    """One room: settings, seats, the current game (rebuilt from its log) and its bots."""

    def __init__(self, code: str, settings: dict[str, Any], storage: Storage, hub: Hub,
                 timing: Timing, coordination: Coordination = LOCAL) -> None:
        self.code = code
        self.coordination = coordination
        """Who drives the room, and catching up with other processes (one process: local)."""
        self.name: str = settings["name"]
        self.capacity: int = settings["capacity"]
        self.rules_dict: dict[str, Any] = settings["rules"]
        self.rules = Rules.from_dict(self.rules_dict)
        self.timer: int = settings["timer"]
        self.grace: int = settings.get("grace", GRACE_DEFAULT)
        self.fill: str | None = settings.get("fill")
        self.family: bool = settings.get("family") is True
        """Kind to children: bots wait FAMILY_CATCH_GRACE before any catch of a person."""
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
        self._shown: dict[str, Any] | None = None
        """The game part every client of the room holds (the last one published)."""
        self.spectators = 0
        self.last_active = time.monotonic()
        self.commits = Commits(after=self.schedule)
        """The room's changes, one at a time (its games' too)."""
        self._closed = False
        self.deal: dict[str, Any] | None = None
        self.matches: list[dict[str, Any]] = []
        self.standings: list[dict[str, Any]] = []
        """Wins per player across this room's matches played before the current one
        (``{"name", "bot", "wins"}``; every match, not only the MATCHES_KEPT kept)."""
        self.seeds: dict[str, int] = {}
        """The deal seeds of the finished matches in ``matches``, by game number (kept for
        their replays; never sent to a client: they would show every hidden card)."""
        """A stacked deal for every game of the room (``dealer``, ``deck``, ``seed``):
        set from Python only, for tests and prepared lessons; players never send one."""
        self.present: dict[int, bool] = {}
        self.hidden_pages: dict[int, bool] = {}
        self.creator: int | None = 0
        """The creator's seat (the host at creation): they host again when back."""
        self.banned: list[str] = []
        """The join addresses (``admission.seat_mark``) of people the host removed: they
        join no seat here until the host lets them (``unban``)."""

    @property
    def driving(self) -> bool:
        """This process drives the room's bots, stand-ins and timers (with several
        processes: it holds the room's lease)."""
        return self.coordination.drives(self.code)

    async def refresh(self) -> None:
        """Read the room as stored and apply what this copy missed (a record change
        refused as stale is then tried again, ``retry.py``)."""
        await self.coordination.catch_up_now(self)

    # ------------------------------------------------------------ persistence

    @property
    def version(self) -> int:
        """The position's version: it grows by one with every logged entry, across games."""
        return self.version_base + self.log_length

    @property
    def log_length(self) -> int:
        """Entries in the current game's log (moves and round boundaries)."""
        return self.current.table.version if self.current is not None else 0

    def sync_clock(self) -> None:
        if self.current is not None:
            self.current.sync()

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
            "family": self.family,
            "seats": [seat.to_dict() for seat in self.seats],
            "host": self.host, "creator": self.creator, "status": self.status,
            "game_no": self.game_no,
            "game_seed": self.game_seed, "version_base": self.version_base,
            "deal": self.deal, "matches": self.matches, "seeds": self.seeds,
            "banned": self.banned, "standings": self.standings,
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
        status), logged if it fails. With several processes, the one that drives the room
        saves it (the others derive the same change from the log)."""
        if not self.driving:
            return

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
                timing: Timing, moves: list[tuple[int, str]] | None = None,
                coordination: Coordination = LOCAL) -> Room:
        """A room as stored; its game is rebuilt by replaying the move log (``moves``:
        read already, with the record)."""
        room = cls(code, data, storage, hub, timing, coordination)
        if moves is None:
            moves = storage.load_moves(code, data["game_no"]) if data["game_no"] else []
        room.load_record(data, moves)
        return room

    def load_record(self, data: dict[str, Any], moves: list[tuple[int, str]]) -> None:
        """Take the stored record and rebuild the game from its log (at restore, or when
        another process changed the room)."""
        old = self.seats
        self.name, self.capacity = data["name"], data["capacity"]
        self.rules_dict, self.rules = data["rules"], Rules.from_dict(data["rules"])
        self.timer, self.grace = data["timer"], data.get("grace", GRACE_DEFAULT)
        self.fill = data.get("fill")
        self.family = data.get("family") is True
        self.seats = [Seat.from_dict(seat) for seat in data["seats"]]
        for seat, before in zip(self.seats, old, strict=False):
            seat.connected, seat.gone_since = before.connected, before.gone_since
            seat.hidden = before.hidden
        self.host = data["host"]
        creator = data.get("creator", 0)  # a record from before: the creator sat first
        self.creator = creator if type(creator) is int and 0 <= creator < len(self.seats) \
            and self.seats[creator].kind == "human" else None
        self.game_no = data["game_no"]
        self.game_seed = data["game_seed"]
        self.version_base = data["version_base"]
        self.deal = data.get("deal")
        self.matches = list(data.get("matches", []))
        self.standings = [dict(row) for row in data.get("standings", [])]
        self.seeds = dict(data.get("seeds", {}))
        self.banned = list(data.get("banned", []))
        self.present = {index: self.present_anywhere(index) for index in range(len(self.seats))}
        if self.game_no:
            self._new_game()
            assert self.current is not None
            self.current.replay(moves)
        elif self.current is not None:
            self.current.close()
            self.current = None
        self._last_status = self.status

    def same_record(self, data: dict[str, Any]) -> bool:
        """The stored record says what this room says (only its log may have grown)."""
        return {**data, "status": None} == {**self.record(), "status": None}

    def apply_entries(self, entries: list[tuple[int, str]]) -> None:
        """Entries another process stored after this room's log: applied, told to this
        process's clients."""
        if self.current is not None and entries:
            self._changed(self.current.apply_entries(entries))

    # ------------------------------------------------------------ game flow

    def _new_game(self) -> None:
        """The game's table (seats, rules, seed, settings), from the stored room."""
        table = self._table(self.seats, self.game_seed)
        for index in range(len(self.seats)):  # pages in the background on their turn
            if self.seats[index].kind == "human" and self.hidden_pages.get(index, False) \
                    and self.present_anywhere(index):
                table.set_hidden(index, True)
        if self.current is not None:
            self.current.close()
        self.current = RoomGame(self.code, self.game_no, table, self.storage, self.timing,
                                self._changed, self.publish_room, self.not_saved,
                                self.commits)

    def _table(self, seated: list[Seat], seed: int) -> Table:
        """A game's table for these seats (the room's seats and any bots filling it, in
        order) and seed; raises the engine's refusal (``RulesError``, ``PositionError``)."""
        settings = TableSettings(grace=float(self.grace),
                                 turn_timer=float(self.timer) if self.timer else None,
                                 next_round_countdown=self.timing.next_round,
                                 stand_in_level=default_bot_level(),
                                 round_cap=ROUND_MOVE_CAP, log_keep=LOG_KEEP,
                                 catch_grace=FAMILY_CATCH_GRACE if self.family else None)
        seats = [SeatSpec(seat.name, seat.level or default_bot_level()
                          if seat.kind == "bot" else None) for seat in seated]
        game = None
        if self.deal is not None:
            game = Game.deal(len(seated), self.deal["dealer"], self.deal["deck"],
                             self.rules, seed)
        present = [index for index in range(min(len(seated), len(self.seats)))
                   if self.present_anywhere(index)]
        return Table(seats, self.rules, seed, settings, game=game, present=present,
                     host=self.host if seated[self.host].kind == "human" else None)

    @one_at_a_time
    @retry_stale
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
    @retry_stale
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
        await self._begin_game(self.seats, matches, seeds, self.standings_now())

    async def _begin_game(self, seats: list[Seat],
                          matches: list[dict[str, Any]] | None = None,
                          seeds: dict[str, int] | None = None,
                          standings: list[dict[str, Any]] | None = None) -> None:
        seed = self.deal["seed"] if self.deal is not None else secrets.randbits(SEED_BITS)
        matches = self.matches if matches is None else matches
        seeds = self.seeds if seeds is None else seeds
        standings = self.standings if standings is None else standings
        try:  # made once first: a game the engine refuses is never stored as playing
            self._table(seats, seed)
        except (RulesError, PositionError) as error:
            raise players_refusal(error, len(seats)) from None
        await self._store({  # stored first: a failed write changes nothing
            **self.record(), "version_base": self.version + 1, "game_no": self.game_no + 1,
            "game_seed": seed, "status": PLAYING, "matches": matches, "seeds": seeds,
            "standings": standings, "seats": [seat.to_dict() for seat in seats]})
        self.matches = matches
        self.seeds = seeds
        self.standings = standings
        self.version_base = self.version + 1
        self.game_no += 1
        self.game_seed = seed
        self.seats = seats
        self._new_game()
        self._last_status = self.status
        self.publish_room()
        self.publish_state()
        self.schedule()

    def standings_now(self) -> list[dict[str, Any]]:
        """Wins per player in this room, the match just won included (it joins the stored
        standings at "Play again"; until then a restart derives it from the move log)."""
        rows = [dict(row) for row in self.standings]
        table = self.table
        winner = table.game.game_winner if table is not None and self.status == MATCH_OVER \
            else None
        if winner is not None and winner < len(self.seats):
            seat = self.seats[winner]
            key = {"name": seat.name, "bot": seat.kind == "bot"}
            row = next((row for row in rows
                        if {"name": row["name"], "bot": row["bot"]} == key), None)
            if row is None:
                rows.append({**key, "wins": 1})
            else:
                row["wins"] += 1
        return sorted(rows, key=lambda row: -int(row["wins"]))

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
        again shortly); everyone is told. Refused as stale (another process moved first):
        the room catches up, nobody needs telling."""
        if isinstance(error, StaleError):
            return
        log.warning("room %s: move not saved, retrying: %s", self.code, error)
        self.hub.publish(self.code, lambda seat: {
            "type": "error", "code": "not_saved",
            "message": "the game could not be saved; nothing changed, try again"})

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
        try:
            events = await current.store_and_play(seat, move)
        except StaleError:  # another process stored a move first: this room catches up
            await self.refresh()
            if self.closed:  # not moved on: gone from storage
                raise RoomError("room_gone", "this room no longer exists") from None
            raise RoomError("stale", "the position has moved on") from None
        self._changed(events)

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
        self.hub.share(self.code, {"k": "ready", "seat": seat, "v": self.version})
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
        self.hub.share(self.code, {"k": "hand", "by": by, "seat": seat, "v": self.version})
        self.publish_room()
        self.schedule()

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
        people are all gone waits for one of them: its bots do not play on for nobody. With
        several processes, only the one that holds the room's lease plans."""
        current = self.current
        if current is not None:
            people = [index for index, seat in enumerate(self.seats) if seat.kind == "human"]
            current.paused = not self.driving or (
                bool(people) and not any(self.present_anywhere(index) for index in people))
            current.schedule()

    @property
    def closed(self) -> bool:
        """The room is closed: gone from this process (deleted, or lost from storage)."""
        return self._closed

    def close(self) -> None:
        self._closed = True
        if self.current is not None:
            self.current.close()
