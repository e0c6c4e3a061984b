"""The protocol module: every message type parses, anything else gets an error code."""

from __future__ import annotations

import json
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import protocol as p


@pytest.mark.parametrize(
    ("frame", "message"),
    [
        ({"type": "resume", "last_seq": 4}, p.Resume(4)),
        ({"type": "resume", "last_seq": None}, p.Resume(None)),
        ({"type": "submit", "client_id": "a", "word": "tea"}, p.Submit("a", "tea", None)),
        ({"type": "submit", "client_id": "a", "path": [0, 1]}, p.Submit("a", None, (0, 1))),
        ({"type": "start_round"}, p.StartRound()),
        ({"type": "end_round"}, p.EndRound()),
        ({"type": "clock_zero", "round": 2}, p.ClockZero(2)),
        (
            {"type": "update_settings", "settings": {"preset": "big"}},
            p.UpdateSettings({"preset": "big"}),
        ),
        (
            {"type": "give_board", "board": "PERS/LATG/SINE/TERS"},
            p.GiveBoard("PERS/LATG/SINE/TERS"),
        ),
        ({"type": "give_board", "board": ""}, p.GiveBoard("")),
        ({"type": "remove_player", "player_id": 3}, p.RemovePlayer(3)),
        ({"type": "transfer_host", "player_id": 3}, p.TransferHost(3)),
        ({"type": "hint", "kind": "lengths"}, p.Hint("lengths")),
        ({"type": "hint", "kind": "letters"}, p.Hint("letters")),
        ({"type": "ping"}, p.Ping()),
    ],
)
def test_every_message_type_parses(frame: dict[str, object], message: p.Incoming) -> None:
    assert p.parse(json.dumps(frame)) == message


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("not json", p.BAD_MESSAGE),
        ("[1, 2]", p.BAD_MESSAGE),
        ('{"no": "type"}', p.BAD_MESSAGE),
        ('{"type": "dance"}', p.BAD_MESSAGE),
        ('{"type": "ping", "extra": 1}', p.BAD_MESSAGE),
        ('{"type": "submit", "client_id": "a"}', p.BAD_MESSAGE),
        ('{"type": "submit", "client_id": "", "word": "x"}', p.BAD_MESSAGE),
        ('{"type": "submit", "client_id": 5, "word": "x"}', p.BAD_MESSAGE),
        ('{"type": "submit", "client_id": "a", "word": "two words"}', p.BAD_MESSAGE),
        ('{"type": "submit", "client_id": "a", "word": "<script>"}', p.BAD_MESSAGE),
        ('{"type": "submit", "client_id": "a", "path": [0, "1"]}', p.BAD_MESSAGE),
        ('{"type": "submit", "client_id": "a", "path": [0, true]}', p.BAD_MESSAGE),
        ('{"type": "submit", "client_id": "a", "path": []}', p.BAD_MESSAGE),
        ('{"type": "clock_zero", "round": -1}', p.BAD_MESSAGE),
        ('{"type": "remove_player", "player_id": "7"}', p.BAD_MESSAGE),
        ('{"type": "update_settings", "settings": []}', p.BAD_MESSAGE),
        ('{"type": "give_board"}', p.BAD_MESSAGE),
        ('{"type": "give_board", "board": ["PERS"]}', p.BAD_MESSAGE),
        ('{"type": "give_board", "board": "%s"}' % ("A" * (p.MAX_BOARD_TEXT + 1)), p.BAD_MESSAGE),
        ('{"type": "hint"}', p.BAD_MESSAGE),
        ('{"type": "hint", "kind": ["lengths"]}', p.BAD_MESSAGE),
        ('{"type": "hint", "kind": "lengths", "word": "TEA"}', p.BAD_MESSAGE),
        ('{"type": "hint", "kind": "words"}', p.BAD_HINT),
        ('{"type": "hint", "kind": "LENGTHS"}', p.BAD_HINT),
        ("x" * (p.MAX_FRAME_BYTES + 1), p.TOO_LARGE),
        (b'{"type": "ping"}', p.BAD_MESSAGE),
    ],
)
def test_bad_frames_get_codes(frame: str | bytes, code: str) -> None:
    with pytest.raises(p.ProtocolError) as info:
        p.parse(frame)
    assert info.value.code == code


def test_huge_words_are_refused() -> None:
    with pytest.raises(p.ProtocolError):
        p.parse(json.dumps({"type": "submit", "client_id": "a", "word": "a" * 65}))


# Any character at all: lone surrogates (category Cs, which st.text() leaves out by
# default) and control characters included.
any_text = st.text(st.characters(exclude_categories=()))


def strings_in(value: object) -> list[str]:
    """Return every string in a parsed message (field values, nested keys and values)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for key, item in value.items() for s in strings_in(key) + strings_in(item)]
    if isinstance(value, list | tuple):
        return [s for item in value for s in strings_in(item)]
    if hasattr(value, "__dataclass_fields__"):
        return [s for name in value.__dataclass_fields__ for s in strings_in(getattr(value, name))]
    return []


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text() | any_text,
        lambda c: st.lists(c) | st.dictionaries(st.text() | any_text, c),
    )
)
def test_any_json_either_parses_or_raises_a_protocol_error(value: object) -> None:
    try:
        message = p.parse(json.dumps(value))
    except p.ProtocolError as exc:
        assert exc.code in p.ERROR_MESSAGES
    else:  # whatever parses is text the database and the logs can take
        for text in strings_in(message):
            text.encode()  # no lone surrogate
            assert not any(unicodedata.category(c) == "Cc" for c in text), repr(text)


@given(
    st.dictionaries(
        st.sampled_from(
            ["type", "client_id", "word", "path", "last_seq", "round", "player_id", "settings"]
        ),
        st.none()
        | st.integers()
        | st.text(max_size=5)
        | st.text(st.characters(exclude_categories=()), max_size=5)
        | st.lists(st.integers()),
    )
)
def test_messages_with_known_fields_of_any_type_never_crash(value: dict[str, object]) -> None:
    value.setdefault("type", "submit")
    try:
        p.parse(json.dumps(value))
    except p.ProtocolError as exc:
        assert exc.code in p.ERROR_MESSAGES


@pytest.mark.parametrize("depth", [990, 2000])
def test_deeply_nested_json_is_a_bad_message_not_a_recursion_error(depth: int) -> None:
    frame = "[" * depth + "]" * depth  # 990: 1,980 bytes, the frame from issue 11
    with pytest.raises(p.ProtocolError) as info:
        p.parse(frame)
    assert info.value.code == p.BAD_MESSAGE and "nested" in info.value.detail


def nested_settings(levels: int) -> str:
    """Return an update_settings frame nested `levels` deep in all (the frame's own object
    and the settings object count as two)."""
    inner = "[" * (levels - 2) + "1" + "]" * (levels - 2)
    return '{"type": "update_settings", "settings": {"preset": ' + inner + "}}"


def test_nesting_is_allowed_up_to_the_limit_and_refused_past_it() -> None:
    assert p.parse(nested_settings(p.MAX_NESTING)) == p.UpdateSettings(
        {"preset": json.loads("[" * (p.MAX_NESTING - 2) + "1" + "]" * (p.MAX_NESTING - 2))}
    )
    with pytest.raises(p.ProtocolError) as info:
        p.parse(nested_settings(p.MAX_NESTING + 1))
    assert info.value.code == p.BAD_MESSAGE


def test_brackets_inside_strings_are_not_nesting() -> None:
    client_id = '[{"[\\' + "[" * 40 + '\\"'
    frame = json.dumps({"type": "submit", "client_id": client_id, "word": "tea"})
    assert p.parse(frame) == p.Submit(client_id, "tea", None)


SURROGATE = r"\ud800"  # as a client sends it: a JSON escape (a UTF-8 frame cannot hold one)


@pytest.mark.parametrize(
    ("frame", "field"),
    [
        ('{"type": "submit", "client_id": "%s", "word": "ABED"}', "'client_id'"),
        ('{"type": "submit", "client_id": "a", "word": "AB%sED"}', "'word'"),
        ('{"type": "add_bot", "level": "easy%s"}', "'level'"),
        ('{"type": "add_bot", "level": "easy", "dictionary": "%s"}', "'dictionary'"),
        ('{"type": "update_settings", "settings": {"preset": "%s"}}', "'settings'"),
        ('{"type": "update_settings", "settings": {"p%s": "big"}}', "in 'settings'"),
        ('{"type": "update_settings", "settings": {"a": [{"b": ["%s"]}]}}', "'settings'"),
        ('{"type": "ping%s"}', "'type'"),
        ('{"type": "ping", "%s": 1}', "a field name"),
    ],
)
@pytest.mark.parametrize(
    ("bad", "why"),
    [
        (SURROGATE, "not valid Unicode"),
        (r"\udfff", "not valid Unicode"),
        (r"\u0000", "control characters"),
        (r"\u001b", "control characters"),
        (r"\n", "control characters"),
        (r"\u007f", "control characters"),
        (r"\u0085", "control characters"),
    ],
)
def test_strings_must_be_text_in_every_field(frame: str, field: str, bad: str, why: str) -> None:
    with pytest.raises(p.ProtocolError) as info:
        p.parse(frame % bad)
    assert info.value.code == p.BAD_MESSAGE
    assert field in info.value.detail and why in info.value.detail


def test_a_raw_surrogate_in_the_frame_is_a_bad_message() -> None:
    """A frame holding a surrogate itself (not an escape) cannot come through a real socket,
    which carries UTF-8, but the parser is not left to crash on one either."""
    with pytest.raises(p.ProtocolError) as info:
        p.parse('{"type": "submit", "client_id": "\ud800", "word": "ABED"}')
    assert info.value.code == p.BAD_MESSAGE


def test_text_that_is_fine_still_parses() -> None:
    frame = json.dumps({"type": "submit", "client_id": "c-1 ✓ 😀", "word": "Éclair"})
    assert p.parse(frame) == p.Submit("c-1 ✓ 😀", "Éclair", None)


def test_results_and_errors_have_messages() -> None:
    assert p.error(p.NOT_HOST)["message"] == p.ERROR_MESSAGES[p.NOT_HOST]
    rejected = p.submit_result("c", "XY", accepted=False, reason=p.TOO_SHORT)
    assert rejected["reason"] == "too_short" and rejected["message"]
    assert set(p.REJECTIONS) <= set(p.ERROR_MESSAGES)
