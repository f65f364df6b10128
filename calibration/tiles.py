"""Finding tiles on the rectified (top-down, north-up) table image, in table millimetres.

Why: the referee's lines and towers are where the tiles *are*, not where the template says.
Tiles stand out from the cloth by colour; each tile-sized blob's four sides are refined to
sub-pixel with the same edge-and-line fit as the table's sides, which gives its centre and
angle.  A tile showing a face (a tower's Ace) is told from a tile back by the colour of the ink
at its centre: a suit colour, or the back's grid colour.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from scipy.optimize import linear_sum_assignment

from calibration.pack import SUIT_BGR, ink_costs
from calibration.plane import rectified_to_mm
from calibration.table_detect import quad_from_lines, robust_line

BACK = "back"
"""The ink class of a face-down tile (its grid lines)."""
INK_FLOOR = 12.0
"""The faintest ink (weighted Lab distance from the paper) a tile's face may carry."""
GRID_MM = 5.0
"""The widest gap bridged inside a tile: a back's grid line (1–3 mm) as dark as the cloth,
widened by blur.  Pieces stand further apart (coins on their start spots: 9.5 mm)."""


@dataclass(frozen=True)
class DetectedTile:
    """A tile-sized square found on the table (its top face, seen from above)."""

    center_mm: tuple[float, float]
    angle_deg: float  # in [-45, 45): the square's turn, counter-clockwise seen from above
    size_mm: float
    ink: str | None = None  # a suit name, BACK, or None when unclear
    ink_lab: tuple[float, float, float] | None = None  # the ink's colour (white-balanced Lab)
    corners_mm: tuple[tuple[float, float], ...] = ()  # the measured corners, when known


@dataclass(frozen=True)
class Blob:
    """Something on the cloth that is not a tile (too big, too small, or not square)."""

    center_mm: tuple[float, float]
    area_mm2: float


def _lab(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)


def classify_ink(lab_top: np.ndarray, corners_rect: np.ndarray,
                 colours: Mapping[str, tuple[int, int, int]] | None = None
                 ) -> tuple[str | None, tuple[float, float, float] | None]:
    """What a tile's top shows: BACK (its grid), a suit (the ink colour nearest `colours`), or
    None when no ink is seen; and the ink's white-balanced Lab colour when there is ink.

    A back is told by its structure, not its colour: the grid's two lines run across the tile
    through its centre.  `lab_top` is the rectified image in Lab (float32), `corners_rect` the
    tile's corners in it.
    """
    centre = corners_rect.mean(axis=0)
    inner = (corners_rect - centre) * 0.6 + centre
    x0, y0 = np.maximum(np.floor(inner.min(axis=0)).astype(int), 0)
    x1, y1 = np.ceil(inner.max(axis=0)).astype(int) + 1
    crop = lab_top[y0:y1, x0:x1]
    mask = np.zeros(crop.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(inner - [x0, y0]).astype(np.int32), 255)
    lab = crop[mask > 0]
    if len(lab) < 20:
        return None, None
    paper = np.percentile(lab[:, 0], 90)
    paper_lab = np.median(lab[lab[:, 0] >= paper - 5], axis=0)
    weight = np.array([0.7, 1.0, 1.0], np.float32)
    away = np.linalg.norm((lab - paper_lab) * weight, axis=1)
    # Ink is what stands clearly off the paper: 25 units, or for a pale ink (light blue on
    # white, thin blurred strokes) half its strongest, but never the paper's own noise.
    ink = lab[away > min(25.0, max(INK_FLOOR, 0.5 * float(np.percentile(away, 99.5))))]
    if len(ink) < 0.02 * len(lab):
        return None, None
    mids = (corners_rect + np.roll(corners_rect, -1, axis=0)) / 2
    on_grid = []
    for p, q in ((mids[0], mids[2]), (mids[1], mids[3])):
        ts = np.linspace(0.08, 0.92, 60)[:, None]
        line = p + ts * (q - p)
        normal = np.array([-(q - p)[1], (q - p)[0]]) / np.linalg.norm(q - p)
        best = np.zeros(len(line))
        for shift in (-1.0, 0.0, 1.0):
            pts = (line + shift * normal).astype(np.float32)
            values = cv2.remap(lab_top, pts[:, 0:1], pts[:, 1:2], cv2.INTER_LINEAR).reshape(-1, 3)
            best = np.maximum(best, np.linalg.norm((values - paper_lab) * weight, axis=1))
        on_grid.append(float(np.mean(best > 25)))
    if min(on_grid) > 0.8:
        return BACK, None
    # The strongest ink (blur mixes thin strokes with paper), white-balanced against the
    # paper: the references are inks on white paper.
    strength = np.linalg.norm((ink - paper_lab) * weight, axis=1)
    ink = ink[strength >= np.percentile(strength, 60)]
    balanced = ink.astype(np.float64).copy()
    balanced[:, 0] *= 255.0 / max(float(paper_lab[0]), 1.0)
    balanced[:, 1:] -= paper_lab[1:] - 128.0
    colour = np.median(balanced, axis=0)
    costs = ink_costs(colour, colours or SUIT_BGR)
    suit = min(costs, key=costs.__getitem__)
    return suit, (float(colour[0]), float(colour[1]), float(colour[2]))


def assign_suits(inks_lab: Sequence[tuple[float, float, float]],
                 colours: Mapping[str, tuple[int, int, int]] | None = None,
                 ambiguity: float = 1.5) -> list[str]:
    """Suits for several faces that should all differ (a pack has one Ace of each suit): the
    assignment (Hungarian) nearest the reference colours overall, where the colours allow."""
    names = list(colours or SUIT_BGR)
    cost = np.array([[ink_costs(np.array(c), colours or SUIT_BGR)[n] for n in names]
                     for c in inks_lab])
    nearest = cost.argmin(axis=1)
    rows, cols = linear_sum_assignment(cost)
    out = [names[k] for k in nearest]
    for r, c in zip(rows, cols, strict=True):
        # Take the distinct suit only when the colour fits it nearly as well: two faces of
        # one clear suit (a tile from another pack) stay as they are, and are reported.
        if cost[r, c] <= ambiguity * cost[r, nearest[r]] + 5.0:
            out[r] = names[c]
    return out


def detect_tiles(top: np.ndarray, affine: np.ndarray, tile_mm: float,
                 colours: Mapping[str, tuple[int, int, int]] | None = None,
                 threshold: float = 22.0, ignore_mm: Sequence[np.ndarray] = ()
                 ) -> tuple[list[DetectedTile], list[Blob]]:
    """Tiles (and other blobs) on a rectified table image; `affine` maps mm → its pixels.

    `ignore_mm`: polygons (table mm) to leave out, e.g. the corner markers.
    """
    s = float(affine[0, 0])
    lab_top = _lab(top)
    lab = cv2.GaussianBlur(lab_top, (0, 0), 0.7 * s)
    margin = max(2, round(3 * s))
    cloth = np.median(lab[margin:-margin:3, margin:-margin:3].reshape(-1, 3), axis=0)
    diff = (lab - cloth.astype(np.float32)) * np.float32([0.6, 1, 1])
    distance2 = np.einsum("ijk,ijk->ij", diff, diff)
    mask = np.where(distance2 > threshold ** 2, 255, 0).astype(np.uint8)
    mask[:margin], mask[-margin:], mask[:, :margin], mask[:, -margin:] = 0, 0, 0, 0
    for polygon in ignore_mm:
        pts = np.asarray(polygon, np.float64).reshape(-1, 2) @ affine[:2, :2].T + affine[:2, 2]
        cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 0)
    # Close across a tile back's grid lines (up to GRID_MM wide), which may be as dark as the
    # cloth and would cut a tile into quarters; then open away specks and thin rings.
    k = max(3, round(2 * s) | 1)
    bridge = max(k, round(GRID_MM * s) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (bridge, bridge)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    # A rim or band round the table's edge is not a tile: drop what touches the border.
    _count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = mask.shape
    x, y, bw, bh = (stats[:, i] for i in range(4))
    edge = (x <= margin) | (y <= margin) | (x + bw >= w - margin) | (y + bh >= h - margin)
    edge[0] = True  # the background label
    mask = np.where(edge[labels], 0, mask).astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    tile_area = (tile_mm * s) ** 2
    tiles: list[DetectedTile] = []
    blobs: list[Blob] = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < 0.04 * tile_area:
            continue  # specks; coins are ~11 % of a tile and reported as blobs
        rect = cv2.minAreaRect(contour)
        (w, h) = rect[1]
        squareness = min(w, h) / max(w, h, 1e-6)
        fill = area / max(w * h, 1e-6)
        centre_px = np.array(rect[0], np.float64)
        if not (0.6 * tile_area < area < 1.5 * tile_area and squareness > 0.85 and fill > 0.85):
            blobs.append(Blob(tuple(rectified_to_mm(centre_px[None], affine)[0]), area / s ** 2))
            continue
        box = cv2.boxPoints(rect).astype(np.float64)
        corners = _refine_tile(top, box, s)
        if np.linalg.norm(corners.mean(axis=0) - centre_px) > 0.1 * tile_mm * s:
            corners = box  # the refinement wandered off: keep the coarse square
        corners_mm = rectified_to_mm(corners, affine)
        centre_mm = corners_mm.mean(axis=0)
        edges = np.roll(corners_mm, -1, axis=0) - corners_mm
        angles = np.degrees(np.arctan2(edges[:, 1], edges[:, 0]))
        angle = float(np.degrees(np.angle(np.mean(np.exp(4j * np.radians(angles))))) / 4)
        size = float(np.mean(np.linalg.norm(edges, axis=1)))
        ink, ink_lab = classify_ink(lab_top, corners, colours)
        tiles.append(DetectedTile((float(centre_mm[0]), float(centre_mm[1])),
                                  (angle + 45.0) % 90.0 - 45.0, size, ink, ink_lab,
                                  tuple((float(x), float(y)) for x, y in corners_mm)))
    return tiles, blobs


def _refine_tile(top: np.ndarray, box_rect: np.ndarray, px_per_mm: float) -> np.ndarray:
    """Sub-pixel corners of one tile's top face, or the coarse box.

    The blob found may include a stack's visible side faces and its shadow; the top face is
    the bright paper, so along each side the *innermost* strong step away from the paper's
    colour is taken (searching 6 mm either side of the blob's edge), then a line is fitted
    through those points (RANSAC, as for the table) and the lines are intersected.
    """
    pad = round(8 * px_per_mm)
    x0, y0 = np.maximum(np.floor(box_rect.min(axis=0)).astype(int) - pad, 0)
    x1, y1 = np.ceil(box_rect.max(axis=0)).astype(int) + pad
    crop = top[y0:y1, x0:x1]
    offset = np.array([x0, y0], np.float64)
    box = box_rect - offset
    lab = cv2.GaussianBlur(_lab(crop), (0, 0), 0.6 * px_per_mm)
    centre = box.mean(axis=0)
    inner = (box - centre) * 0.7 + centre
    mask = np.zeros(crop.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(inner).astype(np.int32), 255)
    inside = lab[mask > 0]
    if len(inside) < 20:
        return box_rect
    paper = np.median(inside[inside[:, 0] >= np.percentile(inside[:, 0], 80)], axis=0)
    away = np.linalg.norm((lab - paper) * np.float32([1.0, 1.0, 1.0]), axis=2).astype(np.float32)
    lines = []
    for i in range(4):
        p0, p1 = box[i], box[(i + 1) % 4]
        d = (p1 - p0) / np.linalg.norm(p1 - p0)
        n = np.array([-d[1], d[0]])
        if np.dot(n, (p0 + p1) / 2 - centre) < 0:
            n = -n  # outward
        offsets = np.arange(-6 * px_per_mm, 6 * px_per_mm + 1e-9, 0.5)
        base = p0 + np.outer(np.linspace(0.15, 0.85, 40), p1 - p0)
        pts = (base[:, None, :] + offsets[None, :, None] * n).astype(np.float32)
        prof = cv2.remap(away, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)
        grad = np.gradient(prof, axis=1)  # rising away from the paper, outwards
        edge_pts = []
        for row in range(len(base)):
            g = grad[row]
            strong = np.flatnonzero((g[1:-1] >= g[:-2]) & (g[1:-1] >= g[2:])
                                    & (g[1:-1] > max(3.0, 0.4 * g.max()))) + 1
            if len(strong) == 0:
                continue
            k = int(strong[0])  # the innermost step away from the paper
            denom = g[k - 1] - 2 * g[k] + g[k + 1]
            shift = 0.5 * (g[k - 1] - g[k + 1]) / denom if abs(denom) > 1e-9 else 0.0
            edge_pts.append(base[row] + (offsets[k] + np.clip(shift, -1, 1) * 0.5) * n)
        if len(edge_pts) < 8:
            return box_rect
        lines.append(robust_line(np.array(edge_pts), inlier_px=0.75))
    try:
        corners = quad_from_lines(lines)
    except np.linalg.LinAlgError:
        return box_rect
    return corners + offset
