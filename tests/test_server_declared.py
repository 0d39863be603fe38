"""The protocol declared once (issue 22): the message types the server dispatches are the
ones ``protocol.py`` declares, every error code the server or the table can send is
declared there, and docs/protocol.md is what it prints."""

from __future__ import annotations

import re
from pathlib import Path

from unogame.server import protocol
from unogame.server.app import Server

SRC = Path(protocol.__file__).resolve().parents[1]
DOCS = SRC.parents[1] / "docs" / "protocol.md"
RAISED = re.compile(r'(?:RoomError|TableError)\(\s*"[a-z_]+" if [^"]+ else "([a-z_]+)"'
                    r'|(?:RoomError|TableError|\.error|\.check)\(\s*"([a-z_]+)"'
                    r'|check, "([a-z_]+)"|"code":\s*"([a-z_]+)"')
"""A code written where a refusal is made: RoomError("code"...), conn.error("code"...), a
conditional code, an allowance's check("code"...), a message's "code": "..."."""


def sent_codes() -> set[str]:
    codes: set[str] = set()
    for folder in ("server", "table"):
        for path in (SRC / folder).glob("*.py"):
            if path.name == "protocol.py":
                continue
            for match in RAISED.finditer(path.read_text(encoding="utf-8")):
                codes.update(code for code in match.groups() if code)
    return codes


def test_the_server_handles_exactly_the_declared_client_messages() -> None:
    handlers = {name.removeprefix("on_") for name in dir(Server) if name.startswith("on_")}
    assert handlers == set(protocol.CLIENT_TYPES)


def test_every_error_code_sent_is_declared_and_every_declared_one_is_sent() -> None:
    codes = sent_codes()
    assert {"illegal", "stale", "not_saved", "bad_card", "rate_limited"} <= codes  # found
    assert codes - set(protocol.ERRORS) == set()
    assert set(protocol.ERRORS) - codes == set()


def test_the_protocol_document_is_what_the_declaration_prints() -> None:
    assert DOCS.read_text(encoding="utf-8") == protocol.markdown(), \
        "regenerate: python -m unogame.server.protocol > docs/protocol.md"
