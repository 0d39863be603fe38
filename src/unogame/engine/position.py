"""The position JSON of NOTATION.md: load (with every check), save, and per-seat views.

>>> from unogame.engine import Game
>>> game = Game.from_position({"players": 2, "hands": [["R1"], ["G2", "W"]],
...     "draw_pile": ["B3"], "discard_pile": ["R5"], "color": "R", "turn": 1, "uno": [0]})
>>> view = game.view(0)
>>> view["hands"], view["draw_pile"], view["dealer"]
([['R1'], 2], 1, 0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import (
    CARD_CODE,
    CARD_COLOR,
    CARD_RANK,
    COLORS,
    DRAW_TWO,
    WILD,
    WILD_DRAW_FOUR,
    NotationError,
    color_from_letter,
)
from .errors import PositionError
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game

FIELDS = ("players", "hands", "draw_pile", "discard_pile", "color", "direction", "turn",
          "dealer", "scores", "pending", "uno", "catchable", "winner", "game_winner")
"""Position fields in the order NOTATION.md writes them."""


def dump_position(game: Game) -> dict[str, Any]:
    """The full position of ``game`` (NOTATION "Position")."""
    return {
        "players": game.players,
        "hands": game.hands,
        "draw_pile": [CARD_CODE[c] for c in reversed(game._draw)],
        "discard_pile": [CARD_CODE[c] for c in reversed(game._discard)],
        "color": game.color,
        "direction": game.direction,
        "turn": game.turn,
        "dealer": game.dealer,
        "scores": list(game.scores),
        "pending": _dump_pending(game, None),
        "uno": game.uno,
        "catchable": game.catchable,
        "winner": game.winner,
        "game_winner": game.game_winner,
    }


def dump_view(game: Game, seat: int | None) -> dict[str, Any]:
    """The position as ``seat`` sees it: other hands and the draw pile become counts."""
    view = dump_position(game)
    view["hands"] = [
        hand if index == seat else len(hand) for index, hand in enumerate(view["hands"])
    ]
    view["draw_pile"] = len(game._draw)
    view["pending"] = _dump_pending(game, seat if seat is not None else -1)
    return view


def _dump_pending(game: Game, seat: int | None) -> dict[str, Any] | None:
    """``seat`` None: the full pending object; else what that seat may see of it (D7, D8)."""
    pending = game.pending
    if pending is None:
        return None
    out: dict[str, Any] = {"kind": pending.kind}
    if pending.kind == "challenge":
        out["by"] = pending.by
        out["color"] = COLORS[pending.color] if pending.color >= 0 else None
        if seat is None or seat == pending.by:
            out["guilty"] = pending.guilty
        if pending.amount != 4:
            out["amount"] = pending.amount
    elif pending.kind == "drawn":
        if seat is None or seat == game.turn:
            out["card"] = CARD_CODE[pending.card]
    elif pending.kind == "stack":
        out["amount"] = pending.amount
    return out


def load_position(cls: type[Game], data: Any, rules: Rules | None, seed: int) -> Game:
    """Read and check a NOTATION position; :class:`PositionError` names what is wrong."""
    from .game import COLOR_PENDING, _check_copies, _read_cards

    if not isinstance(data, dict):
        raise PositionError("a position must be a JSON object")
    unknown = [key for key in data if key not in FIELDS]
    if unknown:
        raise PositionError(f"unknown position field {unknown[0]!r}")
    for key in ("players", "hands", "draw_pile", "discard_pile"):
        if key not in data:
            raise PositionError(f"the position has no {key!r}")
    players = data["players"]
    if type(players) is not int:
        raise PositionError("'players' must be a whole number")
    game = cls(players, rules, seed)
    hands_data = data["hands"]
    if not isinstance(hands_data, list) or len(hands_data) != players:
        raise PositionError(f"'hands' must be a list of {players} hands")
    hands = [_read_cards(hand, f"hand of seat {seat}") for seat, hand in enumerate(hands_data)]
    draw = _read_cards(data["draw_pile"], "draw_pile")
    discard = _read_cards(data["discard_pile"], "discard_pile")
    _check_copies([card for hand in hands for card in hand] + draw + discard)

    def seat_field(key: str, default: int | None, allow_none: bool = False) -> int | None:
        value = data.get(key, default)
        if value is None and allow_none:
            return None
        if type(value) is not int or not 0 <= value < players:
            raise PositionError(f"{key!r} must be a seat from 0 to {players - 1}")
        return value

    turn = seat_field("turn", 0)
    assert turn is not None
    dealer = seat_field("dealer", (turn - 1) % players)  # D6
    assert dealer is not None
    direction = data.get("direction", 1)
    if direction not in (1, -1) or type(direction) is not int:
        raise PositionError("'direction' must be 1 or -1")
    scores = data.get("scores", [0] * players)
    if (not isinstance(scores, list) or len(scores) != players
            or any(type(s) is not int or s < 0 for s in scores)):
        raise PositionError(f"'scores' must be a list of {players} whole numbers >= 0")
    winner = seat_field("winner", None, allow_none=True)
    game_winner = seat_field("game_winner", None, allow_none=True)
    seat_sets = []
    for key in ("uno", "catchable"):
        seats = data.get(key, [])
        if not isinstance(seats, list) or any(
            type(s) is not int or not 0 <= s < players for s in seats
        ):
            raise PositionError(f"{key!r} must be a list of seats")
        seat_sets.append(set(seats))
    uno, catchable = seat_sets
    for seat in catchable:
        if len(hands[seat]) != 1 or seat in uno:
            raise PositionError(
                f"seat {seat} is catchable but does not hold one card without UNO (R6.2)"
            )
    if winner is None:
        for seat, hand in enumerate(hands):
            if not hand:
                raise PositionError(f"seat {seat} holds no card but the round has no winner")
    if game_winner is not None and winner is None:
        raise PositionError("'game_winner' is set but the round has no winner")

    pending = _load_pending(data.get("pending"), players, turn, hands)
    if pending is not None and pending.kind == "stack" and (
        not discard or (discard[0] != WILD_DRAW_FOUR and CARD_RANK[discard[0]] != DRAW_TWO)
    ):
        raise PositionError("a pending stack needs a Draw Two or Wild Draw Four on top")
    color_code = data.get("color")
    color = -1
    if color_code is not None:
        try:
            color = color_from_letter(color_code)
        except NotationError as error:
            raise PositionError(f"'color': {error}") from None
    top = discard[0] if discard else -1
    if top >= 0 and top < WILD and color >= 0 and CARD_COLOR[top] != color:
        raise PositionError(
            f"'color' {color_code} contradicts the coloured top card {CARD_CODE[top]}"
        )
    if color < 0:
        if top >= 0 and top < WILD:
            color = CARD_COLOR[top]
        elif pending is None or pending.kind != COLOR_PENDING:
            raise PositionError("'color' is needed: the top card is a wild (or there is none)")

    game._hands = hands
    game._draw = draw[::-1]
    game._discard = discard[::-1]
    game._color = color
    game.direction = direction
    game.turn = turn
    game.dealer = dealer
    game.scores = list(scores)
    game.pending = pending
    game._uno = uno
    game._catchable = catchable
    game.winner = winner
    game.game_winner = game_winner
    return game


def _load_pending(data: Any, players: int, turn: int, hands: list[list[int]]) -> Any:
    from .game import Pending, _read_cards

    if data is None:
        return None
    if not isinstance(data, dict) or "kind" not in data:
        raise PositionError("'pending' must be null or an object with a 'kind'")
    kind = data["kind"]
    if kind == "color":
        return Pending("color")
    if kind == "drawn":
        cards = _read_cards([data.get("card")], "pending drawn card")
        if cards[0] not in hands[turn]:
            raise PositionError("the pending drawn card is not in the hand of the seat to act")
        return Pending("drawn", card=cards[0])
    if kind == "challenge":
        by = data.get("by")
        if type(by) is not int or not 0 <= by < players or by == turn:
            raise PositionError("a pending challenge needs 'by', another seat than 'turn'")
        try:
            color = color_from_letter(data.get("color"))  # type: ignore[arg-type]
        except NotationError as error:
            raise PositionError(f"pending challenge 'color': {error}") from None
        amount = data.get("amount", 4)
        if type(amount) is not int or amount < 4:
            raise PositionError("a pending challenge's 'amount' must be a number >= 4")
        guilty = data.get("guilty")
        if guilty is None:  # judged from the hand of 'by' as the position shows it
            guilty = any(CARD_COLOR[c] == color for c in hands[by])
        elif type(guilty) is not bool:
            raise PositionError("a pending challenge's 'guilty' must be true or false")
        return Pending("challenge", by=by, color=color, guilty=guilty, amount=amount)
    if kind == "stack":
        amount = data.get("amount")
        if type(amount) is not int or amount < 2:
            raise PositionError("a pending stack needs an 'amount' >= 2")
        return Pending("stack", amount=amount)
    raise PositionError(f"unknown pending kind {kind!r}")
