"""Keys under a Thai keyboard layout: the game's letter keys by their physical place.

With the Thai Kedmanee layout (the standard one, TIS 820-2538) the key marked D types
``ก``; a terminal sends the character, not the key. :func:`latin_character` gives back
the character the same key types under the US layout, so D, K, U, C... work in either
layout. Shifted keys give the lower-case letter (Caps Lock and Shift do not matter), Thai
digits give their digit.

>>> latin_character("ก"), latin_character("า"), latin_character("แ"), latin_character("๒")
('d', 'k', 'c', '2')
>>> latin_character("d"), latin_character("?"), latin_character("€")
('d', '?', '€')
"""

from __future__ import annotations

from typing import Final

_US_UNSHIFTED: Final = "1234567890-=qwertyuiop[]\\asdfghjkl;'zxcvbnm,./"
_THAI_UNSHIFTED: Final = "ๅ/-ภถุึคตจขชๆไำพะัีรนยบลฃฟหกดเ้่าสวงผปแอิืทมใฝ"
_US_SHIFTED: Final = "qwertyuiop{}|asdfghjkl:\"zxcvbnm<>?"
_THAI_SHIFTED: Final = "๐\"ฎฑธํ๊ณฯญฐ,ฅฤฆฏโฌ็๋ษศซ.()ฉฮฺ์?ฒฬฦ"  # noqa: RUF001
_THAI_DIGITS: Final = "๐๑๒๓๔๕๖๗๘๙"

THAI_TO_LATIN: Final[dict[str, str]] = {
    **{thai: latin for thai, latin in zip(_THAI_UNSHIFTED, _US_UNSHIFTED, strict=True)
       if not thai.isascii()},
    **{thai: latin.lower() for thai, latin in zip(_THAI_SHIFTED, _US_SHIFTED, strict=True)
       if not thai.isascii()},
    **{thai: str(digit) for digit, thai in enumerate(_THAI_DIGITS)},
    "/": "2", "-": "3",  # the Thai layout's keys 2 and 3; neither is a key of the game
}
"""Thai character → the US-layout character of the same key."""

LATIN_KEY_NAMES: Final = {"?": "question_mark", "/": "slash", "-": "minus", ";": "semicolon",
                          "'": "apostrophe", ",": "comma", ".": "full_stop",
                          "[": "left_square_bracket", "]": "right_square_bracket",
                          "\\": "backslash", "=": "equals_sign", "{": "left_curly_bracket",
                          "}": "right_curly_bracket", "|": "vertical_line", ":": "colon",
                          '"': "quotation_mark", "<": "less_than_sign",
                          ">": "greater_than_sign"}
"""Textual's key names of the punctuation a Thai key may stand for."""


def latin_character(character: str) -> str:
    """The US-layout character typed by the key that types ``character`` in Thai."""
    return THAI_TO_LATIN.get(character, character)


def latin_key_name(character: str) -> str:
    """Textual's name of the key typing ``character`` (a letter or digit names itself)."""
    return LATIN_KEY_NAMES.get(character, character)


__all__ = ["THAI_TO_LATIN", "latin_character", "latin_key_name"]
