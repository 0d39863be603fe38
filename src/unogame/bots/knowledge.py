"""What one seat knows about the cards it cannot see, kept up to date from its events.

A seat sees its own hand and the discard pile in its view. From its events (as
``Event.for_seat`` gives them) it can also know some cards in other hands: a challenger is
shown the challenged hand (R5.4), a swap (R5.6, ``seven_zero`` 7) gives the other seat the
hand this seat held, passing hands (``pass_hands``, ``seven_zero`` 0) moves every
known hand along, and a family's rule may ``reveal`` a hand to everyone or ``give`` a card
(the giver and the receiver know which). A known card leaves a hand when that seat plays or
discards it.

It also infers what a hand *lacks*: a seat that draws on its turn (R4.3) is taken to have
had no card of the colour to match and no wild card; from then on it holds at most as many
cards of those classes as it has drawn since (``allowance``); if its turn then ends without
playing what it drew, the drawn cards were not of those classes either. A seat that plays a
wild card other than a Wild Draw Four (which may be a bluff, R5.4) is taken to have held
nothing of the colour it replaced (players keep wilds while they can match: ``medium``
does). Players who draw or play wilds on purpose can fool this; the search only uses it to
weight its samples.

>>> tracker = CardTracker(seat=0, players=2)
>>> tracker.reset(0, ["R1", "G2"])
>>> tracker.observe({"type": "swap", "seats": [0, 1]})
>>> tracker.known[1]
[1, 28]
>>> tracker.observe({"type": "play", "seat": 1, "card": "G2"})
>>> tracker.known[1]
[1]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..engine import Rules
from ..engine.cards import (
    CARD_COLOR,
    CARD_COPIES,
    COLORS,
    NO_COLOR,
    NUM_CARDS,
    WILD,
    WILD_DRAW_FOUR,
    card_from_code,
)
from .belief import DecisionLog, takes_turn

CLASSES = 5
"""Card classes for the allowance: the four colours and wild cards (``NO_COLOR``)."""


class CardTracker:
    """Known cards in other seats' hands, by seat (card ints, a multiset as a list)."""

    def __init__(self, seat: int = 0, players: int = 2) -> None:
        self.seat = seat
        self.players = players
        self.known: list[list[int]] = [[] for _ in range(players)]
        self.own: list[int] | None = []
        """This seat's hand as last known (``None`` right after a swap, until the next view)."""
        self.allowance: list[list[int | None]] = [[None] * CLASSES for _ in range(players)]
        """By seat and card class: at most this many such cards in the hand (None: any)."""
        self.named: list[int] = [-1] * players
        """By seat: the colour it named with its last wild (players name a colour they
        hold), until it plays a card of that colour; -1 for none."""
        self.drawn: tuple[int, int] | None = None
        """(seat, colour to match) of a seat that drew on its turn and has not played yet."""
        self.decisions = DecisionLog(seat, players)
        """The other seats' decisions their hands must explain (kept only when ``reset``
        is given the rules)."""

    def reset(self, seat: int, hand: Iterable[str], players: int | None = None,
              rules: Rules | None = None) -> None:
        """A new round (or the bot joins): nothing known about other hands; ``rules``: keep
        the others' decisions (:mod:`.belief`) under them."""
        self.seat = seat
        if players is not None:
            self.players = players
        self.decisions.reset(seat, self.players, rules)
        self.known = [[] for _ in range(self.players)]
        self.allowance = [[None] * CLASSES for _ in range(self.players)]
        self.named = [-1] * self.players
        self.drawn = None
        self.own = [card_from_code(code) for code in hand]

    def sync(self, view: dict[str, Any]) -> None:
        """Take this seat's hand from its view, and drop known cards that no longer fit."""
        hands = view["hands"]
        self.decisions.sync(view)
        self.own = [card_from_code(code) for code in hands[self.seat]]
        for other, known in enumerate(self.known):
            size = hands[other] if isinstance(hands[other], int) else 0
            if other == self.seat:
                known.clear()
            elif len(known) > size:
                del known[size:]

    @property
    def color(self) -> int:
        """The colour to match, followed through the events (by :attr:`decisions`)."""
        return self.decisions.color

    @color.setter
    def color(self, value: int) -> None:
        self.decisions.color = value

    def observe(self, event: dict[str, Any]) -> None:
        self._observe(event)
        self.decisions.observe(event)  # after: the colour to match is the one before here

    def _observe(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        seat = self.seat
        if self.drawn is not None and takes_turn(event):  # not a penalty draw (a catch)
            self._drawn_kept(event)
        if kind == "play":
            player = event["seat"]
            card = card_from_code(event["card"])
            replaced = self.color
            if player == seat:
                _remove(self.own, card)
            else:
                _remove(self.known[player], card)
                self._spend(player, card)
                if card >= WILD and card != WILD_DRAW_FOUR and replaced >= 0:
                    self.allowance[player][replaced] = 0  # it had nothing of that colour
                if card >= WILD and event.get("color"):
                    self.named[player] = COLORS.index(event["color"])
                elif CARD_COLOR[card] == self.named[player]:
                    self.named[player] = -1
        elif kind == "draw":
            player = event["seat"]
            if player == seat:
                if self.own is not None:
                    self.own.extend(card_from_code(code) for code in event.get("cards", ()))
                return
            allowance = self.allowance[player]
            if event.get("reason") == "turn" and self.color >= 0:
                allowance[self.color] = 0  # nothing to play: none of the colour, no wild
                allowance[NO_COLOR] = 0
                self.drawn = (player, self.color)
                if self.named[player] == self.color:
                    self.named[player] = -1
            count = event["count"]
            for index in range(CLASSES):
                value = allowance[index]
                if value is not None:
                    allowance[index] = value + count
        elif kind == "discard":
            player = event["seat"]
            target = self.own if player == seat else self.known[player]
            for code in event["cards"]:
                card = card_from_code(code)
                _remove(target, card)
                if player != seat:
                    self._spend(player, card)
        elif kind == "challenge":
            if "hand" in event:  # shown to the challenger only (R5.4)
                self.known[event["by"]] = [card_from_code(code) for code in event["hand"]]
                self.allowance[event["by"]] = [None] * CLASSES
        elif kind == "swap":
            first, second = event["seats"]
            known = self.known
            known[first], known[second] = known[second], known[first]
            allowance = self.allowance
            allowance[first], allowance[second] = allowance[second], allowance[first]
            named = self.named
            named[first], named[second] = named[second], named[first]
            if seat in (first, second):
                other = second if seat == first else first
                known[other] = list(self.own) if self.own is not None else []
                known[seat] = []
                allowance[other] = [None] * CLASSES
                allowance[seat] = [None] * CLASSES
                named[other] = named[seat] = -1
                self.own = None
        elif kind == "pass_hands":
            players = self.players
            direction = event["direction"]
            old = self.known
            old[seat] = list(self.own) if self.own is not None else []
            new: list[list[int]] = [[] for _ in range(players)]
            for other in range(players):
                new[(other + direction) % players] = old[other]
            new[seat] = []
            self.known = new
            moved: list[list[int | None]] = [[None] * CLASSES for _ in range(players)]
            for other in range(players):
                if other != seat:
                    moved[(other + direction) % players] = self.allowance[other]
            self.allowance = moved
            self.named = [self.named[(other - direction) % players] for other in range(players)]
            self.named[seat] = self.named[(seat + direction) % players] = -1
            self.own = None
        elif kind == "reveal":  # a family's rule shows a hand to everyone (D17)
            player = event["seat"]
            if player != seat:
                self.known[player] = [card_from_code(code) for code in event["hand"]]
                self.allowance[player] = [None] * CLASSES
        elif kind == "give":
            self._give(event)
        elif kind in ("round_over", "deal"):
            self.known = [[] for _ in range(self.players)]
            self.allowance = [[None] * CLASSES for _ in range(self.players)]
            self.named = [-1] * self.players
            self.drawn = None

    def _drawn_kept(self, event: dict[str, Any]) -> None:
        """After a seat drew on its turn: if another seat acts before it plays or passes,
        what it drew was not playable (R4.4), so still none of the colour and no wild."""
        assert self.drawn is not None
        player, color = self.drawn
        if event["seat"] == player and event["type"] in ("play", "pass"):
            self.drawn = None
        elif event["seat"] != player:
            self.drawn = None
            allowance = self.allowance[player]
            for index in (color, NO_COLOR):
                if allowance[index] is not None:
                    allowance[index] = 0

    def _give(self, event: dict[str, Any]) -> None:
        """A family's rule moved one card from ``seat`` to ``to``; only those two see which
        (D17). A third party only knows the receiver holds one card more of some class, and
        that any one of the giver's known cards may be the one that left: it keeps only
        the copies beyond the first of each (issue 23: keeping them all, a swap later in
        the same move carried the given card's memory to the wrong seat)."""
        player, to, seat = event["seat"], event["to"], self.seat
        if "card" not in event:
            self.known[player] = without_one_of_each(self.known[player])
            for index, value in enumerate(self.allowance[to]):
                if value is not None:
                    self.allowance[to][index] = value + 1
            return
        card = card_from_code(event["card"])
        if player == seat:
            _remove(self.own, card)
            self.known[to].append(card)
            value = self.allowance[to][CARD_COLOR[card]]
            if value is not None:
                self.allowance[to][CARD_COLOR[card]] = value + 1
        elif to == seat:
            if self.own is not None:
                self.own.append(card)
            _remove(self.known[player], card)
            self._spend(player, card)

    def _spend(self, player: int, card: int) -> None:
        """A card of a limited class was played: one fewer may be left."""
        allowance = self.allowance[player]
        value = allowance[CARD_COLOR[card]]
        if value is not None:
            allowance[CARD_COLOR[card]] = max(0, value - 1)

    def unseen(self, view: dict[str, Any]) -> list[int]:
        """Cards this seat cannot place: the deck minus its hand, the discard pile and the
        cards it knows in other hands (one entry per copy)."""
        counts = list(CARD_COPIES)
        for code in view["hands"][self.seat]:
            counts[card_from_code(code)] -= 1
        for code in view["discard_pile"]:
            counts[card_from_code(code)] -= 1
        for other, known in enumerate(self.known):
            if other != self.seat:
                for card in known:
                    counts[card] -= 1
        return [card for card in range(NUM_CARDS) for _ in range(max(0, counts[card]))]


def without_one_of_each(cards: list[int]) -> list[int]:
    """The cards still certain after one unseen card of them left: all but the first copy
    of each kind, in order.

    >>> without_one_of_each([5, 7, 5, 9, 5])
    [5, 5]
    """
    seen: set[int] = set()
    kept = []
    for card in cards:
        if card in seen:
            kept.append(card)
        else:
            seen.add(card)
    return kept


def _remove(cards: list[int] | None, card: int) -> None:
    if cards is not None and card in cards:
        cards.remove(card)
