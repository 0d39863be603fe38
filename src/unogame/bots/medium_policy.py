"""``medium``'s turn choice as plain functions: the bot (:class:`.heuristic.MediumBot`)
scores its plays with :func:`best_play` from its view, and :func:`medium_move` plays it
on a full game, the rollout policy of ``hard``'s flat search (every seat modelled as
``medium``; the compiled core's ``medium.c`` is this, move for move).

>>> from unogame.engine import Game
>>> game = Game.new(4, seed=3)
>>> medium_move(game, game.turn) in game.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..engine import Game, Move, Rules
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
)
from ..engine.custom import CustomRule
from ..engine.moves import ACCEPT, CATCH, CHALLENGE, COLOR, DRAW, PASS, PLAY, UNO
from .rollout import rollout_move

COLOR_WEIGHT = 3.0
"""How much a card's colour counts by the cards held of that colour."""
CALM_ACTION_BONUS = 6.0
"""Preference for Skip and Draw Two while the next player is not close to going out."""
CHALLENGE_THRESHOLD = 0.3
"""Challenge a Wild Draw Four when the chance that it was a bluff is at least this."""


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
    return hypergeometric_some(unknown, len(pool),
                               sum(1 for card in pool if CARD_COLOR[card] == color))


def hypergeometric_some(draws: int, total: int, marked: int) -> float:
    """Chance that ``draws`` cards from ``total`` (``marked`` of them marked) hold one."""
    none = 1.0
    for i in range(draws):
        if total - i <= 0:
            break
        none *= max(0, total - marked - i) / (total - i)
    return 1.0 - none


def _no_bonus(color: int, following: int) -> float:
    return 0.0


def _held_most(rest: list[int], played: int, following: int) -> int:
    return best_color(rest, played)


def _no_jitter() -> float:
    return 0.0


def best_play(plays: Sequence[Move], hand: list[int], sizes: list[int], seat: int,
              direction: int, color: int, rules: Rules,
              color_bonus: Callable[[int, int], float] = _no_bonus,
              choose_color: Callable[[list[int], int, int], int] = _held_most,
              jitter: Callable[[], float] = _no_jitter) -> Move | None:
    """The play a careful player makes among ``plays``: ``None`` when drawing is better.
    ``sizes``: hand sizes by seat; ``color``: the colour to match (-1 none); ``jitter``
    breaks ties (the bot's generator; none: the first best move)."""
    players = len(sizes)
    following = (seat + direction) % players
    next_size = sizes[following]
    others_min = min(sizes[s] for s in range(players) if s != seat)
    danger = others_min <= 2
    counts = color_counts(hand)
    holds_color = color >= 0 and counts[color] > 0
    coloured_plays = any(m.card < WILD for m in plays)
    best: Move | None = None
    best_score = -1e9
    for move in plays:
        card = move.card
        score = 0.0
        after = len(hand) - 1
        if card < WILD:
            rank = CARD_RANK[card]
            card_color = CARD_COLOR[card]
            score = 20 + COLOR_WEIGHT * counts[card_color] + color_bonus(card_color, following)
            if danger:
                score += CARD_POINTS[card] / 3
            else:
                score += CARD_POINTS[card] / 20
            if rank in (SKIP, DRAW_TWO) or (rank == REVERSE and players == 2):
                score += 25 if next_size <= 2 else CALM_ACTION_BONUS
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
            chosen = choose_color(rest, card, following)
            if move.color != chosen and after > 0:
                continue  # only the colour held most
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
                score += custom_bonus(rules, move, hand, sizes, seat, direction)
        if after == 0:
            score += 1000
        score += jitter()
        if score > best_score:
            best, best_score = move, score
    return best


def custom_bonus(rules: Rules, move: Move, hand: list[int], sizes: list[int], seat: int,
                 direction: int) -> float:
    """What a Wild Customizable play is worth to its player under the round's rule."""
    rule = rules.custom_rule
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


def with_uno(move: Move, legal: Sequence[Move]) -> Move | None:
    """The ``uno`` variant of a play, if it is legal."""
    code = move.code | 1 << 19
    for other in legal:
        if other.code == code:
            return other
    return None


def find_kind(legal: Sequence[Move], kind: int) -> Move | None:
    """The first move of a kind."""
    for move in legal:
        if move.kind == kind:
            return move
    return None


def table_bluff_chance(game: Game, seat: int) -> float:
    """:func:`bluff_probability` for ``seat`` judging the pending Wild Draw Four on a full
    game, as if it had seen nothing of the other hands and the draw pile."""
    pending = game.pending
    if pending is None or pending.by < 0 or not 0 <= pending.color < 4:
        return 0.0
    unseen = list(game.draw_cards)
    for other, hand in enumerate(game.card_hands):
        if other != seat:
            unseen.extend(hand)
    marked = sum(1 for card in unseen if CARD_COLOR[card] == pending.color)
    return hypergeometric_some(len(game.card_hands[pending.by]), len(unseen), marked)


def medium_move(game: Game, seat: int, legal: Sequence[Move] | None = None) -> Move:
    """``medium``'s move for the seat to act on a full game (ties to the first move)."""
    moves = list(game.legal_moves(seat)) if legal is None else list(legal)
    found = find_kind(moves, CATCH)
    if found is not None:
        return found
    hand = game.card_hands[seat]
    if len(hand) == 1 and (found := find_kind(moves, UNO)) is not None:
        return found
    pending: Any = game.pending
    if pending is not None and pending.kind == "color":
        color = best_color(hand)
        for move in moves:
            if move.kind == COLOR and move.color == color:
                return move
    plays = [m for m in moves if m.kind == PLAY]
    sizes = [len(h) for h in game.card_hands]
    best = best_play(plays, list(hand), sizes, seat, game.direction, game.color_index,
                     game.rules) if plays else None
    if best is not None:
        return with_uno(best, moves) or best
    if pending is not None and pending.kind == "challenge":
        kind = CHALLENGE if table_bluff_chance(game, seat) >= CHALLENGE_THRESHOLD else ACCEPT
        return find_kind(moves, kind) or moves[0]
    for kind in (DRAW, PASS, ACCEPT):
        found = find_kind(moves, kind)
        if found is not None:
            return found
    return next((m for m in moves if m.kind not in (UNO, CATCH)), moves[0])


def medium_tree_move(game: Game, seat: int, moves: Sequence[Move]) -> Move:
    """The search's first move at a node: :func:`medium_move` when it is among the
    search's ``moves``, else the greedy rollout policy's (``tree.c``'s
    ``uno_medium_tree_policy``)."""
    legal = game.legal_moves(seat)
    if not legal:
        return rollout_move(game, seat, list(moves))
    chosen = medium_move(game, seat, legal)
    return chosen if chosen in moves else rollout_move(game, seat, list(moves))
