"""hard's belief model (bots.belief): the other seats' decisions kept from the events, the
hands that explain them, and the determinizations that prefer those hands."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from unogame.bots import make_bot
from unogame.bots.base import play_next
from unogame.bots.belief import (
    MAX_DECISIONS,
    MAX_HIDDEN,
    PLAY,
    VOID,
    Decision,
    DecisionLog,
    explains,
    misses,
    recordable,
)
from unogame.bots.determinize import deal_hidden
from unogame.bots.heuristic import MediumBot
from unogame.bots.knowledge import CardTracker
from unogame.engine import Game, Move, Rules
from unogame.engine.cards import NO_COLOR, card_from_code


def cards(*codes: str) -> list[int]:
    return [card_from_code(code) for code in codes]


class Watcher(MediumBot):
    """medium, keeping the others' decisions as hard does."""

    keeps_decisions = True


def play_round(game: Game, bots: list[MediumBot], check: Callable[[], None]) -> None:
    """A plain round between the bots, ``check`` after each move."""
    while game.winner is None:
        play_next(game, bots)
        check()


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_the_true_hands_explain_every_decision_kept(players: int) -> None:
    """Against medium players, every decision kept since the seat's last draw is one their
    real hand makes, and the hand sizes followed from the events are the game's (a mistake
    in following the public state would turn the belief against the truth). A decision
    kept across draws takes the hand's last cards for the ones drawn (the engine's order):
    wrong only when a drawn card was played later, rarely."""
    rules = Rules(jump_in=players == 3)
    checked = across = across_missed = 0
    for index in range(12):
        game = Game.new(players, rules, 100 + index)
        bots: list[MediumBot] = [Watcher(seed=index)] + [
            make_bot("medium", index * 10 + seat) for seat in range(1, players)]  # type: ignore[misc]
        for seat, bot in enumerate(bots):
            bot.new_round(seat, game.view(seat), game.rules)
        log = bots[0].tracker.decisions

        def check(game: Game = game, log: DecisionLog = log) -> None:
            nonlocal checked, across, across_missed
            assert log.sizes == game.hand_sizes()
            for other in range(1, players):
                assert len(log.by_seat[other]) <= MAX_DECISIONS  # the core's limit
                for decision in log.by_seat[other]:
                    hand = game.card_hands[other]
                    if decision.hidden:
                        across += 1
                        across_missed += not explains(decision, hand, other, rules)
                    else:
                        assert explains(decision, hand, other, rules), decision
                        checked += 1

        play_round(game, bots, check)
        assert log.resyncs == 0
    assert checked > 300 and across > 100
    assert across_missed < 0.1 * across


def test_a_play_that_another_hand_would_not_make_is_not_explained() -> None:
    """medium plays the colour it holds most and, in it, the card worth most: a hand with
    more green, or a higher red, would have played otherwise; a wild names the colour held
    most."""
    seen = Decision(PLAY, color=0, top=card_from_code("R5"), direction=1, sizes=(7, 5, 7, 7),
                    move=Move.parse("play R7").code, extra=cards("R7"))
    assert explains(seen, cards("R1", "Y2", "B3"), 1, Rules())
    assert not explains(seen, cards("R1", "R9", "B3"), 1, Rules())  # R9 is worth more
    assert not explains(seen, cards("G5", "G1", "G2"), 1, Rules())  # green held most
    wild = Decision(PLAY, color=0, top=card_from_code("R5"), direction=1, sizes=(7, 5, 7, 7),
                    move=Move.parse("play W B").code, extra=cards("W"))
    assert explains(wild, cards("B1", "B2", "Y3"), 1, Rules())
    assert not explains(wild, cards("Y1", "Y2", "B3"), 1, Rules())  # it would name yellow
    assert not explains(wild, cards("B1", "R2"), 1, Rules())  # it would play the red
    void = Decision(VOID, color=0, top=card_from_code("R5"), direction=1, sizes=(7, 5, 7, 7))
    assert explains(void, cards("B1", "G2"), 1, Rules())
    assert not explains(void, cards("B1", "G5"), 1, Rules())  # a 5: it could have played it
    assert misses([seen, void], cards("B1", "G5"), 1, Rules()) == 1


def test_decisions_are_kept_only_under_rules_that_list_plays_plainly() -> None:
    assert recordable(Rules())
    assert recordable(Rules(custom_rule="others_draw", jump_in=True))
    for rules in (Rules(stacking=True), Rules(seven_zero=True),
                  Rules(draw_until_playable=True), Rules(custom_rule="chosen_draw"),
                  Rules(custom_rule="discard_color")):
        assert not recordable(rules)
        game = Game.new(3, rules, 4)
        bots: list[MediumBot] = [Watcher(seed=1), MediumBot(seed=2), MediumBot(seed=3)]
        for seat, bot in enumerate(bots):
            bot.new_round(seat, game.view(seat), game.rules)
        play_round(game, bots, lambda: None)
        assert not any(bots[0].tracker.decisions.by_seat)
    plain = MediumBot(seed=1)  # medium itself keeps none
    plain.new_round(0, Game.new(3, Rules(), 4).view(0), Rules())
    assert not plain.tracker.decisions.keeping


def test_a_seat_that_draws_is_void_only_once_the_turn_moves_on() -> None:
    """A penalty draw by another seat (a catch) is not a turn moving on: the seat that drew
    may still play what it drew, so nothing is inferred of it yet (the tracker's
    allowance took it for a pass before)."""
    tracker = CardTracker(seat=0, players=3)
    tracker.reset(0, ["R1"], 3, Rules())
    tracker.decisions.sizes = [1, 5, 2]
    tracker.decisions.top = card_from_code("R5")
    tracker.color = tracker.decisions.color = 0
    tracker.observe({"type": "draw", "seat": 1, "count": 1, "reason": "turn"})
    tracker.observe({"type": "catch", "seat": 0, "target": 2})
    tracker.observe({"type": "draw", "seat": 2, "count": 2, "reason": "uno_penalty"})
    assert tracker.allowance[1][0] == 1 and tracker.allowance[1][NO_COLOR] == 1
    assert tracker.decisions.by_seat[1] == []
    tracker.observe({"type": "draw", "seat": 2, "count": 1, "reason": "turn"})
    assert tracker.allowance[1][0] == 0 and tracker.allowance[1][NO_COLOR] == 0
    assert [d.kind for d in tracker.decisions.by_seat[1]] == [VOID]


def test_decisions_follow_the_cards_played_and_drawn_since() -> None:
    """The cards played since go into the hand then; the cards drawn since are counted out
    of the hand now, until too many came in to say (MAX_HIDDEN) or the card drawn is played
    at once (it was never held before)."""
    log = DecisionLog(0, 3)
    log.reset(0, 3, Rules())
    log.sync({"hands": [["R1"], 4, 4], "color": "R", "discard_pile": ["R5"], "direction": 1})
    log.observe({"type": "play", "seat": 1, "card": "R9", "move": "play R9", "color": "R"})
    log.observe({"type": "play", "seat": 2, "card": "R2", "move": "play R2", "color": "R"})
    assert [d.extra for d in log.by_seat[1]] == [cards("R9")]
    log.observe({"type": "play", "seat": 1, "card": "G2", "move": "play G2", "color": "G"})
    assert [d.extra for d in log.by_seat[1]] == [cards("R9", "G2"), cards("G2")]
    assert log.sizes == [1, 2, 3] and log.top == card_from_code("G2")
    log.observe({"type": "draw", "seat": 1, "count": 2, "reason": "draw_two"})
    assert [d.hidden for d in log.by_seat[1]] == [2, 2] and log.sizes == [1, 4, 3]
    log.observe({"type": "draw", "seat": 1, "count": 1, "reason": "turn"})
    log.observe({"type": "play", "seat": 1, "card": "G7", "move": "play G7", "color": "G"})
    assert [(d.hidden, len(d.extra)) for d in log.by_seat[1]] == [(2, 2), (2, 1)]
    log.observe({"type": "draw", "seat": 1, "count": MAX_HIDDEN - 1, "reason": "draw_two"})
    assert log.by_seat[1] == [] and log.sizes == [1, 4 + MAX_HIDDEN - 1, 3]


def test_determinizations_prefer_the_hands_that_explain_the_decisions() -> None:
    """Dealt again up to ``tries`` times, the hands explain the seat's plays far more often
    than the first deal does; the first deal is the one without tries."""
    game = Game.new(4, Rules(), 11)
    bots: list[MediumBot] = [Watcher(seed=3)] + [
        make_bot("medium", 30 + seat) for seat in range(1, 4)]  # type: ignore[misc]
    for seat, bot in enumerate(bots):
        bot.new_round(seat, game.view(seat), game.rules)
    tracker = bots[0].tracker
    # Play until seats other than 0 hold several decisions.
    while game.winner is None and sum(len(d) for d in tracker.decisions.by_seat) < 5:
        play_next(game, bots)
    assert game.winner is None
    view = game.view(0)
    tracker.sync(view)
    pool = tracker.unseen(view)

    def explained(tries: int) -> tuple[int, list[list[int]]]:
        rng = random.Random(5)
        good, firsts = 0, []
        for _ in range(150):
            _, hands, draw = deal_hidden(view, tracker, pool, rng, Rules(), tries)
            firsts.append(hands[1])
            good += sum(misses(tracker.decisions.by_seat[o], hands[o], o, Rules()) == 0
                        for o in hands)
            assert sorted([c for hand in hands.values() for c in hand] + draw) == sorted(pool)
            for other, hand in hands.items():
                assert len(hand) == game.hand_sizes()[other]
                assert set(tracker.known[other]) <= set(hand)
        return good, firsts

    once, _ = explained(1)
    often, _ = explained(24)
    assert often > once + 60
    plain_rng, tried_rng = random.Random(8), random.Random(8)
    assert deal_hidden(view, tracker, pool, plain_rng) == deal_hidden(
        view, tracker, pool, tried_rng, Rules(), 1)
