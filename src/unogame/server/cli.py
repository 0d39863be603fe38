"""``uno serve``: run the web server (rooms, bots, browser UI) on uvicorn."""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
from dataclasses import dataclass
from typing import Any, TextIO

from ..i18n import LANGUAGES, translate
from .collector import start_collector
from .storage import default_db_path

WS_MAX_SIZE = 65536
"""Frames above this are refused by the WebSocket layer itself (the app's limit is lower)."""

LAN_ADDRESS_VARIABLE = "UNOGAME_LAN_ADDRESS"
"""Overrides the detected network address (tests: an address that is never contacted;
empty: none found)."""
WILDCARDS = ("0.0.0.0", "::", "")
DEFAULT_HOST = "127.0.0.1"


def lan_address() -> str | None:
    """This machine's IPv4 address on the local network, or None (no network). The system
    is asked which address a UDP socket towards a private address would use (connect() on
    UDP sends nothing); failing that, the host name's own addresses are looked at."""
    forced = os.environ.get(LAN_ADDRESS_VARIABLE)
    if forced is not None:
        return forced or None
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            address = str(probe.getsockname()[0])
        except OSError:
            address = ""
    if address and not address.startswith(("127.", "0.")):
        return address
    with contextlib.suppress(OSError):
        for found in socket.gethostbyname_ex(socket.gethostname())[2]:
            if not found.startswith(("127.", "0.")):
                return found
    return None


def is_loopback(host: str) -> bool:
    return host.startswith("127.") or host in ("localhost", "::1")


def http_url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


@dataclass(frozen=True)
class Reach:
    """Where phones open the game served on an address: ``lan_url`` (None: nowhere), and
    why not (``problem``: ``"local"``, served to this computer only; ``"no_network"``,
    served to every network but this computer is on none)."""

    lan_url: str | None
    problem: str | None = None


def reach(host: str, port: int) -> Reach:
    if host in WILDCARDS:
        address = lan_address()
        return Reach(http_url(address, port)) if address else Reach(None, "no_network")
    if is_loopback(host):
        return Reach(None, "local")
    return Reach(http_url(host, port))  # one address of this machine, named


def say(out: TextIO, key: str, **fields: Any) -> None:
    """A line in English, then in Thai."""
    for language in LANGUAGES:
        print(translate(language, key, **fields), file=out)


def print_banner(host: str, port: int, db: str, out: TextIO, found: Reach | None = None) -> None:
    """Where to open the game: with ``--lan``, the network link and its QR code."""
    import segno

    found = found or reach(host, port)
    say(out, "serve.database", db=db)
    here = f"{http_url(DEFAULT_HOST, port)}/"
    if found.lan_url is not None:
        url = found.lan_url + "/"
        say(out, "serve.lan_open" if host in WILDCARDS else "serve.address_open", url=url)
        segno.make(url, error="m").terminal(out=out, compact=True)
        if host in WILDCARDS:
            say(out, "serve.this_computer", url=here)
    elif found.problem == "no_network":
        say(out, "serve.lan_none", url=here)
    else:
        say(out, "serve.local_open", url=f"{http_url(host, port)}/")
        say(out, "serve.local_phones", port="" if port == 8000 else f" --port {port}")
    out.flush()


def port_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host``:``port`` (None: it can). Checked before
    anything says where to open the game."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        if hasattr(socket, "SO_REUSEADDR"):  # as uvicorn does: a closed server's port is free
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            return error.strerror or str(error)
    return None


def serve_limits(args: argparse.Namespace) -> Any:
    from .manager import Limits

    fields: dict[str, Any] = {"max_rooms": args.max_rooms}
    if getattr(args, "per_address", None) is not None:
        fields["rooms_per_address"] = (args.per_address, float(args.per_address))
        fields["lookups_per_address"] = (3 * args.per_address, 3.0 * args.per_address)
    if getattr(args, "connections_per_address", None) is not None:
        fields["websockets_per_address"] = args.connections_per_address
    return Limits(**fields)


def connection_limits(args: argparse.Namespace) -> Any:
    from .connections import ConnectionLimits

    per_address = getattr(args, "connections_per_address", None)
    return ConnectionLimits(
        request_seconds=getattr(args, "request_timeout", None) or 5.0,
        **({"sockets_per_address": 2 * per_address} if per_address else {}))


FORWARDED_FROM_ANYWHERE = (
    "uno serve: --forwarded-allow-ips '*' believes X-Forwarded-For from every client, so any "
    "client chooses its own address and no per-address limit holds. Give the proxy's "
    "address (e.g. --forwarded-allow-ips 127.0.0.1); only if nothing but the proxy can "
    "reach this port, add --trust-any-proxy.")


def forwarded_problem(args: argparse.Namespace) -> str | None:
    allowed = getattr(args, "forwarded_allow_ips", None)
    if allowed is None or "*" not in [item.strip() for item in allowed.split(",")]:
        return None
    return None if getattr(args, "trust_any_proxy", False) else FORWARDED_FROM_ANYWHERE


def redis_keeps_writes(url: str, allow_volatile: bool, err: TextIO) -> bool:
    """Whether to start on this Redis: one that may lose what it acknowledged (no
    append-only file) is refused unless ``allow_volatile``, and then said loudly."""
    import redis

    from .durability import ADVICE, KEEP, check
    from .redis_store import TIMEOUT

    with redis.Redis.from_url(url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT,
                              decode_responses=True) as db:
        found = check(db)
    for warning in found.warnings:
        print(f"uno serve: warning: {warning}", file=err)
    if found.keeps_writes:
        return True
    for problem in found.problems:
        if allow_volatile:
            print(f"uno serve: WARNING: {problem}. Starting anyway (--allow-volatile): "
                  f"rooms may vanish; to keep them, {KEEP}", file=err)
        else:
            print(f"uno serve: refusing to start: {problem}; {ADVICE}", file=err)
    err.flush()
    return allow_volatile


def serve_host(args: argparse.Namespace) -> str | None:
    """The address to listen on: ``--lan``, every network; ``--host``; else this computer
    only. None: both were given."""
    lan = getattr(args, "lan", False)
    if lan and args.host is not None:
        return None
    return "0.0.0.0" if lan else args.host or DEFAULT_HOST


def cmd_serve(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import uvicorn

    from .app import create_app
    from .connections import uvicorn_config
    from .flow import Timing

    problem = forwarded_problem(args)
    if problem is not None:
        print(problem, file=err)
        return 2

    from ..bots.base import add_bot_levels

    problem = add_bot_levels(getattr(args, "bot_level", None) or [])
    if problem is not None:
        print(f"uno serve: {problem}", file=err)
        return 2

    host = serve_host(args)
    if host is None:
        print("uno serve: --lan listens on every network of this computer; --host on one "
              "address: give one of them", file=err)
        return 2
    redis_url = getattr(args, "redis", None)  # the options added later are optional
    db = redis_url or args.db or str(default_db_path())
    found = reach(host, args.port)
    try:
        app = create_app(None if redis_url else db, timing=Timing(think=args.bot_think),
                         limits=serve_limits(args),
                         lan_url=found.lan_url, lan_problem=found.problem,
                         redis_url=redis_url, lease_seconds=getattr(args, "lease", 5.0),
                         allowed_origins=frozenset(getattr(args, "allow_origin", None) or ()))
        if redis_url and not redis_keeps_writes(redis_url, getattr(args, "allow_volatile",
                                                                   False), err):
            return 1
    except Exception as error:  # a database that cannot be opened: say so, no traceback
        print(f"uno serve: cannot open the database {db}: {error}", file=err)
        return 1
    problem = port_problem(host, args.port)
    if problem is not None:
        print(f"uno serve: cannot listen on {host}:{args.port} ({problem}); "
              f"is another server running? Choose another port with --port", file=err)
        return 1
    print_banner(host, args.port, db, out, found)
    start_collector()
    config, _ = uvicorn_config(app, host=host, port=args.port, log_level=args.log_level,
                               forwarded_allow_ips=getattr(args, "forwarded_allow_ips", None),
                               limits=connection_limits(args),
                               compression=args.ws_compression == "on")
    uvicorn.Server(config).run()
    return 0


def register(subparsers: Any) -> None:
    from .connections import WS_COMPRESSION
    serve = subparsers.add_parser("serve", help="play in the browser: rooms, bots, LAN play")
    serve.add_argument("--lan", action="store_true",
                       help="let phones on this Wi-Fi join: listen on the network and print "
                            "its link and a QR code (the lobby shows them too)")
    serve.add_argument("--host",
                       help="address to listen on (default 127.0.0.1: this computer only; "
                            "0.0.0.0 is what --lan does)")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", help="SQLite file (default: in the user's data directory)")
    serve.add_argument("--redis", metavar="URL",
                       help="share rooms with other processes through Redis "
                            "(redis://HOST:PORT/DB; needs the [redis] extra) instead of --db")
    serve.add_argument("--lease", type=float, default=5.0,
                       help="with --redis: seconds before another process takes over the "
                            "rooms of one that stopped")
    serve.add_argument("--allow-volatile", action="store_true",
                       help="with --redis: start even if Redis may lose acknowledged writes "
                            "(no append-only file); rooms then vanish with a Redis crash")
    serve.add_argument("--max-rooms", type=int, default=1000)
    serve.add_argument("--per-address", type=int, metavar="N",
                       help="rooms one client address may create a minute, and 3N room "
                            "codes it may look up (default: 10 at once, then 2 a minute; "
                            "30 lookups, then 30 a minute)")
    serve.add_argument("--forwarded-allow-ips", metavar="IPS",
                       help="behind a reverse proxy: trust its X-Forwarded-For from these "
                            "addresses (e.g. 127.0.0.1), so limits apply per real client; "
                            "'*' (anyone may claim any address) needs --trust-any-proxy")
    serve.add_argument("--trust-any-proxy", action="store_true",
                       help="allow --forwarded-allow-ips '*' (only when nothing but the "
                            "proxy can reach this port)")
    serve.add_argument("--allow-origin", action="append", metavar="ORIGIN",
                       help="also accept WebSockets from pages of this origin "
                            "(https://name[:port]; repeatable; '*' any). The server's own "
                            "pages and clients that send no Origin are always accepted")
    serve.add_argument("--connections-per-address", type=int, metavar="N",
                       help="WebSockets one client address (IPv6: one /64) may hold, and 2N "
                            "sockets in all (default: 32 and 64)")
    serve.add_argument("--request-timeout", type=float, metavar="SECONDS",
                       help="close a connection that sends no complete request in this "
                            "long (default 5)")
    serve.add_argument("--bot-level", action="append", metavar="NAME=SPEC",
                       help="offer rooms a bot level NAME that plays as SPEC: policy:PATH, "
                            "a plugin level (entry point group unogame.bots) or a built-in "
                            "level (repeatable; browsers may pick NAME, never a path)")
    serve.add_argument("--bot-think", type=float, default=0.9,
                       help="seconds a bot thinks on its turn")
    serve.add_argument("--ws-compression", choices=("on", "off"),
                       default="on" if WS_COMPRESSION else "off",
                       help="offer permessage-deflate on WebSockets (see docs/deploy.md)")
    serve.add_argument("--log-level", default="warning")
    serve.set_defaults(func=cmd_serve)
