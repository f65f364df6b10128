"""The event contract: strict JSONL reading, exact round trips, clear errors."""

from __future__ import annotations

import io
import json

import pytest

from referee import events as ev

GOOD = [
    {"t": 0.5, "type": "flick", "coin": "moons"},
    {"t": 0.6, "type": "cross", "coin": "moons", "line": "gate-1", "dir": "-"},
    {"t": 0.7, "type": "contact", "a": "moons", "b": "ace", "moving": ["moons"]},
    {"t": 0.8, "type": "hit", "coin": "moons", "piece": "tower-2"},
    {"t": 0.9, "type": "off_table", "coin": "suns", "at": [431.8, 12.5]},
    {"t": 1.0, "type": "settled", "positions": {"moons": [1.5, -2.0]}},
    {"t": 1.1, "type": "lift", "coin": "arms"},
    {"t": 1.2, "type": "place", "coin": "arms", "at": [0.0, 254.0], "on": "tower-3"},
    {"t": 1.3, "type": "hold", "coin": "moons"},
    {"t": 1.4, "type": "face", "coin": "ace", "face": "moons"},
    {"t": 1.5, "type": "tile_moved", "piece": "post-12", "by_mm": 6.0},
    {"t": 1.6, "type": "declare", "player": 1, "what": "croquet", "kind": 3},
    {"t": 1.7, "type": "declare", "player": 2, "what": "end_play"},
    {"t": 1.8, "type": "override", "ruling": "3.0", "by": "table", "reason": "replay shows it"},
    {"t": 1.9, "type": "cross", "coin": "suns", "line": "gate-2", "dir": "+",
     "confidence": 0.4, "uncertain": True, "evidence": {"frames": [10, 12], "margin_mm": 0.3}},
]


def test_every_event_type_round_trips_exactly() -> None:
    for obj in GOOD:
        event = ev.event_from_json(obj)
        assert event.type == obj["type"]
        assert event.to_json() == obj


def test_every_contract_type_is_known() -> None:
    contract = {"flick", "cross", "contact", "hit", "off_table", "settled", "lift", "place",
                "hold", "face", "tile_moved", "declare", "override"}
    assert set(ev.EVENT_TYPES) == contract


def test_unknown_fields_are_ignored() -> None:
    event = ev.event_from_json({"t": 1, "type": "flick", "coin": "moons", "hand": "left"})
    assert event == ev.Flick(1.0, "moons")


def test_write_then_read(tmp_path) -> None:
    events = [ev.event_from_json(o) for o in GOOD]
    path = tmp_path / "events.jsonl"
    ev.write_events(events, path)
    assert ev.read_events(path) == events


@pytest.mark.parametrize(("line", "problem"), [
    ("{not json", "not valid JSON"),
    ('[1, 2]', "must be a JSON object"),
    ('{"t": 1, "type": "teleport"}', "unknown event type 'teleport'"),
    ('{"type": "flick", "coin": "moons"}', "missing field 't'"),
    ('{"t": "soon", "type": "flick", "coin": "moons"}', "'t' must be a finite number"),
    ('{"t": -1, "type": "flick", "coin": "moons"}', "must not be negative"),
    ('{"t": 1, "type": "flick"}', "missing field 'coin'"),
    ('{"t": 1, "type": "cross", "coin": "a", "line": "gate-1", "dir": "in"}', "'dir' must be"),
    ('{"t": 1, "type": "contact", "a": "moons", "b": "moons"}', "cannot contact itself"),
    ('{"t": 1, "type": "off_table", "coin": "moons", "at": [1]}', "[x, y]"),
    ('{"t": 1, "type": "declare", "player": "one", "what": "end_play"}', "whole number"),
    ('{"t": 1, "type": "declare", "player": 1, "what": "dance"}', "unknown declaration"),
    ('{"t": 1, "type": "cross", "coin": "m", "line": "g", "dir": "+", "confidence": 2}',
     "within 0..1"),
    ('{"t": NaN, "type": "flick", "coin": "moons"}', "finite"),
])
def test_malformed_line_names_source_line_and_problem(line: str, problem: str) -> None:
    text = '{"t": 0, "type": "settled"}\n\n' + line + "\n"
    with pytest.raises(ev.EventFormatError) as info:
        list(ev.parse_events(io.StringIO(text), "game.jsonl"))
    message = str(info.value)
    assert message.startswith("game.jsonl:3: ")
    assert problem in message


def test_time_must_not_go_backwards() -> None:
    lines = [json.dumps({"t": 2, "type": "settled"}), json.dumps({"t": 1, "type": "settled"})]
    with pytest.raises(ev.EventFormatError, match=r"x:2: time goes backwards"):
        list(ev.parse_events(lines, "x"))


def test_unreadable_and_binary_files(tmp_path) -> None:
    with pytest.raises(ev.EventFormatError, match="cannot read"):
        ev.read_events(tmp_path / "missing.jsonl")
    binary = tmp_path / "video.mp4"
    binary.write_bytes(b"\x00\x01\xff\xfe" * 10)
    with pytest.raises(ev.EventFormatError):
        ev.read_events(binary)
