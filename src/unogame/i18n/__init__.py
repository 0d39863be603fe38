"""Translations: every user-facing string comes from the JSON files in this folder.

Files are named ``PART.LANG.json`` (``common.th.json``, ``web.en.json``, ``tui.th.json``);
all parts of one language merge into one table. Keys are dotted names; values may hold
``{name}`` fields filled by :func:`translate`.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES = ("en", "th")
DEFAULT_LANGUAGE = "en"


@cache
def table(language: str) -> dict[str, str]:
    """Every string of a language (missing keys fall back to English)."""
    if language not in LANGUAGES:
        language = DEFAULT_LANGUAGE
    merged: dict[str, str] = {}
    if language != DEFAULT_LANGUAGE:
        merged.update(table(DEFAULT_LANGUAGE))
    folder = resources.files(__package__)
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if entry.name.endswith(f".{language}.json"):
            merged.update(json.loads(entry.read_text(encoding="utf-8")))
    return merged


def translate(language: str, key: str, **fields: Any) -> str:
    """The string for ``key`` in ``language``, with ``fields`` filled in (the key if unknown)."""
    text = table(language).get(key, key)
    return text.format(**fields) if fields else text
