"""What another seat's own decisions say about its hand: ``hard``'s model of the others.

``medium`` chooses its play from its hand and the public state alone (the same move for
the same hand, but for ties). So each of its plays is evidence: a hand that would have
made another play is unlikely. :class:`Decision` keeps one of them with the public state it
was made in and the cards the seat has played since; as long as the seat has received no
card unseen by the searching seat, its hand then was its hand now plus those cards.
:func:`explains` says whether a sampled hand would have made it, and the determinizations
(``deal_hidden``) prefer hands that explain every decision kept. A seat that drew on its
turn and kept the card is kept as a ``VOID`` decision: none of its cards could be played
then (its colour, rank or a wild).

Only rules whose plays are listed without hidden consequences (:func:`recordable`) keep
decisions; players who are not ``medium`` only make the preference weaker, never a hand
impossible.

>>> from unogame.engine import Rules
>>> from unogame.engine.cards import card_from_code as card
>>> seen = Decision(PLAY, color=0, top=card("R5"), direction=1, sizes=(7, 5, 7, 7),
...                 move=Move.parse("play R9").code, extra=[card("R9")])
>>> explains(seen, [card(c) for c in ("R1", "G2", "B3", "Y4")], 1, Rules())
True
>>> explains(seen, [card(c) for c in ("R1", "G5", "G2", "G3")], 1, Rules())  # green held most
False
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..engine import Move, Rules
from ..engine.cards import (
    CARD_COLOR,
    CARD_RANK,
    REVERSE,
    WILD,
    WILD_CUSTOM,
    WILD_SWAP,
    card_from_code,
)
from ..engine.moves import PLAY, play_arguments
from .medium_policy import best_play

VOID = 8
"""A :class:`Decision` kind: the seat drew on its turn and kept what it drew."""
MAX_DECISIONS = 6
"""Decisions kept by seat (the latest); the core's limit too."""
MAX_EXTRA = 8
"""Cards played since a decision that are still followed (older decisions are dropped)."""
MAX_HIDDEN = 4
"""Unseen cards a seat may receive after a decision before it is dropped: the hand then is
taken to be the hand now but for that many of its cards (the last in the deal), plus the
cards played since."""
UNO_BIT = 1 << 19


@dataclass(slots=True)
class Decision:
    """A play (``PLAY``) or a kept draw (``VOID``) by one seat, in the public state it was
    made in: the colour to match, the top card, the direction and every hand's size."""

    kind: int
    color: int
    top: int
    direction: int
    sizes: tuple[int, ...]
    move: int = 0
    """The play's move code (``PLAY``), without its ``uno`` bit."""
    extra: list[int] = field(default_factory=list)
    """The cards the seat has played since, this play's card first."""
    hidden: int = 0
    """Cards the seat has received since, unseen (drawn): not in its hand then."""


def recordable(rules: Rules) -> bool:
    """Whether decisions are kept under ``rules``: no stacking (a play is then never made
    on a pending draw), no seven-zero and a Wild Customizable that names a colour only
    (a play's list is then the hand's cards that match), no drawing until playable (a
    kept card was not playable)."""
    return (not rules.stacking and not rules.seven_zero and not rules.draw_until_playable
            and isinstance(rules.custom_rule, str)
            and play_arguments(WILD_CUSTOM, rules).simple)


def playable(card: int, color: int, top: int) -> bool:
    """Whether ``card`` may be played on ``top`` with ``color`` to match (R4.1)."""
    return card >= WILD or CARD_COLOR[card] == color or CARD_RANK[card] == CARD_RANK[top]


def candidate_plays(hand: Sequence[int], seat: int, players: int, color: int,
                    top: int) -> list[Move]:
    """The plays of ``hand`` on its turn with no pending (under :func:`recordable` rules),
    without their ``uno`` variants."""
    moves = []
    for card in sorted(set(hand)):
        if not playable(card, color, top):
            continue
        if card < WILD:
            moves.append(Move.make(PLAY, card))
        elif card == WILD_SWAP:
            moves.extend(Move.make(PLAY, card, c, target)
                         for c in range(4) for target in range(players) if target != seat)
        else:
            moves.extend(Move.make(PLAY, card, c) for c in range(4))
    return moves


def explains(decision: Decision, hand: Sequence[int], seat: int, rules: Rules) -> bool:
    """Whether ``seat``, holding ``hand`` now, would have made ``decision`` as ``medium``
    does (a tie counts as made)."""
    if decision.hidden > len(hand):
        return True
    then = list(hand[:len(hand) - decision.hidden]) + decision.extra
    color, top = decision.color, decision.top
    if decision.kind == VOID:
        return not any(playable(card, color, top) for card in then)
    observed = Move.from_code(decision.move)
    plays = [observed]
    plays.extend(move for move in candidate_plays(then, seat, len(decision.sizes), color, top)
                 if move.code != decision.move)
    chosen = best_play(plays, then, list(decision.sizes), seat, decision.direction, color,
                       rules)
    return chosen is observed


def misses(decisions: Sequence[Decision], hand: Sequence[int], seat: int, rules: Rules,
           enough: int = MAX_DECISIONS + 1) -> int:
    """How many of ``decisions`` a hand does not explain, counted up to ``enough`` (the
    latest first: a hand that misses as many as another is no better)."""
    missed = 0
    for decision in reversed(decisions):
        if missed >= enough:
            break
        missed += not explains(decision, hand, seat, rules)
    return missed


class DecisionLog:
    """The decisions of the other seats still explained by their hands, followed from one
    seat's view and events, with the public state they need (colour, top card, direction
    and hand sizes: followed always, the tracker's colour to match is this one's)."""

    def __init__(self, seat: int = 0, players: int = 2) -> None:
        self.seat = seat
        self.players = players
        self.by_seat: list[list[Decision]] = [[] for _ in range(players)]
        self.keeping = False
        """Whether the round's rules keep decisions (:func:`recordable`)."""
        self.hand_size = 7
        self.color = -1
        self.top = -1
        self.direction = 1
        self.sizes: list[int] | None = None
        self.drew: tuple[int, int, int] | None = None
        """(seat, colour, top card) of a seat that drew on its turn and has not acted."""
        self.resyncs = 0
        """Views whose hand sizes differed from the ones followed (decisions dropped)."""

    def reset(self, seat: int, players: int, rules: Rules | None) -> None:
        """A new round: nothing kept; decisions only under rules known to keep them."""
        self.seat = seat
        self.players = players
        self.keeping = rules is not None and recordable(rules)
        self.hand_size = rules.hand_size if rules is not None else 7
        self.by_seat = [[] for _ in range(players)]
        self.sizes = None
        self.drew = None

    def sync(self, view: dict[str, object]) -> None:
        """The public state from a view; decisions are dropped if the sizes followed were
        not the view's (an event this log does not follow)."""
        hands = view["hands"]
        assert isinstance(hands, list)
        sizes = [hand if isinstance(hand, int) else len(hand) for hand in hands]
        if self.sizes is not None and self.sizes != sizes:
            self.resyncs += 1
            self.by_seat = [[] for _ in range(self.players)]
        self.sizes = sizes
        color, pile, direction = view["color"], view["discard_pile"], view["direction"]
        self.color = "RYGB".find(color) if isinstance(color, str) and color else -1
        self.top = card_from_code(pile[0]) if isinstance(pile, list) and pile else -1  # top 1st
        self.direction = direction if isinstance(direction, int) else 1

    def observe(self, event: dict[str, object]) -> None:
        """Follow one event (the public state always, the decisions when keeping)."""
        kind = event["type"]
        actor = event.get("seat")
        drawn_now = self.drew is not None and self.drew[0] == actor
        if self.drew is not None and not drawn_now and takes_turn(event):
            self._void()
        if kind in ("play", "pass"):
            self.drew = None
        if kind == "play":
            assert isinstance(actor, int)
            self._play(actor, event, drawn_now)
        elif kind == "discard":
            assert isinstance(actor, int)
            cards = event["cards"]
            assert isinstance(cards, list)
            self._played(actor, [card_from_code(code) for code in cards])
            self._resize(actor, -len(cards))
            self.top = -1  # the pile's new top is not said
        elif kind == "draw":
            assert isinstance(actor, int)
            count = event["count"]
            assert isinstance(count, int)
            self._received(actor, count)  # cards this seat cannot see
            if event.get("reason") == "turn" and actor != self.seat:
                self.drew = (actor, self.color, self.top)
            self._resize(actor, count)
        elif kind == "color":
            color = event["color"]
            assert isinstance(color, str)
            self.color = "RYGB".find(color)
        elif kind == "give":
            to = event["to"]
            assert isinstance(actor, int) and isinstance(to, int)
            self.by_seat[actor] = []
            self.by_seat[to] = []
            self._resize(actor, -1)
            self._resize(to, 1)
        elif kind == "swap":
            seats = event["seats"]
            assert isinstance(seats, list)
            first, second = seats
            self.by_seat[first] = []
            self.by_seat[second] = []
            if self.sizes is not None:
                self.sizes[first], self.sizes[second] = self.sizes[second], self.sizes[first]
        elif kind == "pass_hands":
            direction = event["direction"]
            assert isinstance(direction, int)
            self.by_seat = [[] for _ in range(self.players)]
            if self.sizes is not None:
                old = self.sizes
                self.sizes = [old[(seat - direction) % self.players]
                              for seat in range(self.players)]
        elif kind == "reverse":
            direction = event["direction"]
            assert isinstance(direction, int)
            self.direction = direction
        elif kind == "deal":
            top = event["top"]
            direction = event["direction"]
            assert isinstance(top, str) and isinstance(direction, int)
            self.top = card_from_code(top)
            self.color = CARD_COLOR[self.top] if self.top < WILD else -1
            self.direction = direction
            self.sizes = [self.hand_size] * self.players
            self.by_seat = [[] for _ in range(self.players)]
            self.drew = None
        elif kind == "round_over":
            self.by_seat = [[] for _ in range(self.players)]
            self.drew = None

    def _play(self, actor: int, event: dict[str, object], drawn_now: bool) -> None:
        code, text = event["card"], event.get("move")
        assert isinstance(code, str)
        card = card_from_code(code)
        sizes = self.sizes
        if (self.keeping and isinstance(text, str) and actor != self.seat and sizes is not None
                and self.top >= 0 and self.color >= 0 and not event.get("jump_in")
                and not drawn_now and sizes[actor] >= 1):
            self._keep(actor, Decision(PLAY, self.color, self.top, self.direction,
                                       tuple(sizes), Move.parse(text).code & ~UNO_BIT, []))
        if drawn_now:  # the card it has just drawn: not in its hand at any decision
            self._received(actor, -1)
        else:
            self._played(actor, [card])
        self._resize(actor, -1)
        self.top = card
        color = event.get("color")
        self.color = "RYGB".find(color) if isinstance(color, str) and color else (
            CARD_COLOR[card] if card < WILD else -1)
        if card < WILD and CARD_RANK[card] == REVERSE:
            self.direction = -self.direction

    def _played(self, actor: int, cards: list[int]) -> None:
        """Cards leave ``actor``'s hand: its hand at each decision held them too."""
        kept = []
        for decision in self.by_seat[actor]:
            decision.extra.extend(cards)
            if len(decision.extra) <= MAX_EXTRA:
                kept.append(decision)
        self.by_seat[actor] = kept

    def core_decisions(self) -> list[list[tuple[object, ...]]]:
        """The decisions by seat as the compiled core's search takes them."""
        return [[(d.kind, d.color, d.top, d.direction, list(d.sizes), d.move, list(d.extra),
                  d.hidden) for d in kept] for kept in self.by_seat]

    def _keep(self, actor: int, decision: Decision) -> None:
        decisions = self.by_seat[actor]
        decisions.append(decision)
        if len(decisions) > MAX_DECISIONS:
            del decisions[0]

    def _received(self, actor: int, count: int) -> None:
        """``count`` unseen cards came into ``actor``'s hand (-1: one of them left)."""
        kept = []
        for decision in self.by_seat[actor]:
            decision.hidden += count
            if decision.hidden <= MAX_HIDDEN:
                kept.append(decision)
        self.by_seat[actor] = kept

    def _void(self) -> None:
        """The seat that drew is passed by: it could play nothing of what it held then."""
        assert self.drew is not None
        actor, color, top = self.drew
        self.drew = None
        if self.keeping and color >= 0 and top >= 0 and self.sizes is not None:
            self._keep(actor, Decision(VOID, color, top, self.direction, tuple(self.sizes)))

    def _resize(self, actor: int, change: int) -> None:
        if self.sizes is not None:
            self.sizes[actor] = max(0, self.sizes[actor] + change)


def takes_turn(event: dict[str, object]) -> bool:
    """Whether an event is a turn's move (a seat that drew is then passed by): a play, a
    pass or a draw on the turn, not a penalty."""
    kind = event["type"]
    return kind in ("play", "pass") or (kind == "draw" and event.get("reason") == "turn")
