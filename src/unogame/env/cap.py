"""The round-length cap for training (``round_cap``, docs/ENV.md "Round-length cap").

Random play makes long rounds (about 900 decisions with 2 players, over 13,000 with
draw-until-playable and three players), so a learner spends most of its samples in rounds
that say little. With ``round_cap=N`` a round still undecided after ``N`` decisions ends
(a termination, not a truncation) and is scored from the hands as they are: the seats
holding the fewest cards share the win.

>>> capped_rewards([3, 1, 5], [30, 4, 60], "share")
[-0.5, 1.0, -0.5]
>>> capped_rewards([2, 2], [10, 20], "share")
[0.0, 0.0]
>>> capped_rewards([1, 2, 2], [9, 20, 30], "points")
[50.0, -25.0, -25.0]
"""

from __future__ import annotations

from collections.abc import Sequence


def capped_rewards(sizes: Sequence[int], hand_points: Sequence[int], reward: str) -> list[float]:
    """Rewards of a round cut at the cap: the ``k`` seats with the fewest cards win.

    ``share``: the winners get ``+1/k`` each and the others ``-1/(n-k)`` each (one winner:
    +1 and -1/(n-1), a round's usual rewards); ``points``: the winners share the points of
    the other hands (R7.3) and the others pay them in equal parts. Rewards sum to zero;
    everyone tied: all zero.
    """
    players = len(sizes)
    fewest = min(sizes)
    winners = [seat for seat in range(players) if sizes[seat] == fewest]
    if len(winners) == players:
        return [0.0] * players
    won = 1.0 if reward == "share" else float(
        sum(points for seat, points in enumerate(hand_points) if seat not in winners))
    win, lose = won / len(winners), -won / (players - len(winners))
    return [win if seat in winners else lose for seat in range(players)]
