"""How much of ``hard``'s 4-player strength hangs on what it cannot see: the same bot
against three ``medium``, told every hand before each of its decisions or not.

    python benchmarks/hard_ceiling.py --rounds 400 --seed 2026            # both
    python benchmarks/hard_ceiling.py --rounds 400 --seed 2026 --only told
    python benchmarks/hard_ceiling.py --rounds 300 --only told --told next  # one hand

"Told": before each decision its tracker's known cards are set to the true hands of the
other seats (and their colour limits dropped), so every determinization is the real deal
but for the order of the draw pile. ``--told next``: only the next player's hand;
``--told small``: only the hands of three cards or fewer. The rounds are ``uno sim``'s
(``round_seed``, hard's seat rotating); the loop is a plain one over ``Game`` (the player
to act, then the others' off-turn moves), so compare its lines with each other, not with
``uno sim``'s table.
This is an experiment about the belief model, not a bot: nothing outside reads hands.
"""

from __future__ import annotations

import argparse
from functools import partial
from multiprocessing import Pool

from unogame.bots import HardBot, make_bot
from unogame.bots.base import play_next
from unogame.engine import Game, Rules
from unogame.sim.runner import round_seed
from unogame.sim.stats import wilson_interval


def play(index: int, seed: int, told: bool, which: str = "all") -> bool:
    """Round ``index``: whether hard won it (``which`` hands it is told, if ``told``)."""
    deal = round_seed(seed, index)
    game = Game.new(4, Rules(), deal)
    hard_seat = (-index) % 4  # uno sim seats slot (seat + index) % 4; hard is slot 0
    bots = [HardBot(seed=deal) if seat == hard_seat else make_bot("medium", deal * 10 + seat)
            for seat in range(4)]
    for seat, bot in enumerate(bots):
        bot.new_round(seat, game.view(seat), game.rules)
    def tell(seat: int) -> None:
        bot = bots[seat]
        if told and isinstance(bot, HardBot):
            for other in range(4):
                if other != seat and (
                        which == "all"
                        or (which == "next" and other == (seat + game.direction) % 4)
                        or (which == "small" and len(game.card_hands[other]) <= 3)):
                    bot.tracker.known[other] = list(game.card_hands[other])
                    bot.tracker.allowance[other] = [None] * 5

    while game.winner is None:
        play_next(game, bots, tell)
    return game.winner == hard_seat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", choices=("told", "blind"))
    parser.add_argument("--told", choices=("all", "next", "small"), default="all",
                        help="which hands hard is told (default: every one)")
    args = parser.parse_args()
    for told in (True, False):
        if args.only is not None and told != (args.only == "told"):
            continue
        with Pool(args.workers) as pool:
            wins = sum(pool.map(partial(play, seed=args.seed, told=told, which=args.told),
                                range(args.rounds), chunksize=10))
        low, high = wilson_interval(wins, args.rounds)
        name = {"all": "told every hand", "next": "told the next hand",
                "small": "told hands <= 3"}[args.told] if told else "as it plays"
        print(f"hard {name:<18} {wins}/{args.rounds}"
              f" = {wins / args.rounds:.1%}  95% CI [{low:.1%}, {high:.1%}]", flush=True)


if __name__ == "__main__":
    main()
