"""The children's helper and the round replay (issue 10, "For children" and "After the
game"): the helper option per seat (stored, survives a restart), hints from the helper bot
that never depend on a hidden card, easy bots that give a child time to say UNO, and a
finished round replayed for one seat with no other seat's hidden card in it. Real server,
real sockets, real SQLite file."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from test_server_support import Client, ServerThread, autoplay, create_room, run

from unogame.bots.heuristic import EasyBot
from unogame.engine import Game, Move, Rules, card_code, full_deck
from unogame.engine.explain import REFUSAL_CODES
from unogame.i18n import table as strings
from unogame.server.flow import STAND_IN_PREFIX, Timing
from unogame.server.storage import ROUND_BOUNDARY
from unogame.table import DecisionRequest, SeatSpec, Table


def stacked(hands: list[list[str]], first: str, seed: int = 5) -> list[str]:
    """A deck dealing ``hands`` (the seat after the dealer first), then ``first``."""
    size = len(hands[0])
    deck = [hands[seat][i] for i in range(size) for seat in range(len(hands))] + [first]
    rest = [card_code(card) for card in full_deck()]
    for code in deck:
        rest.remove(code)
    random.Random(seed).shuffle(rest)
    return deck + rest


async def started(url: str, server: ServerThread, bots: list[str], deal: dict[str, Any] | None,
                  rules: dict[str, Any] | None = None) -> Client:
    host = await create_room(url, "Ann", seats=len(bots) + 1, bots=bots, rules=rules)
    if deal is not None:
        server.manager.rooms[host.room].deal = deal
    await host.request({"type": "start"}, "state")
    return host


# ---------------------------------------------------------------- simple words


def test_every_refusal_code_has_simple_words_in_thai_and_english() -> None:
    for language in ("en", "th"):
        texts = strings(language)
        for code in REFUSAL_CODES:
            simple = texts[f"web.why_simple.{code}"]
            assert simple and simple != texts[f"web.why.{code}"], (language, code)
    assert "{color}" in strings("en")["web.why_simple.no_match"]
    assert "{rank}" in strings("th")["web.why_simple.no_match"]


# ---------------------------------------------------------------- the helper option


def test_the_helper_is_a_seat_setting_stored_with_the_seats(tmp_path: Path) -> None:
    db = tmp_path / "uno.sqlite"

    async def first(url: str) -> tuple[str, str]:
        host = await create_room(url, "Ann", seats=2, bots=["medium"])
        assert host.last("room")["helper"] is False
        refused = await host.request({"type": "helper", "on": "yes"}, "error")
        assert refused["code"] == "bad_helper"
        room = await host.request({"type": "helper", "on": True}, "room")
        assert room["helper"] is True
        assert "helper" not in json.dumps(room["seats"])  # only the seat's own flag
        off = await host.request({"type": "hint"}, ("error", "hint"))
        assert off["code"] == "not_started"
        watcher = await Client.connect(url)
        await watcher.request({"type": "watch", "room": host.room}, "state")
        refused = await watcher.request({"type": "helper", "on": True}, "error")
        assert refused["code"] == "not_seated"
        await watcher.close()
        await host.close()
        assert host.room is not None and host.token is not None
        return host.room, host.token

    with ServerThread(db) as server:
        code, token = run(first(server.ws_url))

    async def again(url: str) -> None:
        back = await Client.connect(url)
        await back.request({"type": "resume", "room": code, "token": token}, "state")
        assert back.last("room")["helper"] is True
        room = await back.request({"type": "helper", "on": False}, "room")
        assert room["helper"] is False
        await back.close()

    with ServerThread(db) as server:
        run(again(server.ws_url))


# ---------------------------------------------------------------- hints


def test_a_hint_is_a_legal_move_of_ones_own_and_is_rate_limited() -> None:
    hands = [["R5", "R6", "G7", "G8", "B1", "B2", "Y9"], ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7"]]
    deal = {"dealer": 1, "deck": stacked(hands, "R3"), "seed": 1}
    frozen = Timing(think=1000.0, reaction_scale=1000.0)

    async def scenario(server: ServerThread) -> None:
        host = await started(server.ws_url, server, ["medium"], deal)
        off = await host.request({"type": "hint"}, "error")
        assert off["code"] == "helper_off"
        await host.request({"type": "helper", "on": True}, "room")
        answer = await host.request({"type": "hint"}, ("hint", "error"))
        assert set(answer) == {"type", "version", "move"}, answer
        state = host.game()
        assert answer["version"] == state["version"]
        assert answer["move"] in state["legal"]
        if answer["move"].startswith("play "):
            assert answer["move"].split(" ")[1] in state["view"]["hands"][0]  # her own card
        again = await host.request({"type": "hint"}, ("hint", "error"))
        assert again["code"] == "hint_limited"
        await host.close()

    with ServerThread(timing=frozen) as server:
        run(scenario(server))


def random_positions(count: int) -> list[Game]:
    """Games stopped at varied points, with a person to act."""
    rng = random.Random(10)
    found: list[Game] = []
    seed = 0
    while len(found) < count:
        seed += 1
        rules = Rules(stacking=seed % 2 == 0, seven_zero=seed % 3 == 0)
        game = Game.new(3 + seed % 3, rules, seed)
        for _ in range(rng.randrange(0, 40)):
            if game.winner is not None:
                break
            game.push(game.turn, rng.choice(game.legal_moves(game.turn)))
        if game.winner is None:
            found.append(game)
    return found


def redealt(view: dict[str, Any], seat: int, rng: random.Random) -> Game:
    """A game with ``seat``'s view and the hidden cards (others' hands, draw pile) dealt
    again at random from the cards the seat cannot see."""
    unseen = [card_code(card) for card in full_deck()]
    for code in [*view["hands"][seat], *view["discard_pile"]]:
        unseen.remove(code)
    rng.shuffle(unseen)
    hands: dict[int, list[str]] = {}
    for other, size in enumerate(view["hands"]):
        if other != seat:
            hands[other], unseen = unseen[:size], unseen[size:]
    pile = unseen[:view["draw_pile"]] if isinstance(view["draw_pile"], int) \
        else unseen[:len(view["draw_pile"])]
    return Game.from_view(view, hands=hands, draw_pile=pile)


def test_the_same_view_with_hidden_cards_dealt_again_gives_the_same_hint() -> None:
    rng = random.Random(3)
    hints = 0
    for game in random_positions(25):
        seat = game.turn
        view = game.view(seat)
        answers = set()
        for _ in range(3):
            world = redealt(view, seat, rng)
            assert world.view(seat) == view
            assert world.hands != game.hands
            specs = [SeatSpec("Ann") if index == seat else SeatSpec(f"Bot {index}", "medium")
                     for index in range(game.players)]
            table = Table(specs, world.rules, seed=7, game=world)
            request = table.hint(seat)
            assert request is not None and request.view == view
            move = request.decide()
            assert move is not None and move in world.legal_moves(seat)
            answers.add(move.text)
        assert len(answers) == 1, answers
        hints += 1
    assert hints == 25


def test_the_helper_bot_hears_only_its_own_seat_and_a_hint_changes_nothing() -> None:
    table = Table([SeatSpec("Ann"), SeatSpec("Bot", "medium"), SeatSpec("Ben")], seed=4)
    for _ in range(12):
        step = table.next_step()
        if isinstance(step, DecisionRequest):
            play = table.resolve(step, *step.decide())
            if play is not None:
                table.apply(play)
            continue
        seat = table.game.turn
        request = table.hint(seat)
        assert request is not None
        version, view = table.version, table.view(seat)
        suggested = request.decide()
        assert suggested is not None and suggested in table.legal_moves(seat)
        assert (table.version, table.view(seat)) == (version, view)
        table.play(seat, suggested)
    assert table.hint(1) is None  # a bot's seat gets no hints


# ---------------------------------------------------------------- easy bots wait

def test_an_easy_bot_asked_when_it_could_catch_waits_at_least_three_seconds() -> None:
    game = Game.from_position({
        "players": 3, "hands": [["G7"], ["B1", "B2"], ["Y1", "Y2"]],
        "draw_pile": ["B3", "Y9", "G1", "G2"], "discard_pile": ["R5"], "color": "R",
        "turn": 1, "catchable": [0]})
    for level, least in (("easy", 3.0), ("medium", 0.0)):
        table = Table([SeatSpec("Ann"), SeatSpec("Bot 1", "easy"), SeatSpec("Bot 2", level)],
                      game=game.copy())
        step = table.next_step()
        assert isinstance(step, DecisionRequest) and step.seat == 2 and not step.on_turn
        assert Move.parse("catch 0") in step.legal
        assert step.delay >= least
        if level == "medium":
            assert step.delay < 3.0


def test_a_child_who_says_uno_within_three_seconds_is_not_caught_by_an_easy_bot(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(EasyBot, "catch_rate", 1.0)  # these easy bots catch whenever they may
    hands = [["R5", "G7"], ["B1", "B2"], ["Y1", "Y2"]]
    deal = {"dealer": 2, "deck": stacked(hands, "R3"), "seed": 1}

    async def scenario(server: ServerThread, say_uno: bool) -> float:
        host = await started(server.ws_url, server, ["easy", "easy"], deal,
                             {"hand_size": 2})
        assert host.game()["view"]["turn"] == 0
        start = len(host.messages)
        await host.send({"type": "move", "move": "play R5", "version": host.game()["version"]})
        played = await host.wait_for(lambda m: m.get("type") == "update", start=start)
        played_at = time.monotonic()
        catches = []
        if say_uno:
            await asyncio.sleep(2.0)  # a child takes two seconds to find the button
            await host.send({"type": "move", "move": "uno", "version": played["version"]})
            await host.wait_for(lambda m: any(e["type"] == "uno" for e in m.get("events", [])),
                                start=start)
            await host.wait_for(lambda m: m.get("type") == "update"
                                and m["view"]["turn"] == 0, timeout=20, start=start)
        else:
            await host.wait_for(lambda m: any(e["type"] == "catch" and e["target"] == 0
                                              for e in m.get("events", [])),
                                timeout=20, start=start)
        caught_at = time.monotonic()
        for message in host.messages[start:]:
            catches += [e for e in message.get("events", [])
                        if e["type"] == "catch" and e["target"] == 0]
        await host.close()
        if say_uno:
            assert catches == []
            return 0.0
        assert catches == [{"type": "catch", "seat": 2, "target": 0}]
        return caught_at - played_at

    with ServerThread(timing=Timing(think=0.2, reaction_scale=1.0)) as server:
        waited = run(scenario(server, say_uno=False))
        assert waited >= 3.0  # the bot would catch her, but not before three seconds
        run(scenario(server, say_uno=True))


# ---------------------------------------------------------------- round replay


def true_steps(players: int, rules: Rules, seed: int, entries: list[tuple[int, str]],
               round_no: int, seat: int) -> list[tuple[Game, list[dict[str, Any]]]]:
    """The full positions of a round, each with the events of its step as ``seat`` saw
    them (the test's own replay, with every card)."""
    game = Game.new(players, rules, seed)
    steps = [(game.copy(), [e.for_seat(seat) for e in game.start_events()])] \
        if round_no == 1 else []
    number = 1
    for who, text in entries:
        if who < 0 and text == ROUND_BOUNDARY:
            if number == round_no:
                break
            events = game.next_round()
            number += 1
            if number == round_no:
                steps.append((game.copy(), [e.for_seat(seat) for e in events]))
            continue
        events = game.push(who, Move.parse(text.removeprefix(STAND_IN_PREFIX)))
        if number == round_no:
            steps.append((game.copy(), [e.for_seat(seat) for e in events]))
    return steps


def seen_codes(game: Game, seat: int, events: list[dict[str, Any]]) -> set[str]:
    seen = set(game.hand(seat)) | set(game.position()["discard_pile"])
    seen |= {code for event in events for code in json.dumps(event).replace('"', " ").split()}
    return seen


def test_a_finished_round_replays_only_what_the_seat_saw() -> None:
    async def scenario(server: ServerThread) -> None:
        host = await started(server.ws_url, server, ["medium", "medium"], None)
        refused = await host.request({"type": "replay", "game_no": 1, "round": 1}, "error")
        assert refused["code"] == "no_replay"  # the round is still being played
        over = await autoplay(host, seed=2, until=lambda m: m["status"] != "playing",
                              timeout=90)
        answer = await host.request({"type": "replay", "game_no": 1, "round": 1},
                                    ("replay", "error"), timeout=30)
        assert answer["type"] == "replay", answer
        steps = answer["steps"]
        assert steps[-1]["view"] == over["view"]  # it ends where the round ended
        assert steps[0]["events"][0]["type"] == "deal"
        assert steps[-1]["events"][-1]["type"] == "round_over"
        room = server.manager.rooms[host.room]
        entries = room.storage.load_moves(host.room, 1)
        truth = true_steps(3, room.rules, room.game_seed, entries, 1, seat=0)
        assert len(truth) == len(steps)
        seen: set[str] = set()
        hidden_somewhere = 0
        sent = ""
        for (position, events), step in zip(truth, steps, strict=True):
            assert step["view"] == position.view(0)
            assert step["events"] == events
            assert all(isinstance(step["view"]["hands"][other], int) for other in (1, 2))
            seen |= seen_codes(position, 0, events)
            sent += json.dumps(step)
            hidden = {code for other in (1, 2) for code in position.hand(other)}
            hidden |= set(position.position()["draw_pile"])
            hidden -= seen
            if position.winner is not None:  # round over: every hand is shown (R7)
                hidden = set(position.position()["draw_pile"]) - seen
            hidden_somewhere += len(hidden)
            for code in hidden:
                assert f'"{code}"' not in sent, (code, step)
        assert hidden_somewhere > 0
        watcher = await Client.connect(server.ws_url)
        await watcher.request({"type": "watch", "room": host.room}, "state")
        refused = await watcher.request({"type": "replay", "game_no": 1, "round": 1}, "error")
        assert refused["code"] == "not_seated"
        await watcher.close()
        await host.close()

    with ServerThread(timing=Timing(think=0.0, reaction_scale=0.0, next_round=600.0)) as server:
        run(scenario(server))


def test_a_round_of_a_match_before_play_again_still_replays() -> None:
    async def scenario(server: ServerThread) -> None:
        host = await started(server.ws_url, server, ["medium"], None, {"target_score": 1})
        await autoplay(host, seed=3, timeout=90)
        assert host.game()["status"] == "match_over"
        last_view = host.game()["view"]
        # the match's last round: a first round can score 0 (a loser left holding only
        # zeros), and a second one then ends the match
        last_round = len(host.game()["results"])
        await host.request({"type": "rematch"}, "state")
        room = host.last("room")
        assert room["game_no"] == 2 and "seeds" not in json.dumps(room)
        answer = await host.request({"type": "replay", "game_no": 1, "round": last_round},
                                    ("replay", "error"), timeout=30)
        assert answer["type"] == "replay", answer
        if answer["pages"] > 1:  # a long round comes in pages: its end is on the last one
            answer = await host.request({"type": "replay", "game_no": 1, "round": last_round,
                                         "page": answer["pages"] - 1}, ("replay", "error"),
                                        timeout=30)
            assert answer["type"] == "replay", answer
        assert answer["first"] + len(answer["steps"]) == answer["total"]
        assert answer["steps"][-1]["view"] == last_view
        await host.close()

    with ServerThread(timing=Timing(think=0.0, reaction_scale=0.0)) as server:
        run(scenario(server))
