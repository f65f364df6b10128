"""A calibration problem: what is wrong, with what, and by how much.

Why: the issue asks for every problem at once *with its size* ("a tile 6 mm off its place"),
so players can fix the table in one go; the same record goes into the profile's JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Problem:
    """One problem: `kind` (e.g. missing, off_place, turned, gate_narrow, wrong_suit), the
    piece or line it concerns, its size in `unit`, and a sentence a player understands."""

    kind: str
    subject: str
    size: float | None
    unit: str
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "subject": self.subject,
                "size": None if self.size is None else round(float(self.size), 3),
                "unit": self.unit, "text": self.text}

    @classmethod
    def from_json(cls, data: Any) -> Problem:
        """Inverse of `to_json`; ValueError when a field is missing or of the wrong type."""
        if not isinstance(data, dict):
            raise ValueError(f"a problem must be an object, got {data!r}")
        missing = [k for k in ("kind", "subject", "unit", "text")
                   if not isinstance(data.get(k), str)]
        size = data.get("size")
        if missing:
            raise ValueError(f"problem {data!r}: missing or non-text {', '.join(missing)}")
        if size is not None and (isinstance(size, bool) or not isinstance(size, int | float)):
            raise ValueError(f"problem {data!r}: 'size' must be a number or null")
        return cls(data["kind"], data["subject"], None if size is None else float(size),
                   data["unit"], data["text"])
