"""The costs of each update (issue 22). The refusal of each unplayable card sent with every
position: only what the page words in its own language (code, rule, parameters), no English
text and no card named twice, while a refused move's error still carries the engine's whole
reason. permessage-deflate: not offered by ``uno serve`` unless ``--ws-compression on``.
Real server processes, real sockets."""

from __future__ import annotations

import json
from pathlib import Path

from test_server_helper import random_positions, stacked, started
from test_server_support import ServerProcess, ServerThread, free_port, run
from websockets.sync.client import connect

from unogame.engine import card_code
from unogame.engine.explain import REFUSAL_CODES
from unogame.i18n import table as strings
from unogame.server.flow import Timing
from unogame.server.why import card_refusals, move_refusal


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


def test_uno_serve_offers_permessage_deflate_only_when_asked(tmp_path: Path) -> None:
    for extra, offered in (([], False), (["--ws-compression", "on"], True),
                           (["--ws-compression", "off"], False)):
        server = ServerProcess(tmp_path / f"games{len(extra)}{offered}.sqlite3", free_port(),
                               extra=extra)
        server.start()
        try:
            with connect(server.ws_url, open_timeout=30) as ws:  # the client offers it
                agreed = ws.response.headers.get("Sec-WebSocket-Extensions") or ""
                assert ("permessage-deflate" in agreed) is offered, (extra, agreed)
        finally:
            server.stop()


def test_the_refusals_of_a_hand_are_the_engines_reasons_for_each_card() -> None:
    """Every seat of varied positions: a card is in the map exactly when the engine refuses
    its play, with the engine's code, rule and parameters (``card`` left out when it is the
    card itself)."""
    for game in random_positions(40):
        for seat in range(game.players):
            hand = [card_code(card) for card in game.card_hands[seat]]
            legal = [move.text for move in game.legal_moves(seat)]
            expected = {}
            for code in hand:
                text = f"play {code} R" if code.startswith("W") else f"play {code}"
                if any(m.startswith(f"play {code}") for m in legal):
                    continue
                found = move_refusal(game, seat, text)
                if found is not None:
                    params = {k: v for k, v in found["params"].items()  # another card
                              if not (k == "card" and v == code)}  # (the drawn one) stays
                    expected[code] = {"code": found["code"], "rule": found["rule"],
                                      "params": params}
            assert card_refusals(game, seat, hand, legal) == expected, (seat, hand, legal)
