"""Record tests/snapshots/custom_presets.json: games under each catalogue preset, played
with an engine given by its source folder (the catalogue as it was, without the composer).

    git archive <branch-before-the-composer> src | tar -x -C /tmp/old
    python tests/record_custom_presets.py /tmp/old/src

tests/test_custom.py replays the games with the current engine: the legal moves of every
seat, the events as every seat sees them and the positions must hash the same. Re-record
only when an engine change outside the Wild Customizable is meant to change a game.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

OUT = Path(__file__).parent / "snapshots" / "custom_presets.json"
PRESETS = ("chosen_draw", "discard_color", "next_draw_skip", "none", "others_draw",
           "pass_hands", "play_again", "skip")


def main(source: str) -> None:
    sys.path.insert(0, source)
    import unogame.engine as engine

    assert Path(engine.__file__).is_relative_to(Path(source).resolve()), engine.__file__
    cases = []
    for index in range(64):
        rng = random.Random(1000 + index)
        players = rng.randint(2, 8)
        rules = {"custom_rule": PRESETS[index % len(PRESETS)],
                 "custom_count": rng.randint(1, 4), "hand_size": rng.choice([3, 5, 7])}
        game = engine.Game.new(players, engine.Rules(**rules), index)
        digest = hashlib.sha256()
        moves = []
        for _ in range(300):
            if game.winner is not None:
                break
            seat = game.turn
            legal = game.legal_moves(seat)
            custom = [move for move in legal if move.card_code == "WC"]
            move = rng.choice(custom if custom and rng.random() < 0.8 else legal)
            events = game.push(seat, move)
            moves.append([seat, str(move)])
            digest.update(json.dumps([[str(m) for m in game.legal_moves(s)]
                                      for s in range(players)]).encode())
            digest.update(json.dumps([e.for_seat(s) for e in events
                                      for s in [None, *range(players)]], sort_keys=True).encode())
            digest.update(json.dumps(game.position(), sort_keys=True).encode())
        cases.append({"players": players, "rules": rules, "seed": index, "moves": moves,
                      "sha256": digest.hexdigest()})
    about = ("Games under each catalogue preset, the WC played whenever possible, recorded with "
             "the engine before the composer (tests/record_custom_presets.py).")
    OUT.write_text(json.dumps({"about": about, "cases": cases}, separators=(",", ":")) + "\n",
                   encoding="utf-8")
    print(f"{len(cases)} games, {sum(len(case['moves']) for case in cases)} moves")


if __name__ == "__main__":
    main(sys.argv[1])
