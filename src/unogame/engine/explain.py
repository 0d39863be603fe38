"""Why a move is illegal, in words that cite the rule (for errors and the UI).

Legality itself is decided by :meth:`Game.legal_moves`; this module only explains.
"""

from __future__ import annotations

from .cards import (
    CARD_CODE,
    CARD_RANK,
    COLORS,
    DRAW_TWO,
    WILD,
    WILD_CUSTOM,
    WILD_DRAW_FOUR,
    WILD_SWAP,
)
from .custom_play import gift_problem
from .moves import ACCEPT, CATCH, CHALLENGE, COLOR, DRAW, PASS, PLAY, UNO, Move, play_arguments
from .state import GameState


def explain(game: GameState, seat: int, move: Move) -> str:
    """The reason ``move`` by ``seat`` is refused now."""
    reason = _reason(game, seat, move)
    return f"{move.text!r} by seat {seat}: {reason}"


def _reason(game: GameState, seat: int, move: Move) -> str:
    if game.winner is not None:
        return f"R7.1: the round is over (seat {game.winner} won); no move is allowed"
    hand = game.card_hands[seat]
    pending = game.pending
    kind = move.kind
    if kind == UNO:
        if seat in game.uno_seats:
            return "R6.1: this seat has already said UNO"
        if len(hand) == 2 and seat == game.turn and pending is not None:
            return "R6.1: answer the pending decision first; UNO is said with your play"
        return "R6.1: UNO is said holding one card, or holding two on your own turn"
    if kind == CATCH:
        target = move.target
        if target == seat:
            return "R6.2: a player cannot catch themselves"
        if target >= game.players:
            return f"R6.2: there is no seat {target}"
        if target in game.uno_seats:
            return f"R6.2: seat {target} has said UNO"
        if len(game.card_hands[target]) != 1:
            return f"R6.2: seat {target} does not hold exactly one card"
        return (f"R6.2: too late to catch seat {target}: "
                "the next player has started their turn")
    if seat != game.turn:
        if kind == PLAY and game.rules.jump_in:
            return (f"R4.1, jump_in: it is seat {game.turn}'s turn; out of turn only a card "
                    f"identical to the top card ({game.top_card}) may be played, "
                    "when no decision is pending")
        return f"R4.1: it is seat {game.turn}'s turn, not seat {seat}'s"
    if pending is not None:
        if pending.kind == "color" and kind != COLOR:
            return "R5.8: first choose the colour of the wild card turned up (color COLOUR)"
        if pending.kind == "challenge" and kind not in (CHALLENGE, ACCEPT):
            if kind == PLAY and move.card == WILD_DRAW_FOUR and not game.rules.stacking:
                return "R5.1: no stacking: a Wild Draw Four cannot be passed on"
            return f"R5.4: first challenge or accept seat {pending.by}'s Wild Draw Four"
        if pending.kind == "stack" and kind not in (PLAY, DRAW):
            return f"stacking: play a card of the same kind on the stack or draw {pending.amount}"
        if pending.kind == "drawn":
            if kind == DRAW:
                return "R4.4: you have drawn already: play the drawn card or pass"
            if kind == PLAY and move.card != pending.card:
                return (f"R4.4: only the card just drawn ({CARD_CODE[pending.card]}) "
                        "may be played now")
            if kind == PASS and game.rules.must_play_drawn:
                return "R4.4, must_play_drawn: the playable drawn card must be played"
    if kind == PASS:
        return "R4.4: pass only keeps a playable card you have just drawn"
    if kind in (CHALLENGE, ACCEPT):
        return "R5.4: there is no Wild Draw Four to answer"
    if kind == COLOR:
        return "R5.8: the colour is chosen with the wild card itself (play W COLOUR)"
    if kind == DRAW:
        return "R4.3: you cannot draw now"
    return _play_reason(game, seat, move)


def _play_reason(game: GameState, seat: int, move: Move) -> str:
    card = move.card
    code = CARD_CODE[card]
    hand = game.card_hands[seat]
    rules = game.rules
    if card not in hand:
        return f"R4.2: seat {seat} does not hold {code}"
    pending = game.pending
    if pending is not None and pending.kind == "stack":
        return f"stacking: only a card like the top card ({game.top_card}) can be stacked"
    if not game.is_playable(card):
        return (f"R4.2: {code} matches neither the colour to match "
                f"({game.color}) nor the top card ({game.top_card})")
    if card < WILD and move.color >= 0:
        return f"{code} is not a wild card: it takes no colour"
    arguments = play_arguments(card, rules)
    seven = card < WILD and CARD_RANK[card] == 7
    wants_seat = arguments.seat is not None
    custom = rules.custom if card == WILD_CUSTOM else None
    if wants_seat and move.target < 0:
        rule = "R5.6" if card == WILD_SWAP else ("seven_zero" if seven else "R5.7")
        return f"{rule}: {code} needs the seat to act on (play {code} ... SEAT)"
    if wants_seat and move.target == seat:
        return "R5.6: choose another player, not yourself"
    if wants_seat and move.target >= game.players:
        return f"there is no seat {move.target}"
    if not wants_seat and move.target >= 0:
        return f"{code} takes no seat here"
    wants_color_arg = arguments.discard_color
    if wants_color_arg and move.arg < 0:
        return "R5.7, discard_color: name the colour to discard (play WC COLOUR DISCARD)"
    if not wants_color_arg and move.arg >= 0:
        return f"{code} takes no second colour here"
    if custom is not None:
        problem = gift_problem(custom, hand, move)
        if problem is not None:
            return problem if problem.startswith("R") else f"{code} {problem}"
    elif move.gift >= 0:
        return f"{code} takes no card to give"
    if move.uno:
        return "R6.1: UNO is said with a play only when it leaves you one card"
    if card < WILD and CARD_RANK[card] == DRAW_TWO:
        return "R5.1: this Draw Two cannot be played now"
    colour = COLORS[move.color] if move.color >= 0 else ""
    return f"{code} {colour} cannot be played now".replace("  ", " ")
