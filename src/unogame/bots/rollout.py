"""``hard``'s search moves and its fast rollout policy, close to ``medium``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..engine import Game, Move, PlayArguments
from ..engine.cards import (
    CARD_COLOR,
    CARD_POINTS,
    CARD_RANK,
    DRAW_TWO,
    NUM_CARDS,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
)
from ..engine.moves import ACCEPT_MOVE, CATCH, COLOR, DRAW_MOVE, PLAY, UNO

UNO_BIT: Final = 1 << 19

# A static preference for each card in the rollout policy: shed actions and high numbers,
# keep wilds (a Wild Draw Four longest).
_ROLLOUT_SCORE: Final[tuple[float, ...]] = tuple(
    (6.0 + CARD_POINTS[c] / 10 + (3.0 if CARD_RANK[c] >= 10 else 0.0)) if c < WILD
    else (0.5 if c == WILD_DRAW_FOUR else 1.0)
    for c in range(56)
)


def next_size(game: Game, seat: int) -> int:
    """The hand size of the seat after ``seat`` in the direction of play."""
    return len(game.card_hands[(seat + game.direction) % game.players])


def pressure_bonus(card: int, following: int, players: int) -> float:
    """``medium``'s end-game habits in the rollout policy: stop a next seat close to going
    out (``following`` cards) with a Skip or a Draw Two (a Reverse with two players), and
    play a Wild Draw Four before a Wild when it holds three or fewer."""
    if card >= WILD:
        return 1.0 if card == WILD_DRAW_FOUR and following <= 3 else 0.0
    rank = CARD_RANK[card]
    if following <= 2 and (rank in (SKIP, DRAW_TWO) or (rank == REVERSE and players == 2)):
        return 12.0
    return 0.0


def search_moves(game: Game, seat: int) -> list[Move]:
    """The moves the search considers: turn moves only, a play always with its ``uno``
    variant when it has one (saying UNO costs nothing), and a wild only in the colours the
    hand holds (any colour if it holds none)."""
    moves = game.legal_moves(seat)
    out = []
    codes = {move.code for move in moves}
    held = -1
    for move in moves:
        kind = move.kind
        if kind in (UNO, CATCH):
            continue
        if kind == PLAY:
            if not move.uno and move.code | UNO_BIT in codes:
                continue
            if move.card >= WILD:
                if held < 0:
                    held = 0
                    for card in game.card_hands[seat]:
                        if card < WILD:
                            held |= 1 << CARD_COLOR[card]
                if held and not held >> move.color & 1:
                    continue
        out.append(move)
    return out


def rollout_move(game: Game, seat: int, moves: list[Move]) -> Move:
    """The fast greedy policy, close to ``medium``: a card of the colour held most (actions
    and high numbers first), wilds last and in the colour held most, a swap only with a
    smaller hand; it accepts a Wild Draw Four and always says UNO."""
    pending = game.pending
    if pending is not None and pending.kind == "challenge":
        return ACCEPT_MOVE
    best = DRAW_MOVE
    best_score = -100.0
    hand = game.card_hands[seat]
    counts = [0, 0, 0, 0, 0]
    for card in hand:
        counts[CARD_COLOR[card]] += 1
    color = counts.index(max(counts[:4]))
    hands = game.card_hands
    following = next_size(game, seat)
    players = game.players
    for move in moves:
        kind = move.kind
        if kind != PLAY:
            if kind == COLOR:
                if move.color == color:
                    return move
            elif best_score < -50 and kind != UNO and kind != CATCH:
                best = move
                best_score = -50.0
            continue
        card = move.card
        score = _ROLLOUT_SCORE[card] + pressure_bonus(card, following, players)
        if move.uno:
            score += 100.0
        if card >= WILD:
            if move.color != color:
                continue
        else:
            score += 1.5 * counts[CARD_COLOR[card]]
        if move.target >= 0:
            score += 0.5 * (len(hand) - 1 - len(hands[move.target]))
        if score > best_score:
            best, best_score = move, score
    return best


_PLAIN: Final = [Move.make(PLAY, card) for card in range(WILD)]
_WILD_PLAYS: Final = {card: [Move.make(PLAY, card, color) for color in range(4)]
                      for card in range(WILD, NUM_CARDS)}
_COLOR_CHOICES: Final = [Move.make(COLOR, color=color) for color in range(4)]


def fast_rollout_move(game: Game, seat: int,
                      arguments: Sequence[PlayArguments] | None = None) -> Move:
    """The rollout policy of :func:`rollout_move`, computed from the hand without listing
    every legal move (no ``uno`` suffix: nobody catches in a rollout). ``arguments``:
    ``play_arguments_table`` of the game's rules, if the caller has it at hand."""
    pending = game.pending
    hand = game.card_hands[seat]
    counts = [0, 0, 0, 0, 0]
    for card in hand:
        counts[CARD_COLOR[card]] += 1
    color = counts.index(max(counts[:4]))
    best = -1
    if pending is None:
        current = game.color_index
        discard = game.discard_cards
        top_rank = CARD_RANK[discard[-1]] if discard else -1
        best_score = -100.0
        following = next_size(game, seat)
        for card in hand:
            if card >= WILD or CARD_COLOR[card] == current or CARD_RANK[card] == top_rank:
                score = _ROLLOUT_SCORE[card] + pressure_bonus(card, following, game.players)
                if card < WILD:
                    score += 1.5 * counts[CARD_COLOR[card]]
                if score > best_score:
                    best, best_score = card, score
        if best < 0:
            return DRAW_MOVE
    else:
        kind = pending.kind
        if kind == "drawn":
            best = pending.card
        elif kind == "challenge":
            return ACCEPT_MOVE
        elif kind == "color":
            return _COLOR_CHOICES[color]
        else:  # a stack
            top = game.discard_cards[-1]
            for card in hand:
                if card == top or (top < WILD and CARD_RANK[card] == DRAW_TWO):
                    best = card
                    break
            if best < 0:
                return DRAW_MOVE
    return _play_move(game, seat, best, color,
                      arguments[best] if arguments is not None else game.play_arguments(best))


def _play_move(game: Game, seat: int, card: int, color: int, arguments: PlayArguments) -> Move:
    """A legal way to play ``card``: in ``color`` if wild, with a target or argument when
    the card needs one (the smallest other hand; the colour held least to discard)."""
    if arguments.simple:
        return _PLAIN[card] if card < WILD else _WILD_PLAYS[card][color]
    target = _smallest_other(game, seat) if arguments.seat is not None else -1
    discard = (color + 1) % 4 if arguments.discard_color else -1
    gift = -1
    if arguments.give_card:  # give away the card worth most (none when it is the last card)
        held = list(game.card_hands[seat])
        held.remove(card)
        gift = max(held, key=CARD_POINTS.__getitem__, default=-1)
    return Move.make(PLAY, card, color if arguments.color else -1, target, discard, gift=gift)


def _smallest_other(game: Game, seat: int) -> int:
    hands = game.card_hands
    best = -1
    for other in range(game.players):
        if other != seat and (best < 0 or len(hands[other]) < len(hands[best])):
            best = other
    return best


def _most_color(hand: list[int]) -> int:
    counts = [0, 0, 0, 0]
    for card in hand:
        if card < WILD:
            counts[CARD_COLOR[card]] += 1
    return counts.index(max(counts))
