"""``uno play``: the terminal game (a setup screen when no players are given)."""

from __future__ import annotations

import argparse
import json
import random
from typing import TextIO

from ..bots import BOT_LEVELS
from ..engine import Rules, RulesError
from ..i18n import LANGUAGES, translate
from .match import MatchConfig, SeatConfig


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    play = subparsers.add_parser(
        "play", help="play in the terminal against bots or friends on one keyboard",
        description="Without --players or --bots a setup screen opens first.")
    play.add_argument("--players", type=int, help="number of players, 2 to 10")
    play.add_argument("--bots", help=f"bot levels, comma-separated ({', '.join(BOT_LEVELS)}, "
                      "a --bot-level NAME, policy:PATH or a plugin level); the other seats "
                      "are people taking turns at the keyboard")
    play.add_argument("--bot-level", action="append", metavar="NAME=SPEC",
                      help="offer a bot level NAME that plays as SPEC: policy:PATH, a plugin "
                      "level (entry point group unogame.bots) or a built-in level; the setup "
                      "screen lists it and --bots may name it (repeatable; a match saved "
                      "with it resumes with the same flag)")
    play.add_argument("--names", help="people's names, comma-separated")
    play.add_argument("--lang", choices=LANGUAGES,
                      help="en or th (default: en; a resumed match: its own)")
    play.add_argument("--seed", type=int, help="seed of the shuffles (default: random)")
    play.add_argument("--target", type=int, help="target score (default 500)")
    play.add_argument("--custom-rule", help="the Wild Customizable rule (default: none)")
    play.add_argument("--rules", help='more rule options as JSON, e.g. \'{"stacking": true}\'')
    play.add_argument("--bot-delay", type=float, default=1.0,
                      help="seconds a bot waits before its turn move (default 1)")
    play.add_argument("--join", metavar="URL",
                      help="play a seat of a `uno serve` room: its link, e.g. "
                      "http://192.168.1.5:8000/r/HK7P3RXD (your name: --names)")
    play.add_argument("--resume", nargs="?", const="", metavar="FILE",
                      help="go on with the saved match (every match is saved after each "
                      "move; default file: ~/.local/share/unogame/match.json)")
    play.add_argument("--save", metavar="FILE",
                      help="where the match is saved (default: the file --resume reads)")
    play.add_argument("--seats-file", help=argparse.SUPPRESS)  # tests: where seat tokens go
    play.set_defaults(func=cmd_play)


def config_from_args(args: argparse.Namespace, lang: str = "en") -> MatchConfig | None:
    """The match the flags describe, ``None`` for the setup screen; ``ValueError`` if wrong."""
    if args.players is None and args.bots is None:
        return None
    levels = [level.strip() for level in args.bots.split(",")] if args.bots else []
    players = args.players if args.players is not None else len(levels) + 1
    if not 2 <= players <= 10:
        raise ValueError("--players must be from 2 to 10 (R1.3)")
    if args.bots is None:
        default = "medium" if "medium" in BOT_LEVELS else next(iter(BOT_LEVELS))
        levels = [default] * (players - 1)
    if len(levels) > players:
        raise ValueError(f"{len(levels)} bots do not fit at {players} seats")
    names = [name.strip() for name in args.names.split(",")] if args.names else []
    people = players - len(levels)
    seats = [SeatConfig(names[i] if i < len(names) and names[i]
                        else translate(lang, "tui.player_name", number=i + 1))
             for i in range(people)]
    seats += [SeatConfig(translate(lang, "tui.bot_name", number=i + 1), level)
              for i, level in enumerate(levels)]
    try:
        options = json.loads(args.rules) if args.rules else {}
        if not isinstance(options, dict):
            raise ValueError("--rules must be a JSON object")
        if args.target is not None:
            options["target_score"] = args.target
        if args.custom_rule is not None:
            options["custom_rule"] = args.custom_rule
        rules = Rules.from_dict(options)
    except (RulesError, json.JSONDecodeError) as error:
        raise ValueError(f"rules: {error}") from None
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    config = MatchConfig(seats=seats, rules=rules, seed=seed, lang=lang,
                         bot_delay=max(args.bot_delay, 0.0))
    config.check()
    return config


def cmd_join(args: argparse.Namespace, err: TextIO) -> int:
    """``--join URL``: a seat of a room of ``uno serve``."""
    from pathlib import Path

    from .remote import SeatTokens, parse_room_url

    try:
        address = parse_room_url(args.join)
    except ValueError as error:
        print(f"uno play: {error}", file=err)
        return 2
    names = [name.strip() for name in (args.names or "").split(",") if name.strip()]
    name = names[0] if names else translate(args.lang or "en", "tui.player_name", number=1)
    tokens = SeatTokens(Path(args.seats_file) if args.seats_file else SeatTokens.default_path())
    from .remote_app import RemoteApp

    RemoteApp(address, name, lang=args.lang or "en", tokens=tokens).run()
    return 0


def cmd_play(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.join:
        return cmd_join(args, err)
    from pathlib import Path

    from ..bots.base import add_bot_levels

    problem = add_bot_levels(args.bot_level or [])  # before a resumed match seats them
    if problem is not None:
        print(f"uno play: {problem}", file=err)
        return 2

    from .saving import SaveError, default_path, load

    save_to = Path(args.save) if args.save else default_path()
    resumed = None
    if args.resume is not None:
        path = Path(args.resume) if args.resume else save_to
        try:
            resumed = load(path)
        except SaveError as error:
            print(f"uno play: {error}", file=err)
            return 2
        if not args.save:
            save_to = path
    try:
        config = None if resumed is not None else config_from_args(args, args.lang or "en")
    except ValueError as error:
        print(f"uno play: {error}", file=err)
        return 2
    from .app import UnoApp

    lang = args.lang or (resumed.config.lang if resumed is not None else "en")
    UnoApp(config, lang=lang, save_to=save_to, resumed=resumed).run()
    return 0
