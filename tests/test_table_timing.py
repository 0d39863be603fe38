"""When the table's requests come never depends on a hidden card (issue 21, item 3).

With jump-in on, the table used to offer an off-turn reaction only to a bot that held a
copy of the top card, and the turn's own bot waited for it: a bot's turn took 2.5 s
instead of 0.9 s when an easy bot held that copy. The table has no clock, so these tests
pace its requests as the server does (``RoomGame.schedule``: off turn ``delay``, on turn
the longer of the think time and ``delay``) on a clock of their own, and compare the
requests (which seat, in which order, when) for positions whose hidden cards differ.
"""

from __future__ import annotations

import random
from typing import Any

from unogame.engine import Game, Rules
from unogame.engine.moves import CATCH, UNO
from unogame.table import PLAYING, DecisionRequest, SeatSpec, Table

PUBLIC_REACTIONS = frozenset({UNO, CATCH})
"""Off-turn moves every seat can see the legality of (a jump-in needs a hidden copy)."""

THINK = 0.9
"""The server's default think time for a bot's own turn (``Timing.think``)."""

Schedule = list[tuple[Any, ...]]


def schedule(table: Table) -> Schedule:
    """The requests of the table's current position, paced as the server paces them,
    every off-turn bot letting the moment pass: each seat asked to react and when, then
    the turn's own decision, or a wait for a person."""
    now = table.now
    seen: Schedule = []
    while True:
        step = table.next_step()
        if not isinstance(step, DecisionRequest):
            seen.append(("waits for a person",))
            return seen
        pace = max(THINK, step.delay) if step.on_turn else step.delay
        now = max(now, step.opened + pace)
        table.advance(now - table.now)
        if step.on_turn:
            seen.append((step.seat, "turn", round(now - step.opened, 9)))
            return seen
        # Every request, with or without a jump-in to offer: the server runs each one the
        # same way (a worker thread, then the room's next step), so their number shows.
        seen.append((step.seat, "reaction", round(now - step.opened, 9)))
        table.resolve(step, None)  # it lets the moment pass: nobody sees anything


def redealt(position: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The same position for every seat but the one to act: the other hands and the draw
    pile dealt again from the same cards, every size kept."""
    turn = position["turn"]
    others = [seat for seat in range(position["players"]) if seat != turn]
    hidden = [card for seat in others for card in position["hands"][seat]]
    hidden += position["draw_pile"]
    rng.shuffle(hidden)
    hands = [list(hand) for hand in position["hands"]]
    for seat in others:
        size = len(hands[seat])
        hands[seat], hidden = hidden[:size], hidden[size:]
    return {**position, "hands": hands, "draw_pile": hidden}


SEATS = [SeatSpec("Ann"), SeatSpec("Easy", "easy"), SeatSpec("Med", "medium"),
         SeatSpec("Rand", "random")]


def table_at(position: dict[str, Any], rules: Rules, seats: list[SeatSpec] = SEATS) -> Table:
    return Table(seats, seed=3, game=Game.from_position(position, rules))


def test_the_turn_bot_waits_as_long_whether_or_not_an_easy_bot_holds_a_copy() -> None:
    """The issue's case: Ann has just played R5; the medium bot is to play; the easy bot
    holds the other R5 or not (the same cards, swapped with the draw pile)."""
    rules = Rules(jump_in=True)
    seats = [SeatSpec("Ann"), SeatSpec("Med", "medium"), SeatSpec("Easy", "easy")]
    holds = {"players": 3, "hands": [["G1", "G2", "Y3"], ["B1", "B2", "Y4"],
                                     ["R5", "Y7", "B9"]],
             "draw_pile": ["G6", "Y9", "B3"], "discard_pile": ["R5"], "color": "R",
             "turn": 1}
    lacks = {**holds, "hands": [*holds["hands"][:2], ["G6", "Y7", "B9"]],
             "draw_pile": ["R5", "Y9", "B3"]}
    with_copy = schedule(table_at(holds, rules, seats))
    without = schedule(table_at(lacks, rules, seats))
    # The easy bot is asked either way (it may not react without the copy), then the
    # medium bot plays once the easy bot's reaction window is over.
    assert with_copy == without == [(2, "reaction", 2.5), (1, "turn", 2.5)]
    # Without jump-in nobody may react: the bot plays after its think time.
    assert schedule(table_at(holds, Rules(), seats)) == [(1, "turn", THINK)]


def test_no_request_s_time_or_order_depends_on_the_hidden_cards() -> None:
    """Positions of real rounds (jump-in, four seats: a person, easy, medium and random
    bots), each dealt again three times: what every seat can see of the schedule is the
    same. The jump-in positions where a seat held a copy are counted: the property is
    tested where it matters."""
    rules = Rules(jump_in=True)
    bots = [SeatSpec(f"B{seat}", level) for seat, level in
            enumerate(("easy", "medium", "random", "easy"))]
    rng = random.Random(21)
    positions = []
    for seed in range(6):
        table = Table(bots, rules, seed=seed)
        while table.status == PLAYING:
            step = table.next_step()
            assert isinstance(step, DecisionRequest)
            play = table.resolve(step, *step.decide())
            if play is not None:
                table.apply(play)
                positions.append(table.game.position())
    held = 0
    for position in positions:
        if position["winner"] is not None:
            continue
        first = table_at(position, rules)
        expected = schedule(first)
        for _ in range(3):
            again = redealt(position, rng)
            game = Game.from_position(again, rules)
            held += any(game.legal_moves(seat) and seat != game.turn
                        and any(move.kind not in PUBLIC_REACTIONS
                                for move in game.legal_moves(seat))
                        for seat in range(game.players))
            assert schedule(table_at(again, rules)) == expected, (position, again)
    print(f"{len(positions)} positions, {held} deals where a seat could jump in")
    assert held > 60  # positions where some seat could jump in: the case that leaked


def test_the_reaction_window_is_public() -> None:
    """Who is in the window, and so how many jitter draws order it, is the same for every
    deal of the hidden cards; a zero (one copy, on the pile) opens no jump-in window."""
    from unogame.table.order import reaction_window

    rules = Rules(jump_in=True)
    base = {"players": 3, "hands": [["G1", "G2"], ["B1", "Y4"], ["R5", "Y7"]],
            "draw_pile": ["G6", "Y9", "B3", "R0"], "discard_pile": ["R5"], "color": "R",
            "turn": 0}
    swapped = {**base, "hands": [base["hands"][0], ["B1", "Y4"], ["G6", "Y7"]],
               "draw_pile": ["R5", "Y9", "B3", "R0"]}
    for delays, seed in (([0.0, 2.5, 1.0], 1), ([0.0, 1.0, 1.0], 2)):
        orders = {tuple(reaction_window(Game.from_position(p, rules), delays,
                                        random.Random(seed))) for p in (base, swapped)}
        assert len(orders) == 1 and len(next(iter(orders))) == 2
    zero = {**base, "discard_pile": ["R0"], "hands": [["G1", "G2"], ["B1", "Y4"], ["R5", "Y7"]],
            "draw_pile": ["G6", "Y9", "B3", "R5"]}
    assert reaction_window(Game.from_position(zero, rules)) == []
