"""Names a person types (player and room names): cleaned so that they read as what they are.

Control, bidi-override and zero-width characters are removed (they reorder or hide text),
runs of combining marks are cut short (Thai needs up to three on one letter), spaces are
collapsed, and a name that shows nothing is refused. A person cannot take a name that reads
as a bot's: bots are marked in the data (``kind``), and names like "Bot 1" are kept for them.

>>> clean_name("  Ann\\u202e  \\u200b Lee ", "Player 1")
'Ann Lee'
>>> clean_name(None, "Player 1")
'Player 1'
>>> clean_name("\\u200b\\u3164", "Player 1")
Traceback (most recent call last):
...
unogame.server.names.BadNameError: a name needs at least one visible letter, digit or sign
>>> clean_name("B\\u043et 2", "x")  # a Cyrillic o
Traceback (most recent call last):
...
unogame.server.names.BadNameError: names like 'Bot 1' are kept for the bots
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Final

MAX_NAME: Final = 24
MAX_MARKS: Final = 3
"""Combining marks kept on one letter (Thai stacks a vowel and a tone mark)."""

DROPPED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Controls, formats (bidi overrides, zero-width), surrogates, private use, unassigned."""

INVISIBLE: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5")
"""Letters that draw nothing (Hangul fillers, the blank Braille pattern, ...)."""

BOT_WORDS: Final = ("bot", "b0t", "บอท", "บอต", "robot", "🤖")
# Letters that look like Latin ones in other scripts, for the bot-name check only.
LOOKALIKES: Final = str.maketrans({  # after casefold: Cyrillic and Greek o, b, t
    "\u043e": "o", "\u03bf": "o", "\u0432": "b", "\u03b2": "b", "\u044c": "b",
    "\u0442": "t", "\u03c4": "t"})


class BadNameError(ValueError):
    """A name that cannot be used; the message says why."""


def is_text(value: str) -> bool:
    """Valid Unicode: no lone surrogates (which JSON allows and UTF-8 cannot encode)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _kept(text: str) -> str:
    out: list[str] = []
    marks = 0
    for char in text:
        category = unicodedata.category(char)
        if category in DROPPED_CATEGORIES or char in INVISIBLE:
            continue
        if category.startswith("M"):
            if not out or marks >= MAX_MARKS:
                continue
            marks += 1
        else:
            marks = 0
        out.append(" " if category == "Zs" else char)
    return " ".join("".join(out).split())


def _visible(text: str) -> bool:
    return any(unicodedata.category(char)[0] in "LNPS" for char in text)


def looks_like_bot(text: str) -> bool:
    """Does the name read as a bot's ("Bot 3", "bot", "🤖 Ann", "บอท 2", "B0T-1")?"""
    folded = unicodedata.normalize("NFKC", text).casefold().translate(LOOKALIKES)
    if "🤖" in folded:
        return True
    squeezed = re.sub(r"[\W_]+", "", folded)
    return any(re.fullmatch(f"{re.escape(word.translate(LOOKALIKES))}[0-9]*", squeezed)
               for word in BOT_WORDS)


def clean_name(name: Any, fallback: str, *, person: bool = True) -> str:
    """The name to show; ``fallback`` when none was given. Raises :class:`BadNameError`.

    ``person``: a player's name (not a room's), which may not read as a bot's."""
    if name is None:
        return fallback
    if not isinstance(name, str):
        raise BadNameError("a name is text")
    if not is_text(name):
        raise BadNameError("a name must be valid Unicode text")
    cleaned = _kept(unicodedata.normalize("NFC", name[: MAX_NAME * 8]))[:MAX_NAME].strip()
    if not _visible(cleaned):
        raise BadNameError("a name needs at least one visible letter, digit or sign")
    if person and looks_like_bot(cleaned):
        raise BadNameError("names like 'Bot 1' are kept for the bots")
    return cleaned
