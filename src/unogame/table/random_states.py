"""A random generator's state as JSON and back: what resumes a saved match's bots, helpers
and reaction jitter exactly (:meth:`~.table.Table.random_states`)."""

from __future__ import annotations

import random
from typing import Any


def rng_state(rng: random.Random) -> list[Any]:
    version, words, gauss = rng.getstate()
    return [version, list(words), gauss]


def set_rng_state(rng: random.Random, value: Any) -> None:
    """Set what :func:`rng_state` gave (``ValueError`` if it does not fit)."""
    try:
        version, words, gauss = value
        rng.setstate((int(version), tuple(int(word) for word in words), gauss))
    except (TypeError, ValueError) as error:
        raise ValueError(f"not a random state: {error}") from None


__all__ = ["rng_state", "set_rng_state"]
