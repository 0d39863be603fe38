"""The costs of each update (issue 22). The refusal of an unplayable card, as the server
answers a page that asks (``test_server_updates.py``): only what the page words in its own
language (code, rule, parameters), no English text and no card named twice; it is the
engine's reason for that card. permessage-deflate: not offered by ``uno serve`` unless
``--ws-compression on``. Real server processes, real sockets."""

from __future__ import annotations

from pathlib import Path

from test_server_helper import random_positions
from test_server_support import ServerProcess, free_port
from websockets.sync.client import connect

from unogame.engine import card_code
from unogame.server.why import card_refusals, move_refusal


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
