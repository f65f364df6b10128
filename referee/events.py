"""The physical-event contract between vision and rules (../shared/design/CONTRACT.md).

Events are plain frozen dataclasses with a JSON form that round-trips exactly.  The JSONL
reader is strict: a malformed line raises :class:`EventFormatError` naming the file, the line
and the problem, so ``referee adjudicate`` can exit 2 with one clear sentence.  Unknown fields
are ignored, as the contract asks, except ``confidence``, ``evidence`` and ``uncertain``
which every event may carry.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import IO, Any, ClassVar

Point = tuple[float, float]

COIN_NAMES: tuple[str, ...] = (
    "moons", "suns", "crowns", "arms", "null", "ace", "2", "3", "4", "5",
)
"""Coins are named by the face they showed at setup (suit faces, then value faces)."""

DECLARATIONS: tuple[str, ...] = (
    "croquet", "end_play", "action", "rover", "poison", "number", "pass",
)


class EventFormatError(ValueError):
    """A malformed event: the message names where and what."""


@dataclass(frozen=True)
class Event:
    """Common fields of every event: the time and what vision says about its certainty."""

    TYPE: ClassVar[str] = ""

    t: float
    confidence: float | None = field(default=None, kw_only=True)
    evidence: dict[str, Any] | None = field(default=None, kw_only=True, compare=False)
    uncertain: bool = field(default=False, kw_only=True)
    """True when vision measured the event inside its own error band (too close to call)."""

    @property
    def type(self) -> str:
        return self.TYPE

    def to_json(self) -> dict[str, Any]:
        """The contract's JSON object for this event (optional fields only when set)."""
        out: dict[str, Any] = {"t": self.t, "type": self.TYPE}
        for f in fields(self):
            if f.name == "t":
                continue
            value = getattr(self, f.name)
            if value is None or (f.name == "uncertain" and not value):
                continue
            if isinstance(value, tuple):
                value = list(value)
            elif f.name == "positions":
                value = {coin: list(p) for coin, p in value.items()}
            out[f.name] = value
        return out


@dataclass(frozen=True)
class Flick(Event):
    TYPE: ClassVar[str] = "flick"
    coin: str
    finger_ms: float | None = None
    """How long the finger touched the coin (optional; for the flick-form check)."""
    touch_mm: float | None = None
    """How far the coin moved while touched (optional; for the flick-form check)."""


@dataclass(frozen=True)
class Cross(Event):
    TYPE: ClassVar[str] = "cross"
    coin: str
    line: str
    dir: str
    at: Point | None = None


@dataclass(frozen=True)
class Contact(Event):
    TYPE: ClassVar[str] = "contact"
    a: str
    b: str
    moving: tuple[str, ...] = ()
    speed: float | None = None
    """Relative normal approach speed in mm/s, when vision measured it."""


@dataclass(frozen=True)
class Hit(Event):
    TYPE: ClassVar[str] = "hit"
    coin: str
    piece: str
    speed: float | None = None


@dataclass(frozen=True)
class OffTable(Event):
    TYPE: ClassVar[str] = "off_table"
    coin: str
    at: Point


@dataclass(frozen=True)
class Settled(Event):
    TYPE: ClassVar[str] = "settled"
    positions: dict[str, Point] | None = field(default=None, compare=True)


@dataclass(frozen=True)
class Lift(Event):
    TYPE: ClassVar[str] = "lift"
    coin: str


@dataclass(frozen=True)
class Place(Event):
    TYPE: ClassVar[str] = "place"
    coin: str
    at: Point
    on: str | None = None


@dataclass(frozen=True)
class Hold(Event):
    TYPE: ClassVar[str] = "hold"
    coin: str


@dataclass(frozen=True)
class Face(Event):
    TYPE: ClassVar[str] = "face"
    coin: str
    face: str


@dataclass(frozen=True)
class TileMoved(Event):
    TYPE: ClassVar[str] = "tile_moved"
    piece: str
    by_mm: float


@dataclass(frozen=True)
class Declare(Event):
    TYPE: ClassVar[str] = "declare"
    player: int
    what: str
    kind: int | None = None
    option: int | None = None
    value: int | None = None


@dataclass(frozen=True)
class Override(Event):
    TYPE: ClassVar[str] = "override"
    ruling: str
    by: str = ""
    reason: str = ""


EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (Flick, Cross, Contact, Hit, OffTable, Settled, Lift, Place, Hold, Face,
                TileMoved, Declare, Override)
}

# --------------------------------------------------------------------------- parsing


def _number(obj: dict[str, Any], key: str, *, required: bool = True) -> float | None:
    value = obj.get(key)
    if value is None:
        if required:
            raise EventFormatError(f"missing field {key!r}")
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise EventFormatError(f"field {key!r} must be a finite number, got {value!r}")
    return float(value)


def _string(obj: dict[str, Any], key: str, *, required: bool = True) -> str | None:
    value = obj.get(key)
    if value is None:
        if required:
            raise EventFormatError(f"missing field {key!r}")
        return None
    if not isinstance(value, str) or not value:
        raise EventFormatError(f"field {key!r} must be a non-empty string, got {value!r}")
    return value


def _point(value: Any, key: str) -> Point:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        or not all(math.isfinite(v) for v in value)
    ):
        raise EventFormatError(f"field {key!r} must be [x, y] in millimetres, got {value!r}")
    return (float(value[0]), float(value[1]))


def _int(obj: dict[str, Any], key: str, *, required: bool = True) -> int | None:
    value = obj.get(key)
    if value is None:
        if required:
            raise EventFormatError(f"missing field {key!r}")
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise EventFormatError(f"field {key!r} must be a whole number, got {value!r}")
    return value


def event_from_json(obj: Any) -> Event:
    """Build a typed event from one decoded JSON object; raise EventFormatError if malformed."""
    if not isinstance(obj, dict):
        raise EventFormatError(f"an event must be a JSON object, got {type(obj).__name__}")
    kind = obj.get("type")
    if kind not in EVENT_TYPES:
        known = ", ".join(EVENT_TYPES)
        raise EventFormatError(f"unknown event type {kind!r} (known: {known})")
    t = _number(obj, "t")
    assert t is not None
    if t < 0:
        raise EventFormatError(f"field 't' must not be negative, got {t}")
    common: dict[str, Any] = {}
    conf = _number(obj, "confidence", required=False)
    if conf is not None:
        if not 0.0 <= conf <= 1.0:
            raise EventFormatError(f"field 'confidence' must be within 0..1, got {conf}")
        common["confidence"] = conf
    if "evidence" in obj and obj["evidence"] is not None:
        if not isinstance(obj["evidence"], dict):
            raise EventFormatError("field 'evidence' must be an object")
        common["evidence"] = obj["evidence"]
    if "uncertain" in obj:
        if not isinstance(obj["uncertain"], bool):
            raise EventFormatError("field 'uncertain' must be true or false")
        common["uncertain"] = obj["uncertain"]

    if kind == "flick":
        return Flick(t, _string(obj, "coin"), _number(obj, "finger_ms", required=False),
                     _number(obj, "touch_mm", required=False), **common)
    if kind == "cross":
        direction = _string(obj, "dir")
        if direction not in ("+", "-"):
            raise EventFormatError(f"field 'dir' must be '+' or '-', got {direction!r}")
        at = _point(obj["at"], "at") if obj.get("at") is not None else None
        return Cross(t, _string(obj, "coin"), _string(obj, "line"), direction, at, **common)
    if kind == "contact":
        a, b = _string(obj, "a"), _string(obj, "b")
        if a == b:
            raise EventFormatError(f"a coin cannot contact itself ({a!r})")
        moving = obj.get("moving", [])
        if not isinstance(moving, list) or not all(isinstance(m, str) for m in moving):
            raise EventFormatError("field 'moving' must be a list of coin names")
        return Contact(t, a, b, tuple(moving), _number(obj, "speed", required=False), **common)
    if kind == "hit":
        return Hit(t, _string(obj, "coin"), _string(obj, "piece"),
                   _number(obj, "speed", required=False), **common)
    if kind == "off_table":
        if "at" not in obj:
            raise EventFormatError("missing field 'at'")
        return OffTable(t, _string(obj, "coin"), _point(obj["at"], "at"), **common)
    if kind == "settled":
        raw = obj.get("positions")
        positions = None
        if raw is not None:
            if not isinstance(raw, dict):
                raise EventFormatError("field 'positions' must be an object {coin: [x, y]}")
            positions = {str(k): _point(v, f"positions.{k}") for k, v in raw.items()}
        return Settled(t, positions, **common)
    if kind == "lift":
        return Lift(t, _string(obj, "coin"), **common)
    if kind == "place":
        if "at" not in obj:
            raise EventFormatError("missing field 'at'")
        return Place(t, _string(obj, "coin"), _point(obj["at"], "at"),
                     _string(obj, "on", required=False), **common)
    if kind == "hold":
        return Hold(t, _string(obj, "coin"), **common)
    if kind == "face":
        return Face(t, _string(obj, "coin"), _string(obj, "face"), **common)
    if kind == "tile_moved":
        return TileMoved(t, _string(obj, "piece"), _number(obj, "by_mm"), **common)
    if kind == "declare":
        what = _string(obj, "what")
        if what not in DECLARATIONS:
            raise EventFormatError(
                f"unknown declaration {what!r} (known: {', '.join(DECLARATIONS)})")
        return Declare(t, _int(obj, "player"), what, _int(obj, "kind", required=False),
                       _int(obj, "option", required=False), _int(obj, "value", required=False),
                       **common)
    # override
    by = obj.get("by", "")
    reason = obj.get("reason", "")
    if not isinstance(by, str) or not isinstance(reason, str):
        raise EventFormatError("fields 'by' and 'reason' must be strings")
    return Override(t, _string(obj, "ruling"), by, reason, **common)


def event_to_json(event: Event) -> dict[str, Any]:
    return event.to_json()


def parse_events(lines: Iterable[str], source: str = "<events>") -> Iterator[Event]:
    """Parse JSON Lines strictly: blank lines are skipped, `t` must not decrease."""
    for _, event in parse_numbered_events(lines, source):
        yield event


def parse_numbered_events(lines: Iterable[str],
                          source: str = "<events>") -> Iterator[tuple[int, Event]]:
    """Like `parse_events`, with each event's line number (for error messages)."""
    last_t = -math.inf
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text:
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise EventFormatError(f"{source}:{number}: not valid JSON ({exc.msg})") from None
        try:
            event = event_from_json(obj)
        except EventFormatError as exc:
            raise EventFormatError(f"{source}:{number}: {exc}") from None
        if event.t < last_t:
            raise EventFormatError(
                f"{source}:{number}: time goes backwards ({event.t} after {last_t})")
        last_t = event.t
        yield number, event


def read_events(path: str | Path) -> list[Event]:
    """Read a whole JSONL event file; errors name the file and the line."""
    return [event for _, event in read_numbered_events(path)]


def read_numbered_events(path: str | Path) -> list[tuple[int, Event]]:
    """Read a JSONL event file as (line number, event) pairs."""
    path = Path(path)
    try:
        with path.open(encoding="utf-8") as handle:
            return list(parse_numbered_events(handle, str(path)))
    except UnicodeDecodeError:
        raise EventFormatError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise EventFormatError(f"{path}: cannot read ({exc.strerror})") from None


def write_events(events: Iterable[Event], out: IO[str] | str | Path) -> None:
    """Write events as JSON Lines (one compact object a line)."""
    if isinstance(out, str | Path):
        with Path(out).open("w", encoding="utf-8") as handle:
            write_events(events, handle)
        return
    for event in events:
        out.write(json.dumps(event.to_json(), separators=(",", ":")) + "\n")
