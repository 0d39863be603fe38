"""The WebSocket protocol, declared once: the messages a client sends (their fields), the
messages the server answers with, and the error codes (issue 22).

The server dispatches only the client message types declared here (``app.py``: an
undeclared ``type`` is ``unknown_type``); each handler checks its own fields and refuses
bad ones with a code of :data:`ERRORS`. ``docs/protocol.md`` is :func:`markdown`
(``python -m unogame.server.protocol`` prints it; a test keeps the file in step).

Frames are JSON text; every client message is an object with a ``type``. An error changes
nothing and keeps the connection. A move is applied only on the ``version`` it was made on,
so a move sent again after a reconnect is applied once or answered ``stale``, never twice;
``state`` tells the seat its ``last_move`` (``version``, ``move``) so that a page can tell
which.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class MessageType:
    """One message type: its name, its fields and what it means."""

    name: str
    fields: tuple[str, ...]
    doc: str


CLIENT_MESSAGES: Final = (
    MessageType("create", ("settings", "name", "bots"),
                "a new room: settings (name, seats, rules, timer, grace, fill), the "
                "creator's name, bots (levels); answered by joined, room, state"),
    MessageType("join", ("room", "name", "token"), "take a free seat in the lobby (a "
                "token of a seat held here: back into it)"),
    MessageType("resume", ("room", "token"), "back into one's seat (reload, phone slept)"),
    MessageType("watch", ("room",), "a spectator (sees no hand)"),
    MessageType("start", (), "host: deal the first round"),
    MessageType("add_bot", ("level",), "host, lobby: a bot in the next free seat"),
    MessageType("remove", ("seat",), "host: remove a seat's person (a bot plays on in a "
                "started game; the address is kept out until unban)"),
    MessageType("move", ("move", "version"), "a move in the notation, on the version of "
                "the position it was made on"),
    MessageType("next_round", ("version",), "\"next round\" pressed on the scoreboard (the "
                "table deals once every connected person has, or its countdown ran out)"),
    MessageType("hand_to_bot", ("seat",), "host, in a game: a disconnected player's seat "
                "played by a bot until they come back"),
    MessageType("rematch", (), "host, after the match: a new match, same seats"),
    MessageType("unban", (), "host: the people removed from the room may join again "
                "(room says removed: how many addresses are kept out)"),
    MessageType("emote", ("emote",), "a seated player's quick reaction, one of a fixed "
                "set, one per 2 s"),
    MessageType("helper", ("on",), "the children's helper for one's own seat (true or "
                "false, stored with the seats; room says helper)"),
    MessageType("hint", (), "helper on: a suggested move; answered by hint (version, "
                "move: a legal move's text or null), one per 3 s"),
    MessageType("replay", ("game_no", "round", "page"), "a finished round, answered by "
                "replay page by page (pages, first, total; steps: the deal, then each "
                "move's by, stand_in, the asker's view after it and the events as the asker "
                "saw them); a page is at most 64 KiB, one build per 2 s"),
    MessageType("why", ("card",), "why a card of one's hand cannot be played now; "
                "answered by why"),
    MessageType("ping", ("beat",), "keeps a connection alive; beat: true also promises one "
                "every 2 s (the page): 15 s of silence then means a dead link"),
    MessageType("visibility", ("hidden",), "the page went to the background or came back "
                "(a seat whose pages are all hidden is hidden in room; on its turn that "
                "counts like gone: a stand-in after the grace)"),
)
"""What a client may send."""

SERVER_MESSAGES: Final = (
    MessageType("joined", ("room", "seat", "token", "server"),
                "the connection's seat (null: watching), its token (kept by the page), "
                "the process (several processes)"),
    MessageType("room", ("room", "name", "capacity", "rules", "timer", "grace", "fill",
                         "status", "host", "you", "spectators", "game_no", "matches",
                         "removed", "helper", "seats"),
                "the room: settings, seats (name, kind, level, connected, hidden, away, "
                "handed), host, status"),
    MessageType("state", ("version", "status", "view", "legal", "results", "round", "ready",
                          "timer_left", "next_round_left", "log", "last_move"),
                "everything a (re)joining client needs: its view, legal moves, the log, the "
                "scoreboard, the seats that pressed next round, the countdowns (seconds or "
                "null)"),
    MessageType("update", ("version", "status", "view", "results", "round", "ready",
                           "timer_left", "next_round_left", "events", "you"),
                "after each change: one public part for the whole room (what changed "
                "since the position the client holds: view fields, discard_add, status, "
                "results, round, ready; the events as a spectator sees them; the "
                "countdowns, absent: null) and for a seated player you (seat, hand, "
                "legal, pending where it sees more of it, its private parts of the events "
                "by index); updates.merge_update and static/update.js make the whole "
                "update of them. A move a bot made for a person comes with a "
                "stand_in_move event first"),
    MessageType("why", ("card", "version", "refusal"),
                "the engine's reason (code, rule, params without the card itself) or null "
                "when the card can be played now"),
    MessageType("hint", ("version", "move"), "the helper's suggestion"),
    MessageType("replay", ("game_no", "round", "page", "pages", "first", "total", "seat",
                           "steps"), "a page of a round's replay"),
    MessageType("emote", ("seat", "emote"), "a player's reaction"),
    MessageType("removed", (), "the host removed this connection's person"),
    MessageType("pong", (), "the answer to ping"),
    MessageType("error", ("code", "message"), "a refusal (code: one of ERRORS; a refused "
                "move also carries refusal, the engine's whole reason)"),
)
"""What the server sends."""

ERRORS: Final = {
    "too_large": "the message is over the size limit",
    "rate_limited": "too many messages; slow down",
    "bad_json": "not a JSON message",
    "bad_message": "not an object with a type, or not a text frame",
    "bad_text": "a string that is not valid Unicode",
    "unknown_type": "a type the server does not know",
    "server_error": "the server could not handle this message",
    "not_saved": "the game could not be saved; nothing changed, try again",
    "replaced": "this seat was opened somewhere else",
    "room_gone": "the room no longer exists (the server lost it)",
    "reconnecting": "the server lost its link to the other processes for a moment",
    "no_room": "no room with this code, or no room joined",
    "room_full": "no free seat",
    "room_crowded": "too many people are watching",
    "already_started": "the game has already started",
    "already_seated": "this connection has a seat in this room already",
    "too_many_rooms": "too many seats for one connection, or rooms on the server",
    "create_limited": "too many rooms created from this address",
    "lookup_limited": "too many room codes tried from this address",
    "address_full": "this address holds enough seats in this room",
    "removed_by_host": "the host removed this address from the room",
    "bad_token": "this seat token is not valid here",
    "bad_name": "a name that is empty, too long or reads as a bot's",
    "bad_settings": "room settings out of bounds",
    "bad_rule": "a Wild Customizable rule that cannot be played",
    "rule_needs_players": "the family rule needs more players",
    "target_too_high": "the target score is over its bound",
    "bad_level": "not a bot level",
    "not_host": "only the host may do this",
    "not_enough_players": "a game needs at least two players",
    "not_started": "the game has not started",
    "not_seated": "only a seated player may do this",
    "not_over": "the round or the match is not over",
    "not_playing": "the round is over",
    "bad_seat": "no such seat",
    "bad_move": "a move is a short text in the notation",
    "illegal": "the move is not legal now (refusal: the engine's reason)",
    "stale": "the position has moved on (the version)",
    "bad_card": "not a card of one's hand",
    "bad_emote": "not one of the reactions",
    "emote_limited": "one reaction every two seconds",
    "bad_helper": "on: true or false",
    "bad_visibility": "hidden: true or false",
    "helper_off": "turn the helper on to get hints",
    "no_hint": "no move to make now",
    "hint_limited": "one hint per 3 s",
    "no_replay": "no such finished round kept for replays",
    "replay_limited": "one replay build per 2 s",
    "replay_busy": "the replay builder is busy; try again",
    "present": "the seat's person is still there (hand_to_bot)",
    "over": "the match is over: no round to deal",
}
"""Every error code the server sends (``error``'s ``code``), and what it means."""

CLIENT_TYPES: Final = frozenset(message.name for message in CLIENT_MESSAGES)


def markdown() -> str:
    """The protocol as docs/protocol.md prints it."""
    def table(messages: tuple[MessageType, ...]) -> list[str]:
        rows = ["| type | fields | meaning |", "|---|---|---|"]
        rows += [f"| `{m.name}` | {', '.join(f'`{f}`' for f in m.fields) or '-'} | {m.doc} |"
                 for m in messages]
        return rows

    lines = ["# The WebSocket protocol", "",
             "Generated from `src/unogame/server/protocol.py` "
             "(`python -m unogame.server.protocol > docs/protocol.md`).", "",
             *(__doc__ or "").split("\n\n", 2)[2].strip().splitlines(), "",
             "## Client to server", "", *table(CLIENT_MESSAGES), "",
             "## Server to client", "", *table(SERVER_MESSAGES), "",
             "## Error codes", "", "| code | meaning |", "|---|---|",
             *(f"| `{code}` | {meaning} |" for code, meaning in ERRORS.items()), ""]
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown(), end="")


__all__ = ["CLIENT_MESSAGES", "CLIENT_TYPES", "ERRORS", "SERVER_MESSAGES", "MessageType",
           "markdown"]
