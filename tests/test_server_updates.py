"""A move's update as one public part and small private parts (issue 22): every seat and a
spectator read from it exactly the update each was sent whole before, the public part is
the same text for all of them, and a tapped card's refusal comes when the page asks.
Real uvicorn, real sockets."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from test_server_helper import stacked, started
from test_server_support import Client, ServerThread, autoplay, run

from unogame.engine import Event
from unogame.engine.explain import REFUSAL_CODES
from unogame.i18n import table as strings
from unogame.server.flow import Timing
from unogame.server.rooms import Room
from unogame.server.updates import merge_update

COUNTDOWNS = ("timer_left", "next_round_left")


def whole_update(room: Room, seat: int | None, events: list[Event]) -> dict[str, Any]:
    """The update ``seat`` was sent before issue 22: its own view, legal moves and events."""
    return {"type": "update", **room._game_part(seat),
            "events": [event.for_seat(seat) for event in events]}


def test_each_seat_and_a_spectator_read_the_update_they_were_sent_whole() -> None:
    checked: list[int] = []
    differ: list[tuple[int | None, dict[str, Any], dict[str, Any]]] = []
    sizes: list[int] = []

    def watch(room: Room) -> None:
        deliver, state = room.publish_update, room.publish_state
        seats = (None, *range(len(room.seats)))
        def sent(message: dict[str, Any]) -> dict[str, Any]:
            return dict(json.loads(json.dumps(message)))  # a copy, as a client holds it

        held = {seat: sent({"type": "state", **room._game_part(seat)}) for seat in seats}
        """What each seat's client holds: the game part of its last state or update."""

        def stating() -> None:
            state()
            held.update({seat: sent({"type": "state", **room._game_part(seat)})
                         for seat in seats})

        def checking(events: list[Event]) -> None:
            texts: list[Callable[[int | None], Any]] = []
            publish = room.hub.publish
            room.hub.publish = lambda code, text_for: texts.append(text_for)  # type: ignore[method-assign]
            try:
                deliver(events)
            finally:
                room.hub.publish = publish  # type: ignore[method-assign]
            (text_for,) = texts
            public = text_for(None)
            assert isinstance(public, str) and '"you"' not in public
            sizes.append(len(public.encode()))
            for seat in seats:
                text = text_for(seat)
                assert isinstance(text, str) and text.startswith(public[:-1])
                merged = merge_update(json.loads(text), held[seat])
                whole = sent(whole_update(room, seat, events))
                held[seat] = sent(whole)
                for key in COUNTDOWNS:  # read a moment apart
                    shown, now = merged.pop(key), whole.pop(key)
                    assert (shown is None) == (now is None) and abs((shown or 0) - (now or 0)) < 0.2
                if merged != whole:  # said after the game (raised here, it would stop it)
                    differ.append((seat, merged, whole))
            checked.append(len(events))
            publish(room.code, text_for)

        room.publish_update = checking  # type: ignore[method-assign]
        room.publish_state = stating  # type: ignore[method-assign]

    async def scenario(server: ServerThread) -> None:
        rules = {"stacking": True, "jump_in": True, "seven_zero": True}
        host = await started(server.ws_url, server, ["random", "random", "random"], None, rules)
        assert host.room is not None
        server.submit(lambda: _call(watch, server.manager.rooms[host.room])).result(10)
        spectator = await Client.connect(server.ws_url)
        await spectator.request({"type": "watch", "room": host.room}, "state")
        await autoplay(host, 3, deal=True, until=lambda m: m.get("round", 1) >= 2, timeout=120)
        assert not differ, differ[:2]
        assert sum(checked) > 40 and len(checked) > 20, checked
        shown = [m for m in spectator.messages if m.get("type") == "update"]
        assert shown and all(m["legal"] == [] for m in shown)
        await spectator.close()
        await host.close()

    with ServerThread(timing=Timing(think=0.01, reaction_scale=0.01, next_round=0.2)) as server:
        run(scenario(server))


async def _call(function: Callable[[Room], None], room: Room) -> None:
    function(room)


def test_a_tapped_card_is_refused_with_the_engines_reason_on_asking() -> None:
    hands = [["R5", "R6", "R7", "R8", "R9", "B1", "B2"], ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7"]]
    deal = {"dealer": 1, "deck": stacked(hands, "R3"), "seed": 1}

    async def scenario(server: ServerThread) -> None:
        host = await started(server.ws_url, server, ["medium"], deal)
        state = host.game()
        assert "why" not in state  # no refusals sent with each position
        answer = await host.request({"type": "why", "card": "B1"}, ("why", "error"))
        reason = answer["refusal"]
        assert answer["card"] == "B1" and answer["version"] == state["version"]
        assert reason == {"code": "no_match", "rule": "R4.2",
                          "params": {"top": "R3", "color": "R"}}, reason
        assert reason["code"] in REFUSAL_CODES
        for language in ("en", "th"):
            assert strings(language)[f"web.why.{reason['code']}"]
        playable = await host.request({"type": "why", "card": "R5"}, ("why", "error"))
        assert playable["refusal"] is None
        for card in ("Y1", "R5R5R5R5R5", 7, None):  # not in the hand, too long, not text
            refused = await host.request({"type": "why", "card": card}, ("why", "error"))
            assert refused["type"] == "error" and refused["code"] == "bad_card", card
        spectator = await Client.connect(server.ws_url)
        await spectator.request({"type": "watch", "room": host.room}, "state")
        refused = await spectator.request({"type": "why", "card": "B1"}, ("why", "error"))
        assert refused["code"] == "not_seated"
        refused = await host.request({"type": "move", "version": state["version"],
                                      "move": "play B1"}, "error")
        reason = refused["refusal"]  # a refused move still says it all, English text too
        assert reason["code"] == "no_match" and reason["code"] in REFUSAL_CODES
        assert reason["params"]["card"] == "B1" and "R4.2" in reason["text"]
        await spectator.close()
        await host.close()

    with ServerThread(timing=Timing(think=1000.0, reaction_scale=1000.0)) as server:
        run(scenario(server))
