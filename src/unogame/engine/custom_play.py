"""Playing a Wild Customizable: its legal moves and its steps, on a small set of mechanics.

The game hands over what a rule may do (:class:`Mechanics`: draw, swap, pass hands, put
cards under the top card, give a card, end the round) and its public seat state
(:class:`Seats`: players, direction, turn, rules); this module decides the rest, so the
composer needs nothing private of the game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from .cards import CARD_CODE, CARD_COLOR, WILD_CUSTOM
from .custom import CustomRule
from .events import Event
from .moves import PLAY, Move

if TYPE_CHECKING:
    from .rules import Rules

Events = list[Event] | None


class Seats(Protocol):
    """The public seat state a rule reads and changes."""

    players: int
    direction: int
    turn: int
    rules: Rules


@dataclass(frozen=True, slots=True)
class Mechanics:
    """The game mechanics a rule uses (the game builds one around itself)."""

    hand: Callable[[int], list[int]]
    """The live hand of a seat."""
    give: Callable[[int, int, Events, str], None]
    """Seat draws N cards, or as many as there are (R4.5); a ``draw`` event."""
    swap: Callable[[int, int, Events], None]
    """Two seats swap hands (D4); a ``swap`` event."""
    pass_hands: Callable[[Events], None]
    """Every hand passes on in the direction of play (D4); a ``pass_hands`` event."""
    put_under_top: Callable[[list[int]], None]
    """Cards go onto the discard pile under its top card."""
    receive: Callable[[int, int], None]
    """Seat gains one card (it leaves ``uno`` and ``catchable``, D4)."""
    end_round: Callable[[int, Events], None]
    """Seat has emptied its hand with the rule: the round is won (R7.1)."""


def seats_of(who: str, seat: int, chosen: int, players: int, direction: int) -> list[int]:
    """The seats a step acts on, in turn order (DECISIONS.md "who")."""
    if who == "next":
        return [(seat + direction) % players]
    if who == "chosen":
        return [chosen]
    if who == "self":
        return [seat]
    others = [(seat + step * direction) % players for step in range(1, players)]
    return [*others, seat] if who == "everyone" else others


def apply_rule(rule: CustomRule, game: Seats, ops: Mechanics, seat: int, move: Move,
               events: Events) -> tuple[int, ...]:
    """Carry out ``rule`` after ``seat`` played the Wild Customizable ``move`` (not as its
    last card), and set whose turn it is. Returns the seats whose hand may have come to
    one card (their catch window, R6.2); ``()`` when the rule emptied the player's hand."""
    if events is not None and not rule.is_plain:
        events.append(Event("custom", {"seat": seat, **rule.announcement()}))
    players = game.players
    changed = [seat]
    skipped = 0
    again = False
    for step in rule.steps:
        direction = game.direction
        what = step.what
        targets = seats_of(step.who, seat, move.target, players, direction)
        if what == "draw":
            for target in targets:
                ops.give(target, step.count, events, "custom")
        elif what == "skip":
            if events is not None:
                for number in range(skipped + 1, skipped + step.count + 1):
                    events.append(Event("skip", {"seat": (seat + number * direction) % players}))
            skipped += step.count
        elif what == "reverse":
            game.direction = -direction
            if events is not None:
                events.append(Event("reverse", {"seat": seat, "direction": -direction}))
            if players == 2 and game.rules.two_player_reverse_skips:
                skipped += 1  # R5.2: with two players a reverse acts like a skip
        elif what == "play_again":
            again = True
        elif what == "swap":
            ops.swap(seat, targets[0], events)
            changed.append(targets[0])
        elif what == "pass_hands":
            ops.pass_hands(events)
            changed = list(range(players))
        elif what == "discard_color":
            _discard_color(ops, seat, move.arg, events)
        elif what == "reveal":
            if events is not None:
                for target in targets:
                    events.append(Event("reveal", {
                        "seat": target, "hand": [CARD_CODE[c] for c in ops.hand(target)]}))
        else:  # give
            _give_card(ops, seat, targets[0], move.gift, events)
        if not ops.hand(seat):
            ops.end_round(seat, events)
            return ()
    game.turn = seat if again else (seat + (skipped + 1) * game.direction) % players
    return tuple(changed)


def _discard_color(ops: Mechanics, seat: int, color: int, events: Events) -> None:
    hand = ops.hand(seat)
    discarded = [card for card in hand if CARD_COLOR[card] == color]
    if discarded:
        hand[:] = [card for card in hand if CARD_COLOR[card] != color]
        ops.put_under_top(discarded)
    if events is not None:
        events.append(Event("discard", {"seat": seat,
                                        "cards": [CARD_CODE[c] for c in discarded]}))


def _give_card(ops: Mechanics, seat: int, target: int, card: int, events: Events) -> None:
    ops.hand(seat).remove(card)
    ops.receive(target, card)
    if events is not None:
        secret = {"card": CARD_CODE[card]}  # only the two players see which card
        events.append(Event("give", {"seat": seat, "to": target, "count": 1},
                            {seat: secret, target: secret}))


def plays(rule: CustomRule, players: int, direction: int, hands: Sequence[Sequence[int]],
          seat: int, drawable: int, size_by_copy: Callable[[int, Move], int],
          ) -> Iterator[tuple[Move, int]]:
    """Every way ``seat`` may play a Wild Customizable under ``rule``, each with the size
    of its hand once the play took effect (D3: ``uno`` goes with a play leaving one card).

    ``hands``: every seat's cards now; ``drawable``: the cards that can be drawn once the
    card lies on the pile (R4.5). Moves come colour first, then the discarded colour, the
    seat, the card given (the colour named never changes the hand: one size for all four).
    """
    hand = hands[seat]
    discards = range(4) if rule.needs_color else (-1,)
    targets = [t for t in range(players) if t != seat] if rule.needs_seat else [-1]
    gifts = sorted(set(_without_one(hand))) if rule.needs_card and len(hand) > 1 else [-1]
    sizes = {}
    for discard in discards:
        for target in targets:
            for gift in gifts:
                move = Move.make(PLAY, WILD_CUSTOM, 0, target, discard, gift=gift)
                sizes[discard, target, gift] = size_after(rule, players, direction, hands,
                                                          seat, drawable, move, size_by_copy)
    for color in range(4):
        for (discard, target, gift), size in sizes.items():
            yield Move.make(PLAY, WILD_CUSTOM, color, target, discard, gift=gift), size


def size_after(rule: CustomRule, players: int, direction: int, hands: Sequence[Sequence[int]],
               seat: int, drawable: int, move: Move,
               size_by_copy: Callable[[int, Move], int]) -> int:
    """``seat``'s hand size once its Wild Customizable ``move`` took effect (the hands
    are never changed: a step that changes one makes a new list)."""
    hand = hands[seat]
    if len(hand) == 1:
        return 0  # R7.1: the last card wins at once, the rule does not happen
    if not rule.changes_own_hand:
        return len(hand) - 1
    if rule.only_discards:  # the common case (the discard_color preset), counted directly
        return len(hand) - 1 - sum(1 for card in hand if CARD_COLOR[card] == move.arg)
    held: list[Sequence[int]] = list(hands)
    held[seat] = _without_one(hand)
    for step in rule.steps:
        targets = seats_of(step.who, seat, move.target, players, direction)
        what = step.what
        if what == "draw":
            for target in targets:
                count = min(step.count, drawable)
                drawable -= count
                held[target] = [*held[target], *[-1] * count]  # cards not known here
        elif what == "reverse":
            direction = -direction
        elif what == "swap":
            held[seat], held[targets[0]] = held[targets[0]], held[seat]
        elif what == "pass_hands":
            held = [held[(other - direction) % players] for other in range(players)]
        elif what == "discard_color":
            own = held[seat]
            if -1 in own:  # the colours of cards drawn before are not known here
                return size_by_copy(seat, move)
            kept = [card for card in own if CARD_COLOR[card] != move.arg]
            drawable += len(own) - len(kept)
            held[seat] = kept
        elif what == "give":
            given = list(held[seat])
            given.remove(move.gift)
            held[seat] = given
            held[targets[0]] = [*held[targets[0]], move.gift]
        if not held[seat]:
            return 0
    return len(held[seat])


def _without_one(hand: Sequence[int]) -> list[int]:
    held = list(hand)
    held.remove(WILD_CUSTOM)
    return held


def gift_problem(rule: CustomRule, hand: Sequence[int], move: Move) -> str | None:
    """Why the card named to give is wrong for ``hand`` (which still holds the WC)."""
    last = len(hand) == 1
    if not rule.needs_card:
        return None if move.gift < 0 else "takes no card to give here"
    if last:
        return None if move.gift < 0 else "R7.1: it is your last card; there is nothing to give"
    if move.gift < 0:
        return "R5.7: name the card to give (play WC COLOUR ... CARD)"
    if move.gift not in _without_one(hand):
        return f"R5.7: you hold no {CARD_CODE[move.gift]} to give besides the played card"
    return None

