"""``learned``: a small network trained to make ``hard``'s choices without its search.

``hard`` (:mod:`.ismcts`) searches only its on-turn decisions with more than one option;
everything else (UNO, catching, jump-ins, forced moves) comes from the ``medium`` rules.
``learned`` keeps that shape and replaces the search: each option the search would weigh
gets a feature vector (:func:`option_features`: the hand by colour and kind, the others'
hand sizes, what the next seat is known to lack, the move itself and whether it is
``medium``'s choice), a per-move network scores it, and the best score is played. It sees
what every bot sees: its view, its events (through the card tracker) and its legal moves.

The weights (``learned.npz`` beside this module) come from ``scripts/train_learned.py``:
imitation of ``hard``'s decisions in rounds against ``medium`` with 2 to 10 players.
Inference is numpy only (a few matrix products per decision).

>>> from unogame.engine import Game
>>> game = Game.new(2, seed=4)
>>> bot = LearnedBot(seed=1)
>>> bot.new_round(game.turn, game.view(game.turn), game.rules)
>>> bot.choose(game.view(game.turn), game.legal_moves()) in game.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..engine import Game, Move
from ..engine.cards import (
    CARD_COLOR,
    CARD_POINTS,
    CARD_RANK,
    DRAW_TWO,
    REVERSE,
    SKIP,
    WILD,
    WILD_CUSTOM,
    WILD_DRAW_FOUR,
    WILD_SWAP,
    card_from_code,
)
from ..engine.moves import ACCEPT, CHALLENGE, COLOR, DRAW, PASS, PLAY
from .base import BOT_LEVELS
from .ismcts import HardBot
from .knowledge import CardTracker
from .rollout import UNO_BIT

Array = npt.NDArray[np.float32]

WEIGHTS: Final = Path(__file__).with_name("learned.npz")
"""The shipped weights (made by ``scripts/train_learned.py``)."""

_PENDING: Final = ("challenge", "drawn", "stack", "color")
_KINDS: Final = (PLAY, DRAW, PASS, CHALLENGE, ACCEPT, COLOR)
_SPECIAL: Final = (SKIP, REVERSE, DRAW_TWO)
_WILDS: Final = (WILD, WILD_DRAW_FOUR, WILD_SWAP, WILD_CUSTOM)


def context_features(view: dict[str, Any], seat: int, tracker: CardTracker) -> list[float]:
    """What the position looks like to ``seat``, the same for each of its options."""
    hands = view["hands"]
    players = len(hands)
    direction = view["direction"]
    hand = [card_from_code(code) for code in hands[seat]]
    sizes = [len(h) if isinstance(h, list) else h for h in hands]
    following = (seat + direction) % players
    behind = (seat - direction) % players
    after_next = (seat + 2 * direction) % players
    others = [sizes[s] for s in range(players) if s != seat]
    by_color = [0.0] * 5
    by_rank = [0.0] * 3
    for card in hand:
        by_color[CARD_COLOR[card]] += 1
        rank = CARD_RANK[card]
        if card < WILD and rank >= SKIP:
            by_rank[rank - SKIP] += 1
    color = "RYGB".find(view["color"]) if view["color"] else -1
    pending = view["pending"]
    kind = pending["kind"] if pending is not None else None
    return [
        players / 10, float(players == 2), float(players >= 5),
        len(hand) / 10, float(len(hand) <= 2),
        *(count / 7 for count in by_color[:4]), by_color[4] / 4,
        *(count / 4 for count in by_rank),
        (by_color[color] / 7) if color >= 0 else 0.0,
        sizes[following] / 10, float(sizes[following] <= 1), float(sizes[following] <= 2),
        sizes[behind] / 10, float(sizes[behind] <= 2),
        sizes[after_next] / 10,
        min(others) / 10, float(min(others) <= 2), sum(others) / (10 * len(others)),
        view["draw_pile"] / 100,
        *(float(kind == name) for name in _PENDING),
        float(tracker.drawn is not None),
    ]


def _move_color(move: Move) -> int:
    """The colour to match after the move (-1: none or unknown)."""
    if move.kind == COLOR:
        return move.color
    if move.kind == PLAY:
        return move.color if move.card >= WILD else CARD_COLOR[move.card]
    return -1


def option_features(view: dict[str, Any], seat: int, tracker: CardTracker,
                    options: Sequence[Move], prior: Move | None) -> Array:
    """One row per option: the context, then the move (kind, card, the colour it leaves and
    what this seat and the next hold of it, its target, whether ``medium`` chose it)."""
    context = context_features(view, seat, tracker)
    hands = view["hands"]
    players = len(hands)
    hand = [card_from_code(code) for code in hands[seat]]
    sizes = [len(h) if isinstance(h, list) else h for h in hands]
    following = (seat + view["direction"]) % players
    lacks = tracker.allowance[following] if following < len(tracker.allowance) else [None] * 5
    others = [s for s in range(players) if s != seat]
    color_now = "RYGB".find(view["color"]) if view["color"] else -1
    unseen = tracker.unseen(view)
    unseen_color = [0] * 5
    unseen_rank = [0] * 13
    for card in unseen:
        unseen_color[CARD_COLOR[card]] += 1
        if card < WILD:
            unseen_rank[CARD_RANK[card]] += 1
    hidden = max(1, len(unseen))
    named_next = tracker.named[following] if following < len(tracker.named) else -1
    plays = sum(1 for move in options if move.kind == PLAY)
    context += [len(options) / 10, plays / 10, unseen_color[4] / hidden,
                sum(1 for c in range(4) if any(CARD_COLOR[x] == c for x in hand)) / 4]
    prior_codes = set()
    if prior is not None:
        prior_codes = {prior.code, prior.code | UNO_BIT}
    rows = []
    for move in options:
        card = move.card if move.kind == PLAY else -1
        rank = CARD_RANK[card] if 0 <= card < WILD else -1
        rest = list(hand)
        if card >= 0 and card in rest:
            rest.remove(card)
        color = _move_color(move)
        same_color = sum(1 for c in rest if c < WILD and CARD_COLOR[c] == color)
        same_rank = sum(1 for c in rest if c < WILD and CARD_RANK[c] == rank) if rank >= 0 else 0
        wilds = sum(1 for c in rest if c >= WILD)
        limit = lacks[color] if color >= 0 else None
        target = sizes[move.target] if move.target >= 0 else 0
        row = [
            *(float(move.kind == kind) for kind in _KINDS),
            float(0 <= rank <= 9), (rank / 9) if 0 <= rank <= 9 else 0.0,
            *(float(rank == special) for special in _SPECIAL),
            *(float(card == wild) for wild in _WILDS),
            CARD_POINTS[card] / 50 if card >= 0 else 0.0,
            float(color >= 0 and color == color_now),
            same_color / 7, same_rank / 4, wilds / 4,
            (same_color + same_rank + wilds) / 10,
            float(limit == 0), (1 / (1 + limit)) if limit is not None else 0.0,
            target / 10, float(move.target >= 0 and move.target == following),
            float(move.uno),
            unseen_color[color] / hidden if color >= 0 else 0.0,
            unseen_rank[rank] / 8 if rank >= 0 else 0.0,
            sum(1 for other in others
                if tracker.allowance[other][color] == 0) / len(others) if color >= 0 else 0.0,
            float(color >= 0 and named_next == color),
            float(move.code in prior_codes),
            len(rest) / 10 if card >= 0 else (len(hand) + 1) / 10,
        ]
        rows.append(context + row)
    return np.asarray(rows, dtype=np.float32)


FEATURES: Final = len(option_features(
    Game.new(2, seed=0).view(0), 0, CardTracker(0, 2), [Move.parse("draw")], None)[0])
"""The width of a feature row."""


class ScoringNetwork:
    """A per-move MLP: ``(x - mean) / std`` → ReLU layers → one score per row."""

    def __init__(self, arrays: dict[str, Array]) -> None:
        self.mean = arrays["mean"]
        self.std = arrays["std"]
        layers = sorted(int(name[1:]) for name in arrays if name.startswith("w"))
        self.layers = [(arrays[f"w{i}"], arrays[f"b{i}"]) for i in layers]
        if self.mean.shape != (FEATURES,) or self.layers[0][0].shape[0] != FEATURES:
            raise ValueError(f"the weights expect {self.mean.shape} features, not {FEATURES}: "
                             "retrain them (scripts/train_learned.py)")

    @classmethod
    def load(cls, path: str | Path) -> ScoringNetwork:
        with np.load(path) as data:
            return cls({name: data[name].astype(np.float32) for name in data.files})

    def scores(self, rows: Array) -> Array:
        x = (rows - self.mean) / self.std
        last = len(self.layers) - 1
        for i, (weight, bias) in enumerate(self.layers):
            x = x @ weight + bias
            if i < last:
                np.maximum(x, 0, out=x)
        return x.reshape(-1)


_SHIPPED: dict[str, ScoringNetwork] = {}


def shipped_network() -> ScoringNetwork:
    """The weights shipped with the package, loaded once."""
    if "net" not in _SHIPPED:
        _SHIPPED["net"] = ScoringNetwork.load(WEIGHTS)
    return _SHIPPED["net"]


class LearnedBot(HardBot):
    """``hard`` with the search replaced by a network trained on its choices (see the
    module docstring); ``network`` or ``weights`` (a ``.npz`` path) replace the shipped one."""

    level = "learned"
    keeps_decisions = False

    def __init__(self, seed: int = 0, network: ScoringNetwork | None = None,
                 weights: str | Path | None = None) -> None:
        super().__init__(seed)
        if network is None:
            network = ScoringNetwork.load(weights) if weights is not None else shipped_network()
        self.network = network

    def search(self, view: dict[str, Any], template: Game, options: list[Move],
               prior: Move | None = None) -> Move:
        assert self.seat is not None
        rows = option_features(view, self.seat, self.tracker, options, prior)
        return options[int(np.argmax(self.network.scores(rows)))]


BOT_LEVELS["learned"] = LearnedBot
