"""A match at this keyboard saved after every move, and resumed exactly (``uno play
--resume``).

The file is JSON: the match's choices (seats, rules, seed, language, pace), every move and
deal in order (the notation), and the states of the table's random generators. Resuming
replays the moves on a new table from the same seed (the same deals, the same hands, turn
and scores; the bots hear every event again) and sets the generators back, so the bots go
on as they would have. Written whole or not at all (a new file renamed over the old).

No Textual here.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from ..bots.base import level_names
from ..engine import Move, NotationError, Rules, RulesError
from ..table import TableError
from .match import NEXT_ROUND, Match, MatchConfig, SeatConfig

FORMAT = "unogame-tui-match"
FORMAT_VERSION = 1


class SaveError(Exception):
    """A saved match that cannot be resumed (not there, not ours, damaged)."""


def default_path() -> Path:
    """The saved match in the user's data directory (XDG_DATA_HOME, else ~/.local/share)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                            "share")
    return Path(base) / "unogame" / "match.json"


def write_atomically(path: Path, text: str) -> None:
    """``text`` in ``path``, whole or not at all (a crash mid-write leaves the old file):
    written beside it, flushed to disk, then renamed over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def match_record(match: Match) -> dict[str, Any]:
    config = match.config
    return {
        "format": FORMAT, "version": FORMAT_VERSION,
        "seats": [{"name": seat.name, "level": seat.level} for seat in config.seats],
        "rules": config.rules.to_dict(), "seed": config.seed, "lang": config.lang,
        "bot_delay": config.bot_delay, "reaction_delay": config.reaction_delay,
        "moves": [[seat, text] for seat, text in match.moves],
        "random": match.table.random_states(),
    }


def save(match: Match, path: Path) -> None:
    """Save ``match`` in ``path`` (atomically)."""
    write_atomically(path, json.dumps(match_record(match), ensure_ascii=False,
                                      separators=(",", ":")))


def load(path: Path) -> Match:
    """The match saved in ``path``, at the position it was saved in (``SaveError``
    saying what is wrong otherwise)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SaveError(f"no saved match in {path}") from None
    except (OSError, ValueError) as error:
        raise SaveError(f"{path} cannot be read: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(f"{path} is not a saved match of uno play")
    if data.get("version") != FORMAT_VERSION:
        raise SaveError(f"{path} was saved by another version (format {data.get('version')})")
    try:
        seats = [SeatConfig(str(seat["name"]), seat.get("level")) for seat in data["seats"]]
        for seat in seats:  # only the name of a --bot-level level is saved, not its SPEC
            if seat.level is not None and ":" not in seat.level \
                    and seat.level not in level_names():
                raise SaveError(f"{path}: {seat.name} is a bot of level {seat.level!r}, which "
                                f"is not offered now: resume with the --bot-level "
                                f"{seat.level}=SPEC that the match was started with")
        config = MatchConfig(seats=seats, rules=Rules.from_dict(data["rules"]),
                             seed=int(data["seed"]), lang=str(data.get("lang", "en")),
                             bot_delay=float(data.get("bot_delay", 1.0)),
                             reaction_delay=data.get("reaction_delay"))
        try:
            config.check()
        except ValueError as error:  # e.g. a policy:PATH whose file is gone
            raise SaveError(f"{path}: {error}") from None
        match = Match(config)
        for number, (seat, text) in enumerate(data["moves"]):
            try:
                if seat == -1 and text == NEXT_ROUND:
                    match.next_round()
                else:
                    match.push(int(seat), Move.parse(str(text)))
            except (TableError, NotationError) as error:
                raise SaveError(f"{path}: move {number + 1} ({text!r}) does not replay: "
                                f"{error}") from None
        match.table.set_random_states(data["random"])
    except SaveError:
        raise
    except (KeyError, TypeError, ValueError, RulesError, TableError) as error:
        raise SaveError(f"{path} is damaged: {error!r}") from None
    return match


__all__ = ["SaveError", "default_path", "load", "match_record", "save", "write_atomically"]
