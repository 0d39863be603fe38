"""The observation written straight from a game's int readers (the fast path).

:func:`~unogame.env.observation.encode` builds the observation from ``game.view(seat)``, a
dict of card codes; this module writes the same array from the fields that view is made
of, read as ints: the seat's own hand, the other hands' sizes, the piles (the draw pile by
its size), the public fields and the part of a pending decision the seat may see (D7, D8).
It reads nothing a view does not show. For a game played through the compiled core
(:class:`~unogame.native.game.NativeGame`) the C module ``unogame.native._envobs`` writes
it from the core state. ``tests/test_env_fast.py`` proves both equal to ``encode`` of the
view over random games.

>>> from unogame.engine import Game
>>> from unogame.env.memory import SeenCards
>>> from unogame.env.observation import SeatMemory, encode, rules_features
>>> game = Game.new(3, seed=5)
>>> seen = SeenCards(3)
>>> seen.new_round(game.discard_cards)
>>> memory = SeatMemory(0, 3)
>>> memory.new_round(game.view(0))
>>> fast = encode_game(game, 0, seen, rules_features(game.rules))
>>> bool((fast == encode(game.view(0), memory, game.rules)).all())
True
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..engine import Game
from ..engine.cards import NUM_CARDS
from .memory import SeenCards
from .observation import HIGH, PENDING_KINDS, SEAT_FEATURES, SIZE, SLICES

_O: Final = {name: piece.start for name, piece in SLICES.items()}
_PENDING: Final = {kind: index for index, kind in enumerate(PENDING_KINDS)}
_KNOWN: Final = SLICES["known"]
_WIDTH: Final = len(SEAT_FEATURES)


def _load_native() -> ModuleType | None:
    from .. import native

    if native.CORE is None:
        return None
    try:
        from ..native import _envobs  # type: ignore[attr-defined]
    except ImportError:
        return None
    o = _O
    layout = (o["hand"], o["top"], o["color"], o["direction"], o["pending"],
              o["pending_amount"], o["pending_drawn"], o["pending_by"], o["to_act"],
              o["seats"], o["discard"], o["played"], o["draw_pile"], o["rules"],
              SLICES["custom_rule"].stop - o["rules"], SIZE, _WIDTH, int(HIGH), _KNOWN.start)
    _envobs.bind(native.CORE.State, layout)
    return _envobs  # type: ignore[no-any-return]


NATIVE: Final[ModuleType | None] = _load_native()
"""The C encoder and stepper (with the compiled core), or ``None``."""


def encode_game(game: Game, seat: int, seen: SeenCards,
                rules_part: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """``seat``'s observation of an engine game, from its int readers."""
    obs = np.zeros(SIZE, dtype=np.float32)
    o = _O
    players = game.players
    counts = [0] * NUM_CARDS
    for card in game.card_hands[seat]:
        counts[card] += 1
    obs[:NUM_CARDS] = counts
    discard = game.discard_cards
    if discard:
        obs[o["top"] + discard[-1]] = 1.0
        obs[SLICES["discard"]] = np.bincount(discard, minlength=NUM_CARDS)
    color = game.color_index
    if color >= 0:
        obs[o["color"] + color] = 1.0
    obs[o["direction"]] = 1.0 if game.direction == 1 else 0.0
    pending = game.pending
    turn = game.turn
    if pending is None:
        obs[o["pending"]] = 1.0
    else:
        kind = pending.kind
        obs[o["pending"] + _PENDING[kind]] = 1.0
        if kind in ("challenge", "stack"):
            obs[o["pending_amount"]] = pending.amount / 10
        if kind == "drawn" and seat == turn:
            obs[o["pending_drawn"] + pending.card] = 1.0
        if kind == "challenge":
            obs[o["pending_by"] + (pending.by - seat) % players] = 1.0
    obs[o["to_act"] + (turn - seat) % players] = 1.0
    hands = game.card_hands
    uno = game.uno_seats
    catchable = game.catchable_seats
    scores = game.scores
    target = game.rules.target_score
    rows: list[float] = []
    for offset in range(players):
        other = (seat + offset) % players
        rows += (1.0, len(hands[other]) / 10, other in uno, other in catchable,
                 min(1.0, scores[other] / target))
    start = o["seats"]
    obs[start:start + len(rows)] = rows
    obs[SLICES["played"]] = np.minimum(seen.played, HIGH)
    known = seen.known_counts(seat)
    if known is not None:
        obs[_KNOWN] = known
    obs[o["draw_pile"]] = len(game.draw_cards) / 112
    obs[o["rules"]:] = rules_part
    return obs


def encode_state(state: Any, seat: int, seen: SeenCards,
                 rules_part: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """``seat``'s observation of a core state (``NativeGame.state``), written in C."""
    assert NATIVE is not None
    obs = np.empty(SIZE, dtype=np.float32)
    NATIVE.encode(state, seat, obs, seen.played, rules_part)
    known = seen.known_counts(seat)
    if known is not None:
        obs[_KNOWN] = known
    return obs


def direction(state: Any) -> int:
    """The direction of play of a core state."""
    assert NATIVE is not None
    value: int = NATIVE.direction(state)
    return value
