"""The websocket protocol: every message type in both directions, parsed and checked once.

A frame from a client becomes one of the ``Incoming`` dataclasses or a ``ProtocolError``
with a code; nothing else reaches the services. docs/protocol.md describes each message.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from games.rules.visible import shows_nothing

MAX_FRAME_BYTES = 4096
MAX_WORD_LETTERS = 64
MAX_PATH_CELLS = 100
MAX_CLIENT_ID = 64
CHAT_MAX_CHARS = 300  # of one chat message, once trimmed
# Arrays and objects inside one another. The deepest real message (update_settings) has two;
# json.loads recurses once per level and, past the recursion limit, raised RecursionError,
# which closed the socket with 1011 instead of answering bad_message.
MAX_NESTING = 8

# Why a submission is refused (sent to its sender only).
TOO_SHORT = "too_short"
NOT_A_WORD = "not_a_word"
NOT_ON_BOARD = "not_on_board"
BAD_PATH = "bad_path"
ALREADY_FOUND = "already_found"
ROUND_NOT_RUNNING = "round_not_running"
REJECTIONS = (TOO_SHORT, NOT_A_WORD, NOT_ON_BOARD, BAD_PATH, ALREADY_FOUND, ROUND_NOT_RUNNING)

# Errors about a message itself or what it asked for.
BAD_MESSAGE = "bad_message"
TOO_LARGE = "too_large"
RATE_LIMITED = "rate_limited"
NOT_HOST = "not_host"
NO_SUCH_PLAYER = "no_such_player"
ROUND_RUNNING = "round_running"
BAD_SETTINGS = "bad_settings"
BAD_BOARD = "bad_board"
NOT_IN_ROOM = "not_in_room"
BAD_BOT = "bad_bot"
DAILY_ONE_ROUND = "daily_one_round"
ROUNDS_TOO_FAST = "rounds_too_fast"
HINTS_OFF = "hints_off"
BAD_HINT = "bad_hint"
ARENA_RULES = "arena_rules"  # the arena has no host: nobody starts, ends or sets its rounds
# Why a socket is refused at once (sent just before it is closed with CLOSE_TOO_MANY_SOCKETS).
TOO_MANY_TABS = "too_many_tabs"
TOO_MANY_SOCKETS = "too_many_sockets"
# Chat and spectators (games.chat.services, games.spectators.services).
CHAT_TOO_LONG = "chat_too_long"
CHAT_TOO_FAST = "chat_too_fast"
CHAT_CLOSED = "chat_closed"
CHAT_MUTED = "chat_muted"
SPECTATING = "spectating"
SPECTATORS_FULL = "spectators_full"

ERROR_MESSAGES = {
    TOO_SHORT: "That word is too short.",
    NOT_A_WORD: "That is not in the dictionary.",
    NOT_ON_BOARD: "That word is not on the board.",
    BAD_PATH: "Those dice do not make that word.",
    ALREADY_FOUND: "You already found that word.",
    ROUND_NOT_RUNNING: "The round is not running.",
    BAD_MESSAGE: "The message could not be understood.",
    TOO_LARGE: "The message is too large.",
    RATE_LIMITED: "Too many messages; slow down.",
    NOT_HOST: "Only the host can do that.",
    NO_SUCH_PLAYER: "There is no such player in this room.",
    ROUND_RUNNING: "Wait for the round to end.",
    BAD_SETTINGS: "Those settings cannot be used.",
    BAD_BOARD: "That board cannot be played.",
    NOT_IN_ROOM: "You are not in this room.",
    BAD_BOT: "That computer player cannot be added.",
    DAILY_ONE_ROUND: "A daily attempt is one round: play the board again from its daily page.",
    ROUNDS_TOO_FAST: "Too many rounds were started here in the last few minutes: wait a little "
    "before the next one.",
    HINTS_OFF: "Hints are off in this room.",
    BAD_HINT: "There is no such hint: ask for lengths or letters.",
    ARENA_RULES: "Nobody runs the arena: its rounds start and end on schedule.",
    TOO_MANY_TABS: "This game is open in too many tabs; close one and reload.",
    TOO_MANY_SOCKETS: "Too many connections from your network; close some and reload.",
    CHAT_TOO_LONG: f"A chat message has at most {CHAT_MAX_CHARS} characters.",
    CHAT_TOO_FAST: "You are chatting too fast; wait a few seconds.",
    CHAT_CLOSED: "The chat is closed during rounds.",
    CHAT_MUTED: "The host has muted you in the chat.",
    SPECTATING: "You are watching: spectators can read the chat but not play or write.",
    SPECTATORS_FULL: "This room has as many spectators as it can take; try again later.",
}


# How the server closes a socket, and why. An application may close with 1000 or 3000-4999
# only: daphne (autobahn) closed a socket asked to use 1009 with 1011 and an error in the log.
# The page reads them from its data (CLOSE_CODES, sent with the room page).
CLOSE_NOT_IN_ROOM = 4403  # no seat in this room (or removed from it): the page stops trying
CLOSE_TOO_MANY_SOCKETS = 4409  # the seat's or the address's sockets are all open elsewhere
CLOSE_TOO_LARGE = 4413  # a frame over MAX_FRAME_BYTES (1009 would have said so)
CLOSE_FLOOD = 4429  # refused MAX_REFUSALS times without a pause
# The account's sessions ended (its password changed, or it was deleted): the page reconnects,
# and only a browser still logged in to the account finds its seat again.
CLOSE_SIGNED_OUT = 4401
CLOSE_CODES = {
    "notInRoom": CLOSE_NOT_IN_ROOM,
    "tooManySockets": CLOSE_TOO_MANY_SOCKETS,
    "tooLarge": CLOSE_TOO_LARGE,
    "flood": CLOSE_FLOOD,
    "signedOut": CLOSE_SIGNED_OUT,
}


class ProtocolError(Exception):
    """A client message that is refused, with the code sent back to the client."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(detail or ERROR_MESSAGES[code])
        self.code = code
        self.detail = detail or ERROR_MESSAGES[code]

    @classmethod
    def because(cls, code: str, reason: object) -> ProtocolError:
        """Return the refusal with its reason: 'Those settings cannot be used: <reason>.'"""
        return cls(code, f"{ERROR_MESSAGES[code].rstrip('.')}: {str(reason).rstrip('.')}.")


# The hints a player may ask for (games.rounds.hints): how many of the words they have not
# found are of each length, or start with each letter. Counts only, never a word.
HINT_LENGTHS = "lengths"
HINT_LETTERS = "letters"
HINT_KINDS = (HINT_LENGTHS, HINT_LETTERS)

# Client to server ---------------------------------------------------------------------


@dataclass(frozen=True)
class Resume:
    """Sent after connecting: the last event seen, to get what was missed (or a snapshot)."""

    last_seq: int | None


@dataclass(frozen=True)
class Submit:
    """A word, typed (word) or traced (path of cell indexes), or both."""

    client_id: str
    word: str | None
    path: tuple[int, ...] | None


@dataclass(frozen=True)
class StartRound:
    """The host starts a round."""


@dataclass(frozen=True)
class EndRound:
    """The host ends the running round now (how untimed rounds end)."""


@dataclass(frozen=True)
class ClockZero:
    """The client's countdown reached zero: the server checks and ends the round if due."""

    round: int


@dataclass(frozen=True)
class UpdateSettings:
    """The host changes the room settings between rounds."""

    settings: dict[str, Any]


@dataclass(frozen=True)
class GiveBoard:
    """The host gives the board of the next round (rows or a share code); empty forgets it."""

    board: str


@dataclass(frozen=True)
class RemovePlayer:
    """The host removes a player from the room."""

    player_id: int


@dataclass(frozen=True)
class TransferHost:
    """The host passes the host role to another player."""

    player_id: int


@dataclass(frozen=True)
class AddBot:
    """The host seats a computer player of a level, optionally knowing only one dictionary."""

    level: str
    dictionary: str


@dataclass(frozen=True)
class Hint:
    """A player asks for a hint of one kind (HINT_KINDS) during a round."""

    kind: str


@dataclass(frozen=True)
class Ping:
    """Keep-alive; answered with the server time."""


@dataclass(frozen=True)
class Chat:
    """A player writes a line in the room's chat (plain text, at most CHAT_MAX_CHARS)."""

    text: str


@dataclass(frozen=True)
class MutePlayer:
    """The host mutes (or unmutes) a player in the room's chat."""

    player_id: int
    muted: bool


Incoming = (
    Resume | Submit | StartRound | EndRound | ClockZero | UpdateSettings | GiveBoard
    | RemovePlayer | TransferHost | AddBot | Hint | Ping | Chat | MutePlayer
)  # fmt: skip
MAX_BOARD_TEXT = 600  # characters of a given board (games.rounds.given_boards reads it)


def _field(data: dict[str, Any], name: str, kind: type, optional: bool = False) -> Any:
    value = data.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise ProtocolError(BAD_MESSAGE, f"'{name}' must be {kind.__name__}")
    return value


def _count(data: dict[str, Any], name: str, optional: bool = False) -> int | None:
    value = _field(data, name, int, optional)
    if value is not None and not 0 <= value < 2**53:
        raise ProtocolError(BAD_MESSAGE, f"'{name}' is out of range")
    return value


def _chat_or_mute(kind: str, data: dict[str, Any]) -> Chat | MutePlayer:
    """Return a chat message (trimmed, 1 to CHAT_MAX_CHARS characters) or a host's mute."""
    if kind == "mute_player":
        return MutePlayer(_count(data, "player_id"), _field(data, "muted", bool))  # type: ignore[arg-type]
    text = _field(data, "text", str).strip()
    if shows_nothing(text):  # blank, or only zero-width, bidi-control or filler characters
        raise ProtocolError(BAD_MESSAGE, "a chat message needs some text that shows")
    if len(text) > CHAT_MAX_CHARS:
        raise ProtocolError(CHAT_TOO_LONG)
    return Chat(text)


def _submit(data: dict[str, Any]) -> Submit:
    client_id = _field(data, "client_id", str)
    if not 0 < len(client_id) <= MAX_CLIENT_ID:
        raise ProtocolError(BAD_MESSAGE, "'client_id' must be 1 to 64 characters")
    word = _field(data, "word", str, optional=True)
    if word is not None:
        word = word.strip()
        if not 0 < len(word) <= MAX_WORD_LETTERS or not word.isalpha():
            raise ProtocolError(BAD_MESSAGE, "'word' must be 1 to 64 letters")
    path = _field(data, "path", list, optional=True)
    if path is not None:
        if not 0 < len(path) <= MAX_PATH_CELLS or not all(
            isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 10_000 for c in path
        ):
            raise ProtocolError(BAD_MESSAGE, "'path' must be a list of cell numbers")
        path = tuple(path)
    if word is None and path is None:
        raise ProtocolError(BAD_MESSAGE, "a submission needs a word or a path")
    return Submit(client_id, word, path)


_FIELDS: dict[str, set[str]] = {
    "resume": {"last_seq"},
    "submit": {"client_id", "word", "path"},
    "start_round": set(),
    "end_round": set(),
    "clock_zero": {"round"},
    "update_settings": {"settings"},
    "give_board": {"board"},
    "remove_player": {"player_id"},
    "transfer_host": {"player_id"},
    "add_bot": {"level", "dictionary"},
    "hint": {"kind"},
    "ping": set(),
    "chat": {"text"},
    "mute_player": {"player_id", "muted"},
}


# A JSON string (or the rest of the frame, if one is not closed) or a bracket. Matching whole
# strings keeps brackets inside them out of the count; the optional closing quote means a
# match never fails part-way, so the scan stays linear in the frame's length.
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)


def _nesting(frame: str) -> int:
    """Return how deeply the frame's arrays and objects are nested (checked before json.loads,
    so that no frame can make the parser recurse further than MAX_NESTING)."""
    if frame.count("[") + frame.count("{") <= MAX_NESTING:
        return 0  # cannot be deeper: every real message ends here without a scan
    depth = deepest = 0
    for token in _STRING_OR_BRACKET.findall(frame):
        if token in ("[", "{"):
            depth += 1
            deepest = max(deepest, depth)
        elif token in ("]", "}"):
            depth -= 1
    return deepest


# Lone surrogates (only a JSON escape such as "\ud800" makes one: no UTF-8 frame holds them)
# cannot be encoded, so they failed wherever the text was stored or logged. Control
# characters (C0, DEL, C1) mean nothing in any field the protocol has.
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _check_text(value: Any, where: str) -> None:
    """Refuse a message if any string in `value` (keys too, at any depth) is not text;
    `where` names the value in the error message."""
    if isinstance(value, str):
        if _SURROGATE.search(value):
            raise ProtocolError(BAD_MESSAGE, f"{where} is not valid Unicode text (lone surrogate)")
        if _CONTROL.search(value):
            raise ProtocolError(BAD_MESSAGE, f"{where} must not contain control characters")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key, f"a field name in {where}")
            _check_text(item, where)
    elif isinstance(value, list):
        for item in value:
            _check_text(item, where)


def parse(frame: str | bytes | None) -> Incoming:
    """Return the message in a client's frame, or raise ProtocolError with a code."""
    if frame is None or isinstance(frame, bytes):
        raise ProtocolError(BAD_MESSAGE, "messages are JSON text")
    if len(frame.encode(errors="surrogatepass")) > MAX_FRAME_BYTES:
        raise ProtocolError(TOO_LARGE)
    if _nesting(frame) > MAX_NESTING:
        raise ProtocolError(BAD_MESSAGE, f"nested more than {MAX_NESTING} levels deep")
    try:
        data = json.loads(frame)
    except ValueError:
        raise ProtocolError(BAD_MESSAGE, "not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError(BAD_MESSAGE, "a message is an object with a 'type'")
    for key, value in data.items():
        _check_text(key, "a field name")
        _check_text(value, f"'{key}'")
    if not isinstance(data.get("type"), str):
        raise ProtocolError(BAD_MESSAGE, "a message is an object with a 'type'")
    kind = data["type"]
    if kind not in _FIELDS:
        raise ProtocolError(BAD_MESSAGE, "unknown message type")
    extra = set(data) - _FIELDS[kind] - {"type"}
    if extra:
        raise ProtocolError(BAD_MESSAGE, f"unexpected field '{sorted(extra)[0]}'")
    if kind == "resume":
        return Resume(_count(data, "last_seq", optional=True))
    if kind == "submit":
        return _submit(data)
    if kind in ("chat", "mute_player"):
        return _chat_or_mute(kind, data)
    if kind == "clock_zero":
        return ClockZero(_count(data, "round"))  # type: ignore[arg-type]
    if kind == "update_settings":
        return UpdateSettings(_field(data, "settings", dict))
    if kind == "give_board":
        board = _field(data, "board", str)
        if len(board) > MAX_BOARD_TEXT:
            raise ProtocolError(BAD_MESSAGE, f"'board' is longer than {MAX_BOARD_TEXT} characters")
        return GiveBoard(board)
    if kind == "add_bot":
        level = _field(data, "level", str)
        dictionary = _field(data, "dictionary", str, optional=True) or ""
        if len(level) > 20 or len(dictionary) > 50:
            raise ProtocolError(BAD_MESSAGE, "'level' or 'dictionary' is too long")
        return AddBot(level, dictionary)
    if kind == "hint":
        hint_kind = _field(data, "kind", str)
        if hint_kind not in HINT_KINDS:
            raise ProtocolError(BAD_HINT)
        return Hint(hint_kind)
    if kind in ("remove_player", "transfer_host"):
        player_id = _count(data, "player_id")
        return RemovePlayer(player_id) if kind == "remove_player" else TransferHost(player_id)  # type: ignore[arg-type]
    bare: dict[str, type[StartRound | EndRound | Ping]] = {
        "start_round": StartRound,
        "end_round": EndRound,
        "ping": Ping,
    }
    return bare[kind]()


# Server to client ---------------------------------------------------------------------

# Every message type the server sends, a closed set like the incoming one (docs/protocol.md).
SUBMIT_RESULT = "submit_result"  # the answer to one submission, to its sender only
SNAPSHOT = "snapshot"  # the whole room, to one socket
SNAPSHOT_MORE = "snapshot_more"  # the rest of a snapshot too large for one frame
BOARD = "board"  # the board, at the end of the countdown
EVENT = "event"  # a numbered room event, to every socket in the room
WORD_COUNTS = "word_counts"  # how many words each player has found, unnumbered
HINT = "hint"  # the answer to a hint, to its asker only: counts, never words
PONG = "pong"
ERROR = "error"
# The arena (docs/arena.md): its socket's snapshot, and the live top 10 (points, never words).
ARENA_SNAPSHOT = "arena_snapshot"
ARENA_TOP = "arena_top"
ARENA_RESULTS = (
    "arena_results"  # a player's own results at time-up, in parts (games.arena.delivery)
)
SPECTATORS = (
    "spectators"  # how many watch the room, unnumbered (coalesced by games.realtime.counts)
)
OUTGOING = frozenset(
    {SUBMIT_RESULT, SNAPSHOT, SNAPSHOT_MORE, BOARD, EVENT, WORD_COUNTS, HINT, PONG, ERROR}
    | {ARENA_SNAPSHOT, ARENA_TOP, ARENA_RESULTS, SPECTATORS}
)

# The kinds of numbered room events (the `event` field of an EVENT).
PLAYER_JOINED = "player_joined"
PLAYER_UPDATED = "player_updated"
PLAYER_REMOVED = "player_removed"
HOST_CHANGED = "host_changed"
SETTINGS_CHANGED = "settings_changed"
ROUND_STARTED = "round_started"
ROUND_ENDED = "round_ended"
CHAT_MESSAGE = "chat_message"  # a line of chat, numbered so a reconnect gets what it missed
CHAT_DELETED = "chat_deleted"  # an admin deleted these lines
EVENT_KINDS = frozenset(
    {PLAYER_JOINED, PLAYER_UPDATED, PLAYER_REMOVED, HOST_CHANGED, SETTINGS_CHANGED}
    | {ROUND_STARTED, ROUND_ENDED}
    | {CHAT_MESSAGE, CHAT_DELETED}
)


def error(code: str, detail: str = "") -> dict[str, Any]:
    """Return an error message for the client."""
    return {"type": ERROR, "code": code, "message": detail or ERROR_MESSAGES[code]}


def submit_result(
    client_id: str,
    word: str,
    *,
    accepted: bool,
    points: int = 0,
    path: list[int] | None = None,
    reason: str | None = None,
) -> dict[str, Any]:
    """Return the answer to one submission, sent to its sender only."""
    message: dict[str, Any] = {"type": SUBMIT_RESULT, "client_id": client_id, "word": word}
    message["accepted"] = accepted
    if accepted:
        message.update(points=points, path=path)
    else:
        message.update(reason=reason, message=ERROR_MESSAGES[reason or BAD_MESSAGE])
    return message


def event(seq: int, kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """Return a numbered room event as sent to every client in the room."""
    if kind not in EVENT_KINDS:
        raise ValueError(f"unknown room event kind {kind!r}")
    return {"type": EVENT, "seq": seq, "event": kind, "data": data}


def board(number: int, data: dict[str, Any]) -> dict[str, Any]:
    """Return the board of round `number`, sent when its countdown ends."""
    return {"type": BOARD, "round": number, "board": data}


def word_counts(number: int, counts: dict[str, int]) -> dict[str, Any]:
    """Return how many words each player (by id) has found in round `number`."""
    return {"type": WORD_COUNTS, "round": number, "counts": counts}


def spectators(count: int) -> dict[str, Any]:
    """Return how many spectators watch the room now (its whole state: none is resent)."""
    return {"type": SPECTATORS, "count": count}


def hint(
    *, kind: str, number: int, counts: dict[str, int], taken: int, cost: int
) -> dict[str, Any]:
    """Return the answer to a hint of round `number`: how many words the asker has left per
    length or first letter (`counts`), how many hints they have taken and what each costs."""
    return {
        "type": HINT, "kind": kind, "round": number, "counts": counts, "taken": taken,
        "cost": cost,
    }  # fmt: skip


def arena_top(number: int, top: list[dict[str, Any]], players: int, at: int) -> dict[str, Any]:
    """Return the live top of arena round `number`: [{id, nickname, points}] best first, how
    many have found a word, and when it was counted (`at`, server ms: how fresh it is).
    Points only: never a word."""
    return {"type": ARENA_TOP, "round": number, "top": top, "players": players, "at": at}


def arena_results_parts(solution: list[dict[str, Any]], max_bytes: int) -> list[str]:
    """Return an arena round's solution encoded in slices (JSON arrays), each small enough to
    go in one `arena_results` frame of at most max_bytes; encoded once per round and worker,
    then sent to every player as they are."""
    budget = max_bytes - 200  # the frame around the slice: type, round, part, server time
    parts: list[str] = []
    items: list[str] = []
    size = 2
    for word in solution:
        item = _encode(word)
        if items and size + len(item) + 1 > budget:
            parts.append("[" + ",".join(items) + "]")
            items, size = [], 2
        items.append(item)
        size += len(item) + 1
    if items or not parts:
        parts.append("[" + ",".join(items) + "]")
    return parts


def arena_results_frames(
    number: int, mine: str, head: str, solution: list[str], server_time: int
) -> list[str]:
    """Return the frames of one player's results of arena round `number`: the first carries
    their own part (`mine`, encoded: games.arena.results.arena_results_mine) and the
    round's shared part without its solution (`shared`, encoded once: `head`), the others
    the solution in slices (arena_results_parts). Each says which `part` it is of how many
    (`parts`); the client puts them together (static/js/arena.js).
    """
    parts = 1 + len(solution)
    lead = f'{{"type":"{ARENA_RESULTS}","round":{int(number)},"parts":{parts}'
    tail = f',"server_time":{int(server_time)}}}'
    frames = [f'{lead},"part":0,"mine":{mine},"shared":{head}{tail}']
    frames += [f'{lead},"part":{k},"solution":{part}{tail}' for k, part in enumerate(solution, 1)]
    return frames


def arena_results_elsewhere(number: int, results_url: str) -> dict[str, Any]:
    """Return the frame that sends a player to fetch their results of arena round `number`
    over HTTP, when the socket cannot carry them (`parts` 0)."""
    return {"type": ARENA_RESULTS, "round": number, "parts": 0, "results_url": results_url}


def pong() -> dict[str, Any]:
    """Return the answer to a ping."""
    return {"type": PONG}


def dump(message: dict[str, Any]) -> str:
    """Return a message as a frame; refuse a type outside the closed set (a server bug)."""
    if message.get("type") not in OUTGOING:
        raise ValueError(f"unknown outgoing message type {message.get('type')!r}")
    return _encode(message)


def encode(value: Any) -> str:
    """Return a value as it is written in a frame (a part sent in many frames, encoded once)."""
    return _encode(value)


def size(value: Any) -> int:
    """Return the bytes a value takes in a frame (a message, or a part of one)."""
    return len(_encode(value).encode())


def _encode(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))
