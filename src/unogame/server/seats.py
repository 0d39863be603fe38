"""A room's seats, settings and refusals: what a client may send, checked before anything
is stored."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any, Final

from ..bots.base import level_names
from ..engine import Game, Rules
from ..engine.custom import (
    CustomRuleError,
)
from ..engine.errors import PositionError, RulesError
from ..engine.game import MAX_PLAYERS, MIN_PLAYERS
from ..table import MATCH_OVER as MATCH_OVER
from ..table import PLAYING as PLAYING
from ..table import ROUND_OVER as ROUND_OVER
from .flow import Timing as Timing
from .names import BadNameError, clean_name

CODE_ALPHABET: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH: Final = 8
"""40 bits: at the lookup limit per address, guessing a live room's code takes years. Read
out in two groups of four ("HK7P 3RXD"); spaces and dashes in a typed code are ignored."""
SEED_BITS: Final = 128
LOG_KEEP: Final = 300
MATCHES_KEPT: Final = 20
"""The finished matches a room remembers for its scoreboard ("Play again" keeps them)."""
"""Events kept for a (re)joining client's log."""

MAX_TARGET_SCORE: Final = 5000
"""The highest ``target_score`` a room may play to (ten times the usual 500): a match's
length, and the log a replay reads, stay bounded."""
ROUND_MOVE_CAP: Final = 10_000
"""A round that reaches this many moves ends the match with no winner (docs/DECISIONS.md
L1). Bot tables of random bots play a round of over 6,700 moves about once in a thousand;
people never come near it. Lowering it would leave a stored longer round unplayable."""

GRACE_DEFAULT: Final = 20
"""Seconds a player may be gone before a bot stands in for them (a room setting)."""

FAMILY_CATCH_GRACE: Final = 3.5
"""A family room (``family`` setting, kind to children): seconds after a play during which
no bot is asked anything while a person may be caught for a forgotten UNO, so a child who
says UNO within about 3 s is never caught (``TableSettings.catch_grace``)."""

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


def players_refusal(error: RulesError | PositionError, players: int) -> RoomError:
    """A game the engine will not make with the ``players`` seated at the start (a family's
    rule valid for the room's size that passes over more players than are seated): refused
    before anything is stored, with what the page needs to say why."""
    if isinstance(error, CustomRuleError) and error.key == "skip_too_many":
        count = int(error.fields["count"])
        return RoomError("rule_needs_players",
                         f"the family rule passes over {count} players: it needs at least "
                         f"{count + 1} players and {players} are seated; add players or bots",
                         {"reason": error.key, "fields": {**error.fields, "needed": count + 1}})
    if isinstance(error, CustomRuleError):
        return rules_error(error)
    return RoomError("bad_settings", f"no game with {players} players: {error}")


def default_bot_level() -> str:
    return "medium" if "medium" in level_names() else level_names()[0]


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
    hidden: int = 0
    """Of this process's ``connected`` connections, those whose page is hidden."""
    gone_since: float | None = None
    helper: bool = False
    """The children's helper is on for this seat (its person turned it on)."""
    joined_from: str | None = None
    """A hash of the address the seat was joined from (``admission.seat_mark``)."""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "level": self.level,
                "token_hash": self.token_hash, "helper": self.helper,
                "joined_from": self.joined_from}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        return cls(name=data["name"], kind=data["kind"], level=data.get("level"),
                   token_hash=data.get("token_hash"), gone_since=time.monotonic(),
                   helper=data.get("helper") is True, joined_from=data.get("joined_from"))


def parse_settings(data: dict[str, Any]) -> dict[str, Any]:
    """Check a room's settings from a client: name, seats, rules, turn timer, the grace
    before a bot stands in for someone gone, the level of the bots that fill the free
    seats at the start (``fill``: ``None`` leaves them empty), and ``family`` (kind to
    children: :data:`FAMILY_CATCH_GRACE`). Raises RoomError."""
    seats = data.get("seats", 4)
    if type(seats) is not int or not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        raise RoomError("bad_settings", f"seats must be from {MIN_PLAYERS} to {MAX_PLAYERS}")
    rules_data = data.get("rules", {})
    try:
        rules = Rules.from_dict(rules_data)
    except (RulesError, TypeError) as error:
        raise rules_error(error, "rules: ") from None
    if rules.target_score > MAX_TARGET_SCORE:
        raise RoomError("target_too_high",
                        f"rules: target_score is at most {MAX_TARGET_SCORE} points")
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
    if fill is not None and (not isinstance(fill, str) or fill not in level_names()):
        raise RoomError("bad_settings", f"fill: null or a bot level from {level_names()}")
    family = data.get("family", False)
    if type(family) is not bool:
        raise RoomError("bad_settings", "family must be true or false")
    try:
        name = clean_name(data.get("name"), "UNO", person=False)
    except BadNameError as error:
        raise RoomError("bad_name", f"room name: {error}") from None
    return {"name": name, "capacity": seats,
            "rules": rules.to_dict(), "timer": timer, "grace": grace, "fill": fill,
            "family": family}

