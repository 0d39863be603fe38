"""Determinizations for ``hard``: full games consistent with what one seat has seen."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..engine import Game, Rules
from ..engine.cards import CARD_COLOR, COLORS, WILD
from ..engine.state import Pending
from .belief import misses
from .knowledge import CardTracker


def deal_hidden(view: dict[str, Any], tracker: CardTracker, pool: Sequence[int],
                rng: random.Random, rules: Rules | None = None, tries: int = 1
                ) -> tuple[int, dict[int, list[int]], list[int]]:
    """A sample of the hidden cards consistent with ``view`` and what ``tracker`` knows:
    (a seed for the sampled game, the other seats' hands, the draw pile top card last).

    ``pool`` holds the unseen cards. They are dealt at random into the other hands (after
    the cards known to be there) and the draw pile. With ``rules`` and ``tries`` > 1, a
    seat whose hand does not explain its kept decisions (:mod:`.belief`) is dealt again
    from the cards left (:func:`_reshuffled`), up to ``tries`` hands in all; the first that
    explains them all is kept, else the first that explains the most.
    """
    seed = rng.getrandbits(32)
    cards = list(pool)
    key = rng.random
    cards.sort(key=lambda _: key())  # as the engine shuffles: faster than rng.shuffle
    seat = tracker.seat
    hands = view["hands"]
    decisions = tracker.decisions.by_seat
    dealt: dict[int, list[int]] = {}
    # Seats with limits (cards they cannot hold) are dealt first, from the cards they may hold.
    order = sorted((other for other in range(len(hands)) if other != seat),
                   key=lambda other: not limited(tracker, other))
    for other in order:
        hand, left = _deal_seat(tracker, other, hands[other], cards, rng)
        if rules is not None and tries > 1 and decisions[other]:
            missed = misses(decisions[other], hand, other, rules)
            for _ in range(tries - 1):
                if not missed:
                    break
                again = _reshuffled(cards, hands[other], limited(tracker, other), rng)
                hand_again, left_again = _deal_seat(tracker, other, hands[other], again, rng)
                missed_again = misses(decisions[other], hand_again, other, rules, missed)
                if missed_again < missed:
                    hand, left, missed = hand_again, left_again, missed_again
        cards = left
        dealt[other] = hand
    return seed, dealt, cards[:view["draw_pile"]]


def limited(tracker: CardTracker, other: int) -> bool:
    """Whether a seat's hand is dealt under limits (cards it cannot hold many of)."""
    return any(limit is not None for limit in tracker.allowance[other])


def _reshuffled(cards: list[int], size: int, from_front: bool,
                rng: random.Random) -> list[int]:
    """``cards`` with ``size`` of their places dealt at random again (Fisher-Yates): the
    first places, where a hand under limits is taken from, else the last; the cheap
    reshuffle of a seat dealt again (a whole shuffle costs two words a card)."""
    again = list(cards)
    count = len(again)
    places = min(size, count)
    if from_front:
        for i in range(places):
            j = i + rng.randrange(count - i)
            again[i], again[j] = again[j], again[i]
    else:
        for i in range(count - 1, count - 1 - places, -1):
            j = rng.randrange(i + 1)
            again[i], again[j] = again[j], again[i]
    return again


def _deal_seat(tracker: CardTracker, other: int, size: int, cards: list[int],
               rng: random.Random) -> tuple[list[int], list[int]]:
    """One seat's hand dealt from ``cards`` (shuffled): the known cards, a card of the
    colour it named, the cards its limits allow first; (the hand, the cards left)."""
    known = tracker.known[other][:size]
    hand = list(known)
    need = size - len(known)
    limits = tracker.allowance[other]
    named = tracker.named[other]
    cards = list(cards)
    if need and named >= 0 and not any(CARD_COLOR[card] == named for card in hand):
        for index in range(len(cards) - 1, -1, -1):  # it holds the colour it named
            if CARD_COLOR[cards[index]] == named:
                hand.append(cards.pop(index))
                need -= 1
                break
    if need and limited(tracker, other):
        left = [limit if limit is not None else size for limit in limits]
        kept = []
        for card in cards:
            if need and left[CARD_COLOR[card]] > 0:
                left[CARD_COLOR[card]] -= 1
                hand.append(card)
                need -= 1
            else:
                kept.append(card)
        cards = kept
    if need:
        hand.extend(cards[len(cards) - need:])
        del cards[len(cards) - need:]
    while len(hand) < size:  # only with an inconsistent hand-written position
        hand.append(rng.randrange(WILD))
    return hand, cards


def sampled_pending(view: dict[str, Any], hands: dict[int, list[int]]) -> Pending | None:
    """A pending challenge judged on the sampled hand (the view hides the verdict)."""
    pending = view["pending"]
    if pending is not None and pending["kind"] == "challenge" and "guilty" not in pending:
        color = COLORS.index(pending["color"]) if pending.get("color") else -1
        guilty = any(CARD_COLOR[card] == color for card in hands[pending["by"]])
        return Pending("challenge", by=pending["by"], color=color, guilty=guilty,
                       amount=pending.get("amount", 4))
    return None


def determinize(view: dict[str, Any], tracker: CardTracker, template: Game,
                pool: Sequence[int], rng: random.Random, tries: int = 1) -> Game:
    """A full game consistent with ``view`` and what ``tracker`` knows (see
    :func:`deal_hidden`); ``template`` holds the public state and this seat's hand (see
    :func:`public_game`), the hidden cards go in with :meth:`Game.resample`."""
    seed, hands, draw = deal_hidden(view, tracker, pool, rng, template.rules, tries)
    return template.resample(hands, draw, seed)


def public_game(view: dict[str, Any], seat: int, rules: Any) -> Game:
    """A game holding what ``seat`` sees: its hand, the discard pile and the public state
    (other hands and the draw pile are left empty, to be filled by :func:`determinize`)."""
    return Game.from_view(view, rules)
