"""Why a move is illegal, in words that cite the rule (for errors and the UI).

Legality itself is decided by :meth:`Game.legal_moves`; this module only explains.
Each reason is a :class:`Refusal`: a stable ``code`` with ``params`` (so every front end
can say it in its own language), the rule it cites and the English text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
from .state import GameState, drawn_card_allowed

REFUSAL_CODES: tuple[str, ...] = (
    "round_over", "uno_already", "uno_answer_first", "uno_when", "catch_self", "catch_no_seat",
    "catch_said_uno", "catch_not_one", "catch_too_late", "jump_in_identical", "not_your_turn",
    "choose_first_color", "no_stack_w4", "answer_challenge", "stack_play_or_draw",
    "drawn_already", "drawn_only", "must_play_drawn", "pass_only_drawn", "no_challenge",
    "color_with_wild", "cannot_draw", "not_held", "stack_like_top", "no_match", "not_wild",
    "needs_seat", "not_yourself", "no_seat", "takes_no_seat", "needs_discard_color",
    "no_second_color", "custom_gift", "takes_no_gift", "uno_with_play", "draw_two_now",
    "not_now",
)
"""Every refusal code (the front ends' translation files have one text per code)."""

Param = str | int


@dataclass(frozen=True)
class Refusal:
    """Why a move is refused: ``code`` (one of :data:`REFUSAL_CODES`), ``params`` named
    in it (``card``/``top``: card codes, ``color``: a colour letter, ``seat``/``target``/
    ``turn``/``by``: seats, ``amount``: cards), the ``rule`` cited and the English text."""

    code: str
    rule: str
    text: str
    params: dict[str, Param] = field(default_factory=dict)

    @property
    def reason(self) -> str:
        """The English reason with its rule, as :func:`explain` has always said it."""
        return f"{self.rule}: {self.text}" if self.rule else self.text

    def to_json(self) -> dict[str, object]:
        return {"code": self.code, "rule": self.rule, "params": dict(self.params),
                "text": self.reason}


def explain(game: GameState, seat: int, move: Move) -> str:
    """The reason ``move`` by ``seat`` is refused now."""
    return f"{move.text!r} by seat {seat}: {refusal(game, seat, move).reason}"


def refusal(game: GameState, seat: int, move: Move) -> Refusal:
    """The reason ``move`` by ``seat`` is refused now, with its code and parameters."""
    found = _reason(game, seat, move)
    assert found.code in REFUSAL_CODES, found.code
    return found


R = Refusal


def _reason(game: GameState, seat: int, move: Move) -> Refusal:
    if game.winner is not None:
        return R("round_over", "R7.1",
                 f"the round is over (seat {game.winner} won); no move is allowed",
                 {"seat": game.winner})
    hand = game.card_hands[seat]
    pending = game.pending
    kind = move.kind
    if kind == UNO:
        if seat in game.uno_seats:
            return R("uno_already", "R6.1", "this seat has already said UNO")
        if len(hand) == 2 and seat == game.turn and pending is not None:
            return R("uno_answer_first", "R6.1",
                     "answer the pending decision first; UNO is said with your play")
        return R("uno_when", "R6.1",
                 "UNO is said holding one card, or holding two on your own turn")
    if kind == CATCH:
        return _catch_reason(game, seat, move.target)
    if seat != game.turn:
        if kind == PLAY and game.rules.jump_in:
            return R("jump_in_identical", "R4.1, jump_in",
                     f"it is seat {game.turn}'s turn; out of turn only a card "
                     f"identical to the top card ({game.top_card}) may be played, "
                     "when no decision is pending",
                     {"turn": game.turn, "top": game.top_card or ""})
        return R("not_your_turn", "R4.1", f"it is seat {game.turn}'s turn, not seat {seat}'s",
                 {"turn": game.turn, "seat": seat})
    if pending is not None:
        found = _pending_reason(game, move)
        if found is not None:
            return found
    if kind == PASS:
        return R("pass_only_drawn", "R4.4", "pass only keeps a playable card you have just drawn")
    if kind in (CHALLENGE, ACCEPT):
        return R("no_challenge", "R5.4", "there is no Wild Draw Four to answer")
    if kind == COLOR:
        return R("color_with_wild", "R5.8",
                 "the colour is chosen with the wild card itself (play W COLOUR)")
    if kind == DRAW:
        return R("cannot_draw", "R4.3", "you cannot draw now")
    return _play_reason(game, seat, move)


def _catch_reason(game: GameState, seat: int, target: int) -> Refusal:
    if target == seat:
        return R("catch_self", "R6.2", "a player cannot catch themselves")
    if target >= game.players:
        return R("catch_no_seat", "R6.2", f"there is no seat {target}", {"target": target})
    if target in game.uno_seats:
        return R("catch_said_uno", "R6.2", f"seat {target} has said UNO", {"target": target})
    if len(game.card_hands[target]) != 1:
        return R("catch_not_one", "R6.2", f"seat {target} does not hold exactly one card",
                 {"target": target})
    return R("catch_too_late", "R6.2",
             f"too late to catch seat {target}: the next player has started their turn",
             {"target": target})


def _pending_reason(game: GameState, move: Move) -> Refusal | None:
    pending = game.pending
    assert pending is not None
    kind = move.kind
    if pending.kind == "color" and kind != COLOR:
        return R("choose_first_color", "R5.8",
                 "first choose the colour of the wild card turned up (color COLOUR)")
    if pending.kind == "challenge" and kind not in (CHALLENGE, ACCEPT):
        if kind == PLAY and move.card == WILD_DRAW_FOUR and not game.rules.stacking:
            return R("no_stack_w4", "R5.1", "no stacking: a Wild Draw Four cannot be passed on")
        return R("answer_challenge", "R5.4",
                 f"first challenge or accept seat {pending.by}'s Wild Draw Four",
                 {"by": pending.by})
    if pending.kind == "stack" and kind not in (PLAY, DRAW):
        return R("stack_play_or_draw", "",
                 f"stacking: play a card of the same kind on the stack or draw {pending.amount}",
                 {"amount": pending.amount})
    if pending.kind == "drawn":
        if kind == DRAW:
            return R("drawn_already", "R4.4",
                     "you have drawn already: play the drawn card or pass")
        if kind == PLAY and move.card != pending.card:
            return R("drawn_only", "R4.4",
                     f"only the card just drawn ({CARD_CODE[pending.card]}) may be played now",
                     {"card": CARD_CODE[pending.card]})
        if kind == PASS and game.rules.must_play_drawn and drawn_card_allowed(
                pending.card, game.card_hands[game.turn], game.color_index, game.discard_cards):
            return R("must_play_drawn", "R4.4, must_play_drawn",
                     "the playable drawn card must be played")
    return None


def _play_reason(game: GameState, seat: int, move: Move) -> Refusal:
    card = move.card
    code = CARD_CODE[card]
    hand = game.card_hands[seat]
    rules = game.rules
    if card not in hand:
        return R("not_held", "R4.2", f"seat {seat} does not hold {code}",
                 {"seat": seat, "card": code})
    pending = game.pending
    top = game.top_card or ""
    if pending is not None and pending.kind == "stack":
        return R("stack_like_top", "",
                 f"stacking: only a card like the top card ({game.top_card}) can be stacked",
                 {"card": code, "top": top, "amount": pending.amount})
    if not game.is_playable(card):
        return R("no_match", "R4.2",
                 f"{code} matches neither the colour to match "
                 f"({game.color}) nor the top card ({game.top_card})",
                 {"card": code, "color": game.color or "", "top": top})
    if card < WILD and move.color >= 0:
        return R("not_wild", "", f"{code} is not a wild card: it takes no colour", {"card": code})
    arguments = play_arguments(card, rules)
    seven = card < WILD and CARD_RANK[card] == 7
    wants_seat = arguments.seat is not None
    custom = rules.custom if card == WILD_CUSTOM else None
    if wants_seat and move.target < 0:
        rule = "R5.6" if card == WILD_SWAP else ("seven_zero" if seven else "R5.7")
        return R("needs_seat", rule, f"{code} needs the seat to act on (play {code} ... SEAT)",
                 {"card": code})
    if wants_seat and move.target == seat:
        return R("not_yourself", "R5.6", "choose another player, not yourself")
    if wants_seat and move.target >= game.players:
        return R("no_seat", "", f"there is no seat {move.target}", {"target": move.target})
    if not wants_seat and move.target >= 0:
        return R("takes_no_seat", "", f"{code} takes no seat here", {"card": code})
    wants_color_arg = arguments.discard_color
    if wants_color_arg and move.arg < 0:
        return R("needs_discard_color", "R5.7, discard_color",
                 "name the colour to discard (play WC COLOUR DISCARD)")
    if not wants_color_arg and move.arg >= 0:
        return R("no_second_color", "", f"{code} takes no second colour here", {"card": code})
    if custom is not None:
        problem = gift_problem(custom, hand, move)
        if problem is not None:
            rule, _, text = problem.partition(": ") if problem.startswith("R") else ("", "", "")
            return R("custom_gift", rule, text) if text \
                else R("custom_gift", "", f"{code} {problem}", {"card": code})
    elif move.gift >= 0:
        return R("takes_no_gift", "", f"{code} takes no card to give", {"card": code})
    if move.uno:
        return R("uno_with_play", "R6.1",
                 "UNO is said with a play only when it leaves you one card")
    if card < WILD and CARD_RANK[card] == DRAW_TWO:
        return R("draw_two_now", "R5.1", "this Draw Two cannot be played now", {"card": code})
    colour = COLORS[move.color] if move.color >= 0 else ""
    return R("not_now", "", f"{code} {colour} cannot be played now".replace("  ", " "),
             {"card": code})
