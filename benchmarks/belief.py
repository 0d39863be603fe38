"""How close hard's determinizations come to the real hands, by ``belief_tries``: hard
against three ``medium`` in 4 players; at each of hard's turns, 20 samples of the hidden
hands for each number of tries, compared with the true hands.

    python benchmarks/belief.py --rounds 15

Prints, by tries: the share of a sampled hand's cards that are in the true hand (a
multiset overlap), and the share of sampled seats with kept decisions whose hand explains
them all (:mod:`unogame.bots.belief`). The rounds are played by hard at its default tries;
the samples do not change them.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from unogame.bots import HardBot, make_bot
from unogame.bots.base import play_next
from unogame.bots.belief import misses
from unogame.bots.determinize import deal_hidden
from unogame.bots.knowledge import CardTracker
from unogame.engine import Game, Rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--tries", type=int, nargs="+", default=[1, 4, 16, 64])
    parser.add_argument("--samples", type=int, default=20)
    args = parser.parse_args()
    rules = Rules()
    overlap = {tries: [0, 0] for tries in args.tries}  # cards in common, cards sampled
    explained = {tries: [0, 0] for tries in args.tries}  # seats explaining all, seats
    decisions = 0
    for index in range(args.rounds):
        game = Game.new(4, rules, index)
        bots = [HardBot(seed=index) if seat == 0 else make_bot("medium", index * 10 + seat)
                for seat in range(4)]
        for seat, bot in enumerate(bots):
            bot.new_round(seat, game.view(seat), game.rules)
        hard = bots[0]
        assert isinstance(hard, HardBot)
        tracker = hard.tracker
        def sample(seat: int, game: Game = game, tracker: CardTracker = tracker) -> None:
            nonlocal decisions
            if seat != 0 or game.turn != 0:
                return
            view = game.view(0)
            tracker.sync(view)
            pool = tracker.unseen(view)
            decisions += 1
            for tries in args.tries:
                rng = random.Random(decisions)
                for _ in range(args.samples):
                    _, hands, _ = deal_hidden(view, tracker, pool, rng, rules, tries)
                    for other, hand in hands.items():
                        shared = Counter(hand) & Counter(game.card_hands[other])
                        overlap[tries][0] += sum(shared.values())
                        overlap[tries][1] += len(hand)
                        kept = tracker.decisions.by_seat[other]
                        if kept:
                            explained[tries][1] += 1
                            explained[tries][0] += misses(kept, hand, other, rules) == 0

        while game.winner is None:
            play_next(game, bots, sample)
    print(f"{args.rounds} rounds, {decisions} of hard's turns, {args.samples} samples each")
    for tries in args.tries:
        in_common, cards = overlap[tries]
        good, seats = explained[tries]
        print(f"tries {tries:>3}: cards in the true hand {in_common / max(cards, 1):.3f}; "
              f"seats explaining their decisions {good}/{seats} = {good / max(seats, 1):.1%}")


if __name__ == "__main__":
    main()
