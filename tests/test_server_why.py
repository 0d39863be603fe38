"""The refusal of each unplayable card sent with every position (issue 22): only what the
page words in its own language (code, rule, parameters), no English text and no card named
twice, while a refused move's error still carries the engine's whole reason. Real server,
real sockets."""

from __future__ import annotations

import json

from test_server_helper import stacked, started
from test_server_support import ServerThread, run

from unogame.engine.explain import REFUSAL_CODES
from unogame.i18n import table as strings
from unogame.server.flow import Timing


def test_each_unplayable_card_has_a_small_refusal_the_page_can_word() -> None:
    hands = [["R5", "R6", "R7", "R8", "R9", "B1", "B2"], ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7"]]
    deal = {"dealer": 1, "deck": stacked(hands, "R3"), "seed": 1}

    async def scenario(server: ServerThread) -> None:
        host = await started(server.ws_url, server, ["medium"], deal)
        state = host.game()
        why = state["why"]
        assert set(why) == {"B1", "B2"}  # the red cards can be played
        for card, reason in why.items():
            assert reason == {"code": "no_match", "rule": "R4.2",
                              "params": {"top": "R3", "color": "R"}}, (card, reason)
            for language in ("en", "th"):
                assert strings(language)[f"web.why.{reason['code']}"]
            assert len(json.dumps(reason)) < 80
        refused = await host.request({"type": "move", "version": state["version"],
                                      "move": "play B1"}, "error")
        reason = refused["refusal"]  # a refused move still says it all, English text too
        assert reason["code"] == "no_match" and reason["code"] in REFUSAL_CODES
        assert reason["params"]["card"] == "B1" and "R4.2" in reason["text"]
        await host.close()

    with ServerThread(timing=Timing(think=1000.0, reaction_scale=1000.0)) as server:
        run(scenario(server))
