"""Finding the table's corners in an image: automatically, from ArUco markers, or given by hand.

Why: the table's four corners fix the homography.  Automatic detection takes the largest
convex quadrilateral that stands out from the floor (colour segmentation + approxPolyDP), then
refines each side to sub-pixel: intensity profiles across the side give edge points, a robust
line fit (cv2.fitLine) runs through them, and neighbouring lines meet at the corners.  Corners
come in CONTRACT.md's order: south-west, south-east, north-east, north-west, with the image's
bottom taken as south (player 1's side) when the camera gives no other clue.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.intrinsics import Intrinsics


class TableNotFound(ValueError):
    """No table-like quadrilateral (or not all corner markers) could be found."""


# ------------------------------------------------------------------------------- manual


def parse_corners(text: str) -> np.ndarray:
    """`"x,y x,y x,y x,y"` (SW, SE, NE, NW) → 4x2 pixels; ValueError says what is wrong."""
    parts = text.replace(";", " ").split()
    if len(parts) != 4:
        raise ValueError(f"--corners needs 4 points 'x,y' separated by spaces (SW SE NE NW), "
                         f"got {len(parts)}: {text!r}")
    points = []
    for i, part in enumerate(parts):
        xy = part.split(",")
        try:
            if len(xy) != 2:
                raise ValueError
            x, y = float(xy[0]), float(xy[1])
        except ValueError:
            raise ValueError(f"--corners point {i + 1} must be 'x,y' in pixels, "
                             f"got {part!r}") from None
        if not (np.isfinite(x) and np.isfinite(y)):
            raise ValueError(f"--corners point {i + 1} is not finite: {part!r}")
        points.append((x, y))
    corners = np.array(points)
    problems = check_quad(corners)
    if problems:
        raise ValueError("--corners: " + "; ".join(problems))
    return corners


def check_quad(corners_px: np.ndarray) -> list[str]:
    """Problems of a SW, SE, NE, NW corner quadrilateral in pixels (convexity, order, size)."""
    c = np.asarray(corners_px, np.float64).reshape(-1, 2)
    edges = np.roll(c, -1, axis=0) - c
    nxt = np.roll(edges, -1, axis=0)
    crosses = edges[:, 0] * nxt[:, 1] - edges[:, 1] * nxt[:, 0]
    if not (all(x > 0 for x in crosses) or all(x < 0 for x in crosses)):
        return ["the corners do not make a convex quadrilateral in the order SW, SE, NE, NW"]
    # Seen from above with rows down, SW → SE → NE → NW runs counter-clockwise on screen,
    # which is a negative signed area in image coordinates.
    area = cv2.contourArea(c.astype(np.float32), oriented=True)
    if abs(area) < 100:
        return [f"the corners enclose only {abs(area):.0f} px²"]
    if area > 0:
        return ["the corners run clockwise on screen: give them as SW, SE, NE, NW "
                "(table seen from above)"]
    return []


# ------------------------------------------------------------------------------- ArUco


@dataclass(frozen=True)
class CornerMarkers:
    """ArUco markers printed north-up in the table's corners, ids for SW, SE, NE, NW."""

    marker_mm: float = 60.0
    inset_mm: float = 10.0  # from both edges of the table to the marker's black square
    dictionary: str = "DICT_4X4_50"
    ids: tuple[int, int, int, int] = (0, 1, 2, 3)


def aruco_marker_corners_mm(table_mm: tuple[float, float], marker_mm: float,
                            inset_mm: float = 0.0) -> list[np.ndarray]:
    """Each corner marker's corners (ArUco order TL, TR, BR, BL; north up) in table mm."""
    w, h = table_mm
    out = []
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        x_out, y_out = sx * (w / 2 - inset_mm), sy * (h / 2 - inset_mm)
        x_in, y_in = x_out - sx * marker_mm, y_out - sy * marker_mm
        x0, x1 = sorted((x_out, x_in))
        y0, y1 = sorted((y_out, y_in))
        out.append(np.array([[x0, y1], [x1, y1], [x1, y0], [x0, y0]], np.float32))
    return out


def detect_corner_markers(image: np.ndarray, table_mm: tuple[float, float],
                          markers: CornerMarkers = CornerMarkers()
                          ) -> tuple[np.ndarray, np.ndarray]:
    """All corner-marker corners found: (pixels Mx2, table mm Mx2), M = 16 when all are seen."""
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, markers.dictionary))
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(d, params)
    corners, ids, _ = detector.detectMarkers(_gray(image))
    found = {} if ids is None else {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners,
                                                                            strict=True)}
    layout = aruco_marker_corners_mm(table_mm, markers.marker_mm, markers.inset_mm)
    missing = [f"{name} (id {i})" for name, i in zip(("SW", "SE", "NE", "NW"), markers.ids,
                                                     strict=True) if i not in found]
    if missing:
        raise TableNotFound(f"corner marker(s) not found: {', '.join(missing)}")
    px = np.concatenate([found[i] for i in markers.ids])
    mm = np.concatenate(layout)
    return px.astype(np.float64), mm.astype(np.float64)


# ----------------------------------------------------------------------------- automatic


def _gray(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _channels(image: np.ndarray) -> list[np.ndarray]:
    """Grey, and the Lab colour axes: the table differs from the floor in at least one."""
    if image.ndim == 2:
        return [image]
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    return [lab[..., 0], lab[..., 1], lab[..., 2], hsv[..., 1]]


def _quad_candidates(channel: np.ndarray, valid: np.ndarray | None = None
                     ) -> list[tuple[float, np.ndarray]]:
    """(score, 4x2 quad) from Otsu segmentation of one channel, both polarities.

    `valid`: where the image holds picture (an undistorted image has empty margins); quads
    with a corner outside it, or at the image's border, are not candidates.
    """
    h, w = channel.shape
    if valid is None:
        valid = np.zeros((h, w), np.uint8)
        valid[3:-3, 3:-3] = 255
    blur = cv2.GaussianBlur(channel, (0, 0), 2.0)
    inside = blur[valid > 0].reshape(-1, 1)
    level, _ = cv2.threshold(inside, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = np.where((blur > level) & (valid > 0), 255, 0).astype(np.uint8)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    out = []
    inner = cv2.erode(valid, np.ones((7, 7), np.uint8))  # corners must lie well inside
    for m in (mask, np.where(valid > 0, 255 - mask, 0).astype(np.uint8)):
        m = cv2.morphologyEx(m, cv2.MORPH_OPEN, kernel)
        contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for contour in sorted(contours, key=cv2.contourArea, reverse=True)[:3]:
            area = cv2.contourArea(contour)
            if area < 0.05 * w * h:
                continue
            hull = cv2.convexHull(contour)
            quad = None
            for eps in (0.01, 0.02, 0.03, 0.05):
                approx = cv2.approxPolyDP(hull, eps * cv2.arcLength(hull, True), True)
                if len(approx) == 4:
                    quad = approx.reshape(4, 2).astype(np.float64)
                    break
            if quad is None:
                continue
            ij = np.round(quad).astype(int)
            if np.any((ij < 0) | (ij >= [w, h])) or not inner[ij[:, 1], ij[:, 0]].all():
                continue  # a corner at the picture's border cannot be measured
            fill = area / max(cv2.contourArea(quad.astype(np.float32)), 1.0)
            score = fill * np.sqrt(area / (w * h))
            out.append((float(score), quad))
    return out


def order_corners(quad_px: np.ndarray) -> np.ndarray:
    """Any 4 corners → SW, SE, NE, NW taking the image's bottom as south."""
    q = np.asarray(quad_px, np.float64).reshape(4, 2)
    center = q.mean(axis=0)
    angles = np.arctan2(-(q[:, 1] - center[1]), q[:, 0] - center[0])  # y up
    q = q[np.argsort(angles)]  # counter-clockwise seen from above, starting near west
    # SW has the largest x-(-y) ... choose the corner with the largest row + smallest column.
    start = int(np.argmax(q[:, 1] - q[:, 0]))
    return np.roll(q, -start, axis=0)


COARSE_SAMPLES = 60
"""Profiles across each table side in a coarse pass, and wherever the sides may bow."""
EDGE_SAMPLES = 240
"""Profiles across each table side in the final pass where the sides are straight (through a
calibrated lens): a dark rim on a floor of its lightness gives edge points 0.8 px apart (look
28), and a line through 60 of them tilted the corners by up to 0.8 px and shifted every tile
1 mm; four times as many halve the line's error.  Where the sides may bow (no lens, or one
guessed from the layout) the robust line follows part of each side, and which part moves
with the sampling: `COARSE_SAMPLES` are kept (sampled densely, the demo game's table, under
a guessed lens, lost its rim on the south side, 9 px)."""


def _edge_points(channel: np.ndarray, p0: np.ndarray, p1: np.ndarray, band_px: float,
                 count: int = COARSE_SAMPLES) -> np.ndarray:
    """Sub-pixel points of the strongest step across the segment p0-p1 (profiles on normals)."""
    direction = (p1 - p0) / np.linalg.norm(p1 - p0)
    normal = np.array([-direction[1], direction[0]])
    ts = np.linspace(0.08, 0.92, count)
    offsets = np.arange(-band_px, band_px + 1e-9, 0.5)
    base = p0 + np.outer(ts, p1 - p0)  # count x 2
    samples = base[:, None, :] + offsets[None, :, None] * normal  # count x K x 2
    profile = cv2.remap(channel, samples[..., 0].astype(np.float32),
                        samples[..., 1].astype(np.float32), cv2.INTER_LINEAR)
    grad = np.abs(np.gradient(profile.astype(np.float64), axis=1))
    k = np.clip(np.argmax(grad[:, 1:-1], axis=1) + 1, 1, len(offsets) - 2)
    rows = np.arange(len(ts))
    g0, g1, g2 = grad[rows, k - 1], grad[rows, k], grad[rows, k + 1]
    denom = g0 - 2 * g1 + g2
    shift = np.where(np.abs(denom) > 1e-9, 0.5 * (g0 - g2) / np.where(denom == 0, 1, denom), 0)
    step = offsets[k] + np.clip(shift, -1, 1) * 0.5
    strong = g1 > 0.3 * np.median(g1)
    return (base + step[:, None] * normal)[strong]


def robust_line(points: np.ndarray, inlier_px: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """(point, unit direction) of the line most points agree on, refitted on them.

    RANSAC first (fixed seed: the same image gives the same corners): where two parallel edges
    compete (a rim's inner and outer edge), the line follows one of them, not a slant between.
    """
    pts = points.astype(np.float64)
    if len(pts) >= 6:
        rng = np.random.default_rng(0)
        pairs = rng.integers(0, len(pts), size=(200, 2))
        pairs = pairs[pairs[:, 0] != pairs[:, 1]]
        a, b = pts[pairs[:, 0]], pts[pairs[:, 1]]
        d = b - a
        n = np.c_[-d[:, 1], d[:, 0]] / np.linalg.norm(d, axis=1, keepdims=True)
        dist = np.abs(np.einsum("kj,ij->ki", n, pts) - np.einsum("kj,kj->k", n, a)[:, None])
        best = int(np.argmax((dist < inlier_px).sum(axis=1)))
        keep = dist[best] < inlier_px
        if keep.sum() >= max(6, 0.3 * len(pts)):
            pts = pts[keep]
    vx, vy, x0, y0 = cv2.fitLine(pts.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)


def _intersect(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    (p, d), (q, e) = a, b
    t = np.linalg.solve(np.c_[d, -e], q - p)
    return p + t[0] * d


def refine_quad(image: np.ndarray, corners_px: np.ndarray, band_px: float = 6.0,
                count: int = COARSE_SAMPLES) -> np.ndarray:
    """Sub-pixel table corners: each side's edge points fitted by a line, lines intersected.

    Each side is searched in the colour direction that separates its two sides best (the Lab
    difference of cloth and floor along it), lightly smoothed against noise.  The sides must
    be straight: pass an undistorted image when the lens bends them.
    """
    lines = []
    for i, (_p0, _p1, pts) in enumerate(_side_edges(image, corners_px, band_px, count)):
        if len(pts) < 8:
            raise TableNotFound(f"table side {i + 1} has no clear edge")
        lines.append(robust_line(pts))
    return np.array([_intersect(lines[i - 1], lines[i]) for i in range(4)])


def side_bow_px(image: np.ndarray, corners_px: np.ndarray, band_px: float = 14.0) -> float:
    """How far the table's sides bow from straight lines (px, the mean over the sides of a
    quadratic's sagitta through each side's edge points): a lens that bends straight lines
    shows here (k1 -0.27 at 720p: about 8 px; a straight lens, a fraction of one)."""
    bows = []
    for p0, p1, pts in _side_edges(image, corners_px, band_px):
        if len(pts) < 8:
            continue
        length = float(np.linalg.norm(p1 - p0))
        along = (p1 - p0) / length
        s = (pts - p0) @ along / length - 0.5  # -0.5 .. 0.5 along the side
        d = (pts - p0) @ np.array([-along[1], along[0]])
        a = np.polyfit(s, d, 2)[0]
        bows.append(abs(a) * 0.25)  # the quadratic's rise from its ends to its middle
    return float(np.mean(bows)) if bows else 0.0


def _side_edges(image: np.ndarray, corners_px: np.ndarray, band_px: float,
                count: int = COARSE_SAMPLES) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Each side's ends and its edge points within `band_px` of it, found in the colour
    direction that separates its two sides best, in the Lab image lightly smoothed."""
    corners = np.asarray(corners_px, np.float64).reshape(4, 2)
    lab = (cv2.cvtColor(image, cv2.COLOR_BGR2LAB) if image.ndim == 3 else image[..., None])
    lab = cv2.GaussianBlur(lab.astype(np.float32), (0, 0), 1.2).reshape(*image.shape[:2], -1)
    out = []
    for i in range(4):
        p0, p1 = corners[i], corners[(i + 1) % 4]
        channel = np.ascontiguousarray(lab @ _contrast_direction(lab, p0, p1), dtype=np.float32)
        out.append((p0, p1, _edge_points(channel, p0, p1, band_px, count)))
    return out


def _contrast_direction(lab: np.ndarray, p0: np.ndarray, p1: np.ndarray) -> np.ndarray:
    """Unit colour vector along which the two sides of p0-p1 differ most (their median colours)."""
    d = (p1 - p0) / np.linalg.norm(p1 - p0)
    n = np.array([-d[1], d[0]])
    base = p0 + np.outer(np.linspace(0.1, 0.9, 60), p1 - p0)
    sides = []
    for offset in (6.0, -6.0):
        pts = (base + offset * n).astype(np.float32)
        values = cv2.remap(lab, pts[:, 0:1], pts[:, 1:2], cv2.INTER_LINEAR)
        sides.append(np.median(values.reshape(len(base), -1), axis=0))
    diff = sides[0] - sides[1]
    norm = float(np.linalg.norm(diff))
    if norm < 1e-6:
        raise TableNotFound("a table side shows no contrast with the floor")
    return (diff / norm).astype(np.float32)


def detect_table(image: np.ndarray, intrinsics: Intrinsics | None = None) -> np.ndarray:
    """The table's corners SW, SE, NE, NW in pixels (4x2), found and refined automatically.

    With intrinsics the search runs on the undistorted image, where the sides are straight,
    and the corners are distorted back into the camera's pixels.
    """
    work = intrinsics.undistort_image(image) if intrinsics is not None else image
    valid = np.full(image.shape[:2], 255, np.uint8)
    if intrinsics is not None:
        valid = intrinsics.undistort_image(valid)
    valid = np.where(valid > 250, 255, 0).astype(np.uint8)
    valid[:1], valid[-1:], valid[:, :1], valid[:, -1:] = 0, 0, 0, 0  # the frame's own border
    valid = cv2.erode(valid, np.ones((9, 9), np.uint8))
    candidates: list[tuple[float, np.ndarray]] = []
    for channel in _channels(work):
        candidates.extend(_quad_candidates(channel, valid))
    if not candidates:
        raise TableNotFound("no large convex quadrilateral stands out from the background")
    _score, quad = max(candidates, key=lambda c: c[0])
    corners = order_corners(quad)
    # A coarse quad first, then a narrow band around the refined one (`EDGE_SAMPLES`).
    straight = intrinsics is not None and not intrinsics.guessed
    corners = refine_quad(work, refine_quad(work, corners, 8.0), 3.0,
                          EDGE_SAMPLES if straight else COARSE_SAMPLES)
    problems = check_quad(corners)
    if problems:
        raise TableNotFound("the table found is not a proper quadrilateral: " + problems[0])
    return intrinsics.distort_points(corners) if intrinsics is not None else corners


Line = tuple[np.ndarray, np.ndarray]
"""A line as (a point on it, its unit direction), in pixels."""


def side_lines(corners_px: np.ndarray) -> list[Line]:
    """The quad's four sides as lines: SW-SE (south), SE-NE (east), NE-NW (north), NW-SW."""
    c = np.asarray(corners_px, np.float64).reshape(4, 2)
    return [(c[i], (c[(i + 1) % 4] - c[i]) / np.linalg.norm(c[(i + 1) % 4] - c[i]))
            for i in range(4)]


def quad_from_lines(lines: list[Line]) -> np.ndarray:
    """Corners SW, SE, NE, NW where consecutive side lines (as `side_lines` orders them) meet."""
    return np.array([_intersect(lines[i - 1], lines[i]) for i in range(4)])


def outer_edge_lines(image: np.ndarray, corners_px: np.ndarray, max_fraction: float = 0.06,
                     min_px: float = 3.0) -> list[Line | None]:
    """For each side, a second parallel edge just outside it (a table's rim), or None.

    The cloth's edge is often the strongest step, with the table's true edge a rim's width
    further out.  Along each side's outward normals the strongest colour step beyond `min_px`
    and within `max_fraction` of the side's length is fitted by a line.  The caller decides
    which edges are the table's (e.g. by the tiles' spacing).
    """
    corners = np.asarray(corners_px, np.float64).reshape(4, 2)
    lab = (cv2.cvtColor(image, cv2.COLOR_BGR2LAB) if image.ndim == 3 else image[..., None])
    lab = cv2.GaussianBlur(lab.astype(np.float32), (0, 0), 1.2).reshape(*image.shape[:2], -1)
    centre = corners.mean(axis=0)
    lines: list[Line | None] = []
    for i in range(4):
        p0, p1 = corners[i], corners[(i + 1) % 4]
        d = (p1 - p0) / np.linalg.norm(p1 - p0)
        n = np.array([-d[1], d[0]])
        if np.dot(n, (p0 + p1) / 2 - centre) < 0:
            n = -n
        reach = max_fraction * float(np.linalg.norm(p1 - p0))
        offsets = np.arange(min_px, reach, 0.5)
        if len(offsets) < 4:
            lines.append(None)
            continue
        base = p0 + np.outer(np.linspace(0.1, 0.9, 60), p1 - p0)
        pts = (base[:, None, :] + offsets[None, :, None] * n).astype(np.float32)
        prof = cv2.remap(lab, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE).reshape(len(base), len(offsets), -1)
        grad = np.linalg.norm(np.gradient(prof, axis=1), axis=2)
        k = np.clip(np.argmax(grad[:, 1:-1], axis=1) + 1, 1, len(offsets) - 2)
        rows = np.arange(len(base))
        g0, g1, g2 = grad[rows, k - 1], grad[rows, k], grad[rows, k + 1]
        denom = np.where(np.abs(g0 - 2 * g1 + g2) > 1e-9, g0 - 2 * g1 + g2, 1.0)
        step = offsets[k] + np.clip(0.5 * (g0 - g2) / denom, -1, 1) * 0.5
        strong = g1 > max(1.0, 0.5 * float(np.median(g1)))
        if strong.sum() < 20 or np.std(step[strong]) > 2.0:
            lines.append(None)  # no consistent second edge along this side
            continue
        points = base[strong] + step[strong, None] * n
        sides = side_lines(corners)
        lines.append(_line_through_vanishing_point(points, sides[i], sides[(i + 2) % 4])
                     or robust_line(points))
    return lines


def _homogeneous(line: Line) -> np.ndarray:
    (x, y), (dx, dy) = line
    return np.array([dy, -dx, dx * y - dy * x])  # a x + b y + c = 0, (a, b) a unit normal


def _line_through_vanishing_point(points: np.ndarray, side: Line, opposite: Line,
                                  inlier_px: float = 1.0) -> Line | None:
    """The line through `points` that meets `side` where `opposite` does.

    A rim's outer edge is parallel on the table to the cloth's edge, so in an undistorted image
    both run to the vanishing point of that side and its opposite side: the pencil of lines
    through it, `side + t · opposite`, leaves one unknown, fitted robustly (the median of
    each point's own t, then the mean over the points within `inlier_px`).  None when the
    fit fails (the caller then fits the points freely).
    """
    a, b = _homogeneous(side), _homogeneous(opposite)
    q = np.column_stack([points, np.ones(len(points))])
    qa, qb = q @ a, q @ b
    ok = np.abs(qb) > 1e-9
    if ok.sum() < 6:
        return None
    t = -qa[ok] / qb[ok]
    estimate = float(np.median(t))
    for _ in range(2):
        line = a + estimate * b
        dist = np.abs(q[ok] @ line) / max(float(np.hypot(line[0], line[1])), 1e-12)
        keep = dist < inlier_px
        if keep.sum() < 6:
            return None
        estimate = float(np.mean(t[keep]))
    line = a + estimate * b
    norm = float(np.hypot(line[0], line[1]))
    if norm < 1e-12:
        return None
    normal = line[:2] / norm
    point = -line[2] / norm * normal
    return point, np.array([-normal[1], normal[0]])
