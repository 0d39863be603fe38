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
from ..engine.custom import CustomRule
from ..engine.moves import ACCEPT, CATCH, CHALLENGE, COLOR, DRAW, PASS, PLAY, UNO
from .base import BOT_LEVELS, Bot, _seat_of
from .knowledge import CardTracker


def color_counts(hand: Sequence[int]) -> list[int]:
    """How many coloured cards of each colour a hand holds."""
    counts = [0, 0, 0, 0]
    for card in hand:
        if card < WILD:
            counts[CARD_COLOR[card]] += 1
    return counts


def best_color(hand: Sequence[int], without: int = -1) -> int:
    """The colour a hand holds most of (by count, then points), ``without`` one card."""
    counts = [0.0, 0.0, 0.0, 0.0]
    removed = False
    for card in hand:
        if card == without and not removed:
            removed = True
            continue
        if card < WILD:
            counts[CARD_COLOR[card]] += 1 + CARD_POINTS[card] / 100
    return max(range(4), key=counts.__getitem__)


def bluff_probability(by_size: int, known: Sequence[int], pool: Sequence[int],
                      color: int) -> float:
    """Chance that a hand of ``by_size`` cards holds a card of ``color``, given the cards
    known in it and a pool of unseen cards the rest is drawn from (hypergeometric)."""
    if color < 0:
        return 0.0
    if any(CARD_COLOR[card] == color for card in known):
        return 1.0
    unknown = max(0, by_size - len(known))
    total = len(pool)
    colored = sum(1 for card in pool if CARD_COLOR[card] == color)
    none = 1.0
    for i in range(unknown):
        if total - i <= 0:
            break
        none *= max(0, total - colored - i) / (total - i)
    return 1.0 - none


class ViewBot(Bot):
    """A bot that reads its view into card ints and tracks known cards from its events."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.tracker = CardTracker()

    def new_round(self, seat: int, view: dict[str, Any], rules: Any = None) -> None:
        super().new_round(seat, view, rules)
        self.tracker.reset(seat, view["hands"][seat], view["players"])
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
            return _find(legal, ACCEPT) or legal[0]
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
                uno = _with_uno(chosen, legal)
                if uno is not None:
                    return uno
            return chosen
        for kind in (DRAW, PASS):
            found = _find(legal, kind)
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


def _with_uno(move: Move, legal: Sequence[Move]) -> Move | None:
    """The ``uno`` variant of a play, if it is legal."""
    code = move.code | 1 << 19
    for other in legal:
        if other.code == code:
            return other
    return None


def _find(legal: Sequence[Move], kind: int) -> Move | None:
    for move in legal:
        if move.kind == kind:
            return move
    return None


class MediumBot(ViewBot):
    """A good heuristic player (see the module docstring of the issue's level list)."""

    level = "medium"
    reaction_delay = 1.5
    challenge_threshold = 0.3
    """Challenge a Wild Draw Four when the chance that it was a bluff is at least this."""
    color_weight = 3.0
    """How much a card's colour counts by the cards held of that colour."""
    calm_action_bonus = 6.0
    """Preference for Skip and Draw Two while the next player is not close to going out."""
    keep_wild_from = 0
    """With only wilds playable and nobody close, draw instead while holding at least
    this many cards (0: always play the wild)."""

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
            uno = _find(legal, UNO)
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
                return _with_uno(best, legal) or best
        for kind in (DRAW, PASS, ACCEPT):
            found = _find(legal, kind)
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
                return _with_uno(best, legal) or best
        return None

    def answer_challenge(self, view: dict[str, Any], legal: Sequence[Move], hand: list[int],
                         pending: dict[str, Any]) -> Move:
        """Challenge when the seen cards make a bluff likely; stack a Wild Draw Four if allowed."""
        stack = [m for m in legal if m.kind == PLAY]
        if stack:
            best = self.best_play(view, stack, hand, self._my_seat(view))
            if best is not None:
                return _with_uno(best, legal) or best
        by = pending["by"]
        color = "RYGB".find(pending["color"]) if pending.get("color") else -1
        hands = view["hands"]
        chance = bluff_probability(hands[by], self.tracker.known[by], self.tracker.unseen(view),
                                   color)
        kind = CHALLENGE if chance >= self.challenge_threshold else ACCEPT
        return _find(legal, kind) or legal[0]

    def best_play(self, view: dict[str, Any], plays: Sequence[Move], hand: list[int],
                  seat: int) -> Move | None:
        """The play a careful player makes: ``None`` when drawing is better."""
        players = view["players"]
        hands = view["hands"]
        direction = view["direction"]
        following = (seat + direction) % players
        sizes = [h if isinstance(h, int) else len(h) for h in hands]
        next_size = sizes[following]
        others_min = min(sizes[s] for s in range(players) if s != seat)
        danger = others_min <= 2
        color = "RYGB".find(view["color"]) if view["color"] else -1
        counts = color_counts(hand)
        holds_color = color >= 0 and counts[color] > 0
        coloured_plays = any(m.card < WILD for m in plays)
        rules = self.rules
        best: Move | None = None
        best_score = -1e9
        for move in plays:
            card = move.card
            score = 0.0
            after = len(hand) - 1
            if card < WILD:
                rank = CARD_RANK[card]
                card_color = CARD_COLOR[card]
                score = (20 + self.color_weight * counts[card_color]
                         + self.color_bonus(card_color, following))
                if danger:
                    score += CARD_POINTS[card] / 3
                else:
                    score += CARD_POINTS[card] / 20
                if rank in (SKIP, DRAW_TWO) or (rank == REVERSE and players == 2):
                    score += 25 if next_size <= 2 else self.calm_action_bonus
                    if players == 2 and after > 0:
                        score += 4  # play again
                elif rank == REVERSE and players > 2:
                    behind = sizes[(seat - direction) % players]
                    score += 15 if next_size <= 2 and behind > 2 else 0
                if rules.seven_zero and rank == 7 and move.target >= 0:
                    gain = after - sizes[move.target]
                    score += 6 * gain + (30 if sizes[move.target] <= 1 else 0)
                    score -= 0.1 * sizes[move.target]
                elif rules.seven_zero and rank == 0 and after > 0:
                    score += 6 * (after - sizes[(seat - direction) % players])
            else:
                rest = hand
                if card == WILD_CUSTOM and move.arg >= 0:
                    rest = [c for c in hand if c >= WILD or CARD_COLOR[c] != move.arg]
                chosen = self.choose_color(rest, card, following)
                if move.color != chosen and after > 0:
                    continue  # only the colour held most
                if (not coloured_plays and not danger and self.keep_wild_from
                        and after >= self.keep_wild_from):
                    continue  # draw rather than spend the only wild early
                score = 0 if coloured_plays else 15
                if after <= 1 or next_size <= 2:
                    score += 12
                if card == WILD_DRAW_FOUR:
                    if holds_color:  # a bluff: only worth it when the next player is close
                        if next_size > 2 or not danger:
                            continue
                        score -= 5
                    score += 10 if next_size <= 3 else -3
                elif card == WILD_SWAP:
                    if after == 0:
                        score += 100
                    elif move.target >= 0:
                        gain = after - sizes[move.target]
                        if gain <= 0:
                            score -= 10
                        score += 8 * gain - 0.1 * sizes[move.target]
                elif card == WILD_CUSTOM:
                    score += self._custom_bonus(move, hand, sizes, seat, direction)
            if after == 0:
                score += 1000
            score += self.rng.random() * 0.01
            if score > best_score:
                best, best_score = move, score
        return best

    def color_bonus(self, color: int, following: int) -> float:
        """Extra wish to turn the play to ``color`` (``medium``: none)."""
        return 0.0

    def choose_color(self, hand: list[int], played: int, following: int) -> int:
        """The colour to name with a wild: the one held most (``played`` left out)."""
        return best_color(hand, played)

    def _custom_bonus(self, move: Move, hand: list[int], sizes: list[int], seat: int,
                      direction: int) -> float:
        rule = self.rules.custom_rule
        after = len(hand) - 1
        if rule in ("others_draw", "next_draw_skip", "skip", "play_again"):
            return 8
        if rule == "discard_color":
            shed = sum(1 for c in hand if c < WILD and CARD_COLOR[c] == move.arg)
            return 6 * shed
        if rule == "chosen_draw":
            return 8 - 0.5 * sizes[move.target]
        if rule == "pass_hands":
            return 6 * (after - sizes[(seat - direction) % len(sizes)])
        if isinstance(rule, str):
            return 0
        return _family_rule_bonus(rule, move, hand, sizes)


def _family_rule_bonus(rule: CustomRule, move: Move, hand: list[int],
                       sizes: list[int]) -> float:
    """A rough worth of a family's rule for its player: others drawing or losing turns is
    good, drawing oneself bad; a card given or discarded sheds it."""
    score = 0.0
    for step in rule.steps:
        if step.what == "draw":
            others = {"next": 1, "chosen": 1, "others": len(sizes) - 1,
                      "everyone": len(sizes) - 2, "self": -1}[step.who]
            score += 2 * others * step.count
        elif step.what in ("skip", "play_again"):
            score += 6
        elif step.what == "discard_color":
            score += 6 * sum(1 for c in hand if c < WILD and CARD_COLOR[c] == move.arg)
        elif step.what == "give":
            score += 4 + (CARD_POINTS[move.gift] / 10 if move.gift >= 0 else 0)
        elif step.what == "swap" and move.target >= 0:
            score += 6 * (len(hand) - 1 - sizes[move.target])
    return score

BOT_LEVELS["easy"] = EasyBot
BOT_LEVELS["medium"] = MediumBot
