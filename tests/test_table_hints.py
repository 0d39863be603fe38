"""The hint helpers cost nothing until a seat asks (issue 22): a helper built late gives
exactly the hints of one told everything from the start, across rounds and across a save
and restore, and no helper hears anything before its seat asks."""

from __future__ import annotations

import gc
import json
import random
import tracemalloc
from collections.abc import Callable
from typing import Any, ClassVar

import pytest

from unogame import native
from unogame.bots import Bot, MediumBot
from unogame.engine import Game, Move, Rules
from unogame.engine.state import PlayableGame
from unogame.table import (
    MATCH_OVER,
    PLAYING,
    ROUND_OVER,
    DecisionRequest,
    SeatSpec,
    Table,
    TableSettings,
    hints,
)
from unogame.table.hints import helper_bot, hint_request
from unogame.table.seats import derived_seed
from unogame.table.steps import TABLE_EVENT_KINDS

RULE_SETS = (Rules(), Rules(hand_size=5, seven_zero=True, jump_in=True),
             Rules(hand_size=4, stacking=True, draw_until_playable=True))


def state_of(value: Any) -> Any:
    """Everything a bot holds, as comparable plain data (its generator: its state)."""
    if isinstance(value, random.Random):
        return ("rng", value.getstate())
    if isinstance(value, (list, tuple)):
        return [state_of(item) for item in value]
    if isinstance(value, dict):
        return {key: state_of(item) for key, item in value.items()}
    if hasattr(value, "__dict__") and not isinstance(value, (Rules, type)):
        return (type(value).__name__, state_of(vars(value)))
    return value


class EagerHelpers:
    """What the table did before issue 22: every person seat's helper made at the start and
    told every round start and every event of its seat (read from the table's feed)."""

    def __init__(self, table: Table, make: Callable[[int], Bot] = helper_bot) -> None:
        self.table = table
        self.helpers = {seat: make(derived_seed(table.seed, seat, "hint"))
                        for seat in table.people()}
        self.heard = 0
        self.new_round()

    def new_round(self) -> None:
        """Right after the table dealt (or was made): before the round's events."""
        for seat, helper in self.helpers.items():
            helper.new_round(seat, self.table.view(seat), self.table.game.rules)

    def catch_up(self) -> None:
        for seat, helper in self.helpers.items():
            for event in self.table.feed(seat, self.heard):
                if event["type"] not in TABLE_EVENT_KINDS:
                    helper.observe(event)
        self.heard = self.table.event_count

    def hint(self, seat: int) -> tuple[Move | None, Any]:
        legal = self.table.legal_moves(seat)
        request = hint_request(seat, self.table.version, self.table.view(seat), legal,
                               self.helpers[seat])
        told = state_of(request.bot)  # before it decides: deciding syncs it to the view
        return request.decide(), told


def lazy_hint(table: Table, seat: int) -> tuple[Move | None, Any]:
    request = table.hint(seat)
    assert request is not None
    told = state_of(request.bot)
    return request.decide(), told


def new_game(players: int, rules: Rules, seed: int, use_native: bool) -> PlayableGame:
    return native.new_game(players, rules, seed) if use_native else Game.new(players, rules,
                                                                               seed)


def step(table: Table, rng: random.Random, log: list[tuple[int, str]]) -> bool:
    """One thing done at the table: a bot's answer, a person's turn move (at random), or
    the next round. ``False`` once the match is over. ``log``: the moves, ``(-1, "deal")``
    for a deal, as a front end stores them."""
    if table.status == MATCH_OVER:
        return False
    if table.status == ROUND_OVER:
        table.next_round()
        log.append((-1, "deal"))
        return True
    request = table.next_step()
    if isinstance(request, DecisionRequest):
        play = table.resolve(request, *request.decide())
        if play is not None:
            table.apply(play)
            log.append((play.seat, play.move.text))
        return True
    assert request is None and table.status == PLAYING
    seat = table.game.turn
    move = rng.choice(table.legal_moves(seat))
    table.play(seat, move)
    log.append((seat, move.text))
    return True


def step_told(table: Table, rng: random.Random, log: list[tuple[int, str]],
              eager: EagerHelpers) -> bool:
    """:func:`step`, with ``eager``'s helpers told all that happened."""
    eager.catch_up()
    dealt = table.status == ROUND_OVER
    going = step(table, rng, log)
    if going and dealt:
        eager.new_round()  # the deal's events come after
    eager.catch_up()
    return going


def replay(table: Table, log: list[tuple[int, str]]) -> None:
    for seat, text in log:
        if seat == -1:
            table.next_round()
        else:
            table.play(seat, text)


def a_table(number: int) -> tuple[Table, random.Random]:
    """A seeded table of 2 to 4 seats, at least one a person's, on either engine."""
    rng = random.Random(number)
    players = rng.randint(2, 4)
    people = set(rng.sample(range(players), rng.randint(1, players)))
    specs = [SeatSpec(f"P{seat}") if seat in people else SeatSpec(f"B{seat}", "medium")
             for seat in range(players)]
    game = new_game(players, RULE_SETS[number % len(RULE_SETS)], number,
                    native.available() and number % 2 == 1)
    return Table(specs, seed=1000 + number, game=game), rng


def test_hints_of_helpers_built_late_are_those_of_helpers_told_everything() -> None:
    compared = late = later_rounds = 0
    for number in range(40):
        table, rng = a_table(number)
        eager = EagerHelpers(table)
        first_ask = {seat: rng.randint(0, 160) for seat in table.people()}
        log: list[tuple[int, str]] = []
        for _ in range(300):
            for seat in table.people():
                if table.version < first_ask[seat] or not table.legal_moves(seat):
                    continue
                first = first_ask[seat] >= 0
                if not first and rng.random() > 0.5:
                    continue
                assert lazy_hint(table, seat) == eager.hint(seat)
                compared += 1
                if first:
                    late += table.version >= 20
                    later_rounds += table.round > 1
                    first_ask[seat] = -1
            if not step_told(table, rng, log, eager):
                break
    assert compared > 1500
    assert late > 30 and later_rounds > 5  # first asked late in round 1 and in later rounds


def test_a_table_restored_mid_round_gives_the_same_hints() -> None:
    restores = 0
    for number in range(6):
        table, rng = a_table(number)
        eager = EagerHelpers(table)
        people = table.people()
        # one seat's helper generator somewhere else than its seed puts it: it must travel
        moved = random.Random(number).getstate()
        table.set_random_states({"helpers": {str(people[0]): [moved[0], list(moved[1]),
                                                              moved[2]]}})
        eager.helpers[people[0]].rng.setstate(moved)
        log: list[tuple[int, str]] = []
        while table.round < 2 or len(log) - log.index((-1, "deal")) < 6:
            if table.legal_moves(people[-1]) and rng.random() < 0.2:
                assert table.hint(people[-1]) is not None  # built before the save
            if not step_told(table, rng, log, eager):
                break
        restores += table.status == PLAYING and table.round >= 2
        saved = json.loads(json.dumps(table.random_states()))
        restored = Table([SeatSpec(info.name, info.bot) for info in table.seats()],
                         seed=table.seed, game=new_game(table.players, table.game.rules,
                                                        number, number % 2 == 1
                                                        and native.available()))
        replay(restored, log)
        restored.set_random_states(saved)
        assert restored.random_states() == table.random_states()
        for _ in range(120):
            for seat in people:
                if table.legal_moves(seat):
                    assert lazy_hint(restored, seat) == lazy_hint(table, seat) \
                        == eager.hint(seat)
            before = len(log)
            if not step_told(table, rng, log, eager):
                break
            replay(restored, log[before:])
    assert restores >= 5


def test_a_save_from_before_lazy_helpers_restores_every_seat_s_helper() -> None:
    """Such a save holds a state for every person seat's helper (a fresh one's)."""
    table, rng = a_table(2)
    log: list[tuple[int, str]] = []
    for _ in range(40):
        step(table, rng, log)
    fresh = {str(seat): helper_bot(derived_seed(table.seed, seat, "hint")).rng.getstate()
             for seat in table.people()}
    old_save = {"helpers": {seat: [state[0], list(state[1]), state[2]]
                            for seat, state in fresh.items()}}
    restored = Table([SeatSpec(info.name, info.bot) for info in table.seats()],
                     seed=table.seed, game=new_game(table.players, table.game.rules, 2, False))
    replay(restored, log)
    restored.set_random_states(old_save)
    assert restored.random_states()["helpers"] == {}  # nothing to keep: fresh states
    for seat in table.people():
        if table.legal_moves(seat):
            assert lazy_hint(restored, seat) == lazy_hint(table, seat)
    with pytest.raises(ValueError):
        restored.set_random_states({"helpers": {str(table.people()[0]): "not a state"}})


def test_a_four_person_table_asked_no_hint_is_small() -> None:
    Table([SeatSpec("a"), SeatSpec("b")], seed=1)  # modules and caches loaded first
    sizes = []
    for seed in range(5):
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        table = Table([SeatSpec(f"p{index}") for index in range(4)], seed=seed)
        gc.collect()
        sizes.append(tracemalloc.get_traced_memory()[0] - before)
        tracemalloc.stop()
        assert table.status == PLAYING
    # 29.6 KiB with a helper built for every seat (about 4.3 KiB each), about 13 without
    assert max(sizes) < 20 * 1024, sizes


class CountingHelper(MediumBot):
    observed: ClassVar[list[int]] = []
    made: ClassVar[list[int]] = []

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        CountingHelper.made.append(seed)

    def observe(self, event: dict[str, Any]) -> None:
        assert self.seat is not None
        CountingHelper.observed.append(self.seat)
        super().observe(event)


def test_no_helper_is_made_or_told_anything_until_its_seat_asks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def counting(seed: int) -> Bot:
        return CountingHelper(seed)

    monkeypatch.setattr(hints, "helper_bot", counting)
    monkeypatch.setattr(CountingHelper, "observed", [])
    monkeypatch.setattr(CountingHelper, "made", [])
    table = Table([SeatSpec("Ann"), SeatSpec("Ben"), SeatSpec("Bot", "medium"),
                   SeatSpec("Cat")], seed=8)
    rng = random.Random(8)
    log: list[tuple[int, str]] = []
    while table.round < 2 or len(log) - log.index((-1, "deal")) < 5 \
            or table.game.turn == 2:
        assert step(table, rng, log)
    assert CountingHelper.made == [] and CountingHelper.observed == []
    assert table.random_states()["helpers"] == {}
    seat = table.game.turn
    assert table.hint(seat) is not None
    assert CountingHelper.made == [derived_seed(8, seat, "hint")]
    told = len(CountingHelper.observed)
    assert told > 0 and set(CountingHelper.observed) == {seat}  # this round's events only
    for _ in range(30):
        step(table, rng, log)
    assert len(CountingHelper.observed) > told  # then it hears the game live
    assert set(CountingHelper.observed) == {seat}
    assert table.hint(2) is None  # a bot's seat has no helper
    assert len(CountingHelper.made) == 1


def test_a_seat_given_to_a_bot_has_no_helper_any_more() -> None:
    table = Table([SeatSpec("Ann"), SeatSpec("Ben")], seed=3)
    table.seat_to_bot(1, "easy")
    assert table.hint(1) is None
    assert set(table.random_states()["helpers"]) <= {"0"}


def test_the_round_events_kept_for_helpers_do_not_depend_on_the_table_s_log() -> None:
    """A table keeping only a few events (``log_keep``) still builds an exact helper."""
    specs = [SeatSpec("Ann"), SeatSpec("Bot", "medium"), SeatSpec("Ben")]
    short = Table(specs, seed=5, settings=TableSettings(log_keep=3))
    whole = Table(specs, seed=5)
    rng = random.Random(5)
    log: list[tuple[int, str]] = []
    while short.event_count < 40 or not (short.legal_moves(0) or short.legal_moves(2)):
        step(short, rng, log)
    assert len(short.feed(0)) == 3  # the round's start is long gone from the log
    replay(whole, log)
    assert short.status == PLAYING
    eager = EagerHelpers(Table(specs, seed=5))
    for seat, text in log:
        eager.catch_up()
        replay(eager.table, [(seat, text)])
        if seat == -1:
            eager.new_round()
    eager.catch_up()
    for seat in (0, 2):
        if short.legal_moves(seat):
            assert lazy_hint(short, seat) == lazy_hint(whole, seat) == eager.hint(seat)


def test_past_the_events_kept_every_helper_is_built_and_still_exact(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A very long round does not keep its events for helpers without end (the bound:
    what every helper built from the start cost)."""
    monkeypatch.setattr(hints, "helper_bot", CountingHelper)
    for bound in range(6, 30, 3):
        monkeypatch.setattr(hints, "KEPT_EVENTS", bound)
        monkeypatch.setattr(CountingHelper, "made", [])
        table = Table([SeatSpec("Ann"), SeatSpec("Bot", "medium"), SeatSpec("Ben")],
                      seed=bound)
        eager = EagerHelpers(table, CountingHelper)
        rng = random.Random(bound)
        log: list[tuple[int, str]] = []
        while not table.legal_moves(0):
            assert step_told(table, rng, log, eager)
        assert lazy_hint(table, 0) == eager.hint(0)  # seat 0's helper: built early
        assert len(CountingHelper.made) == 3 and table.event_count <= bound
        while table.event_count <= bound + 1:
            assert step_told(table, rng, log, eager)
        assert len(CountingHelper.made) == 4  # seat 2's: built once the bound was passed
        for _ in range(100):
            for seat in (0, 2):
                if table.legal_moves(seat):
                    assert lazy_hint(table, seat) == eager.hint(seat)
            if not step_told(table, rng, log, eager):
                break
        assert len(CountingHelper.made) == 4
