"""The observation array: what one seat sees, from its view and its own events only.

``encode(view, memory, rules)`` is the whole observation; it never touches a
:class:`~unogame.engine.Game`. Seats are relative (offset 0 is the observing seat, then
the seats after it in seat order). The layout, by ``SECTIONS`` (name, size), is documented
in docs/ENV.md.

>>> from unogame.engine import Game
>>> game = Game.new(3, seed=5)
>>> memory = SeatMemory(seat=0, players=3)
>>> memory.new_round(game.view(0))
>>> obs = encode(game.view(0), memory, game.rules)
>>> obs.shape, float(obs[SLICES["hand"]].sum())
((884,), 7.0)
"""

from __future__ import annotations

import copy
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..bots.knowledge import CardTracker
from ..engine import Rules
from ..engine.cards import CARD_CODE, COLORS, NUM_CARDS
from ..engine.moves import MAX_SEATS
from ..engine.rules import CUSTOM_RULES

PENDING_KINDS: Final = (None, "color", "drawn", "challenge", "stack")
RULE_FLAGS: Final = ("must_play_drawn", "stacking", "challenge", "two_player_reverse_skips",
                     "seven_zero", "jump_in", "draw_until_playable")
SEAT_FEATURES: Final = ("present", "hand_size", "uno", "catchable", "score")

SECTIONS: Final = (
    ("hand", NUM_CARDS),                # copies of each card kind in my hand
    ("top", NUM_CARDS),                 # one-hot top card of the discard pile
    ("color", 4),                       # one-hot colour to match (none before a first wild)
    ("direction", 1),                   # 1: seat order, 0: reversed
    ("pending", len(PENDING_KINDS)),    # one-hot pending decision (first: none)
    ("pending_amount", 1),              # cards a pending challenge or stack would give / 10
    ("pending_drawn", NUM_CARDS),       # the drawn card I may play (pending "drawn", my turn)
    ("pending_by", MAX_SEATS),          # one-hot relative seat that played the Wild Draw Four
    ("to_act", MAX_SEATS),              # one-hot relative seat to act on turn (0: me)
    ("seats", MAX_SEATS * len(SEAT_FEATURES)),  # per relative seat: present, cards / 10,
                                        # said UNO, catchable, score / target (at most 1)
    ("discard", NUM_CARDS),             # cards in the discard pile
    ("played", NUM_CARDS),              # cards played or discarded this round (reshuffled too)
    ("known", (MAX_SEATS - 1) * NUM_CARDS),  # per other relative seat: cards I know it holds
    ("draw_pile", 1),                   # cards in the draw pile / 112
    ("rules", len(RULE_FLAGS) + len(CUSTOM_RULES) + 3),  # flags, custom rule one-hot,
                                        # hand_size / 20, uno_penalty / 20, custom_count / 20
)


def _slices() -> dict[str, slice]:
    slices = {}
    start = 0
    for name, size in SECTIONS:
        slices[name] = slice(start, start + size)
        start += size
    return slices


SLICES: Final = _slices()
SIZE: Final = sum(size for _, size in SECTIONS)
HIGH: Final = 12.0
"""Every entry lies in ``[0, HIGH]``."""

_CARD: Final = {code: card for card, code in enumerate(CARD_CODE)}
_COLOR: Final = {letter: index for index, letter in enumerate(COLORS)}
_CUSTOM: Final = {name: index for index, name in enumerate(CUSTOM_RULES)}
_O = {name: piece.start for name, piece in SLICES.items()}


class SeatMemory:
    """What a seat remembers from its own events: known cards in other hands (through a
    :class:`~unogame.bots.knowledge.CardTracker`) and the cards played this round."""

    def __init__(self, seat: int, players: int) -> None:
        self.seat = seat
        self.players = players
        self.tracker = CardTracker(seat, players)
        self.played = [0] * NUM_CARDS

    def new_round(self, view: dict[str, Any]) -> None:
        """A round was dealt: forget the last one; the card turned up counts as played."""
        self.tracker.reset(self.seat, view["hands"][self.seat], self.players)
        self.tracker.sync(view)
        self.played = [0] * NUM_CARDS
        for code in view["discard_pile"]:
            self.played[_CARD[code]] += 1

    def copy(self) -> SeatMemory:
        """An independent copy (much faster than ``copy.deepcopy``)."""
        other = SeatMemory.__new__(SeatMemory)
        other.seat, other.players, other.played = self.seat, self.players, self.played[:]
        tracker = other.tracker = copy.copy(self.tracker)
        tracker.known = [cards[:] for cards in tracker.known]
        tracker.own = tracker.own[:] if tracker.own is not None else None
        tracker.allowance = [limits[:] for limits in tracker.allowance]
        tracker.named = tracker.named[:]
        return other

    def observe(self, event: dict[str, Any]) -> None:
        """An event as this seat sees it (``Event.for_seat``)."""
        kind = event["type"]
        if kind == "play":
            self.played[_CARD[event["card"]]] += 1
        elif kind == "discard":
            for code in event["cards"]:
                self.played[_CARD[code]] += 1
        self.tracker.observe(event)


def rules_features(rules: Rules) -> npt.NDArray[np.float32]:
    """The constant ``rules`` section for a rule set."""
    out = np.zeros(SLICES["rules"].stop - SLICES["rules"].start, dtype=np.float32)
    for index, name in enumerate(RULE_FLAGS):
        out[index] = float(getattr(rules, name))
    base = len(RULE_FLAGS)
    if isinstance(rules.custom_rule, str):  # a family's own rule (issue 14) has no one-hot yet
        out[base + _CUSTOM[rules.custom_rule]] = 1.0
    base += len(CUSTOM_RULES)
    out[base] = rules.hand_size / 20
    out[base + 1] = rules.uno_penalty / 20
    out[base + 2] = rules.custom_count / 20
    return out


def _counts(codes: list[str], size: int = NUM_CARDS) -> npt.NDArray[np.float32]:
    """How many of each card kind a list of codes holds."""
    return np.bincount([_CARD[code] for code in codes], minlength=size).astype(np.float32)


def encode(view: dict[str, Any], memory: SeatMemory, rules: Rules,
           rules_part: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
    """The observation of ``memory.seat`` from its ``view`` (``Game.view(seat)``)."""
    obs = np.zeros(SIZE, dtype=np.float32)
    o = _O
    seat = memory.seat
    players = view["players"]
    hands = view["hands"]
    obs[SLICES["hand"]] = _counts(hands[seat])
    discard = view["discard_pile"]
    if discard:
        obs[o["top"] + _CARD[discard[0]]] = 1.0
        obs[SLICES["discard"]] = _counts(discard)
    color = view["color"]
    if color is not None:
        obs[o["color"] + _COLOR[color]] = 1.0
    obs[o["direction"]] = 1.0 if view["direction"] == 1 else 0.0
    pending = view["pending"]
    kind = pending["kind"] if pending is not None else None
    obs[o["pending"] + PENDING_KINDS.index(kind)] = 1.0
    if pending is not None:
        obs[o["pending_amount"]] = pending.get("amount", 4 if kind == "challenge" else 0) / 10
        if "card" in pending:
            obs[o["pending_drawn"] + _CARD[pending["card"]]] = 1.0
        if "by" in pending:
            obs[o["pending_by"] + (pending["by"] - seat) % players] = 1.0
    obs[o["to_act"] + (view["turn"] - seat) % players] = 1.0
    uno = view["uno"]
    catchable = view["catchable"]
    scores = view["scores"]
    target = rules.target_score
    width = len(SEAT_FEATURES)
    seats = np.zeros((MAX_SEATS, width), dtype=np.float32)
    for offset in range(players):
        other = (seat + offset) % players
        hand = hands[other]
        seats[offset] = (1.0, (len(hand) if isinstance(hand, list) else hand) / 10,
                         other in uno, other in catchable, min(1.0, scores[other] / target))
    obs[SLICES["seats"]] = seats.ravel()
    obs[SLICES["played"]] = np.minimum(memory.played, HIGH)  # reshuffled cards come again
    known = memory.tracker.known
    base = o["known"]
    for offset in range(1, players):
        cards = known[(seat + offset) % players]
        if cards:
            at = base + (offset - 1) * NUM_CARDS
            obs[at:at + NUM_CARDS] = np.bincount(cards, minlength=NUM_CARDS)
    obs[o["draw_pile"]] = view["draw_pile"] / 112
    obs[SLICES["rules"]] = rules_features(rules) if rules_part is None else rules_part
    return obs
