"""How cards move and rounds begin and end: drawing, giving, skipping, swapping and
passing hands, shuffles from the seed (D14), the deal (R2, R5.x), the dealer's choice
(R2.1) and the round's end and scoring (R7)."""

from __future__ import annotations

import random

from .cards import (
    CARD_CODE,
    CARD_COLOR,
    CARD_POINTS,
    CARD_RANK,
    DRAW_TWO,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
    full_deck,
)
from .errors import PositionError
from .events import Event
from .fields import GameFields
from .state import COLOR_PENDING, Pending


class RoundMechanics(GameFields):
    """The card mechanics of a round, below the moves (see :class:`~unogame.engine.Game`)."""

    __slots__ = ()

    # ----------------------------------------------------------------- card mechanics

    def _end_round(self, seat: int, card: int, stacked: int, events: list[Event] | None) -> None:
        """R7: the round is won at once; R7.2 draws; R7.3 scoring; R3.2 the match."""
        self.winner = seat
        self.pending = None
        self.catchable_seats.clear()
        victim = (seat + self.direction) % self.players
        if card < WILD and CARD_RANK[card] == DRAW_TWO:
            self._give(victim, stacked + 2, events, "draw_two")
        elif card == WILD_DRAW_FOUR:
            self._give(victim, stacked + 4, events, "wild_draw_four")
        points = [sum(CARD_POINTS[c] for c in hand) for hand in self.card_hands]
        self.scores[seat] += sum(points)
        if self.scores[seat] >= self.rules.target_score:
            self.game_winner = seat
        if events is not None:
            events.append(Event("round_over", {
                "winner": seat, "points": points, "scores": self.scores[:],
                "hands": self.hands, "game_winner": self.game_winner,
            }))

    def _advance(self, steps: int) -> None:
        self.turn = (self.turn + steps * self.direction) % self.players

    def _skip_to_next(self, skipped: int, events: list[Event] | None) -> None:
        """``skipped`` loses the turn; the player after them acts."""
        if events is not None:
            events.append(Event("skip", {"seat": skipped}))
        self.turn = (skipped + self.direction) % self.players

    def _swap(self, seat: int, target: int, events: list[Event] | None) -> None:
        hands = self.card_hands
        hands[seat], hands[target] = hands[target], hands[seat]
        self.uno_seats.discard(seat)  # D4: a replaced hand needs UNO said again
        self.uno_seats.discard(target)
        if events is not None:
            events.append(Event("swap", {"seats": [seat, target]}))

    def _pass_hands(self, events: list[Event] | None) -> None:
        """Every hand moves to the next seat in the direction of play."""
        players = self.players
        old = self.card_hands
        new: list[list[int]] = [[] for _ in range(players)]
        for seat in range(players):
            new[(seat + self.direction) % players] = old[seat]
        self.card_hands = new
        self.uno_seats.clear()
        if events is not None:
            events.append(Event("pass_hands", {"direction": self.direction}))

    def _take_card(self, events: list[Event] | None) -> int:
        """The top card of the draw pile, reshuffling the discard pile if needed (R4.5)."""
        if not self.draw_cards:
            if len(self.discard_cards) <= 1:
                return -1
            top = self.discard_cards.pop()
            self.draw_cards = self.discard_cards
            self.discard_cards = [top]
            self._shuffle(self.draw_cards)
            if events is not None:
                events.append(Event("reshuffle", {"count": len(self.draw_cards)}))
        return self.draw_cards.pop()

    def _give(self, seat: int, count: int, events: list[Event] | None, reason: str) -> None:
        """``seat`` draws ``count`` cards, or as many as there are (R4.5)."""
        drawn = []
        for _ in range(count):
            card = self._take_card(events)
            if card < 0:
                break
            drawn.append(card)
        if drawn:
            self.card_hands[seat].extend(drawn)
            self.uno_seats.discard(seat)
            self.catchable_seats.discard(seat)
        if events is not None:
            events.append(Event("draw", {"seat": seat, "count": len(drawn), "reason": reason},
                                {seat: {"cards": [CARD_CODE[c] for c in drawn]}}))

    def _next_rng(self) -> random.Random:
        """A generator seeded from the game seed and the shuffle count (D14): a game's
        chance depends only on its seed and its moves, and copies need no RNG state."""
        rng = random.Random(f"{self.seed}/{self.shuffles}")
        self.shuffles += 1
        return rng

    def _shuffle(self, cards: list[int]) -> None:
        shuffle_with(self._next_rng(), cards)

    # ----------------------------------------------------------------- the deal

    def _deal(self, deck: list[int]) -> None:
        """Deal ``deck`` (top first) from the dealer's left, turn the first card (R2, R5.x)."""
        players = self.players
        dealer = self.dealer
        self.card_hands = [[] for _ in range(players)]
        index = 0
        for _ in range(self.rules.hand_size):
            for step in range(1, players + 1):
                self.card_hands[(dealer + step) % players].append(deck[index])
                index += 1
        rest = deck[index:]
        rest.reverse()  # top card last
        self.draw_cards = rest
        self.discard_cards = []
        self.uno_seats = set()
        self.catchable_seats = set()
        self.winner = None
        self.pending = None
        self.direction = 1
        first = self.draw_cards.pop()
        while first == WILD_DRAW_FOUR:  # R5.4: back into the deck, reshuffle, turn again
            if all(card == WILD_DRAW_FOUR for card in self.draw_cards):
                raise PositionError("R5.4: the deck holds only Wild Draw Fours to turn up")
            self.draw_cards.append(first)
            self._shuffle(self.draw_cards)
            first = self.draw_cards.pop()
        self.discard_cards.append(first)
        left = (dealer + 1) % players
        self.turn = left
        self.color_index = CARD_COLOR[first] if first < WILD else -1
        effects: list[Event] = []
        if first >= WILD:  # R5.8: the first player chooses the colour, nothing else happens
            self.pending = Pending(COLOR_PENDING)
        elif CARD_RANK[first] == DRAW_TWO:  # R5.1
            self._give(left, 2, effects, "draw_two")
            self._skip_to_next(left, effects)
        elif CARD_RANK[first] == REVERSE:  # R5.2
            self.direction = -1
            self.turn = dealer
        elif CARD_RANK[first] == SKIP:  # R5.3
            self._skip_to_next(left, effects)
        self._start_events = [
            Event("deal", {"dealer": dealer, "top": CARD_CODE[first], "turn": self.turn,
                           "direction": self.direction}),
            *effects,
        ]
        self._round_start = self._snapshot()


def shuffle_with(rng: random.Random, cards: list[int]) -> None:
    """Shuffle in place: sorting by random keys is uniform and twice as fast as
    ``random.shuffle`` on a 112-card deck."""
    key = rng.random
    cards.sort(key=lambda _: key())


def choose_dealer(players: int, rng: random.Random, draws: list[dict[int, str]]) -> int:
    """R2.1: everyone draws a card from the shuffled deck; the highest point value deals;
    tied players draw again from what is left (the cards go back afterwards).
    Each drawing is appended to ``draws`` (seat to card code)."""
    deck = full_deck()
    candidates = list(range(players))
    while True:
        if len(deck) < len(candidates):
            deck = full_deck()
        drawn = {seat: deck.pop(int(rng.random() * len(deck))) for seat in candidates}
        draws.append({seat: CARD_CODE[card] for seat, card in drawn.items()})
        best = max(CARD_POINTS[card] for card in drawn.values())
        candidates = [seat for seat in candidates if CARD_POINTS[drawn[seat]] == best]
        if len(candidates) == 1:
            return candidates[0]
