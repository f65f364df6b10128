"""The report as Markdown, and the README's generated block (between its markers)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.vision_accuracy import KINDS

START, END = "<!-- bench:start -->", "<!-- bench:end -->"
NAMES = {"ours": "ours", "ours-placed": "ours, every coin placed",
         "ours-in-view": "ours, every coin placed, in view",
         "sort": "SORT (points)", "norfair": "norfair",
         "hough+ours": "HoughCircles + our tracker"}


def _f(v, digits: int = 3) -> str:
    if v is None:
        return "–"
    if isinstance(v, float) and v.is_integer() and abs(v) > 1:
        return str(int(v))
    return f"{v:.{digits}f}" if isinstance(v, float) else str(v)


def _n(v) -> str:
    return "–" if v is None else str(round(v))


def identity_table(g: dict) -> list[str]:
    lines = ["| tracker (same detections) | IDF1 | HOTA | MOTA | ID switches | recall | "
             "precision |", "|---|---|---|---|---|---|---|"]
    for name, m in g["identity"].items():
        lines.append(f"| {NAMES[name]} | {_f(m['idf1'], 4)} | {_f(m['hota'])} | {_f(m['mota'])} | "
                     f"{_n(m['num_switches'])} | {_f(m['recall'])} | {_f(m['precision'])} |")
    return lines


def per_clip_table(g: dict) -> list[str]:
    lines = ["| clip | " + " | ".join(f"{NAMES[n]}: IDF1 / switches" for n in NAMES) + " |",
             "|---|" + "---|" * len(NAMES)]
    for clip, by in g["per_clip"].items():
        lines.append(f"| {clip} | " + " | ".join(
            f"{_f(by[n]['idf1'])} / {_n(by[n]['num_switches'])}" for n in NAMES) + " |")
    return lines


def speed_table(g: dict) -> list[str]:
    lines = ["| clip | decode-only fps | our pipeline fps | ratio | decode / detect / track / "
             "reconstruct / other ms | Hough+ours fps | SORT / norfair ms |",
             "|---|---|---|---|---|---|---|"]
    for clip, s in g["speed"].items():
        ms = s["stage_ms"]
        lines.append(f"| {clip} | {s['decode_only_fps']} | {s['pipeline_fps']} | "
                     f"{s['pipeline_to_decode']:.3f} | {ms['decode']} / {ms['detect']} / "
                     f"{ms['track']} / {ms['reconstruct']} / {ms['other']} | "
                     f"{s['hough_pipeline_fps']} | {ms['sort_track']} / {ms['norfair_track']} |")
    return lines


def events_table(g: dict) -> list[str]:
    lines = ["| event | true | ours: recall / precision / median ms | "
             "Hough + ours: recall / precision |", "|---|---|---|---|"]
    for kind in KINDS:
        o, h = g["events"]["ours"][kind], g["events"]["hough+ours"][kind]
        lines.append(f"| {kind} | {o['true']} | {_f(o['recall'])} / {_f(o['precision'])} / "
                     f"{_f(o['t_err_ms_median'], 1)} | {_f(h['recall'])} / "
                     f"{_f(h['precision'])} |")
    return lines


def report_markdown(report: dict) -> str:
    lines = ["# Vision benchmark", "", f"Command: `{report['command']}`  ",
             f"Machine: {report['machine']}  ",
             f"Wall time: {report['wall_s']:.0f} s ({report.get('clips_rendered', '?')} of "
             f"{report.get('clips', '?')} clips rendered in the run)", "",
             "Clips: simulated scenarios rendered by the simulator's `write_video` (exact "
             "physics, one random look per clip), decoded from mp4 like a recorded session. "
             "Identity and detection are scored per frame against the coins one should see "
             "(a coin more than half under a hand is left out), matched within a coin's radius "
             f"({report['radius_mm']} mm; HOTA's similarity is 1 − distance / radius). "
             "Speeds: frames per CPU second of a process pinned to "
             "one core (OpenCV on one thread), decoding included; decode-only is "
             "cv2.VideoCapture reading the same file.", ""]
    for group, g in report["groups"].items():
        p = g["position"]
        d = g["detection"]
        lines += [f"## {group}: {len(g['clips'])} clip(s)", "", ", ".join(g["clips"]), "",
                  "### Identity", "", *identity_table(g), "", *per_clip_table(g), "",
                  "### Events", "", *events_table(g), "",
                  "### Positions and detection", "",
                  f"Our coins: resting RMS {_f(p['rest_rms_mm'])} mm (median "
                  f"{_f(p['rest_median_mm'])}, p95 {_f(p['rest_p95_mm'])}), moving RMS "
                  f"{_f(p['moving_rms_mm'])} mm (median {_f(p['moving_median_mm'])}, p95 "
                  f"{_f(p['moving_p95_mm'])}), over {p['rest_samples']} resting and "
                  f"{p['moving_samples']} moving coin-frames (a coin under the wrong identity "
                  "counts at its distance).", "",
                  f"Reconstructed paths (each flick's slides fitted between impacts, what the "
                  f"rulings are made of) at each frame's time, on the same moving coin-frames: "
                  f"RMS {_f(p['path_rms_mm'])} mm (median {_f(p['path_median_mm'])}, p95 "
                  f"{_f(p['path_p95_mm'])}) over {p['path_samples']}; on the "
                  f"{p['unseen_path_samples']} moving coin-frames vision did not see (mostly "
                  f"a flick's first frames, the coin still in the finger's blob), median "
                  f"{_f(p['unseen_path_median_mm'])} mm; {p['pathless_samples']} moving "
                  "coin-frames fall outside every reconstructed flick.", "",
                  "Farthest paths (what the p95 is made of; clip, coin, frame: path mm, "
                  "that frame's detection mm): " + "; ".join(
                      f"{w['clip']} {w['coin']} {w['frame']}: {_f(w['path_mm'], 2)}, "
                      f"{_f(w['detected_mm'], 2)}" for w in g["worst_paths"]) + ".", "",
                  f"Detection recall / precision: ours {_f(d['ours']['recall'])} / "
                  f"{_f(d['ours']['precision'])}; HoughCircles {_f(d['hough']['recall'])} / "
                  f"{_f(d['hough']['precision'])}.", "",
                  "### Speed (one core)", "", *speed_table(g), "",
                  f"![fps](fps.png) ![errors](errors-{group}.png) "
                  f"![trajectories](trajectories-{group}.png)", ""]
    return "\n".join(lines) + "\n"


def readme_block(report: dict) -> str:
    """The rows the README shows: ours against each peer, per group, and speed."""
    lines = [START, "",
             f"Generated by `{report['command']}` ({report['wall_s'] / 60:.0f} min, "
             f"{report.get('clips_rendered', '?')} of {report.get('clips', '?')} clips "
             "rendered in the run, the rest from its cache) on "
             f"{report['machine']}. Full report with plots: `benchmarks/report/report.md`.", "",
             "| clips | tracker | IDF1 | HOTA | MOTA | ID switches |", "|---|---|---|---|---|---|"]
    for group, g in report["groups"].items():
        for name, m in g["identity"].items():
            lines.append(f"| {group} × {len(g['clips'])} | {NAMES[name]} | {_f(m['idf1'], 4)} | "
                         f"{_f(m['hota'])} | {_f(m['mota'])} | {_n(m['num_switches'])} |")
    lines += ["", "| clips | flicks R / P | crossings R / P | contacts R / P | tower hits R / P | "
              "resting RMS mm | moving p95 mm: detections; paths | "
              "detection R / P (ours; Hough) | fps: decode-only → ours |",
              "|---|---|---|---|---|---|---|---|---|"]
    for group, g in report["groups"].items():
        e, p, d = g["events"]["ours"], g["position"], g["detection"]
        fps = list(g["speed"].values())
        dec = sum(s["decode_only_fps"] for s in fps) / len(fps)
        ours = sum(s["pipeline_fps"] for s in fps) / len(fps)
        lines.append(
            f"| {group} × {len(g['clips'])} | {_f(e['flick']['recall'], 2)} / "
            f"{_f(e['flick']['precision'], 2)} | {_f(e['cross']['recall'], 2)} / "
            f"{_f(e['cross']['precision'], 2)} | {_f(e['contact']['recall'], 2)} / "
            f"{_f(e['contact']['precision'], 2)} | {_f(e['hit']['recall'], 2)} / "
            f"{_f(e['hit']['precision'], 2)} | {_f(p['rest_rms_mm'], 2)} | "
            f"{_f(p['moving_p95_mm'], 1)}; {_f(p['path_p95_mm'], 1)} | "
            f"{_f(d['ours']['recall'], 3)} / "
            f"{_f(d['ours']['precision'], 3)}; {_f(d['hough']['recall'], 3)} / "
            f"{_f(d['hough']['precision'], 3)} | {dec:.0f} → {ours:.1f} "
            f"({100 * ours / dec:.1f} %) |")
    lines += ["", *comparison(report)]
    return "\n".join([*lines, "", END])


def comparison(report: dict) -> list[str]:
    """One generated sentence per group: ours against each peer, with signed differences."""
    out = []
    for group, g in report["groups"].items():
        mine = g["identity"]["ours"]
        parts = []
        for name in ("sort", "norfair", "hough+ours"):
            m = g["identity"][name]
            parts.append(f"{NAMES[name]} {m['idf1']:.3f} ({mine['idf1'] - m['idf1']:+.3f}, "
                         f"{_n(m['num_switches'])} switches)")
        out.append(f"- {group}: our IDF1 {mine['idf1']:.3f} ({_n(mine['num_switches'])} "
                   f"switches) against " + "; ".join(parts) + " — a positive difference is "
                   "ours ahead.")
    return out


def update_readme(readme: Path, block: str) -> bool:
    """Replace the block between the markers (or add it at the end of "## Figures")."""
    text = readme.read_text()
    if START in text and END in text:
        head, rest = text.split(START, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        marker = "\n## Where it stands"
        if marker not in text:
            return False
        text = text.replace(marker, "\n" + block + "\n" + marker, 1)
    readme.write_text(text)
    return True
