"""The ``uno`` command: ``scenario``, ``replay``, ``random`` (more front ends join later)."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import random
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from .engine import Game, Rules, RulesError, replay
from .engine.cards import NotationError
from .engine.errors import IllegalMoveError, PositionError
from .engine.playout import random_step
from .engine.scenario import ScenarioError, run_scenario


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


def cmd_scenario(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """NOTATION "scenario command": exit 0 (final position), 2 (refused action), 1 (bad doc)."""
    try:
        if args.file in (None, "-"):
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        print(f"uno scenario: cannot read {args.file}: {error.strerror}", file=err)
        return 1
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        print(f"uno scenario: not JSON: {error}", file=err)
        return 1
    try:
        result = run_scenario(document)
    except ScenarioError as error:
        print(f"uno scenario: {error}", file=err)
        return 1
    if result.error is not None:
        print(_dumps(result.error), file=out)
        return 2
    game = result.game
    if args.view is not None:
        if not 0 <= args.view < game.players:
            print(f"uno scenario: --view {args.view}: no such seat", file=err)
            return 1
        print(_dumps(game.view(args.view)), file=out)
    else:
        print(_dumps(game.position()), file=out)
    return 0


def cmd_replay(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Print a game record move by move with the position after each move."""
    try:
        with open(args.record, encoding="utf-8") as handle:
            record = json.load(handle)
        start = dict(record, rounds=[])
        game = replay(start)
    except (OSError, json.JSONDecodeError, RulesError, PositionError, KeyError,
            TypeError, AttributeError) as error:
        print(f"uno replay: cannot read the record: {error}", file=err)
        return 1
    print(_dumps({"start": game.position()}), file=out)
    for number, moves in enumerate(record.get("rounds", [])):
        if number:
            game.next_round()
            print(_dumps({"round": number + 1, "start": game.position()}), file=out)
        for index, (seat, move) in enumerate(moves):
            try:
                game.push(seat, move)
            except (IllegalMoveError, NotationError) as error:
                print(f"uno replay: round {number + 1}, move {index}: {error}", file=err)
                return 2
            print(_dumps({"seat": seat, "move": move, "position": game.position()}), file=out)
    return 0


def cmd_random(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Play a random legal game and print its record (JSON)."""
    try:
        rules = Rules.from_dict(json.loads(args.rules)) if args.rules else Rules()
        game = Game.new(args.players, rules, args.seed)
    except (RulesError, PositionError, json.JSONDecodeError) as error:
        print(f"uno random: {error}", file=err)
        return 1
    rng = random.Random(args.seed)
    rounds = 0
    while True:
        while game.winner is None:
            random_step(game, rng)
        rounds += 1
        if game.game_winner is not None or rounds >= args.rounds:
            break
        game.next_round()
    print(json.dumps(game.record(), indent=None if args.compact else 1), file=out)
    return 0


FRONT_END_COMMANDS = ("unogame.sim.cli", "unogame.tui.cli", "unogame.server.cli")
"""Modules that add subcommands (``sim``, ``play``, ``serve``): each has
``register(subparsers)``, which adds its parser and sets ``func(args, out, err) -> int``."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="uno", description="UNO: the complete card game")
    commands = parser.add_subparsers(dest="command", required=True)
    scenario = commands.add_parser("scenario", help="play a scenario file (NOTATION.md)")
    scenario.add_argument("file", nargs="?", help="scenario JSON file (default: stdin)")
    scenario.add_argument("--view", type=int, metavar="SEAT", help="print SEAT's view")
    scenario.set_defaults(func=cmd_scenario)
    replay_cmd = commands.add_parser("replay", help="print a game record move by move")
    replay_cmd.add_argument("record", help="game record JSON file (from 'uno random')")
    replay_cmd.set_defaults(func=cmd_replay)
    random_cmd = commands.add_parser("random", help="play a random legal game, print its record")
    random_cmd.add_argument("--players", type=int, default=4)
    random_cmd.add_argument("--seed", type=int, default=0)
    random_cmd.add_argument("--rules", help='rule options as JSON, e.g. \'{"stacking": true}\'')
    random_cmd.add_argument("--rounds", type=int, default=1000,
                            help="stop after this many rounds (default: play the match out)")
    random_cmd.add_argument("--compact", action="store_true", help="one-line JSON")
    random_cmd.set_defaults(func=cmd_random)
    for module_name in FRONT_END_COMMANDS:
        package = module_name.rsplit(".", 1)[0]
        if (importlib.util.find_spec(package) is not None
                and importlib.util.find_spec(module_name) is not None):
            importlib.import_module(module_name).register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args, sys.stdout, sys.stderr))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
