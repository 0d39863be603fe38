"""What every seat has seen this round, kept up to date from each seat's own events.

The fast twin of one :class:`~unogame.env.observation.SeatMemory` per seat (that is, of a
:class:`~unogame.bots.knowledge.CardTracker` synced with the seat's view after every step):
the cards played or discarded (public, so one count for all seats) and, by observer and
seat, the cards the observer knows that seat holds. Only the events that change those are
read, straight from ``Event.public`` and the observer's own ``Event.private`` part, so a
seat never learns what its events do not show. ``tests/test_env_fast.py`` proves it equal
to the trackers over random games.

>>> from unogame.engine import Game, Rules
>>> game = Game.from_position({"players": 3, "hands": [["R7", "G1"], ["Y3"], ["G5"]],
...     "draw_pile": ["B9"], "discard_pile": ["R5"], "color": "R", "turn": 0},
...     Rules(seven_zero=True))
>>> seen = SeenCards(3)
>>> seen.new_round(game.discard_cards)
>>> seen.take_hands(game.card_hands)
>>> seen.observe(game.push(0, "play R7 1"))
>>> seen.trim(game.hand_sizes())
>>> seen.known[0][1], seen.known[1][0], seen.known[2]  # G1 is card 27, Y3 card 16
([27], [16], [[], [], []])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..bots.knowledge import without_one_of_each
from ..engine import Event
from ..engine.cards import CARD_CODE, NUM_CARDS
from ..engine.moves import MAX_SEATS
from ..native.game import (
    EV_CHALLENGE,
    EV_DEAL,
    EV_DISCARD,
    EV_DRAW,
    EV_PASS_HANDS,
    EV_PLAY,
    EV_ROUND_OVER,
    EV_SWAP,
)

CARD: Final = {code: card for card, code in enumerate(CARD_CODE)}


class SeenCards:
    """Played cards and, by observer and seat, known cards (multisets as lists, in the
    order a :class:`~unogame.bots.knowledge.CardTracker` keeps them)."""

    __slots__ = ("has_known", "known", "own", "played", "players")

    def __init__(self, players: int) -> None:
        self.players = players
        self.played: npt.NDArray[np.float32] = np.zeros(NUM_CARDS, dtype=np.float32)
        """Copies of each card played or discarded this round (the same for every seat)."""
        self.known: list[list[list[int]]] = [[[] for _ in range(players)]
                                             for _ in range(players)]
        """``known[observer][seat]``: the cards ``observer`` knows ``seat`` holds."""
        self.has_known = False
        """Whether any seat may know a card (else the known lists are all empty)."""
        self.own: list[list[int] | None] | None = None
        """During a move that may swap or pass hands: each seat's hand as it knows it."""

    def new_round(self, discard_cards: Sequence[int]) -> None:
        """A round was dealt: forget the last one; the card turned up counts as played."""
        self.played = np.zeros(NUM_CARDS, dtype=np.float32)
        for card in discard_cards:
            self.played[card] += 1
        self._forget()

    def _forget(self) -> None:
        players = self.players
        self.known = [[[] for _ in range(players)] for _ in range(players)]
        self.has_known = False

    @classmethod
    def restore(cls, played: Sequence[float], known: list[list[list[int]]],
                has_known: bool) -> SeenCards:
        """Memories handed over by the C step (``Stepper.memory()``)."""
        seen = cls(len(known))
        seen.played = np.array(played, dtype=np.float32)
        seen.known, seen.has_known = known, has_known
        return seen

    def copy(self) -> SeenCards:
        other = SeenCards.__new__(SeenCards)
        other.players = self.players
        other.played = self.played.copy()
        other.known = [[cards[:] for cards in seats] for seats in self.known]
        other.has_known = self.has_known
        other.own = None
        return other

    def take_hands(self, hands: Sequence[Sequence[int]]) -> None:
        """Before a move that may swap or pass hands: every seat knows its own hand."""
        self.own = [list(hand) for hand in hands]

    def observe(self, events: Sequence[Event]) -> None:
        """The events of one move, each seat reading its own part."""
        for event in events:
            kind = event.type
            public = event.public
            if kind == "play":
                card = CARD[public["card"]]
                self.played[card] += 1
                self._leaves(public["seat"], card)
            elif kind == "discard":
                seat = public["seat"]
                for code in public["cards"]:
                    card = CARD[code]
                    self.played[card] += 1
                    self._leaves(seat, card)
            elif kind == "draw":
                own = self.own
                if own is not None:
                    hand = own[public["seat"]]
                    if hand is not None:
                        hand.extend(CARD[code]
                                    for code in event.private[public["seat"]]["cards"])
            elif kind == "challenge":
                challenger = public["seat"]
                shown = event.private[challenger]["hand"]
                self.known[challenger][public["by"]] = [CARD[code] for code in shown]
                self.has_known = True
            elif kind == "swap":
                self._swap(*public["seats"])
            elif kind == "pass_hands":
                self._pass_hands(public["direction"])
            elif kind == "reveal":
                seat = public["seat"]
                cards = [CARD[code] for code in public["hand"]]
                for observer, known in enumerate(self.known):
                    if observer != seat:
                        known[seat] = cards[:]
                self.has_known = True
            elif kind == "give":
                self._give(public["seat"], public["to"],
                           CARD[event.private[public["seat"]]["card"]])
            elif kind in ("round_over", "deal"):
                self._forget()
        self.own = None

    def observe_raw(self, raw: Sequence[tuple[Any, ...]]) -> None:
        """The events of one move as the compiled core reports them (``state.push``; see
        ``unogame.native.game``): the same reading as :meth:`observe`, cards as ints."""
        for item in raw:
            kind = item[0]
            if kind == EV_PLAY:
                card = (item[2] >> 3 & 63) - 1
                self.played[card] += 1
                self._leaves(item[1], card)
            elif kind == EV_DISCARD:
                seat = item[1]
                for card in item[2]:
                    self.played[card] += 1
                    self._leaves(seat, card)
            elif kind == EV_DRAW:
                own = self.own
                if own is not None:
                    hand = own[item[1]]
                    if hand is not None:
                        hand.extend(item[4])
            elif kind == EV_CHALLENGE:
                self.known[item[1]][item[2]] = list(item[4])
                self.has_known = True
            elif kind == EV_SWAP:
                self._swap(item[1], item[2])
            elif kind == EV_PASS_HANDS:
                self._pass_hands(item[1])
            elif kind in (EV_ROUND_OVER, EV_DEAL):
                self._forget()
        self.own = None

    def _leaves(self, seat: int, card: int) -> None:
        """``seat`` played or discarded ``card``: it is no longer in that hand."""
        own = self.own
        if own is not None:
            hand = own[seat]
            if hand is not None and card in hand:
                hand.remove(card)
        if self.has_known:
            for observer, known in enumerate(self.known):
                cards = known[seat]
                if observer != seat and card in cards:
                    cards.remove(card)

    def _own(self, observer: int) -> list[int]:
        own = self.own
        hand = own[observer] if own is not None else None
        return list(hand) if hand is not None else []

    def _swap(self, first: int, second: int) -> None:
        for observer, known in enumerate(self.known):
            known[first], known[second] = known[second], known[first]
            if observer in (first, second):
                other = second if observer == first else first
                known[other] = self._own(observer)
                known[observer] = []
                if self.own is not None:
                    self.own[observer] = None
        self.has_known = True

    def _pass_hands(self, direction: int) -> None:
        players = self.players
        for observer in range(players):
            old = self.known[observer]
            old[observer] = self._own(observer)
            new: list[list[int]] = [[] for _ in range(players)]
            for seat in range(players):
                new[(seat + direction) % players] = old[seat]
            new[observer] = []
            self.known[observer] = new
            if self.own is not None:
                self.own[observer] = None
        self.has_known = True

    def _give(self, giver: int, receiver: int, card: int) -> None:
        """Only the giver and the receiver see which card moved (D17): a third seat keeps
        only the copies beyond the first of each card it knew the giver held (any one of
        them may have left), before a swap later in the move carries them on."""
        own = self.own
        if own is not None:
            given, taken = own[giver], own[receiver]
            if given is not None and card in given:
                given.remove(card)
            if taken is not None:
                taken.append(card)
        for observer, known in enumerate(self.known):
            if observer not in (giver, receiver) and known[giver]:
                known[giver] = without_one_of_each(known[giver])
        self.known[giver][receiver].append(card)
        held = self.known[receiver][giver]
        if card in held:
            held.remove(card)
        self.has_known = True

    def trim(self, hand_sizes: Sequence[int]) -> None:
        """After a move, as a tracker's ``sync``: a seat knows no more cards of a hand than
        it holds (a card given away unseen leaves one of them, the last in the list)."""
        if not self.has_known:
            return
        for observer, known in enumerate(self.known):
            for seat, cards in enumerate(known):
                if len(cards) > hand_sizes[seat]:
                    del cards[hand_sizes[seat]:]
            known[observer].clear()

    def known_counts(self, observer: int) -> npt.NDArray[np.float32] | None:
        """The ``known`` section of ``observer``'s observation (``None``: all zero)."""
        if not self.has_known:
            return None
        players = self.players
        known = self.known[observer]
        out: npt.NDArray[np.float32] | None = None
        for offset in range(1, players):
            cards = known[(observer + offset) % players]
            if cards:
                if out is None:
                    out = np.zeros((MAX_SEATS - 1) * NUM_CARDS, dtype=np.float32)
                at = (offset - 1) * NUM_CARDS
                out[at:at + NUM_CARDS] = np.bincount(cards, minlength=NUM_CARDS)
        return out
