"""The protocol module: every message type parses, anything else gets an error code."""

from __future__ import annotations

import json

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
        ({"type": "remove_player", "player_id": 3}, p.RemovePlayer(3)),
        ({"type": "transfer_host", "player_id": 3}, p.TransferHost(3)),
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


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(),
        lambda c: st.lists(c) | st.dictionaries(st.text(), c),
    )
)
def test_any_json_either_parses_or_raises_a_protocol_error(value: object) -> None:
    try:
        p.parse(json.dumps(value))
    except p.ProtocolError as exc:
        assert exc.code in p.ERROR_MESSAGES


@given(
    st.dictionaries(
        st.sampled_from(
            ["type", "client_id", "word", "path", "last_seq", "round", "player_id", "settings"]
        ),
        st.none() | st.integers() | st.text(max_size=5) | st.lists(st.integers()),
    )
)
def test_messages_with_known_fields_of_any_type_never_crash(value: dict[str, object]) -> None:
    value.setdefault("type", "submit")
    try:
        p.parse(json.dumps(value))
    except p.ProtocolError as exc:
        assert exc.code in p.ERROR_MESSAGES


def test_results_and_errors_have_messages() -> None:
    assert p.error(p.NOT_HOST)["message"] == p.ERROR_MESSAGES[p.NOT_HOST]
    rejected = p.submit_result("c", "XY", accepted=False, reason=p.TOO_SHORT)
    assert rejected["reason"] == "too_short" and rejected["message"]
    assert set(p.REJECTIONS) <= set(p.ERROR_MESSAGES)
