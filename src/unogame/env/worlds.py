"""Worlds for search: a game's hidden cards dealt again as one seat may believe them.

>>> from unogame.bots.knowledge import CardTracker
>>> game = Game.new(3, seed=2)
>>> tracker = CardTracker(0, 3)
>>> tracker.reset(0, game.view(0)["hands"][0])
>>> world = sample_world(game, 0, tracker, random.Random(1))
>>> world.view(0) == game.view(0), world.hands == game.hands
(True, False)
"""

from __future__ import annotations

import random
from collections import Counter

from ..bots.ismcts import determinize, public_game
from ..bots.knowledge import CardTracker
from ..engine import Game
from ..engine.cards import CARD_COPIES, card_from_code
from ..native.game import NativeGame


def sample_world(game: Game | NativeGame, seat: int, tracker: CardTracker,
                 rng: random.Random) -> Game:
    """An engine game in which every card ``seat`` cannot see is dealt again at random,
    consistently with its view and what ``tracker`` says it knows (IS-MCTS
    determinization); ``seat``'s view of it is the same."""
    view = game.view(seat)
    template = public_game(view, seat, game.rules)
    world = determinize(view, tracker, template, tracker.unseen(view), rng)
    pending = game.pending
    if pending is not None and pending.kind == "drawn" and seat != game.turn:
        world = _with_drawn_card(world, seat, rng)
    return world


def _with_drawn_card(world: Game, observer: int, rng: random.Random) -> Game:
    """``world`` with the hidden card of a pending ``drawn`` decision chosen: a playable
    card of the player to act's sampled hand. A view of another seat does not show that
    card (D8), so a sample may have none: one is then swapped in from a place ``observer``
    cannot see (the draw pile, another hand), or, failing that, a wild card replaces one."""
    position = world.position()
    turn = world.turn
    hands = position["hands"]
    hand = hands[turn]

    def playable(code: str) -> bool:
        return world.is_playable(card_from_code(code))

    choices = [code for code in hand if playable(code)]
    if not choices:
        places = [position["draw_pile"], *(cards for index, cards in enumerate(hands)
                                           if index not in (turn, observer))]
        sources = [(place, index) for place in places
                   for index, code in enumerate(place) if playable(code)]
        slot = rng.randrange(len(hand))
        if sources:
            place, index = rng.choice(sources)
            hand[slot], place[index] = place[index], hand[slot]
        else:
            held = Counter(code for cards in (*hands, position["draw_pile"],
                                              position["discard_pile"]) for code in cards)
            hand[slot] = next(code for code in ("W", "WC", "W+4", "WS")
                              if held[code] < CARD_COPIES[card_from_code(code)])
        choices = [hand[slot]]
    position["pending"] = {"kind": "drawn", "card": rng.choice(choices)}
    rebuilt = Game.from_position(position, world.rules, world.seed)
    rebuilt.dealer_draws = world.dealer_draws
    return rebuilt
