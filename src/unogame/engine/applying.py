"""Applying a move to a game: turn moves (play, draw, pass), reactions (UNO, catch,
colour), the Wild Draw Four challenge (R5.4) and the Wild Customizable's rule (R5.7)."""

from __future__ import annotations

from .cards import (
    CARD_CODE,
    CARD_COLOR,
    CARD_RANK,
    COLORS,
    REVERSE,
    SKIP,
    WILD,
    WILD_CUSTOM,
    WILD_DRAW_FOUR,
    WILD_SWAP,
)
from .custom_play import Mechanics, apply_rule
from .events import Event
from .moves import (
    ACCEPT,
    CHALLENGE,
    COLOR,
    DRAW,
    PASS,
    PLAY,
    TURN_KINDS,
    UNO,
    Move,
    play_event,
)
from .rounds import RoundMechanics
from .state import CHALLENGE_PENDING, DRAWN_PENDING, STACK_PENDING, Pending, drawn_card_allowed


class MoveApplication(RoundMechanics):
    """Moves applied unchecked (see :class:`~unogame.engine.Game` for ``push``)."""

    __slots__ = ()

    def _apply(self, seat: int, move: Move, events: list[Event] | None) -> None:
        # NOTATION uno: a seat leaves it when it holds more than one card again, other than
        # on its own turn with two. Gaining cards is D4 (_give, _draw_move, _swap,
        # _pass_hands); a seat that said UNO with two leaves when its turn ends without a
        # play (pass, a draw that brings nothing) or when a jump-in takes the turn (_play).
        kind = move.kind
        if kind in TURN_KINDS and self.catchable_seats:
            self.catchable_seats.clear()  # D1: the player to act starts (or goes on with) a turn
        if kind == PLAY:
            self._play(seat, move, events)
        elif kind == DRAW:
            self._draw_move(seat, events)
        elif kind == PASS:
            self.pending = None
            self.uno_seats.discard(seat)  # it holds the card it drew and at least one more
            if events is not None:
                events.append(Event("pass", {"seat": seat}))
            self._advance(1)
        elif kind == CHALLENGE:
            self._challenge(seat, events)
        elif kind == ACCEPT:
            pending = self.pending
            assert pending is not None
            self.pending = None
            if events is not None:
                events.append(Event("accept", {"seat": seat}))
            self._give(seat, pending.amount, events, "wild_draw_four")
            self._skip_to_next(seat, events)
        elif kind == COLOR:
            self.pending = None
            self.color_index = move.color
            if events is not None:
                events.append(Event("color", {"seat": seat, "color": COLORS[move.color]}))
        elif kind == UNO:
            self.uno_seats.add(seat)
            self.catchable_seats.discard(seat)
            if events is not None:
                events.append(Event("uno", {"seat": seat}))
        else:  # CATCH
            target = move.target
            self.catchable_seats.discard(target)
            if events is not None:
                events.append(Event("catch", {"seat": seat, "target": target}))
            self._give(target, self.rules.uno_penalty, events, "uno_penalty")

    def _play(self, seat: int, move: Move, events: list[Event] | None) -> None:
        card = move.card
        hand = self.card_hands[seat]
        pending = self.pending
        stacked = pending.amount if pending is not None and pending.kind != DRAWN_PENDING else 0
        jump_in = seat != self.turn
        if jump_in and len(self.card_hands[self.turn]) > 1:
            self.uno_seats.discard(self.turn)
        self.turn = seat
        hand.remove(card)
        old_color = self.color_index
        self.discard_cards.append(card)
        self.color_index = CARD_COLOR[card] if card < WILD else move.color
        self.pending = None
        if events is not None:
            events.append(play_event(seat, move, COLORS[self.color_index], jump_in))
        if not hand:
            self._end_round(seat, card, stacked, events)
            return
        players = self.players
        direction = self.direction
        rules = self.rules
        changed: tuple[int, ...] = (seat,)
        if card < WILD:
            rank = CARD_RANK[card]
            if rank < 10:
                if rules.seven_zero and rank == 7:
                    self._swap(seat, move.target, events)
                    changed = (seat, move.target)
                elif rules.seven_zero and rank == 0:
                    self._pass_hands(events)
                    changed = tuple(range(players))
                self.turn = (seat + direction) % players
            elif rank == SKIP:
                self._skip_to_next((seat + direction) % players, events)
            elif rank == REVERSE:
                self.direction = -direction
                if players == 2 and rules.two_player_reverse_skips:
                    self.turn = seat  # R5.2: acts like Skip with two players
                else:
                    self.turn = (seat - direction) % players
            else:  # DRAW_TWO
                victim = (seat + direction) % players
                if rules.stacking:
                    self.pending = Pending(STACK_PENDING, amount=stacked + 2)
                    self.turn = victim
                else:
                    self._give(victim, 2, events, "draw_two")
                    self._skip_to_next(victim, events)
        elif card == WILD_DRAW_FOUR:
            victim = (seat + direction) % players
            guilty = any(CARD_COLOR[other] == old_color for other in hand)
            if rules.challenge:
                self.pending = Pending(CHALLENGE_PENDING, by=seat, color=old_color,
                                       guilty=guilty, amount=stacked + 4)
                self.turn = victim
            elif rules.stacking:
                self.pending = Pending(STACK_PENDING, amount=stacked + 4)
                self.turn = victim
            else:
                self._give(victim, 4, events, "wild_draw_four")
                self._skip_to_next(victim, events)
        elif card == WILD_SWAP:
            self._swap(seat, move.target, events)
            changed = (seat, move.target)
            self.turn = (seat + direction) % players
        elif card == WILD_CUSTOM:
            changed = self._custom(seat, move, events)
        else:  # WILD
            self.turn = (seat + direction) % players
        if move.uno:
            self.uno_seats.add(seat)
        for changed_seat in changed:
            if len(self.card_hands[changed_seat]) == 1 and changed_seat not in self.uno_seats:
                self.catchable_seats.add(changed_seat)

    def _custom(self, seat: int, move: Move, events: list[Event] | None) -> tuple[int, ...]:
        """The Wild Customizable's rule (R5.7; custom.py, custom_play.py)."""
        return apply_rule(self.rules.custom, self, self._mechanics(), seat, move, events)

    def _mechanics(self) -> Mechanics:
        """What a Wild Customizable rule may do to this game (custom_play.Mechanics)."""

        def put_under_top(cards: list[int]) -> None:
            self.discard_cards[-1:-1] = cards

        def receive(seat: int, card: int) -> None:
            self.card_hands[seat].append(card)
            self.uno_seats.discard(seat)
            self.catchable_seats.discard(seat)

        return Mechanics(
            hand=lambda seat: self.card_hands[seat], give=self._give, swap=self._swap,
            pass_hands=self._pass_hands, put_under_top=put_under_top, receive=receive,
            end_round=lambda seat, events: self._end_round(seat, WILD_CUSTOM, 0, events),
        )

    def _draw_move(self, seat: int, events: list[Event] | None) -> None:
        pending = self.pending
        if pending is not None:  # a stack: take it all and lose the turn
            self.pending = None
            self._give(seat, pending.amount, events, "stack")
            self._skip_to_next(seat, events)
            return
        drawn: list[int] = []
        until_playable = self.rules.draw_until_playable
        hand = self.card_hands[seat]  # the cards drawn before the last did not match
        while True:
            card = self._take_card(events)
            if card < 0:
                break
            drawn.append(card)
            if not until_playable or drawn_card_allowed(card, hand, self.color_index,
                                                        self.discard_cards):
                break
        if drawn:
            self.card_hands[seat].extend(drawn)
            self.uno_seats.discard(seat)
        if events is not None:
            events.append(Event("draw", {"seat": seat, "count": len(drawn), "reason": "turn"},
                                {seat: {"cards": [CARD_CODE[c] for c in drawn]}}))
        if drawn and self.is_playable(drawn[-1]):
            self.pending = Pending(DRAWN_PENDING, card=drawn[-1])
        else:
            if not drawn and len(self.card_hands[seat]) > 1:
                self.uno_seats.discard(seat)
            self._advance(1)  # R4.4 / R4.5: nothing playable drawn, the turn ends

    def _challenge(self, seat: int, events: list[Event] | None) -> None:
        pending = self.pending
        assert pending is not None
        self.pending = None
        by = pending.by
        if events is not None:
            events.append(Event(
                "challenge", {"seat": seat, "by": by, "guilty": pending.guilty},
                {seat: {"hand": [CARD_CODE[c] for c in self.card_hands[by]]}},
            ))
        if pending.guilty:  # R5.4: the challenged player draws, the challenger plays on
            self._give(by, pending.amount, events, "challenge")
        else:
            self._give(seat, pending.amount + 2, events, "challenge")
            self._skip_to_next(seat, events)
