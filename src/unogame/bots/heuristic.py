"""Rule-of-thumb bots: ``easy`` (for children) and ``medium`` (a good heuristic player).

Both see only their view, their legal moves and their own events.

>>> from unogame.engine import Game
>>> game = Game.new(3, seed=5)
>>> bot = MediumBot(seed=1)
>>> bot.new_round(game.turn, game.view(game.turn))
>>> bot.choose(game.view(game.turn), game.legal_moves()) in game.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import Move
from ..engine.cards import (
    CARD_COLOR,
    WILD,
    WILD_DRAW_FOUR,
    card_from_code,
)
from ..engine.moves import ACCEPT, CATCH, CHALLENGE, COLOR, DRAW, PASS, PLAY, UNO
from .base import BOT_LEVELS, Bot, _seat_of
from .knowledge import CardTracker
from .medium_policy import (
    CHALLENGE_THRESHOLD,
    best_color,
    best_play,
    bluff_probability,
    color_counts,
    find_kind,
    with_uno,
)

__all__ = ["EasyBot", "MediumBot", "ViewBot", "best_color", "bluff_probability",
           "color_counts"]


class ViewBot(Bot):
    """A bot that reads its view into card ints and tracks known cards from its events."""

    keeps_decisions = False
    """Whether the tracker keeps the other seats' decisions (``hard``'s belief model)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.tracker = CardTracker()

    def new_round(self, seat: int, view: dict[str, Any], rules: Any = None) -> None:
        super().new_round(seat, view, rules)
        self.tracker.reset(seat, view["hands"][seat], view["players"],
                           self.rules if self.keeps_decisions else None)
        self.tracker.sync(view)

    def observe(self, event: dict[str, Any]) -> None:
        self.tracker.observe(event)

    def _my_seat(self, view: dict[str, Any]) -> int:
        if self.seat is None:
            self.new_round(_seat_of(view), view)
        assert self.seat is not None
        return self.seat


class EasyBot(ViewBot):
    """For children: the first card that matches, sometimes forgets UNO, rarely catches,
    never bluffs a Wild Draw Four, never challenges one."""

    level = "easy"
    reaction_delay = 2.5
    catch_delay = 3.5
    """A child who forgot UNO has at least this long to say it before an easy bot may
    catch them (R6.2)."""
    forget_uno = 0.35
    """Chance of playing the second-last card without saying UNO."""
    catch_rate = 0.1
    """Chance of catching a seat that may be caught, each time it is asked."""

    def choose(self, view: dict[str, Any], legal: Sequence[Move]) -> Move | None:
        if not legal:
            return None
        seat = self._my_seat(view)
        rng = self.rng
        if view["turn"] != seat:
            for move in legal:
                if move.kind == UNO and rng.random() < 0.5:
                    return move
                if move.kind == CATCH and rng.random() < self.catch_rate:
                    return move
            return None
        hand = [card_from_code(code) for code in view["hands"][seat]]
        pending = view["pending"]
        if pending is not None and pending["kind"] == "challenge":
            return find_kind(legal, ACCEPT) or legal[0]
        if pending is not None and pending["kind"] == "color":
            color = best_color(hand)
            return next(m for m in legal if m.kind == COLOR and m.color == color)
        color = "RYGB".find(view["color"]) if view["color"] else -1
        holds_color = any(CARD_COLOR[card] == color for card in hand)
        plays = [m for m in legal if m.kind == PLAY and not m.uno
                 and not (m.card == WILD_DRAW_FOUR and holds_color and pending is None)]
        if plays:
            chosen = _plain_choice(plays[0], hand, legal, view)
            if rng.random() >= self.forget_uno:
                uno = with_uno(chosen, legal)
                if uno is not None:
                    return uno
            return chosen
        for kind in (DRAW, PASS):
            found = find_kind(legal, kind)
            if found is not None:
                return found
        return next((m for m in legal if m.kind not in (UNO, CATCH)), legal[0])


def _plain_choice(first: Move, hand: list[int], legal: Sequence[Move],
                  view: dict[str, Any]) -> Move:
    """For a card to play, its variant with the colour held most and the smallest hand as
    target."""
    card = first.card
    same = [m for m in legal if m.kind == PLAY and m.card == card and not m.uno]
    if card < WILD and first.target < 0:
        return first
    color = best_color(hand, card)
    hands = view["hands"]

    def key(move: Move) -> tuple[int, int, int]:
        target_size = hands[move.target] if move.target >= 0 else 0
        size = target_size if isinstance(target_size, int) else 99
        return (move.color != color if move.color >= 0 else 0, size,
                -color_counts(hand)[move.arg] if move.arg >= 0 else 0)

    return min(same, key=key)


class MediumBot(ViewBot):
    """A good heuristic player (see the module docstring of the issue's level list)."""

    level = "medium"
    reaction_delay = 1.5
    challenge_threshold = CHALLENGE_THRESHOLD

    def choose(self, view: dict[str, Any], legal: Sequence[Move]) -> Move | None:
        if not legal:
            return None
        seat = self._my_seat(view)
        self.tracker.sync(view)
        if view["turn"] != seat:
            return self.off_turn(view, legal)
        for move in legal:  # not turn moves: catch first, then go on with the turn
            if move.kind == CATCH:
                return move
        hand = [card_from_code(code) for code in view["hands"][seat]]
        if len(hand) == 1:
            uno = find_kind(legal, UNO)
            if uno is not None:
                return uno
        pending = view["pending"]
        if pending is not None:
            kind = pending["kind"]
            if kind == "challenge":
                return self.answer_challenge(view, legal, hand, pending)
            if kind == "color":
                color = best_color(hand)
                return next(m for m in legal if m.kind == COLOR and m.color == color)
        plays = [m for m in legal if m.kind == PLAY]
        if plays:
            best = self.best_play(view, plays, hand, seat)
            if best is not None:
                return with_uno(best, legal) or best
        for kind in (DRAW, PASS, ACCEPT):
            found = find_kind(legal, kind)
            if found is not None:
                return found
        return next(m for m in legal if m.kind not in (UNO, CATCH))

    def off_turn(self, view: dict[str, Any], legal: Sequence[Move]) -> Move | None:
        """Say UNO, catch, or jump in with an identical card."""
        for move in legal:
            if move.kind == UNO:
                return move
        for move in legal:
            if move.kind == CATCH:
                return move
        plays = [m for m in legal if m.kind == PLAY]
        if plays:
            seat = self._my_seat(view)
            hand = [card_from_code(code) for code in view["hands"][seat]]
            best = self.best_play(view, plays, hand, seat)
            if best is not None:
                return with_uno(best, legal) or best
        return None

    def answer_challenge(self, view: dict[str, Any], legal: Sequence[Move], hand: list[int],
                         pending: dict[str, Any]) -> Move:
        """Challenge when the seen cards make a bluff likely; stack a Wild Draw Four if allowed."""
        stack = [m for m in legal if m.kind == PLAY]
        if stack:
            best = self.best_play(view, stack, hand, self._my_seat(view))
            if best is not None:
                return with_uno(best, legal) or best
        by = pending["by"]
        color = "RYGB".find(pending["color"]) if pending.get("color") else -1
        hands = view["hands"]
        chance = bluff_probability(hands[by], self.tracker.known[by], self.tracker.unseen(view),
                                   color)
        kind = CHALLENGE if chance >= self.challenge_threshold else ACCEPT
        return find_kind(legal, kind) or legal[0]

    def best_play(self, view: dict[str, Any], plays: Sequence[Move], hand: list[int],
                  seat: int) -> Move | None:
        """The play a careful player makes: ``None`` when drawing is better."""
        hands = view["hands"]
        return best_play(plays, hand, [h if isinstance(h, int) else len(h) for h in hands],
                         seat, view["direction"],
                         "RYGB".find(view["color"]) if view["color"] else -1, self.rules,
                         self.color_bonus, self.choose_color, self._jitter)

    def _jitter(self) -> float:
        return self.rng.random() * 0.01

    def color_bonus(self, color: int, following: int) -> float:
        """Extra wish to turn the play to ``color`` (``medium``: none)."""
        return 0.0

    def choose_color(self, hand: list[int], played: int, following: int) -> int:
        """The colour to name with a wild: the one held most (``played`` left out)."""
        return best_color(hand, played)


BOT_LEVELS["easy"] = EasyBot
BOT_LEVELS["medium"] = MediumBot
