"""Why a key did nothing: the engine's refusal (a stable code with parameters, the same
codes the web game translates) in the player's language.

No Textual here.

>>> from unogame.engine import Game
>>> game = Game.from_position({"players": 2, "hands": [["R1", "G2"], ["B7", "Y3"]],
...                            "draw_pile": ["Y1"], "discard_pile": ["R5"], "color": "R",
...                            "turn": 0})
>>> words = Words("en", ["Ann", "Bob"])
>>> refusal_text(words, game, 0, play_move("G2"))
'G2 does not match: play a red card or one like R5.'
>>> refusal_text(words, game, 1, play_move("Y3"))
"It is Ann's turn, not yours."
"""

from __future__ import annotations

from collections.abc import Mapping

from ..engine import Game
from ..engine.explain import Param, refusal
from ..engine.moves import Move
from ..engine.state import PlayableGame
from .cards import card_label
from .words import Words

SEAT_PARAMS = frozenset({"seat", "target", "turn", "by"})


def play_move(code: str) -> Move:
    """The plainest play of ``code`` (a wild with a colour), to ask the engine why not."""
    return Move.parse(f"play {code} R" if code.startswith("W") else f"play {code}")


def _param(words: Words, name: str, value: Param) -> str:
    if name in ("card", "top"):
        return card_label(str(value)) if value else "-"
    if name == "color":
        return words.color_name(str(value) or None)
    if name in SEAT_PARAMS and isinstance(value, int):
        return words.seat_name(value)
    return str(value)


def refusal_text(words: Words, game: PlayableGame, seat: int, move: Move) -> str:
    """Why ``seat`` may not make ``move`` now, in ``words``' language (the web game's
    texts for the engine's codes; the engine's English when a text is missing)."""
    if not isinstance(game, Game):  # the terminal's tables hold the engine's Game
        return words.t("tui.msg.not_legal")
    found = refusal(game, seat, move)
    return reason_text(words, found.code, found.params, found.text)


def reason_text(words: Words, code: str, params: Mapping[str, Param], fallback: str) -> str:
    """The engine's refusal ``code`` with its ``params`` in ``words``' language (as a
    server sends it too); ``fallback`` when there is no text for it.

    >>> reason_text(Words("th", ["Ann", "Bob"]), "not_your_turn", {"turn": 0}, "?")
    'ตอนนี้เป็นตาของ Ann ไม่ใช่ตาของคุณ'
    """
    key = f"web.why.{code}"
    fields = {name: _param(words, name, value) for name, value in params.items()}
    try:
        text = words.t(key, **fields)
    except (KeyError, IndexError):  # a text naming a parameter this code lacks
        return fallback
    return fallback if text == key else text


__all__ = ["play_move", "reason_text", "refusal_text"]
