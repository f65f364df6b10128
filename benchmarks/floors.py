"""Accuracy floors: committed figures the benchmark must not fall below, that only rise.

`benchmarks/floors.json` holds one section per benchmark size ("quick": the CI clip, "full":
the whole report).  A floor is the figure as measured when it was set, less a tolerance for
noise (the pipeline is deterministic: decoding and rendering are bit-exact on one OpenCV
build, so the tolerance is small).  For figures where lower is better (millimetres, switches)
the "floor" is a ceiling; it only falls.

`check` returns what fell below its floor and what beat it by a wide margin (then the floor
should be raised: `python -m benchmarks [--quick] --update-floors`); `update` refuses to
lower a floor and appends what it changed to the file's history.  Lowering one is a decision
a person takes and signs: `--lower-floors REASON` records the reason beside what it lowered.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path

FLOORS = Path(__file__).with_name("floors.json")

HIGHER = ("identity.ours.idf1", "identity.ours.hota", "identity.ours.mota",
          "identity.ours-placed.idf1", "identity.ours-placed.recall",
          "identity.ours-placed.precision", "identity.ours-in-view.idf1",
          "events.ours.flick.recall", "events.ours.flick.precision",
          "events.ours.cross.recall", "events.ours.cross.precision",
          "events.ours.contact.recall", "events.ours.contact.precision",
          "events.ours.hit.recall", "events.ours.hit.precision",
          "detection.ours.recall", "detection.ours.precision")
LOWER = ("identity.ours.num_switches", "position.rest_rms_mm", "position.moving_p95_mm",
         "position.path_p95_mm")
TOLERANCE = {"fraction": 0.002, "mm": 0.01, "count": 0.0}
"""Below the measured figure a floor is set: absolute for fractions and counts, relative
(1 %) for millimetres."""
MARGIN = {"fraction": 0.03, "mm": 0.2, "count": 2.0}
"""Beating a floor by more than this (absolute; relative for mm) asks for raising it."""


def _unit(name: str) -> str:
    return "mm" if name.endswith("_mm") else "count" if name.endswith("switches") else "fraction"


def tracked(figures: dict[str, float], groups: list[str]) -> dict[str, tuple[float, bool]]:
    """The figures that have floors: name → (value, higher is better)."""
    out = {}
    for g in groups:
        for suffix, higher in [(s, True) for s in HIGHER] + [(s, False) for s in LOWER]:
            name = f"{g}.{suffix}"
            if name in figures:
                out[name] = (figures[name], higher)
    return out


def floor_for(value: float, higher: bool, unit: str) -> float:
    tol = TOLERANCE[unit] * (abs(value) if unit == "mm" else 1.0)
    return round(value - tol if higher else value + tol, 4)


@dataclass
class Verdict:
    below: list[str]
    raise_: list[str]
    missing: list[str]

    @property
    def ok(self) -> bool:
        return not self.below and not self.missing


def load(path: Path = FLOORS) -> dict:
    return json.loads(path.read_text()) if path.is_file() else {"history": []}


def check(figures: dict[str, float], section: str, path: Path = FLOORS) -> Verdict:
    floors = load(path).get(section, {})
    below, raise_, missing = [], [], []
    for name, entry in floors.items():
        floor, higher = entry["floor"], entry["higher_is_better"]
        if name not in figures:
            missing.append(f"{name}: floor {floor}, not measured")
            continue
        value, unit = figures[name], _unit(name)
        worse = value < floor if higher else value > floor
        if worse:
            below.append(f"{name}: {value:g} is {'below' if higher else 'above'} its floor "
                         f"{floor:g}")
            continue
        margin = MARGIN[unit] * (abs(floor) if unit == "mm" else 1.0) + entry.get("slack", 0.0)
        if (value - floor if higher else floor - value) > margin:
            raise_.append(f"{name}: {value:g} beats its floor {floor:g} by more than "
                          f"{margin:g}: raise the floor")
    return Verdict(below, raise_, missing)


def one_event_less(figures: dict[str, float], name: str) -> float | None:
    """An event recall or precision with one true event fewer found (and, for precision, one
    more invented): the full run's events move by about one from run to run (vision's
    reconstruction is sensitive to the last bit of a centre), its floors allow for that."""
    kind, _, measure = name.rpartition(".")
    found = figures.get(f"{kind}.found")
    if name.split(".")[1] != "events" or found is None:
        return None
    if measure == "recall":
        return max(0.0, (found - 1) / max(1.0, figures[f"{kind}.true"]))
    return max(0.0, (found - 1) / max(1.0, found + figures[f"{kind}.invented"]))


def update(figures: dict[str, float], section: str, groups: list[str],
           path: Path = FLOORS, event_slack: bool = False, lower_because: str | None = None
           ) -> tuple[dict[str, tuple[float | None, float]], list[str]]:
    """Set floors from `figures`; never lower one unless `lower_because` says why, and then
    only those the figures fall below (a floor met within its tolerance stays).
    Returns (changed, refused).

    With `event_slack`, event figures are floored one event below what was measured."""
    data = load(path)
    floors = data.setdefault(section, {})
    changed, refused = {}, []
    for name, (value, higher) in tracked(figures, groups).items():
        new = floor_for(value, higher, _unit(name))
        slack = one_event_less(figures, name) if event_slack else None
        if slack is not None:
            new = round(min(new, slack), 4)
        old = floors.get(name, {}).get("floor")
        if old is not None and (new < old if higher else new > old):
            fails = value < old if higher else value > old
            if fails and not lower_because:
                refused.append(f"{name}: measured {value:g} would lower its floor {old:g}")
            if not (fails and lower_because):
                continue  # (within its tolerance of a floor it still meets: the floor stays)
        if old != new:
            floors[name] = {"floor": new, "higher_is_better": higher}
            if slack is not None:
                floors[name]["slack"] = round(value - new, 4)
            changed[name] = (old, new)
    if changed:
        entry = {"date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
                 "section": section,
                 "changed": {k: list(v) for k, v in sorted(changed.items())}}
        if lower_because:
            entry["lowered_because"] = lower_because
        data.setdefault("history", []).append(entry)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    return changed, refused
