"""The position JSON of NOTATION.md: load (with every check), save, and per-seat views.

>>> from unogame.engine import Game
>>> game = Game.from_position({"players": 2, "hands": [["R1"], ["G2", "W"]],
...     "draw_pile": ["B3"], "discard_pile": ["R5"], "color": "R", "turn": 1, "uno": [0]})
>>> view = game.view(0)
>>> view["hands"], view["draw_pile"], view["dealer"]
([['R1'], 2], 1, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

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
from .moves import MAX_SEATS
from .state import (
    CHALLENGE_PENDING,
    COLOR_PENDING,
    DRAWN_PENDING,
    STACK_PENDING,
    GameState,
    Pending,
    check_copies,
    read_cards,
)

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = MAX_SEATS

FIELDS = ("players", "hands", "draw_pile", "discard_pile", "color", "direction", "turn",
          "dealer", "scores", "pending", "uno", "catchable", "winner", "game_winner")
"""Position fields in the order NOTATION.md writes them."""


def dump_position(game: GameState) -> dict[str, Any]:
    """The full position of ``game`` (NOTATION "Position")."""
    color = game.color_index
    return {
        "players": game.players,
        "hands": [[CARD_CODE[c] for c in hand] for hand in game.card_hands],
        "draw_pile": [CARD_CODE[c] for c in reversed(game.draw_cards)],
        "discard_pile": [CARD_CODE[c] for c in reversed(game.discard_cards)],
        "color": COLORS[color] if color >= 0 else None,
        "direction": game.direction,
        "turn": game.turn,
        "dealer": game.dealer,
        "scores": list(game.scores),
        "pending": _dump_pending(game, None),
        "uno": sorted(game.uno_seats),
        "catchable": sorted(game.catchable_seats),
        "winner": game.winner,
        "game_winner": game.game_winner,
    }


def dump_view(game: GameState, seat: int | None) -> dict[str, Any]:
    """The position as ``seat`` sees it: other hands and the draw pile become counts."""
    view = dump_position(game)
    view["hands"] = [
        hand if index == seat else len(hand) for index, hand in enumerate(view["hands"])
    ]
    view["draw_pile"] = len(game.draw_cards)
    view["pending"] = _dump_pending(game, seat if seat is not None else -1)
    return view


def seat_pending(game: GameState, seat: int) -> dict[str, Any] | None:
    """The pending decision as ``seat`` sees it (its ``view``'s ``pending``), without
    dumping the rest of the position (the server sends it to each seat with every move)."""
    return _dump_pending(game, seat)


def _dump_pending(game: GameState, seat: int | None) -> dict[str, Any] | None:
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


@dataclass(slots=True)
class LoadedPosition:
    """A checked position, cards as ints with the top card of each pile last."""

    players: int
    hands: list[list[int]]
    draw: list[int]
    discard: list[int]
    color: int
    direction: int
    turn: int
    dealer: int
    scores: list[int]
    pending: Pending | None
    uno: set[int]
    catchable: set[int]
    winner: int | None
    game_winner: int | None


def check_match(loaded: LoadedPosition, target_score: int) -> None:
    """R3.2 (D25): reaching the target score ends the match at once, won by the round's
    winner; so every seat at or past the target is the match's winner, and a match's
    winner won the last round with a score at or past the target."""
    game_winner = loaded.game_winner
    for seat, score in enumerate(loaded.scores):
        if score >= target_score and seat != game_winner:
            raise PositionError(
                f"R3.2: seat {seat} has {score} points, at or past the target score "
                f"{target_score}, yet has not won the match (it would have ended)")
    if game_winner is not None:
        if game_winner != loaded.winner:
            raise PositionError("R3.2: 'game_winner' must be the winner of the round")
        if loaded.scores[game_winner] < target_score:
            raise PositionError(
                f"R3.2: 'game_winner' seat {game_winner} has "
                f"{loaded.scores[game_winner]} points, below the target score {target_score}")


def load_position(data: Any) -> LoadedPosition:
    """Read and check a NOTATION position; :class:`PositionError` names what is wrong."""
    players = _players(_required(data, "position"))
    unknown = [key for key in data if key not in FIELDS]
    if unknown:
        raise PositionError(f"unknown position field {unknown[0]!r}")
    hands_data = data["hands"]
    if not isinstance(hands_data, list) or len(hands_data) != players:
        raise PositionError(f"'hands' must be a list of {players} hands")
    hands = [read_cards(hand, f"hand of seat {seat}") for seat, hand in enumerate(hands_data)]
    draw = read_cards(data["draw_pile"], "draw_pile")
    discard = read_cards(data["discard_pile"], "discard_pile")
    check_copies([card for hand in hands for card in hand] + draw + discard)
    return _load_rest(data, players, hands, draw, discard)


def load_view(view: Any, hands: Mapping[int, Sequence[str]] | None = None,
              draw_pile: Sequence[str] | None = None) -> LoadedPosition:
    """Read a seat's view (:meth:`Game.view`) plus the hidden cards: ``hands`` for the seats
    whose hand the view only counts, ``draw_pile`` top card first. Hidden cards left out
    stay out (an empty hand, an empty draw pile): such a game only holds the public state.
    When given, each must have the size the view shows; every card is checked (R1)."""
    players = _players(_required(view, "view"))
    shown = view["hands"]
    if not isinstance(shown, list) or len(shown) != players:
        raise PositionError(f"'hands' must be a list of {players} hands or counts")
    hidden = dict(hands or {})
    cards: list[list[int]] = []
    for seat, hand in enumerate(shown):
        if isinstance(hand, list):
            if seat in hidden:
                raise PositionError(f"the hand of seat {seat} is not hidden in this view")
            cards.append(read_cards(hand, f"hand of seat {seat}"))
        elif type(hand) is int and hand >= 0:
            given = hidden.pop(seat, None)
            cards.append([] if given is None else read_cards(list(given), f"hand of seat {seat}"))
            if given is not None and len(cards[-1]) != hand:
                raise PositionError(f"seat {seat} holds {hand} cards, not {len(cards[-1])}")
        else:
            raise PositionError(f"hand of seat {seat} must be a list of cards or a count")
    if hidden:
        raise PositionError(f"there is no hidden hand of seat {min(hidden)} in this view")
    size = view["draw_pile"]
    if type(size) is not int or size < 0:
        raise PositionError("a view's 'draw_pile' must be the number of cards in it")
    draw: list[int] = []
    if draw_pile is not None:
        draw = read_cards(list(draw_pile), "draw_pile")
        if len(draw) != size:
            raise PositionError(f"the draw pile holds {size} cards, not {len(draw)}")
    discard = read_cards(view["discard_pile"], "discard_pile")
    check_copies([card for hand in cards for card in hand] + draw + discard)
    data = {key: value for key, value in view.items() if key in FIELDS}
    return _load_rest(data, players, cards, draw, discard, hidden_hands=True)


def _required(data: Any, what: str) -> Any:
    """Check that ``data`` is an object with the fields every position has; its players."""
    if not isinstance(data, dict):
        raise PositionError(f"a {what} must be a JSON object")
    for key in ("players", "hands", "draw_pile", "discard_pile"):
        if key not in data:
            raise PositionError(f"the {what} has no {key!r}")
    return data["players"]


def _players(players: Any) -> int:
    if type(players) is not int:
        raise PositionError("'players' must be a whole number")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise PositionError(f"players must be from {MIN_PLAYERS} to {MAX_PLAYERS} (R1.3)")
    return players


def _load_rest(data: dict[str, Any], players: int, hands: list[list[int]], draw: list[int],
               discard: list[int], hidden_hands: bool = False) -> LoadedPosition:
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
    if not hidden_hands:
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

    pending = _load_pending(data.get("pending"), players, turn, hands, hidden_hands)
    if pending is not None and pending.kind == STACK_PENDING and (
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
    return LoadedPosition(players, hands, draw[::-1], discard[::-1], color, direction, turn,
                          dealer, list(scores), pending, uno, catchable, winner, game_winner)


def _load_pending(data: Any, players: int, turn: int, hands: list[list[int]],
                  hidden_hands: bool = False) -> Pending | None:
    if data is None:
        return None
    if not isinstance(data, dict) or "kind" not in data:
        raise PositionError("'pending' must be null or an object with a 'kind'")
    kind = data["kind"]
    if kind == COLOR_PENDING:
        return Pending(COLOR_PENDING)
    if kind == DRAWN_PENDING:
        if hidden_hands and "card" not in data:  # the drawn card of another seat is hidden
            return Pending(DRAWN_PENDING)
        cards = read_cards([data.get("card")], "pending drawn card")
        if cards[0] not in hands[turn]:
            raise PositionError("the pending drawn card is not in the hand of the seat to act")
        return Pending(DRAWN_PENDING, card=cards[0])
    if kind == CHALLENGE_PENDING:
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
        return Pending(CHALLENGE_PENDING, by=by, color=color, guilty=guilty, amount=amount)
    if kind == STACK_PENDING:
        amount = data.get("amount")
        if type(amount) is not int or amount < 2:
            raise PositionError("a pending stack needs an 'amount' >= 2")
        return Pending(STACK_PENDING, amount=amount)
    raise PositionError(f"unknown pending kind {kind!r}")
