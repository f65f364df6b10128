"""Find coins in a camera frame: an empty-table model, colour distance, blobs, sub-pixel centres.

Why colour distance and not grey level: a green coin on green felt differs in hue, not in
brightness, so the foreground is the largest per-channel difference from the empty table.
The empty table is learned at the session start, where every coin rests in its start zone: the
coin discs are inpainted (OpenCV's Telea) and the model then adapts slowly where nothing is,
which follows auto-exposure and daylight; a global gain is removed first in each frame.

Blobs (OpenCV's connected components) are sorted by size and shape:
- a coin: about one coin's area; its centre is the difference-weighted centroid (sub-pixel);
- a streak: a coin blurred by motion; centre at mid-exposure = the centroid, and the streak's
  length beyond a diameter and its direction are a velocity cue;
- two or three touching coins: split by k-means on the blob's pixels (scipy, seeded);
- a hand or an arm: far bigger than a coin; it becomes the occluder mask, never a coin.
Centres go to table millimetres through the calibration (undistortion + homography) and are
corrected for the coin's height above the cloth (the camera sees the top face, displaced
away from the point under the lens).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from scipy.cluster.vq import kmeans2
from scipy.ndimage import median_filter

from referee.geometry import TILE_THICKNESS_MM, square_corners
from referee.layout import Layout
from referee.vision.changes import ChangeGate, channel_sum, colour_distance
from referee.vision.detections import Detections, near_any
from referee.vision.resting_views import GONE, SHOWN, RestingViews
from referee.vision.umbra import Umbra

COIN_HEIGHT_MM = 3.0
"""A coin's top face above the cloth (piecepack coins are 2–4 mm thick)."""
ADAPT_EVERY = 4
"""The empty-table model follows the light every this many frames (it changes slowly)."""
LIGHTEST_SHADOW = 0.97
"""A dimming this slight is still a shadow (the penumbra of an arm over white paper)."""
SHADOW_SPREAD = 0.05
"""A shadow dims every channel by one factor k: each channel of a pixel changed beyond the
threshold lies within this share of the empty table's value (and 6 levels of noise) of k
times it, if it is a shadow.  At 0.08 a brown hand on beige cloth (tower-hit, look 104:
channels dimmed to 0.47, 0.50 and 0.63) and a dark purple sleeve on brown cloth (off-table
at 720p60, look 113: 0.70, 0.51, 0.47) read as shadows: the hand's mask stopped at the
wrist, the sleeve broke into pieces and a resting coin took one 52 mm away.  Real shadows,
lit by an ambient light of another colour than the lamp's, are less neutral than the
simulator's: this is the first constant to revisit on real footage."""
SHADOW_TINT = 0.08
"""...and, averaged over a SHADOW_TINT_PX square, no channel of a shadow strays farther
than this share from k times the table's (a hand of the cloth's hue but another tint: look
230, a brown hand on brown cloth, strays 0.13 in blue and red; shadows 0.01)."""
PAPER_TINT = 0.03
"""...and a "shadow" on white paper whose channels stray on average farther than this share
from k times the paper's is a pale hand over it (a finger over tower 1 at look 255: 0.037).
Sleeves' cast shadows on tiles stray 0.004-0.034 (look 107), and pale fingers over a tile
0.015-0.028 at look 101: those are not told apart."""
SHADOW_TINT_PX = 16
"""The side of the blocks the tint is averaged over (a hand is many times wider)..."""
TINT_STRIDE = 4
"""...read on every this-many-th pixel of every this-many-th row (quick, and enough)."""
SHADOW_TINT_LEVELS = 2.0
"""...beyond this many levels (a shadow on dark cloth strays 2 levels in one channel)."""
LOOSE_SHADOW_SPREAD = 0.08
"""The spread allowed where a channel ratio says less: for a faint change (under the
threshold), mostly noise (at 0.05 a dark coin's faint streak on near-black cloth, its
dimmed pixels no longer zeroed, broke into two coins at a noisy waist); and where the
empty table is brighter than PAPER_LEVEL (its channels' mean), white paper near the top of
the camera's tone curve, which dims less evenly: a pale coin put on a tower's white top
dims it like a shadow and is found as one (at 0.05 the demo game's prisoner on tower 1
was lost while a hand put Ace down beside it, and the two coins exchanged names)."""
PAPER_LEVEL = 180.0
"""The empty table's channels' mean above which it is white paper (a tile's face)."""
SATURATED = 250
"""A channel this bright is taken as clipped by the camera (white paper under a lamp)."""
CREASE_PX = 2
"""A hand's faint change runs on across a crease this wide at full resolution, as it does
at half resolution, to a hand's own area of it (tower hit at look 422: a brown hand on
taupe cloth, a faint change, lost its palm past the wrist's crease in some frames; the
knuckles' creases, strong changes, were then taken for a coin it had lifted, flicked into
tower 1 and off the table).  Not to a coin's faint streak beside the hand: bridged, a cream
coin flicked from under the fingers stayed under the hand 0.26 s (gate run at look 380)."""
HAND_COLOUR_APART = 0.2
"""A coin-sized blob near a hand this far from the hands' mean colour (L2, each channel 0-1)
is a coin, not a fingertip."""
SKIN_NEAR = 0.16
"""A pixel this near the hands' mean colour (L2, each channel 0-1) is skin or sleeve
(fingertips read 0.03-0.14 from it, coins 0.22 and more)."""
GAIN_STEP = 0.004
"""The exposure gain in use is kept until the measured one moves this far from it (a channel
level at full scale); a new gain measures the whole image again."""
SKIN_AREAS = (1.15, 1.7)
"""A blob of this many coin areas, while a hand is in view, may be a coin with a fingertip
merged into it: the fingertip's pixels (of the hands' colour) are left out of it."""
WHOLE_WINDOW = 0.6
"""Blobs are found in the whole ROI when the window around what changed would cover this
share of it (one search is then cheaper than a window and a merge)."""
STREAK_ELONGATION = 1.3
"""A blob this much longer than wide is a streak (its length beyond a coin's, a speed cue)."""
COIN_ON_TILE_AREAS = (0.8, 1.25)
"""A blob beyond the larger of these coins' areas that reaches deep into a flat tile is one
coin beside the tile when what is left off it is within them (`_Patches._off_tile`)."""
OCCLUDED_SHARE = 0.9
"""A coin showing less than this share of its area, a hand or a shadow beside it, is placed
by its outline against the cloth (`_Patches._occluded_centre`)."""
OCCLUDED_EDGE_PX = 2.0
"""Outline pixels this near a hand or a shadow are its edge over the coin, not the coin's."""
OCCLUDED_OUTLINE = 0.25
"""The share of a coin's circumference the cloth must show to fit its circle."""
OCCLUDED_MOVED_PX = 1.0
"""A circle this near the centroid leaves it as measured: the blob is the coin's, or near
enough, and its weighted centroid is the finer (the fitted outline is whole pixels)."""
OCCLUDED_FIT_PX = 0.75
"""How far (px) the outline fitted may miss the coin's circle, and the blob stick out of it."""
OCCLUDED_HOLDS = 0.95
"""The circle fitted to a partly hidden coin's outline must hold this share of the change its
centroid's disc holds, faint rim included (`_Patches._change_within`): else the outline was
the coin's art's, its pale rim lost in the cloth, not its edge against what hides it (fast
flick at look 505: Suns, pale on beige cloth, 0.59 of it over the threshold in a B-frame, a
circle 1.9 px from its centroid held 0.90 of the change, 2.4 px off the truth against the
centroid's 0.5; where a hand, a shadow or a sleeve hid a coin the circle held 0.98-1.03)."""
FAINT_LEVEL = 8.0
"""A change this faint (levels) is the cloth's noise, not a coin's faint rim (the beige cloth
about Suns at look 505 reads 2-8)."""
COMPACT_STREAK_WIDTH = 1.25
"""A compact blob of two coins' area narrower than this many coin diameters (4σ across, as
`_split` measures a disc's diameter) is one coin streaked by its motion (1.08 measured), a
wider one a coin and a change beside it (1.88)."""
HALF = 2
"""The foreground, its blobs and the hands are found at 1/HALF of the resolution; coins are
measured at full resolution, each in its own box."""


class PixelMapping:
    """What detection needs of a calibration: pixels → table mm and back, and the lens centre."""

    def __init__(self, to_table_mm, to_pixels, camera_mm: np.ndarray | None = None,
                 tile_thickness_mm: float = TILE_THICKNESS_MM) -> None:
        self.to_table_mm = to_table_mm
        self.to_pixels = to_pixels
        self.camera_mm = None if camera_mm is None else np.asarray(camera_mm, float)
        self.tile_thickness_mm = tile_thickness_mm
        """A tile layer's height: a coin on a tower is seen that much higher per layer."""

    def ground_mm(self, points_px: np.ndarray, height_mm: float) -> np.ndarray:
        """Table position under points seen `height_mm` above the cloth (parallax removed)."""
        mm = self.to_table_mm(points_px)
        if self.camera_mm is None or height_mm == 0.0:
            return mm
        c = self.camera_mm
        # The ray from the lens through the seen point meets z = h at a fraction h/c_z closer
        # to the lens than the table plane: move back toward the point under the lens.
        return mm + (c[:2] - mm) * (height_mm / c[2])

    def seen_mm(self, points_mm: np.ndarray, height_mm: float) -> np.ndarray:
        """Where on the cloth points `height_mm` above it are seen (the ray from the lens
        through each meets the cloth farther out): `ground_mm`'s inverse."""
        mm = np.asarray(points_mm, float)
        if self.camera_mm is None or height_mm == 0.0:
            return mm
        c = self.camera_mm
        return c[:2] + (mm - c[:2]) * (c[2] / (c[2] - height_mm))


TILE_SHADE_MM = 4.0
"""How far from a tile its side and its own shadow darken the cloth: the coins' start holes
are filled from beyond it (`CoinDetector._cloth_by_tiles`)."""
FINGER_MM = 100.0
"""A finger's length: a vacated place is learnt as the empty table only with no hand this
near it (`CoinDetector.forget`)."""
VACATED_STILL_FRAMES = 3
"""...and only once the image there has held still this many frames."""
MARK_SHOWN = 0.1
"""A coin on a tower's top is looked for where this share of a coin's area or more changed
there, shadow-like or not (`CoinDetector._marks`): its art."""

DARK_STREAK_COINS = (0.3, 6.0)
"""The size (in coin areas) of a shadow-like change that may be a dark coin sliding: a
streak shows about a third of a coin's change where it is faintest."""
DARK_STREAK_CHANGE = 1.3
"""...and a change this many times the threshold on average: its middle is darker than
any cast shadow's fringe (1.5 lost a navy coin's whole slide over navy cloth, its streak
1.35-1.5 times: strike at look 267)."""
DARK_STREAK_ELONGATION = 1.3
"""...and a streak: this many times longer than wide (a round shadow is no sliding coin)."""
DARK_STREAK_WIDTH = 0.25
"""...and at least this share of a coin's diameter wide: a coin's streak is as wide as the
coin, and where only its darkest middle reads as shadow a third of it (a black coin on dark
felt, strike at look 107: 0.32); a tile's shaded side that flickered, 2.5 px wide beside Ace,
was taken for one (0.17: tower hit at look 112, 60 fps), and the closing joined it to Ace as
a 15 mm streak, 4.7 mm off."""
PALE_DISC_COINS = (0.75, 3.0)
"""...or a coin at rest on a tower's top that reads as a shadow: a little darker than the
tile it rests on, in the same hue (the demo game's white Moons on tower 2's white Ace,
10.6-15.3 s), one coin's size with the rim of its own shadow, or up to three coins' with
its whole soft-edged shadow on the tile where the light is low (captures at looks 126, 130
and 131, 1.57-1.67; 136, 2.03; 177, 2.89: the prisoners were never seen on their towers;
these areas are of the change's 2×2 maximum, which grows a small coin's most)..."""
PALE_DISC_ONE = 1.5
"""...and of a disc bigger than this (coin areas) only the coin's disc about its middle is
put back: with its shadow, a blob of two coins' area was split in two, 5 mm apart, and the
prisoner "flicked" between them (look 127).  (Cutting the demo game's smaller discs so
moved its Moons off its tower top, and its rulings went wrong.)"""
PALE_DISC_ELONGATION = 1.25
"""...and round."""
ON_TILE_MM = 3.0
"""A blob centred this far inside a flat tile is no coin (`CoinDetector._on_tiles`): under a
sleeve of the cloth's colour, a gate tile's four quarters read as four coins (strike at
720p60, look 111: 560 false detections in 5 s, and flicks invented from them)."""
FAINT_STREAK_LEVEL = 0.4
"""A coin sliding fast over cloth near its own colour changes each pixel it crosses only
for the part of the exposure it covers it: its streak reads this share of the threshold
or more, averaged over most of a coin's width (the dark red Suns on near-black cloth at
3 m/s read 15–35 against a threshold of 30, sensor noise 3–9; on dark green cloth, looks
122 and 134, 10–20, and a slide's four crossings were lost: with 0.4, and the average
over a wider box, look 122's are found; with 0.35 look 134's too, but a contact and a
flick were invented at looks 107 and 122)..."""
FAINT_STREAK_COINS = (1.5, 10.0)
"""...over this many coin areas (a coin's own and the length it slid)..."""
FAINT_STREAK_ELONGATION = 2.5
"""...as a bar this many times longer than wide, no wider than `STREAK_WIDTH` coins..."""
FAINT_STREAK_HAND_MM = 40.0
"""...and this far from every hand (a hand grows through faint change, its fringe too)."""
STREAK_WIDTH = 1.3
"""A blob as big as a hand but no wider than this many coin diameters is a coin's streak."""
SOLIDITY = 0.7
"""A coin's blob or streak fills at least this share of its convex hull."""
SHADOW_REACH_MM = 80.0
"""How far from a hand's outline in the image its shadow may fall on the cloth."""
ARM_SHADOW_REACH_MM = 200.0
"""...and how far an arm's, the arm higher up: a forearm 20 cm above the table under a
light 45 degrees high casts it 20 cm away.  A piece of it a coin wide, cut off by a tile,
reads as a dark coin's streak (gate run at look 353: 140 mm from the sleeve, and Ace
"flew" with it and struck a tower).  A round pale disc on a tower's top is no piece of a
long shadow: it keeps SHADOW_REACH_MM (capture at look 230: Moons, just put on tower 2,
was not seen there until the hand was 200 mm away, and was "flicked" as it was lifted)."""
STILL_THERE_LOOK = 0.06
"""A resting coin's disc reads this near its look while the coin is there (a coin at rest
reads within 0.02-0.04 of its session-start look; a quarter of it uncovered, or a finger
over it, moves the reading by 0.1 and more)."""
LIGHTEST_SHADE = 0.85
"""...compared with its look dimmed by up to this share of the light (an arm's shade)."""
HAND_COLOUR_RATIO = 3.0
"""...and this many times nearer its look than the hands' colour."""
DARK_COIN_SHOWN = 0.6
"""A coin darker than the cloth is looked for where less than this share of a coin's area
shows as changed, and found where its art and its shadow-like rim make at least as much."""
DARK_COIN_WHOLE = 1.8
"""...and its art and "shadow" together cover at most this many coin areas: with its own
soft shadow about it, a near-black coin on brown cloth made 1.46-1.48 (Moons at look 133,
lost for both its flicks while this was 1.3).  Beyond a coin's area, it is measured as one
coin at the middle of the whole (not split in two, as a blob of two coins' area is)."""
SEEN_MM = 1.0
"""A resting coin is seen at its place when a blob measured this frame is this near it."""
KNOCKED_MM = 10.0
"""The farthest a knocked tile is looked for from its place."""
PIECE_CHANGE_COINS = 1.5
"""A big change within the pieces' places (`KNOCKED_MM` around each) but for this many coin
areas (a coin or two resting against them) is a piece moved, not a hand (a tower knocked
5 mm by the coin that hit it changed some 9,000 pixels at 720p); unless as much of it lies
in a piece's middle, which a knock leaves as it was: that is something over the piece.  A
sleeve of the cloth's colour over a tower showed as the tower's whole top, split into four
"coins" that carried two coins' names off (look 139); over the flat tiles it left the arm
in pieces, whose fragments took a hidden coin's name (off-table at look 139)."""
OUTLINE_PX = 3
"""A piece's outline is watched this many pixels either side of its edges."""
KMEANS_STARTS = 10
"""Starts of the k-means that splits a compact blob of several coins (the tightest kept)."""
PART_COIN_AREAS = (0.7, 1.3)
"""A part of a blob's unclosed change is one coin within these many coins' area (two
touching coins within twice these), compact and solid (`_coin_parts`)."""
PARTS_SHARE = 0.9
"""A blob is its coin-like parts when they hold at least this share of its unclosed change."""
EDGE_COIN_AREAS = 2.0
"""A blob reaching past the table's edge is an arm reaching in, unless it is no bigger than
this many coins: a coin resting on the edge (a coin put back where it left the table pokes
out by a third of its blob, which blur and the half-resolution maximum widen)."""


@dataclass
class DetectorConfig:
    threshold: int = 30
    """Minimum colour difference from the empty table (sum over channels, 0-255 each)."""
    deepest_shadow: float = 0.45
    """A cast shadow leaves at least this share of the light (darker is an object)."""
    background_rate: float = 0.01
    """How fast the empty-table model follows slow light changes."""
    hand_area_coins: float = 5.0
    """A blob bigger than this many coins is a hand or an arm."""


class CoinDetector:
    """Detects coins in frames of one calibrated camera."""

    def __init__(self, mapping: PixelMapping, layout: Layout, image_size: tuple[int, int],
                 config: DetectorConfig | None = None) -> None:
        self.mapping = mapping
        self.layout = layout
        self.config = config or DetectorConfig()
        self.image_size = (int(image_size[0]), int(image_size[1]))
        w, h = image_size
        table_px = mapping.to_pixels(np.asarray(layout.table, float))
        margin = 24  # a band around the table: arms reach in from there
        x0, y0 = np.floor(table_px.min(axis=0)).astype(int) - margin
        x1, y1 = np.ceil(table_px.max(axis=0)).astype(int) + margin
        self.roi = (max(0, x0), max(0, y0), min(w, x1), min(h, y1))
        rx0, ry0, rx1, ry1 = self.roi
        self.table_mask = np.zeros((ry1 - ry0, rx1 - rx0), np.uint8)
        cv2.fillConvexPoly(self.table_mask, np.round(table_px - [rx0, ry0]).astype(np.int32), 255)
        centre = mapping.to_pixels(np.array([[0.0, 0.0], [10.0, 0.0], [0.0, 10.0]]))
        self.px_per_mm = float(np.mean([np.hypot(*(centre[1] - centre[0])),
                                        np.hypot(*(centre[2] - centre[0]))]) / 10.0)
        self.coin_r_px = layout.coin_mm / 2.0 * self.px_per_mm
        self.coin_area_px = np.pi * self.coin_r_px ** 2
        self._area_at = float(self._area_scale(np.zeros((1, 2)))[0])
        """The image's area per table area (px² per mm²) where `coin_area_px` holds: the
        table's centre, or the start spots where it was measured."""
        self._stacks = [(np.asarray(piece.footprint(), float),
                         COIN_HEIGHT_MM + piece.layers * mapping.tile_thickness_mm)
                        for piece in layout.pieces.values() if piece.is_stack]
        """Each tower's or endpost's footprint, and how high a coin on it shows its face."""
        self._stack_tops = np.zeros(self.table_mask.shape, np.uint8)
        """255 where a coin's centre on a tower's or an endpost's top is seen (ROI pixels)."""
        self._tops: list[tuple[tuple[slice, slice], np.ndarray, float, np.ndarray]] = []
        """Each top as seen: its box (ROI pixels), its mask there, its coin's height and
        its footprint (`_marks`)."""
        for footprint, height in self._stacks:
            top_px = np.round(mapping.to_pixels(mapping.seen_mm(footprint, height))
                              - [rx0, ry0]).astype(np.int32)
            cv2.fillConvexPoly(self._stack_tops, top_px, 255)
            (x0, y0), (x1, y1) = np.maximum(top_px.min(axis=0), 0), top_px.max(axis=0) + 1
            box = (slice(y0, y1), slice(x0, x1))
            mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.fillConvexPoly(mask, top_px - [x0, y0], 255)
            # Not within OUTLINE_PX of the top's own edge: the edge, the side and their
            # shading flicker there (capture at look 236: a sliver of shade along tower 1's
            # edge, left as an arm passed, was taken for Moons's art, Moons put on the
            # wrong tower).
            face = np.zeros_like(mask)
            edge_px = mapping.to_pixels(mapping.seen_mm(footprint, height - COIN_HEIGHT_MM))
            cv2.fillConvexPoly(face, np.round(edge_px - [rx0 + x0, ry0 + y0]).astype(np.int32),
                               255)
            mask &= cv2.erode(face, cv2.getStructuringElement(
                cv2.MORPH_RECT, (2 * OUTLINE_PX + 1, 2 * OUTLINE_PX + 1)),
                borderType=cv2.BORDER_CONSTANT, borderValue=0)  # (the box's edge too)
            self._tops.append((box, mask, height, footprint))
        self._on_tiles = np.zeros(self.table_mask.shape, np.uint8)
        """255 where no coin's centre is seen: deep inside a flat tile (a coin slides
        against tiles, never over one; only a stack's top holds a coin)."""
        for name, piece in layout.pieces.items():
            if not piece.is_stack and piece.size_mm > 2.0 * ON_TILE_MM:
                inner = self._grown(name, -ON_TILE_MM)
                inner_px = mapping.to_pixels(mapping.seen_mm(inner, COIN_HEIGHT_MM)) - [rx0, ry0]
                cv2.fillConvexPoly(self._on_tiles, np.round(inner_px).astype(np.int32), 255)
        self._inside = self.table_mask > 0
        self.background: np.ndarray | None = None
        self._background_u8 = np.zeros((*self.table_mask.shape, 3), np.uint8)
        self._saturated = np.zeros_like(self._background_u8)
        """255 where a channel of the empty table is clipped at white: its true value is
        unknown, so when the exposure falls it may stay white (only darker is a change)."""
        self._paper = np.zeros(self.table_mask.shape, bool)
        """True where the empty table is white paper (a tile's face: `_paper`)."""
        self._paper_unclipped = np.zeros(self.table_mask.shape, bool)
        """...and no channel of it clipped at white (a shadow's dimming reads true there)."""
        self._umbra = Umbra(self.config.deepest_shadow)
        """How deep this light's shadows go, learnt from those on the paper (`umbra`)..."""
        self._paper_shadows = np.zeros(self.table_mask.shape, bool)
        """...the shadows on unclipped paper, down to the fixed floor (`_learn_umbra`)."""
        self._exposure: tuple[tuple[float, float, float], np.ndarray] | None = None
        """The gain in use, and the empty table scaled by it."""
        self._frames = 0
        self._adapted_at = 0
        # Measured only where the image changed (`ChangeGate`); kept from frame to frame.
        self._gate = ChangeGate(self.table_mask.shape, self.config.threshold // 2)
        self._blurred = np.zeros((*self.table_mask.shape, 3), np.uint8)
        self._diff = np.zeros(self.table_mask.shape, np.uint8)
        self._shadows = np.zeros(self.table_mask.shape, bool)
        self._tinted_kept = np.zeros(self.table_mask.shape, bool)
        """Shadow pixels tinted otherwise than the table (`_tinted`)."""
        self._gain_used: tuple[float, float, float] | None = None
        self._result: _Found | None = None
        """The last frame's finds."""
        self._read = self._diff
        """The colour difference as the last frame read it (dark streaks put back in)."""
        self._reused = False
        """Whether the last frame changed nowhere, and its result is the one before."""
        self._marked = Detections.empty()
        """The last frame's coins on towers' tops showing in part (`_marks`)."""
        self._regions: list[tuple[slice, slice]] = []
        """The boxes of the ROI measured in the last frame."""
        self._measured: dict[tuple[int, int, int, int], _Measured] = {}
        """The last frame's blobs measured at full resolution, by their half-resolution box."""
        self._views = RestingViews(self.coin_r_px, self.config.threshold)
        """Each resting coin's last clear view (`_kept`)."""
        kernel = max(3, round(self.coin_r_px / 3) | 1)
        self._open = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kernel, kernel))
        close = max(3, round(self.coin_r_px * 0.8) | 1)
        self._close = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (close, close))
        self._crease = np.ones((CREASE_PX + 1, CREASE_PX + 1), np.uint8)
        self._hand_reach_px = self.coin_r_px * 2.5
        """Blobs mostly this close to a hand are its fingertips (px)."""
        self._touch_px = self.coin_r_px * 1.5
        """A blob this close to a hand may hold a fingertip whose faint part (skin on a
        tile's paper) did not join the hand's mask (px)."""
        # Half resolution: the ROI's even part, a pixel for each 2×2 block.
        self._inside_half = self._halve(self.table_mask) > 127
        half_r = self.coin_r_px / HALF
        self._off_edge_half = cv2.distanceTransform(
            self._inside_half.view(np.uint8), cv2.DIST_L2, 3) > 2.0 * half_r
        """The table a coin's width or more from its edge, whose rim flickers (half res)."""
        self._pieces_half = np.zeros(self._inside_half.shape, np.uint8)
        """255 where a piece, or one knocked up to KNOCKED_MM out of its place, shows (half
        resolution): a change confined there is the piece moved, not a hand."""
        self._middles_half = np.zeros(self._inside_half.shape, np.uint8)
        """255 where a piece's middle shows, KNOCKED_MM in from its edges (half resolution):
        a piece knocked within KNOCKED_MM leaves it as it was."""
        for name, piece in layout.pieces.items():
            self._fill_half(self._pieces_half, name, KNOCKED_MM)
            if piece.size_mm > 2.0 * KNOCKED_MM:
                self._fill_half(self._middles_half, name, -KNOCKED_MM)
        self._outlines = {name: self._piece_region(layout.pieces[name].footprint(),
                                                   self._piece_top_mm(name), OUTLINE_PX)
                          for name in layout.pieces}
        """Each piece's outline, OUTLINE_PX either side (its box of the ROI, its mask)."""
        # The faint streaks' averaging box: most of a coin's width (5 half pixels at 720p)
        side = max(3, round(1.5 * half_r) | 1)
        self._across_streak = (side, side)
        self._open_half = cv2.getStructuringElement(
            cv2.MORPH_ELLIPSE, (max(3, round(half_r / 3) | 1),) * 2)
        self._close_half = cv2.getStructuringElement(
            cv2.MORPH_ELLIPSE, (max(3, round(half_r * 0.8) | 1),) * 2)

    # -------------------------------------------------------------- the empty table
    def learn_empty_table(self, frame: np.ndarray,
                          coins_mm: Iterable[tuple[float, float]]) -> None:
        """Start the empty-table model from a frame whose coins are at known places."""
        crop = self._crop(frame)
        hole = np.zeros(crop.shape[:2], np.uint8)
        disc = np.zeros_like(hole)
        rx0, ry0, _, _ = self.roi
        for p in coins_mm:
            c = self.mapping.to_pixels(np.asarray([p], float))[0] - [rx0, ry0]
            cv2.circle(hole, (round(c[0]), round(c[1])),
                       int(np.ceil(self.coin_r_px + 3)), 255, -1)
            cv2.circle(disc, (round(c[0]), round(c[1])),
                       round(self.coin_r_px), 255, -1)
        radius = int(np.ceil(self.coin_r_px))
        blurred = cv2.blur(crop, (3, 3))
        empty = cv2.inpaint(blurred, hole, radius, cv2.INPAINT_TELEA)
        self._cloth_by_tiles(blurred, hole, disc, empty)
        self.background = empty.astype(np.float32)
        self._set_background(empty)
        self._gate.reset()
        self._result, self._gain_used, self._measured = None, None, {}
        self._measure_coins(frame, coins_mm)

    def _cloth_by_tiles(self, blurred: np.ndarray, hole: np.ndarray, disc: np.ndarray,
                        empty: np.ndarray) -> None:
        """Mend the empty table (`empty`) in the coins' start holes beside a tile.

        The hole is a little wider than the coin (it may stand a little off its spot), and
        its fill takes the colours around it: beside a tile, the tile's.  The ring of cloth
        between the coin and the tile then differed from the model as much as the coin did,
        joined its blob and pulled its centre toward the tile by up to 2 mm (fast-flick,
        look 109).  A fill from the cloth alone (the tiles near the holes, their raised tops
        and sides, left out of what it draws from) replaces the first where the tile bled
        into it: within TILE_SHADE_MM of a tile drawn from there, farther from the cloth
        beyond that band, whose shade it would take in too (strike at look 177: a cream
        coin's blob 6 mm long toward the tile, and a ghost left where it had stood); and in
        the ring around the coin's disc (`disc`) the pixels that read as that cloth are the
        cloth itself, seen in the frame."""
        near = cv2.dilate(hole, None, iterations=int(np.ceil(2 * self.coin_r_px)))
        tiles = np.zeros_like(hole)
        for piece in self.layout.pieces.values():
            corners = self._seen(piece.footprint(), piece.layers * self.mapping.tile_thickness_mm)
            hull = cv2.convexHull(np.round(corners - self.roi[:2]).astype(np.int32))
            cv2.fillConvexPoly(tiles, hull, 255)
        shade = 2 * int(np.ceil(TILE_SHADE_MM * self.px_per_mm)) + 1
        band = cv2.dilate(tiles, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (shade, shade)))
        tiles = cv2.dilate(tiles, None) & near
        if not (tiles & cv2.dilate(hole, None, iterations=3)).any():
            return  # no hole beside a tile
        radius = int(np.ceil(self.coin_r_px))
        cloth = cv2.inpaint(blurred, hole | tiles, radius, cv2.INPAINT_TELEA)
        band &= near & ~tiles  # the tile's side and shadow on the cloth
        lit = cv2.inpaint(blurred, hole | tiles | band, radius, cv2.INPAINT_TELEA)
        cloth = cv2.copyTo(lit, cv2.compare(band, 0, cv2.CMP_EQ), cloth)
        reads_cloth = cv2.compare(colour_distance(blurred, cloth), self.config.threshold,
                                  cv2.CMP_LE)
        bled = cv2.compare(colour_distance(empty, cloth), self.config.threshold // 2,
                           cv2.CMP_GT)
        fill = (hole > 0) & (tiles == 0)
        empty[fill & (bled > 0)] = cloth[fill & (bled > 0)]
        learn = fill & (disc == 0) & (reads_cloth > 0)
        empty[learn] = blurred[learn]

    def _seen(self, footprint: Sequence[tuple[float, float]], height_mm: float) -> np.ndarray:
        """Where a tile stack shows in the image (px): its footprint's corners, and those of
        its top, `height_mm` up (its side shows between them)."""
        base = np.asarray(footprint, float)
        top = self.mapping.seen_mm(base, height_mm)
        return self.mapping.to_pixels(np.concatenate([base, top]))

    def _measure_coins(self, frame: np.ndarray, coins_mm: Iterable[tuple[float, float]]) -> None:
        """A coin's area as this detector sees it (blur, threshold, shadow, side and all).

        The layout's diameter through the mapping underestimates it (the coin's side and rim
        show, the blur widens it), and splitting touching coins counts areas: measure them on
        the start frame, where every coin rests apart at a known place.
        """
        fg, _ = self._foreground(frame)
        count, _, stats, centroids = cv2.connectedComponentsWithStats(fg, connectivity=8)
        rx0, ry0, _, _ = self.roi
        spots_mm = np.asarray(list(coins_mm), float).reshape(-1, 2)
        spots = self.mapping.to_pixels(spots_mm) - [rx0, ry0]
        areas = [stats[k, cv2.CC_STAT_AREA] for k in range(1, count)
                 if np.min(np.hypot(*(spots - centroids[k]).T)) < self.coin_r_px]
        if len(areas) >= max(2, len(spots) // 2):
            self.coin_area_px = float(np.median(areas))
            self.coin_r_px = float(np.sqrt(self.coin_area_px / np.pi))
            self._area_at = float(np.median(self._area_scale(spots_mm)))

    def _area_scale(self, points_mm: np.ndarray) -> np.ndarray:
        """(N,) The image's area per table area at each point (px² per mm²: the mapping's
        Jacobian determinant, by a millimetre's steps)."""
        n, (east, north) = len(points_mm), np.eye(2)
        px = self.mapping.to_pixels(np.concatenate([points_mm, points_mm + east,
                                                    points_mm + north]))
        a, b = px[n:2 * n] - px[:n], px[2 * n:] - px[:n]
        return np.abs(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0])

    def coin_area_near(self, x: float, y: float) -> float:
        """A coin's area in pixels where ROI pixel (x, y) lies: the start spots' measured
        area, scaled by the mapping's Jacobian there (a tilted camera sees a coin at the
        table's far edge 0.63-0.75 as big)."""
        rx0, ry0 = self.roi[:2]
        mm = self.mapping.to_table_mm(np.array([[x + rx0, y + ry0]], float))
        return self.coin_area_px * float(self._area_scale(mm)[0]) / self._area_at

    def _crop(self, frame: np.ndarray) -> np.ndarray:
        x0, y0, x1, y1 = self.roi
        return frame[y0:y1, x0:x1]

    # -------------------------------------------------------------- detection
    def detect(self, frame: np.ndarray,
               resting: Sequence[tuple[tuple[float, float], np.ndarray]] = ()
               ) -> tuple[Detections, np.ndarray]:
        """Coins in the frame (table mm) and the occluder mask (ROI pixels, 255 = hand).

        `resting`: the coins believed at rest (table mm, look); one that a finger touches,
        whose blob joined the hand's, is still found where it rests while its disc shows
        it (`_still_there`).

        The colour difference from the empty table and its shadows are measured at full
        resolution; blobs and hands are found on its 2×2 maximum (a quarter of the pixels,
        none of the change lost); each blob that may be a coin is then measured at full
        resolution in its own box, by exactly the steps of a full-resolution foreground,
        so centres, areas and looks are those of the full image.

        Only what changed is measured again (`ChangeGate`): the difference where the image
        changed; blobs and hands in a window around it (`_window`), the last frame's coins
        and hands elsewhere; a frame that changed nowhere (with as many coins at rest) has
        the last frame's result."""
        if self.background is None:
            raise RuntimeError("learn_empty_table() first")
        if frame.shape[1::-1] != self.image_size:
            raise ValueError(f"a {frame.shape[1]}×{frame.shape[0]} frame, but the camera was "
                             f"calibrated at {self.image_size[0]}×{self.image_size[1]}")
        raw = self._crop(frame)
        fresh = self._gate.update(raw)
        last = self._result
        if not fresh.any() and last is not None and last.resting == len(resting):
            self._reused = True
            return last.found.extended(self._marked), last.hands
        self._reused = False
        gain = self._gain(raw)
        moved = self._gate.slices(fresh)
        if self._gain_used is None or max(abs(a - b) for a, b in
                                          zip(gain, self._gain_used, strict=True)) > GAIN_STEP:
            self._gain_used = gain
            fresh[:] = True
        gain = self._gain_used
        self._regions = self._gate.slices(fresh)
        for rows, cols in self._regions:
            self._measure_region(raw, rows, cols, gain)
        # A new gain moves every pixel's difference by a level or so: measured again
        # everywhere, but searched again only where the image changed.
        box = self._window(moved) if last is not None else None
        places_mm = np.array([c for c, _ in resting], float).reshape(-1, 2)
        places_px = (self.mapping.to_pixels(places_mm) - self.roi[:2]  # (ROI pixels)
                     if len(places_mm) else places_mm)
        result, read = self._find(box, resting, places_px, gain, fresh, last)
        self._read = self._diff
        if box is not None:
            assert last is not None
            result = self._merged(box, result, last)
            if read is not None:  # dark streaks put back in this frame's reading
                self._read = self._diff.copy()
                self._read[box] = read
        elif read is not None:
            self._read = read
        self._result = result
        if len(resting):
            seen = near_any(places_mm, result.found.center_mm[result.measured], SEEN_MM)
            self._views.remember(places_px, seen, self._blurred, self._read, gain,
                                 result.hands)
        self._marked = self._marks(result.found, result.hands, gain)
        self._learn_umbra(result.hands, places_px, gain)
        return result.found.extended(self._marked), result.hands

    def _learn_umbra(self, hands: np.ndarray, places_px: np.ndarray,
                     gain: tuple[float, float, float]) -> None:
        """Teach the umbra the shadows this frame measured on the tiles' paper: not those
        joined to a hand (a pale sleeve lying over a tile dims it alike too, k 0.82 for the
        simulator's white sleeve), nor within a coin's width of a resting coin's place (a
        pale coin on a tower's white top reads as a shadow for as long as it lies there)."""
        keep_off = (1.5 * self.coin_r_px) ** 2
        H, W = self.table_mask.shape
        for box in self._regions:
            on_paper = self._paper_shadows[box]
            x, y, w, h = cv2.boundingRect(on_paper.view(np.uint8))
            if not w:
                continue
            # The shadows' box, grown by a pixel: a hand just beyond it joins them.
            near = (slice(max(0, box[0].start + y - 1), min(H, box[0].start + y + h + 1)),
                    slice(max(0, box[1].start + x - 1), min(W, box[1].start + x + w + 1)))
            seen = self._paper_shadows[near]
            count, labels = cv2.connectedComponents(seen.view(np.uint8), connectivity=8)
            joined = np.zeros(count, bool)
            joined[labels[cv2.dilate(hands[near], None) > 0]] = True
            joined[0] = True
            ys, xs = np.nonzero(~joined[labels])
            if len(places_px):
                to_coin = (xs[:, None] + near[1].start - places_px[None, :, 0]) ** 2 + \
                    (ys[:, None] + near[0].start - places_px[None, :, 1]) ** 2
                far = (to_coin >= keep_off).all(axis=1)
                ys, xs = ys[far], xs[far]
            if not len(ys):
                continue
            f = self._blurred[near][ys, xs].astype(np.float32)
            b = self._exposed(gain)[near][ys, xs].astype(np.float32)
            self._umbra.add(f.sum(axis=1) / (b.sum(axis=1) + 1.0))

    def _marks(self, found: Detections, hands: np.ndarray, gain: tuple[float, float, float]
               ) -> Detections:
        """Coins on towers' tops that show only in part: their art, where nothing else on
        that top was found and no hand is within a finger's length of it.

        A white coin on a tower's white top shows its art and no rim; dark art dims the
        tile alike in every channel and reads as a shadow (captures at looks 132, 147 and
        179: a sixth to a half of a coin, and the prisoner was never taken).  With no hand
        near, no hand's shadow falls there, and the top's own print is the empty table's:
        what changed there, shadow-like or not, is something put on it.  Found as the
        largest such blob, a coin's share of it for its confidence and no hand to compare
        it with (`hand_look` infinite): the tracker takes it only for a coin a hand
        carried away (`track._back`)."""
        reach = int(np.ceil(FINGER_MM * self.px_per_mm))
        centres, looks, shares = [], [], []
        least = MARK_SHOWN * self.coin_area_px
        for (rows, cols), mask, height, footprint in self._tops:
            changed = cv2.compare(self._diff[rows, cols], self.config.threshold, cv2.CMP_GT)
            changed[self._shadows[rows, cols]] = 255
            changed &= mask
            if cv2.countNonZero(changed) < least or \
                    hands[max(0, rows.start - reach):rows.stop + reach,
                          max(0, cols.start - reach):cols.stop + reach].any() or \
                    _in_convex(found.center_mm, footprint).any():
                continue
            count, labels, stats, centroids = cv2.connectedComponentsWithStats(changed)
            if count < 2:
                continue
            k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
            share = stats[k, cv2.CC_STAT_AREA] / self.coin_area_px
            if not MARK_SHOWN <= share <= DARK_COIN_WHOLE or \
                    max(stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]) > \
                    2.0 * self.coin_r_px + 2:
                continue
            px = centroids[k] + [cols.start + self.roi[0], rows.start + self.roi[1]]
            centres.append(self.mapping.ground_mm(px[None], height)[0])
            looks.append(_mean_look(self._blurred[rows, cols], (labels == k).view(np.uint8)
                                    * 255, gain))
            shares.append(min(1.0, share))
        if not centres:
            return Detections.empty()
        return Detections(np.array(centres), np.full(len(centres), self.layout.coin_mm / 2.0),
                          look=np.array(looks), confidence=np.array(shares))

    @property
    def _inner_margin(self) -> int:
        """How far a blob's measurement looks around it (px): to a hand within a
        fingertip's reach of it, past its own radius and its box's padding (even)."""
        pad = self._open.shape[0] + self._close.shape[0] - 1 + 2 * HALF
        return int(np.ceil(self._hand_reach_px + self.coin_r_px + pad)) // HALF * HALF + HALF

    def _window(self, boxes: list[tuple[slice, slice]]) -> tuple[slice, slice] | None:
        """The box of the ROI in which blobs and hands are found again (None: the whole):
        the boxes measured again (`boxes`), grown by twice the reach of anything a blob's
        measurement looks at around it (a hand's, its fingertips', the blob's own padding),
        so that the coins found in its inner part (`_merged`) are those a whole frame's
        search would find."""
        if not boxes:
            return None  # only the coins at rest changed: `_still_there` looks at them all
        (rows, cols), *more = boxes
        for r, c in more:
            rows = slice(min(rows.start, r.start), max(rows.stop, r.stop))
            cols = slice(min(cols.start, c.start), max(cols.stop, c.stop))
        H, W = self.table_mask.shape
        m = 2 * self._inner_margin
        y0, x0 = max(0, rows.start - m) // HALF * HALF, max(0, cols.start - m) // HALF * HALF
        y1, x1 = min(H, rows.stop + m), min(W, cols.stop + m)
        if (y1 - y0) * (x1 - x0) > WHOLE_WINDOW * H * W:
            return None
        return slice(y0, y1), slice(x0, x1)

    def _merged(self, box: tuple[slice, slice], found: _Found, last: _Found) -> _Found:
        """A window's finds with the last frame's outside it: coins centred in the window's
        inner part (its edges on the ROI's own stay) are this frame's, the others the last
        frame's (their image has not changed); the hands, the window's in it."""
        H, W = self.table_mask.shape
        m = self._inner_margin
        y0 = box[0].start + m if box[0].start > 0 else -np.inf
        x0 = box[1].start + m if box[1].start > 0 else -np.inf
        y1 = box[0].stop - m if box[0].stop < H else np.inf
        x1 = box[1].stop - m if box[1].stop < W else np.inf

        def inner(px: np.ndarray) -> np.ndarray:
            x, y = px.reshape(-1, 2).T
            return (x >= x0) & (x < x1) & (y >= y0) & (y < y1)

        new, old = inner(found.px), ~inner(last.px)
        hands = last.hands.copy()
        hands[box] = found.hands
        return _Found(last.found.subset(old).extended(found.found.subset(new)),
                      np.concatenate([last.px[old], found.px[new]]), hands,
                      found.hand_look if found.hand_look is not None else last.hand_look,
                      found.resting,
                      np.concatenate([last.measured[old], found.measured[new]]))

    def _find(self, box: tuple[slice, slice] | None,
              resting: Sequence[tuple[tuple[float, float], np.ndarray]],
              places_px: np.ndarray, gain: tuple[float, float, float], fresh: np.ndarray,
              last: _Found | None) -> tuple[_Found, np.ndarray | None]:
        """Blobs, hands and coins in a box of the ROI (None: the whole), from the kept
        difference; and the box's difference as read when dark streaks were put back into
        it (None: as kept).  `places_px`: the resting coins' places in the ROI's pixels."""
        box = box or (slice(0, self.table_mask.shape[0]), slice(0, self.table_mask.shape[1]))
        oy, ox = box[0].start, box[1].start
        crop, full_diff, shadow = self._blurred[box], self._diff[box], self._shadows[box]
        half_box = (slice(oy // HALF, oy // HALF + full_diff.shape[0] // HALF),
                    slice(ox // HALF, ox // HALF + full_diff.shape[1] // HALF))
        inside = self._inside_half[half_box]
        diff = _max_pool(full_diff)
        fg = self._opened_closed(diff, self._open_half, self._close_half)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8,
                                                                   ltype=cv2.CV_16U)
        hands = self._hands(diff, labels, stats, full_diff, inside, self._pieces_half[half_box],
                            self._middles_half[half_box], self._cut_hands(box, last),
                            self._tinted_hands(self._tinted_kept[box]))  # full res, exact
        hand_reach = _HandReach(hands)
        streaks = self._dark_streaks(crop, gain, shadow, fg, hand_reach,
                                     self._background_u8[box], self._stack_tops[box])
        streaks += self._faint_streaks(full_diff, fg, hand_reach, self._off_edge_half[half_box],
                                       None if last is None else last.hands[box])
        if streaks:
            full_diff = full_diff.copy()  # this frame's reading; the kept difference stays
            for streak_box, dark, change in streaks:
                full_diff[streak_box][dark] = change[dark]
            diff = _max_pool(full_diff)
        empty = self._exposed(gain)[box]  # the empty table at this exposure
        to_hand = self._to_hand(self._bridged(hands, shadow, box, crop, empty))
        hand_look = _mean_look(crop, hands, gain) if to_hand is not None else None
        # Candidates for coins: the change closed but not opened (at half resolution the
        # opening would erase a coin that shows only in part, e.g. half taken for shadow);
        # each is measured at full resolution, where the exact criteria apply.  What lies
        # under a hand is no candidate (a coin against a hand is cut from it here, and is
        # measured whole at full resolution).
        loose = cv2.morphologyEx(cv2.compare(diff, self.config.threshold, cv2.CMP_GT),
                                 cv2.MORPH_CLOSE, self._close_half)
        if to_hand is not None:
            loose &= ~_max_pool(hands)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(loose, connectivity=8,
                                                                   ltype=cv2.CV_16U)
        candidates: list[tuple[int, int, int, int, np.ndarray]] = []
        least = 0.15 * self.coin_area_px / HALF ** 2
        for k in range(1, count):
            if stats[k, cv2.CC_STAT_AREA] < least:
                continue
            x, y, w, h = (int(v) for v in stats[k, :4])
            candidates.append((x, y, w, h, labels[y:y + h, x:x + w] == k))
        centres, streaks_px, dirs, looks, conf, by_hand, hand_like = [], [], [], [], [], [], []
        patches = _Patches(self, crop, full_diff, gain, hands, to_hand, hand_look, (ox, oy),
                           shadow, empty)
        found_coins, measured = patches.coins(candidates, self._measured, fresh)
        self._measured = {} if streaks else measured  # a streak's reading is this frame's
        for area, cx, cy, streak, direction, colour, touching in found_coins:
            if _on(self._on_tiles, np.array([cx + ox, cy + oy])):
                continue  # a tile's quarter under a sleeve of the cloth's colour
            if streak > self.coin_r_px and _on(self._stack_tops, np.array([cx + ox, cy + oy])):
                # A coin slides on the cloth and is put on a tower's top at rest: a streak
                # there is a sleeve of the cloth's colour over the tower's white (off-table
                # at look 181: taken for Arms hidden beside it, flicked).
                continue
            centres.append((cx + ox, cy + oy))
            streaks_px.append(streak)
            dirs.append(direction)
            looks.append(colour)
            conf.append(area / self.coin_area_px)  # (where the coin lies: `_located`)
            by_hand.append(touching)
            hand_like.append(np.inf if hand_look is None else
                             float(np.linalg.norm(colour - hand_look)))
        found = self._located(centres, streaks_px, dirs, looks, conf, by_hand, hand_like)
        kept = self._kept(resting, places_px, found, crop, full_diff, gain, hands, (ox, oy),
                          hand_look, box)
        full_hands = hands
        if to_hand is not None:
            (x0, y0), dist = to_hand
            h, w = dist.shape
            full_hands[y0:y0 + h, x0:x0 + w] |= cv2.compare(dist, self.coin_r_px, cv2.CMP_LT)
        px = np.asarray(centres, float).reshape(-1, 2)
        measured = np.ones(len(px), bool)
        if kept:  # where they rest, whole and sharp, not by a hand (not held: `Tracker`)
            colours = np.array([colour for _, colour, _ in kept])
            found = found.extended(Detections(
                np.array([center for center, _, _ in kept], float),
                np.full(len(kept), self.layout.coin_mm / 2.0), look=colours,
                hand_look=np.full(len(kept), np.inf) if hand_look is None else
                np.linalg.norm(colours - hand_look, axis=1)))
            px = np.concatenate([px, [place for _, _, place in kept]])
            measured = np.concatenate([measured, np.zeros(len(kept), bool)])
        return (_Found(found, px, full_hands, hand_look, len(resting), measured),
                full_diff if streaks else None)

    def _kept(self, resting: Sequence[tuple[tuple[float, float], np.ndarray]],
              places_px: np.ndarray, found: Detections, crop: np.ndarray, diff: np.ndarray,
              gain: tuple[float, float, float], hands: np.ndarray, origin: tuple[int, int],
              hand_look: np.ndarray | None, box: tuple[slice, slice]
              ) -> list[tuple[tuple[float, float], np.ndarray, np.ndarray]]:
        """The resting coins this frame's blobs left out that are still where they rest
        (their place, colour and ROI pixel): one a hand's mask took in whose disc reads as
        its look (`_still_there`); or, hand or no hand, one whose telling pixels show as
        they were (`RestingViews`): a finger over a third of it, a dark coin on dark cloth,
        a pale coin on a tower's top beside a hand (which `_dark_streaks` holds back).
        Never one whose telling pixels say it left (under `GONE` of them), whatever its
        disc's mean colour reads: a fingertip of its colour over its empty place; nor, once
        they said so, one they do not clearly show again (`RestingViews.overrule`)."""
        if not len(resting):
            return []
        empty = self._exposed(gain)[box]
        held = near_any(np.array([c for c, _ in resting], float), found.center_mm,
                        self.layout.coin_mm)  # a blob over its disc measured it, or holds it
        kept = []
        for (center_mm, look), px, blob in zip(resting, places_px, held, strict=True):
            if not (box[0].start <= px[1] < box[0].stop and box[1].start <= px[0] < box[1].stop):
                continue  # outside the window: the last frame's finds stand there
            colour = None
            if hand_look is not None:
                colour = self._still_there(crop, diff, empty, gain, hands, px - origin, look,
                                           hand_look)
            shown = self._views.shown(px, self._blurred, self._background_u8, gain) \
                if colour is not None or not blob else None
            if shown is not None and colour is not None and (
                    shown < GONE or self._views.overruled(px)):
                if shown < GONE:
                    self._views.overrule(px)
                colour = None  # its pixels say it left, whatever the disc's mean colour says
            elif shown is not None and colour is None and shown >= SHOWN:
                colour = look
            if colour is not None:
                kept.append((center_mm, colour, px))
        return kept

    def _cut_hands(self, box: tuple[slice, slice], last: _Found | None) -> np.ndarray | None:
        """Where the last frame's hands cross the edge of a window (half resolution, in the
        window): a hand's blob cut there, however small its part inside, is still a hand."""
        H, W = self.table_mask.shape
        if last is None or (box[0].start == 0 and box[1].start == 0 and box[0].stop == H
                            and box[1].stop == W):
            return None
        cut = _max_pool(last.hands[box])
        ring = np.zeros_like(cut)
        if box[0].start > 0:
            ring[0] = 255
        if box[1].start > 0:
            ring[:, 0] = 255
        if box[0].stop < H:
            ring[-1] = 255
        if box[1].stop < W:
            ring[:, -1] = 255
        return cut & ring

    def _located(self, centres: list[tuple[float, float]], streaks: list[float],
                 dirs: list[tuple[float, float]], looks: list[np.ndarray], conf: list[float],
                 by_hand: list[bool], hand_like: list[float]) -> Detections:
        """Blobs measured in the ROI's pixels → detections on the table (mm)."""
        if not centres:
            return Detections.empty()
        rx0, ry0, _, _ = self.roi
        px = np.asarray(centres, float).reshape(-1, 2) + np.array([rx0, ry0], float)
        mm = self.mapping.ground_mm(px, COIN_HEIGHT_MM)
        for footprint, height in self._stacks:  # a coin on a tower shows its face higher
            on = _in_convex(mm, footprint)
            if on.any():
                mm[on] = self.mapping.ground_mm(px[on], height)
        # The streak's direction on the table (the image's rows run south, and the camera
        # may be turned): the table points a pixel either side of the centre along it.
        along = np.asarray(dirs, float).reshape(-1, 2)
        ends = self.mapping.to_table_mm(np.concatenate([px - along, px + along]))
        direction = ends[len(px):] - ends[:len(px)]
        direction /= np.maximum(np.hypot(*direction.T), 1e-9)[:, None]
        direction[~along.any(axis=1)] = 0.0
        # A coin's share seen, of its area where it lies: a tilted camera sees a coin at the
        # table's far edge 0.63-0.75 of its area at the start spots (looks 101, 381; put
        # back there, Arms was "a part of a coin" and never taken again).
        shown = np.asarray(conf, float) * self._area_at / self._area_scale(mm)
        return Detections(mm, np.full(len(mm), self.layout.coin_mm / 2.0),
                          np.asarray(streaks, float) / self.px_per_mm, direction,
                          np.asarray(looks, float).reshape(len(mm), -1),
                          np.minimum(shown, 1.0), np.asarray(by_hand, float),
                          np.asarray(hand_like, float))

    def _measure_region(self, raw: np.ndarray, rows: slice, cols: slice,
                        gain: tuple[float, float, float]) -> None:
        """The blurred image, colour difference and shadows again in one box of the ROI (the
        blur reads a pixel beyond it, so the box's values are those of the whole ROI's)."""
        H, W = raw.shape[:2]
        r0, r1, c0, c1 = max(0, rows.start - 1), min(H, rows.stop + 1), \
            max(0, cols.start - 1), min(W, cols.stop + 1)
        blurred = cv2.blur(raw[r0:r1, c0:c1], (3, 3))  # sensor and JPEG noise down
        blurred = blurred[rows.start - r0:rows.stop - r0, cols.start - c0:cols.stop - c0]
        self._blurred[rows, cols] = blurred
        diff, shadow, tinted, on_paper = self._difference(
            blurred, self._exposed(gain)[rows, cols], self._saturated[rows, cols],
            self._paper_unclipped[rows, cols])
        self._diff[rows, cols] = diff
        self._shadows[rows, cols] = shadow
        self._paper_shadows[rows, cols] = on_paper
        self._tinted_kept[rows, cols] = False if tinted is None else tinted

    def _dark_streaks(self, crop: np.ndarray, gain: tuple[float, float, float],
                      shadow: np.ndarray, fg_half: np.ndarray,
                      hand_reach: _HandReach, background_u8: np.ndarray,
                      stack_tops: np.ndarray
                      ) -> list[tuple[tuple[slice, slice], np.ndarray, np.ndarray]]:
        """The "shadows" that are dark coins sliding, or pale coins at rest on a paler tile,
        to put back into `full_diff`: for each, its box, its pixels there and their colour
        difference.

        A dark coin blurred over the cloth dims every channel alike, as a shadow does: no
        pixel tells them apart.  So does a coin a shade darker than the white tile it rests
        on.  Where they lie does: every shadow that is not the empty table's is cast by a
        hand, an arm or a coin and lies against it, while a sliding coin's streak, or a
        coin alone on a tower, lies apart from every other change.  So a solid streak of a
        coin's size, or a round disc of one coin's centred on a tower's top (`stack_tops`,
        where coins rest on white tile), beyond a shadow's reach from the hands and
        touching no other change, is a coin."""
        lo, hi = (k * self.coin_area_px / HALF ** 2 for k in DARK_STREAK_COINS)
        disc_lo, disc_hi = (k * self.coin_area_px / HALF ** 2 for k in PALE_DISC_COINS)
        if cv2.countNonZero(shadow.view(np.uint8)) < lo * HALF ** 2:
            return []
        half = _max_pool(shadow.view(np.uint8))
        count, labels, stats, centroids = cv2.connectedComponentsWithStats(
            half, connectivity=8, ltype=cv2.CV_16U)
        sized = [k for k in range(1, count) if lo <= stats[k, cv2.CC_STAT_AREA] <= hi]
        if not sized:
            return []
        others = fg_half.copy()
        others[half > 0] = 0
        near_others = cv2.dilate(others, None, iterations=2)
        found = []
        for k in sized:
            x, y, w, h = (int(v) for v in stats[k, :4])
            part = labels[y:y + h, x:x + w] == k
            if not _solid(part):
                continue
            elongation = _elongation(part)
            if elongation >= DARK_STREAK_ELONGATION:
                if near_others[y:y + h, x:x + w][part].any():
                    continue
            elif not (elongation < PALE_DISC_ELONGATION
                      and disc_lo <= stats[k, cv2.CC_STAT_AREA] <= disc_hi
                      and _on(stack_tops, centroids[k] * HALF)
                      and not _touched(others, x, y, part)):
                continue
            box = (slice(y * HALF, (y + h) * HALF), slice(x * HALF, (x + w) * HALF))
            whole = _doubled(part.view(np.uint8)) > 0
            dark = shadow[box] & whole[:shadow[box].shape[0], :shadow[box].shape[1]]
            if elongation < DARK_STREAK_ELONGATION and \
                    stats[k, cv2.CC_STAT_AREA] > PALE_DISC_ONE * self.coin_area_px / HALF ** 2:
                coin = np.zeros(dark.shape, np.uint8)  # the coin, not its shadow beside it
                cx, cy = centroids[k] * HALF - (x * HALF, y * HALF)
                cv2.circle(coin, (round(cx), round(cy)), round(self.coin_r_px), 1, -1)
                dark &= coin > 0
            if elongation >= DARK_STREAK_ELONGATION and \
                    _extent(dark)[0] < DARK_STREAK_WIDTH * 2.0 * self.coin_r_px:
                continue  # a strip along a tile's shaded side, narrower than any coin
            change = colour_distance(crop[box], _scaled(background_u8[box], gain))
            if float(change[dark].mean()) < DARK_STREAK_CHANGE * self.config.threshold:
                continue  # the speckled fringe of a soft shadow, not a coin's solid streak
            reach = ARM_SHADOW_REACH_MM if elongation >= DARK_STREAK_ELONGATION else \
                SHADOW_REACH_MM
            if hand_reach.within(x, y, part, reach * self.px_per_mm):
                continue  # within a hand's (or its arm's) shadow's reach
            found.append((box, dark, change))
        return found

    def _faint_streaks(self, full_diff: np.ndarray, fg_half: np.ndarray,
                       hand_reach: _HandReach, off_edge: np.ndarray,
                       last_hands: np.ndarray | None
                       ) -> list[tuple[tuple[slice, slice], np.ndarray, np.ndarray]]:
        """Coins sliding fast over cloth near their own colour, to put back into `full_diff`
        read at the threshold's scale (as `_dark_streaks` returns them).

        A streak over L mm shows each pixel it crosses its coin for a diameter's share of
        the exposure only: a dark coin on dark cloth then changes it less than the
        threshold, and the coin vanished for its whole slide (fast flick at look 107).
        Averaged across the streak its change still stands well above the sensor's noise,
        as a solid bar of a coin's width apart from every hand; the change a coin or a
        hand passes the threshold with elsewhere is all round it, and no bar.  Only on the
        table a coin's width from its edge (`off_edge`, half resolution): the rim's inner
        edge flickers as a bar too (strike, look 103).  Nor where the last frame's hands
        (`last_hands`, full resolution) lay over most of it: a sleeve of the cloth's colour
        swept away leaves a faint bar of its own blur (fast flick, look 172: 93 mm long,
        taken for the guard it had hidden, launched).  A coin flicked from under the fingers
        slides away from them, out of where they were."""
        level = FAINT_STREAK_LEVEL * self.config.threshold
        h, w = fg_half.shape
        mean = cv2.blur(cv2.resize(full_diff[:h * HALF, :w * HALF], (w, h),
                                   interpolation=cv2.INTER_AREA), self._across_streak)
        faint = cv2.compare(mean, level, cv2.CMP_GT)
        if cv2.countNonZero(faint) < FAINT_STREAK_COINS[0] * self.coin_area_px / HALF ** 2:
            return []
        faint = cv2.morphologyEx(faint, cv2.MORPH_OPEN, self._open_half)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(faint, connectivity=8,
                                                                   ltype=cv2.CV_16U)
        lo, hi = (k * self.coin_area_px / HALF ** 2 for k in FAINT_STREAK_COINS)
        sized = [k for k in range(1, count) if lo <= stats[k, cv2.CC_STAT_AREA] <= hi]
        if not sized:
            return []
        widest = STREAK_WIDTH * 2.0 * self.coin_r_px / HALF
        found = []
        for k in sized:
            x, y, bw, bh = (int(v) for v in stats[k, :4])
            part = labels[y:y + bh, x:x + bw] == k
            if (fg_half[y:y + bh, x:x + bw][part] > 0).mean() > 0.5:
                continue  # mostly over the threshold: the usual search measures it
            if not off_edge[y:y + bh, x:x + bw][part].all():
                continue
            if not _solid(part) or _elongation(part) < FAINT_STREAK_ELONGATION:
                continue
            if part.sum() / max(_extent(part)[1], 1.0) > widest:
                continue
            if hand_reach.within(x, y, part, FAINT_STREAK_HAND_MM * self.px_per_mm):
                continue
            box = (slice(y * HALF, (y + bh) * HALF), slice(x * HALF, (x + bw) * HALF))
            if last_hands is not None and \
                    (_max_pool(last_hands[box])[part] > 0).mean() > 0.5:
                continue
            bar = _doubled(part.view(np.uint8))[:full_diff[box].shape[0],
                                                 :full_diff[box].shape[1]] > 0
            scaled = cv2.multiply(full_diff[box], 1.0 / FAINT_STREAK_LEVEL)
            found.append((box, bar, scaled))
        return found

    def _still_there(self, crop: np.ndarray, diff: np.ndarray, empty: np.ndarray,
                     gain: tuple[float, float, float], hands: np.ndarray, px: np.ndarray,
                     look: np.ndarray, hand_look: np.ndarray) -> np.ndarray | None:
        """The colour of the disc of a resting coin centred at `px` (the images' pixels) when
        the hands' mask took it in but the disc still shows the coin (a fingertip touching it
        joins its blob to the hand's); None otherwise.  The disc must read as the coin's
        look, and far nearer it than the hands' colour: a hand over the coin reads as the
        hand.  The arm's shade may dim the coin (by 8 % beside a sleeve: tower-hit, look
        105, where it was lost for six frames): the look is compared dimmed as the disc is,
        but no darker than the cloth at its rim (less 0.03; against the empty table at this
        exposure, `empty`) nor than LIGHTEST_SHADE; the disc must then differ from the empty
        table (a shaded empty place, which dims alike, reads as no change).  Out of any
        shade, a coin struck from its place (part cloth now) is not taken for the coin
        dimmed (the demo game's strike at 72.8 s)."""
        cx, cy = round(px[0]), round(px[1])
        h, w = hands.shape
        if not (0 <= cx < w and 0 <= cy < h) or not hands[cy, cx]:
            return None  # not taken in by a hand: measured as any blob
        r = int(np.ceil(self.coin_r_px))
        box = (slice(max(0, cy - r), cy + r + 1), slice(max(0, cx - r), cx + r + 1))
        disc = np.zeros(crop[box].shape[:2], np.uint8)
        cv2.circle(disc, (cx - box[1].start, cy - box[0].start), r, 1, -1)
        colour = _mean_look(crop[box], disc, gain)
        ring = np.zeros_like(disc)
        cv2.circle(ring, (cx - box[1].start, cy - box[0].start), r, 1, 3)
        ring &= (diff[box] <= self.config.threshold) & (hands[box] == 0)
        darkest = 1.0  # the least light the coin may have: as much as the cloth at its rim
        if ring.sum() >= 8:
            seen = crop[box][ring > 0].astype(np.float32).sum(axis=1)
            table = empty[box][ring > 0].astype(np.float32).sum(axis=1)
            darkest = max(LIGHTEST_SHADE, float(np.median(seen / np.maximum(table, 1.0))) - 0.03)
        shade = float(np.clip(colour @ look / max(float(look @ look), 1e-9), min(darkest, 1.0),
                              1.0))
        near = float(np.linalg.norm(colour - shade * look))
        if near > STILL_THERE_LOOK or near * HAND_COLOUR_RATIO > float(
                np.linalg.norm(colour - hand_look)):
            return None
        if float(np.mean(diff[box][disc > 0])) < self.config.threshold:
            return None  # the cloth (in shade), not the coin
        return colour

    def _bridged(self, hands: np.ndarray, shadow: np.ndarray, box: tuple[slice, slice],
                 crop: np.ndarray, empty: np.ndarray) -> np.ndarray:
        """The hands and the "shadows" on white paper joined to them and tinted otherwise
        than the paper, whose reach a blob is within: a pale finger over a tile's white
        face dims it every channel alike within each pixel's noise, and reads as its
        shadow, cutting the fingertip off its hand (gate-run at look 255: the fingertip
        beyond the tile, beside Moons, was taken for Moons flicked into a tower).  An arm's
        cast shadow on a tile, of the paper's own tint, carries no reach (strike at look
        107: the coin beside a door's tile in a sleeve's shadow was taken for a fingertip)."""
        over = shadow & self._paper[box]
        x, y, w, h = cv2.boundingRect(over.view(np.uint8))
        if not w or not hands.any():
            return hands
        near = (slice(y, y + h), slice(x, x + w))  # (where the tiles in shade are)
        seen = over[near]
        count, labels = cv2.connectedComponents(seen.view(np.uint8), connectivity=8,
                                                ltype=cv2.CV_16U)
        off, level = _tint_sums(crop[near][seen].astype(np.float32).T,
                                empty[near][seen].astype(np.float32).T, labels[seen], count)
        tinted = (np.abs(off) / np.maximum(level, 1.0)).max(axis=0) > PAPER_TINT
        tinted[0] = False
        if not tinted.any():
            return hands
        joined = hands.copy()
        joined[near] |= tinted.view(np.uint8)[labels]
        count, labels = cv2.connectedComponents(joined, connectivity=8, ltype=cv2.CV_16U)
        return _labelled(labels, count, hands)

    def _to_hand(self, hands: np.ndarray) -> tuple[tuple[int, int], np.ndarray] | None:
        """Distance (px) to the nearest hand pixel, in the hands' box widened by the
        farthest reach that matters (a fingertip's, a coin's padding): there it is what a
        distance transform of the whole ROI gives (the shortest path stays in the box).
        (Box origin, distances), or None without a hand."""
        rows, cols = np.flatnonzero(hands.any(axis=1)), np.flatnonzero(hands.any(axis=0))
        if not len(rows):
            return None
        m = int(np.ceil(max(self._hand_reach_px, self.coin_r_px))) + 2
        H, W = hands.shape
        x0, y0 = max(0, int(cols[0]) - m), max(0, int(rows[0]) - m)
        x1, y1 = min(W, int(cols[-1]) + 1 + m), min(H, int(rows[-1]) + 1 + m)
        return (x0, y0), cv2.distanceTransform(255 - hands[y0:y1, x0:x1], cv2.DIST_L2, 3)

    def _full_size(self, half: np.ndarray) -> np.ndarray:
        """A half-resolution mask at the ROI's full size (each pixel doubled)."""
        h, w = self.table_mask.shape
        up = cv2.resize(half, (half.shape[1] * HALF, half.shape[0] * HALF),
                        interpolation=cv2.INTER_NEAREST)
        if up.shape != (h, w):
            up = cv2.copyMakeBorder(up, 0, h - up.shape[0], 0, w - up.shape[1],
                                    cv2.BORDER_REPLICATE)
        return up

    def _hands(self, diff: np.ndarray, labels: np.ndarray, stats: np.ndarray,
               full_diff: np.ndarray, inside: np.ndarray, pieces: np.ndarray,
               middles: np.ndarray, cut: np.ndarray | None,
               tinted: np.ndarray | None = None) -> np.ndarray:
        """Hands and arms (255, full resolution), by hysteresis: a blob far bigger than a
        coin, or reaching past the table's edge, grown through every connected pixel of even
        a faint change, so that a sleeve nearly the cloth's colour stays in one piece and no
        fragment of it passes for a coin.  Only a strong blob seeds a hand: a faint change
        alone (a tile's paper under drifting light) never carries the coins beside it into
        one.

        Seeds are found at half resolution (each pixel the 2×2 maximum).  There, what a seed
        grows through contains every full-resolution path (two touching pixels fall in the
        same or touching blocks), so the exact growth at full resolution runs only inside
        it.

        `inside`: the table, at half resolution; `pieces`: where the pieces show, a knock
        around each (a big change within them is a piece moved, unless as much lies in
        their `middles`: something over them); `cut`: where the last
        frame's hands cross the edge of the window searched (None: the whole ROI is);
        `tinted`: hands that read as shadows (`_tinted_hands`, full resolution), seeds too."""
        hands = np.zeros(full_diff.shape, np.uint8)
        seeds = np.zeros(diff.shape, np.uint8)
        big_area = self._hand_area_px / HALF ** 2
        coin_sized = EDGE_COIN_AREAS * self.coin_area_px / HALF ** 2
        off_pieces = PIECE_CHANGE_COINS * self.coin_area_px / HALF ** 2
        for k in range(1, len(stats)):
            x, y, w, h = stats[k, :4]
            big = stats[k, cv2.CC_STAT_AREA] > big_area
            if cut is not None and cut[y:y + h, x:x + w].any():
                blob = labels[y:y + h, x:x + w] == k
                if cut[y:y + h, x:x + w][blob].any():  # a hand beyond the window's edge
                    seeds[y:y + h, x:x + w][blob] = 255
                    continue
            within = bool(inside[y:y + h, x:x + w].all())
            if not big and (within or stats[k, cv2.CC_STAT_AREA] <= coin_sized):
                continue  # within the table, or a coin on its edge (on a rim, put back)
            blob = labels[y:y + h, x:x + w] == k
            if within and self._streak(blob):
                continue  # a fast coin's streak (maybe into a resting coin), not a hand
            if within and self._huddle(full_diff, blob, x, y):
                continue  # coins lying close together, each its own disc: no hand
            if ((pieces[y:y + h, x:x + w][blob] == 0).sum() <= off_pieces
                    and (middles[y:y + h, x:x + w][blob] > 0).sum() <= off_pieces):
                continue  # a tile knocked out of its place (the pipeline measures it)
            if big or (blob & ~inside[y:y + h, x:x + w]).sum() > 0.3 * blob.sum():
                seeds[y:y + h, x:x + w][blob] = 255
        tinted_half = None
        if tinted is not None:
            tinted_half = _max_pool(tinted)
            seeds |= tinted_half
        if not seeds.any():
            return hands
        faint_level = self.config.threshold // 2
        faint = cv2.compare(diff, faint_level, cv2.CMP_GT)
        faint |= seeds
        count, grown = cv2.connectedComponents(faint, connectivity=8)
        region = _labelled(grown, count, seeds)
        ys, xs = np.flatnonzero(region.any(axis=1)), np.flatnonzero(region.any(axis=0))
        y0, y1, x0, x1 = int(ys[0]), int(ys[-1]) + 1, int(xs[0]), int(xs[-1]) + 1
        box = (slice(y0 * HALF, y1 * HALF), slice(x0 * HALF, x1 * HALF))
        inner = _doubled(region[y0:y1, x0:x1])
        # The seeds at full resolution: the foreground's blobs (opened and closed, as the
        # whole ROI's would be) under the half-resolution seeds.
        fg = self._opened_closed(full_diff[box], self._open, self._close) & inner
        count, blobs = cv2.connectedComponents(fg, connectivity=8)
        seeds_full = _labelled(blobs, count, _doubled(seeds[y0:y1, x0:x1]))
        if tinted_half is not None:
            seeds_full |= tinted[box]
        faint_full = cv2.compare(full_diff[box], faint_level, cv2.CMP_GT) & inner
        faint_full |= seeds_full
        count, grown_full = cv2.connectedComponents(faint_full, connectivity=8)
        hands[box] = _labelled(grown_full, count, seeds_full)
        # A hand's own area of faint change past a crease a pixel or two wide is the hand's
        # too (at half resolution it ran on); a coin's faint streak is not (CREASE_PX).
        if cv2.countNonZero(faint_full) - cv2.countNonZero(hands[box]) < self._hand_area_px:
            return hands  # (most frames: no hand's area of it is left)
        wide = np.bincount(grown_full.ravel(), minlength=count) >= self._hand_area_px
        wide[0] = False
        wide[grown_full[seeds_full > 0]] = False  # (the hand's already)
        if wide.any():
            closed = cv2.morphologyEx(faint_full, cv2.MORPH_CLOSE, self._crease) & inner
            bridged_count, bridged = cv2.connectedComponents(closed, connectivity=8)
            joined = np.zeros(count, bool)
            joined[grown_full[_labelled(bridged, bridged_count, seeds_full) > 0]] = True
            joined &= wide
            hands[box] |= joined[grown_full].view(np.uint8) * np.uint8(255)
        return hands

    def _tinted_hands(self, tinted: np.ndarray) -> np.ndarray | None:
        """Hands that read as shadows (255; None: none): a hand's area of "shadow" tinted
        otherwise than the table (a brown hand on brown cloth, look 230: no hand was seen, a
        coin it lifted vanished, and a lift and a place read as a flick).  Their pixels stay
        shadows in the difference: a sleeve near the cloth's colour, tinted here and there,
        would break into pieces a coin could take (strike at look 111)."""
        parts = self._hand_sized(tinted.view(np.uint8))
        if parts is None:
            return None
        labels, big = parts
        return big[labels].view(np.uint8) * np.uint8(255)

    def _hand_sized(self, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """The pieces of a mask (nonzero, 8-connected) of a hand's area or more: their labels
        and, per label, whether it is one; None if none is."""
        if cv2.countNonZero(mask) < self._hand_area_px:
            return None
        _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        big = stats[:, cv2.CC_STAT_AREA] >= self._hand_area_px
        big[0] = False
        return (labels, big) if big.any() else None

    def _huddle(self, full_diff: np.ndarray, blob: np.ndarray, x: int, y: int) -> bool:
        """Is a big half-resolution blob (box at x, y) coins lying close together: at full
        resolution, unclosed, nearly all its change in discs of a coin or pairs of touching
        coins (`_coin_parts`)?

        The closing that keeps a sleeve in one piece joins coins a few millimetres apart;
        five of them made a hand's area, and vanished into a "hand" (a real photo of sweets,
        `tests/vision/test_real_photos.py`).  A hand is one piece at full resolution; a
        sleeve that breaks into pieces breaks into ragged ones."""
        cells = (slice(y * HALF, (y + blob.shape[0]) * HALF),
                 slice(x * HALF, (x + blob.shape[1]) * HALF))
        within = _doubled(blob.view(np.uint8)) * np.uint8(255)
        parts = self._coin_parts(full_diff[cells], within)
        return parts is not None and sum(area for _, area in parts) >= 2.0 * self.coin_area_px

    def _coin_parts(self, diff: np.ndarray, within: np.ndarray
                    ) -> list[tuple[np.ndarray, int]] | None:
        """The coins in a blob's change (`diff` over its box, `within` 255 on the blob) when
        its unclosed foreground lies, all but a tenth, in parts each one coin's disc or two
        touching coins: each part's mask over the box and its area (px); None otherwise."""
        fg = cv2.compare(diff, self.config.threshold, cv2.CMP_GT) & within
        fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, self._open)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
        areas = stats[1:, cv2.CC_STAT_AREA] / self.coin_area_px
        lo, hi = PART_COIN_AREAS
        parts = []
        for k in np.flatnonzero(areas >= lo) + 1:
            x0, y0, w, h = stats[k, :4]
            part = labels[y0:y0 + h, x0:x0 + w] == k
            coins = areas[k - 1]
            one = lo <= coins <= hi and _elongation(part) < STREAK_ELONGATION
            two = 2 * lo <= coins <= 2 * hi and \
                _extent(part)[0] < COMPACT_STREAK_WIDTH * 2.0 * self.coin_r_px
            if not (one or two) or not _solid(part):
                return None
            parts.append((labels == k, int(stats[k, cv2.CC_STAT_AREA])))
        if not parts or sum(a for _, a in parts) < \
                PARTS_SHARE * stats[1:, cv2.CC_STAT_AREA].sum():
            return None
        return parts

    @property
    def _hand_area_px(self) -> float:
        """A hand's least area (pixels): `hand_area_coins` coins."""
        return self.config.hand_area_coins * self.coin_area_px

    def _streak(self, blob: np.ndarray) -> bool:
        """Is a big half-resolution blob a coin's streak: a solid bar no wider than a coin?
        A coin flicked at 3 m/s blurs over 90 mm in a 30 fps frame, five coins' area with a
        resting coin it runs into (fast-flick, look 109, frame 61), while a hand is wider
        than a coin across its palm."""
        if not _solid(blob):
            return False
        m = cv2.moments(blob.view(np.uint8), binaryImage=True)
        spread = np.linalg.eigvalsh(np.array([[m["mu20"], m["mu11"]], [m["mu11"], m["mu02"]]])
                                    / max(m["m00"], 1.0))
        width = np.sqrt(12.0 * max(float(spread[0]), 0.0))  # a uniform bar's full width
        return width <= STREAK_WIDTH * 2.0 * self.coin_r_px / HALF

    def forget(self, point_mm: tuple[float, float]) -> bool:
        """Take the last frame as the empty table in a coin's disc around `point_mm`; say
        whether it was taken: only while no hand is within a finger's length of it and the
        image there has held still (VACATED_STILL_FRAMES).

        Where a coin stood at the session start the empty table was only inpainted; once
        the coin has left (and nothing else is there) the cloth is in view: learn it, so that
        the old place does not linger as a ghost coin (gate run at look 177: Ace, of the
        cloth's colour, took the ghost of Moons' place while hands stayed in view elsewhere).
        A fingertip learnt as cloth would linger as one instead: one apart from its hand
        (skin faint on the cloth between) is within a finger's length of it, and a finger
        following through after a flick moves.
        """
        if self._result is None:
            return False
        c = np.round(self._roi_px(np.asarray([point_mm], float))[0]).astype(int)
        H, W = self.table_mask.shape
        reach = int(np.ceil(FINGER_MM * self.px_per_mm))
        if self._result.hands[max(0, c[1] - reach):c[1] + reach + 1,
                              max(0, c[0] - reach):c[0] + reach + 1].any():
            return False
        r = int(np.ceil(self.coin_r_px + 4))
        x0, y0 = max(0, c[0] - r), max(0, c[1] - r)
        box = (slice(y0, min(H, c[1] + r + 1)), slice(x0, min(W, c[0] + r + 1)))
        if not self._gate.still((x0, y0, box[1].stop, box[0].stop), VACATED_STILL_FRAMES):
            return False
        disc = np.zeros((box[0].stop - y0, box[1].stop - x0), np.uint8)
        cv2.circle(disc, (c[0] - x0, c[1] - y0), r, 255, -1)
        return self._learn(box, disc)

    def _learn(self, box: tuple[slice, slice], region: np.ndarray) -> bool:
        """Take the last frame as the empty table in `region` (a mask of the ROI's `box`,
        nonzero), unless a hand reaches into it."""
        if self._result is None or self.background is None or self._gain_used is None:
            return False
        inside = region > 0
        if not inside.any() or self._result.hands[box][inside].any():
            return False
        norm = cv2.multiply(self._blurred[box], (*(1.0 / g for g in self._gain_used), 0.0),
                            dtype=cv2.CV_32F)
        self.background[box][inside] = norm[inside]
        self._set_background(cv2.convertScaleAbs(self.background[box]), box)
        touched = np.zeros(self.table_mask.shape, np.uint8)
        touched[box] = region
        self._gate.touch(touched)
        return True

    def _roi_px(self, points_mm: np.ndarray) -> np.ndarray:
        return self.mapping.to_pixels(points_mm) - self.roi[:2]

    def table_look(self, point_mm: tuple[float, float]) -> np.ndarray:
        """The empty table's colour (as a look: each channel 0-1, the exposure removed) in
        the disc of a coin resting at `point_mm`, on a tower's top as seen there: what the
        look of a coin there takes in where its blurred rim shows the table through."""
        p = np.asarray([point_mm], float)
        height = next((h for footprint, h in self._stacks if _in_convex(p, footprint)[0]),
                      COIN_HEIGHT_MM)
        x, y = self.mapping.to_pixels(self.mapping.seen_mm(p, height))[0] - self.roi[:2]
        r = int(np.ceil(self.coin_r_px))
        H, W = self.table_mask.shape
        x0, y0 = min(max(0, round(x) - r), W - 1), min(max(0, round(y) - r), H - 1)
        box = (slice(y0, min(H, round(y) + r + 1)), slice(x0, min(W, round(x) + r + 1)))
        disc = np.zeros(self._background_u8[box].shape[:2], np.uint8)
        cv2.circle(disc, (round(x) - x0, round(y) - y0), r, 255, -1)
        return np.asarray(cv2.mean(self._background_u8[box], disc)[:3]) / 255.0

    def _piece_region(self, footprint_mm: Sequence[tuple[float, float]], height_mm: float,
                      outline_px: int = 0) -> tuple[tuple[slice, slice], np.ndarray]:
        """A piece as the image shows it (its foot and its top, `height_mm` up, and the side
        between), or only its outline `outline_px` either side: the box of the ROI it lies
        in and its mask there."""
        seen = self._seen(footprint_mm, height_mm) - self.roi[:2]
        pad = outline_px + 1
        H, W = self.table_mask.shape
        x0, y0 = (max(0, int(v) - pad) for v in np.floor(seen.min(axis=0)))
        x1, y1 = (int(v) + pad + 1 for v in np.ceil(seen.max(axis=0)))
        box = (slice(y0, min(H, y1)), slice(x0, min(W, x1)))
        region = np.zeros((box[0].stop - y0, box[1].stop - x0), np.uint8)
        hull = cv2.convexHull(np.round(seen - [x0, y0]).astype(np.int32))
        if outline_px:
            cv2.polylines(region, [hull], True, 255, 2 * outline_px + 1)
        else:
            cv2.fillConvexPoly(region, hull, 255)
        return box, region

    def _without_coins(self, box: tuple[slice, slice], region: np.ndarray,
                       coins_mm: Iterable[tuple[float, float]]) -> np.ndarray:
        """A mask of the ROI's `box` with the coins' discs (and a few pixels) left out: coins
        are no part of the empty table."""
        r = int(np.ceil(self.coin_r_px + 3))
        origin = [box[1].start, box[0].start]
        for c in self._roi_px(np.asarray(list(coins_mm), float).reshape(-1, 2)) - origin:
            cv2.circle(region, (round(c[0]), round(c[1])), r, 0, -1)
        return region

    def _fill_half(self, mask: np.ndarray, name: str, by_mm: float) -> None:
        """Fill (255) where a piece's footprint grown by `by_mm` shows, in a half-resolution
        mask of the ROI."""
        seen = (self._seen(self._grown(name, by_mm), self._piece_top_mm(name))
                - self.roi[:2]) / HALF
        cv2.fillConvexPoly(mask, cv2.convexHull(np.round(seen).astype(np.int32)), 255)

    def _piece_top_mm(self, name: str) -> float:
        """How high a piece's top is (its layers of tile)."""
        return self.layout.pieces[name].layers * self.mapping.tile_thickness_mm

    def _grown(self, name: str, by_mm: float) -> list[tuple[float, float]]:
        """A piece's footprint with each side moved `by_mm` outwards (inwards if negative)."""
        piece = self.layout.pieces[name]
        return square_corners(piece.center_mm, piece.size_mm + 2.0 * by_mm, piece.angle_deg)

    def outline_change(self, name: str, coins_mm: Iterable[tuple[float, float]]
                       ) -> float | None:
        """The share of a piece's outline (OUTLINE_PX either side) that differs from the empty
        table in the last frame: a tile knocked out of place leaves its old edges and shows
        new ones (a 2 mm knock, a strip a pixel or two wide along two of its sides).  None
        while a hand reaches into it (it cannot be told)."""
        if self._result is None:
            return None
        box, band = self._outlines[name]
        inside = self._without_coins(box, band.copy(), coins_mm) > 0
        if not inside.any() or self._result.hands[box][inside].any():
            return None
        return float(np.mean(self._read[box][inside] > self.config.threshold))

    def learn_piece(self, name: str, reach_mm: float,
                    coins_mm: Iterable[tuple[float, float]]) -> bool:
        """Take the last frame as the empty table over a piece that moved (its footprint
        grown by `reach_mm` to take in where it was, where it is and its shadow), the coins'
        discs left out: its new edges are the table's, not coins."""
        box, region = self._piece_region(self._grown(name, reach_mm), self._piece_top_mm(name))
        return self._learn(box, self._without_coins(box, region, coins_mm))

    def _set_background(self, background_u8: np.ndarray,
                        box: tuple[slice, slice] | None = None) -> None:
        """The empty table (8-bit) anew, or in one box of the ROI."""
        if box is None:
            self._background_u8 = background_u8
            self._exposure = None
            self._saturated = cv2.compare(background_u8, SATURATED, cv2.CMP_GE)
            self._paper = _paper(background_u8)
            self._paper_unclipped = self._paper & ~self._saturated.any(axis=2)
            return
        self._background_u8[box] = background_u8
        self._saturated[box] = cv2.compare(background_u8, SATURATED, cv2.CMP_GE)
        self._paper[box] = _paper(background_u8)
        self._paper_unclipped[box] = self._paper[box] & ~self._saturated[box].any(axis=2)
        if self._exposure is not None:
            self._exposure[1][box] = _scaled(background_u8, self._exposure[0])

    def _halve(self, image: np.ndarray) -> np.ndarray:
        """Half resolution: each pixel the mean of a 2×2 block (bilinear at exactly ½)."""
        hh, hw = image.shape[0] // HALF, image.shape[1] // HALF
        return cv2.resize(image[:hh * HALF, :hw * HALF], (hw, hh),
                          interpolation=cv2.INTER_LINEAR)

    def _foreground(self, frame: np.ndarray) -> tuple[np.ndarray, tuple]:
        """Coins, hands and arms at full resolution, over the whole ROI (the session start):
        pixels whose colour differs from the empty table's and that are not its shadows."""
        crop = cv2.blur(self._crop(frame), (3, 3))
        gain = self._gain(crop)
        diff, shadow, _, _ = self._difference(crop, _scaled(self._background_u8, gain),
                                              self._saturated)
        fg = self._opened_closed(diff, self._open, self._close)
        return fg, (crop, gain, diff, shadow)

    def _difference(self, blurred: np.ndarray, bg: np.ndarray, saturated: np.ndarray,
                    paper: np.ndarray | None = None
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray]:
        """Colour difference (0 on shadows), shadow mask and the "shadows" tinted otherwise
        than the table (`_tinted`) of a (3×3-blurred) image against the empty table at its
        exposure (`bg`); and the shadows on `paper` (unclipped paper, True) down to the fixed
        floor, whatever the umbra says (`_learn_umbra`)."""
        change = cv2.absdiff(blurred, bg)
        cv2.copyTo(cv2.subtract(bg, blurred), saturated, change)  # clipped: darker only
        diff = channel_sum(change)  # L1 colour distance (saturated at 255)
        dimmed, tinted, on_paper = self._shadow(blurred, bg, diff, paper)
        shadow = dimmed & (diff > self.config.threshold)  # the faint ones are no dark coin
        diff[dimmed] = 0
        if tinted is not None:  # a faint change, that hands grow through
            diff[tinted] = self.config.threshold // 2 + 1
        return diff, shadow, tinted, on_paper

    def _opened_closed(self, diff: np.ndarray, opening: np.ndarray, closing: np.ndarray
                       ) -> np.ndarray:
        """The foreground: the difference over the threshold, opened then closed."""
        fg = cv2.compare(diff, self.config.threshold, cv2.CMP_GT)
        fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, opening)
        return cv2.morphologyEx(fg, cv2.MORPH_CLOSE, closing)

    def _shadow(self, crop: np.ndarray, bg: np.ndarray, diff: np.ndarray,
                paper: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
        """Changed pixels that are the empty table, darker: every channel dimmed alike, down
        to the faint change a hand grows through (an arm's penumbra would carry the hand
        onto a resting coin beside it: gate-run at 1080p, Ace in 6 frames).

        A shadow scales the light: the frame is k × the table in every channel (within the
        noise, which is larger in absolute terms than in ratio for a dark channel), with k
        below 1 and not below the deepest cast shadow (over a hand's area, this light's, once
        the shadows on the tiles' `paper` have shown it: `Umbra`).  A dark coin changes the
        colour (no single k explains its channels) or is darker than any shadow.  And of those, the
        ones tinted otherwise than the table around them (`_tinted`; None: too few shadow
        pixels to make a hand).  Third, the shadows down to the fixed floor on `paper`.
        """
        shadow = np.zeros(diff.shape, bool)
        on_paper = np.zeros(diff.shape, bool)
        at = np.flatnonzero(diff > self.config.threshold // 2)  # only changed pixels
        if not len(at):
            return shadow, None, on_paper
        f = crop.reshape(-1, 3).take(at, axis=0).astype(np.float32).T  # channel planes
        b = bg.reshape(-1, 3).take(at, axis=0).astype(np.float32).T
        total = b[0] + b[1] + b[2]
        k = (f[0] + f[1] + f[2]) / (total + 1.0)
        fits = (k < LIGHTEST_SHADOW) & (k > self.config.deepest_shadow)
        loose = (total >= 3.0 * PAPER_LEVEL) | (diff.reshape(-1)[at] <= self.config.threshold)
        spread = np.where(loose, np.float32(LOOSE_SHADOW_SPREAD), np.float32(SHADOW_SPREAD))
        for c in range(3):
            fits &= np.abs(f[c] - k * b[c]) <= 6.0 + spread * b[c]
        if paper is not None:
            on_paper.reshape(-1)[at[fits]] = paper.reshape(-1)[at[fits]]
        deepest = self._umbra.deepest  # (a new one: the gate's refresh, within a second)
        if deepest != self.config.deepest_shadow:
            fits &= ~self._deeper_than_shadows(diff.shape, at, fits & (k <= deepest))
        shadow.reshape(-1)[at[fits]] = True
        if np.count_nonzero(fits) < self._hand_area_px:
            return shadow, None, on_paper  # less than a hand
        return shadow, _tinted(shadow, crop, bg), on_paper

    def _deeper_than_shadows(self, shape: tuple[int, int], at: np.ndarray, deep: np.ndarray
                             ) -> np.ndarray:
        """Of the changed pixels `at` (flat indices into a box of `shape`), those of a hand's
        area or more, all of a piece, dimmed deeper than this light's shadows (`deep`): a
        thing of the cloth's hue, a hand or a sleeve, not its shadow.  A few such pixels
        here and there are the noise of a shadow on dark cloth."""
        parts = None
        if np.count_nonzero(deep) >= self._hand_area_px:  # (before any mask is made)
            mask = np.zeros(shape, np.uint8)
            mask.reshape(-1)[at[deep]] = 255
            parts = self._hand_sized(mask)
        if parts is None:
            return np.zeros(len(at), bool)
        labels, big = parts
        return big[labels.reshape(-1)[at]]

    def _exposed(self, gain: tuple[float, float, float]) -> np.ndarray:
        """The empty table at this exposure (kept while the gain and the table hold)."""
        if self._exposure is None or self._exposure[0] != gain:
            self._exposure = (gain, _scaled(self._background_u8, gain))
        return self._exposure[1]

    def _gain(self, crop: np.ndarray) -> tuple[float, float, float]:
        """Per-channel exposure ratio frame / empty table, from a sparse robust sample."""
        sample = (slice(3, None, 14), slice(3, None, 14))
        ratio = (crop[sample].astype(np.float32) + 1.0) / (self._background_u8[sample] + 1.0)
        g = np.median(ratio.reshape(-1, 3).T.copy(), axis=1)  # contiguous rows: faster
        return (float(g[0]), float(g[1]), float(g[2]))

    def adapt(self, coins_mm: Iterable[tuple[float, float]]) -> None:
        """Follow slow light changes in the last frame, except where the coins are (the
        tracker's places), hands, shadows and strong changes (every few frames).

        Faint change away from every coin is the table itself under drifting light (a
        tile's paper follows the exposure otherwise than the cloth): it is learnt, so it
        never lingers as a blob that no coin claims.
        """
        if self._result is None or self.background is None or self._gain_used is None:
            return
        self._frames += 1
        elapsed = self._frames - self._adapted_at
        if elapsed < ADAPT_EVERY or self._reused:
            return  # (a frame that changed nowhere has nothing new to learn)
        self._adapted_at = self._frames
        crop, gain, hands, diff = self._blurred, self._gain_used, self._result.hands, self._read
        shadow = self._shadows
        rate = min(1.0, self.config.background_rate * elapsed)
        places = self.mapping.to_pixels(np.asarray(list(coins_mm), float).reshape(-1, 2)) \
            - self.roi[:2]
        r = int(np.ceil(self.coin_r_px * 1.5))
        moved = np.zeros(self.table_mask.shape, np.uint8)
        # Only where the last frame was measured: elsewhere the image has not changed.
        for box in self._regions:
            busy = hands[box] | shadow[box].view(np.uint8) * 255 | cv2.compare(
                diff[box], 2 * self.config.threshold, cv2.CMP_GT)
            for c in places - [box[1].start, box[0].start]:
                cv2.circle(busy, (round(c[0]), round(c[1])), r, 255, -1)
            free = cv2.erode(255 - busy, self._open)
            norm = cv2.multiply(crop[box], (*(1.0 / g for g in gain), 0.0), dtype=cv2.CV_32F)
            cv2.accumulateWeighted(norm, self.background[box], rate, mask=free)
            before = self._background_u8[box].copy()
            self._set_background(cv2.convertScaleAbs(self.background[box]), box)
            # Where the empty table moved by more than two levels, the difference is stale.
            moved[box] = cv2.compare(colour_distance(before, self._background_u8[box]), 2,
                                     cv2.CMP_GT)
        self._gate.touch(moved)

    def _measure(self, filled: np.ndarray, weights: np.ndarray, area: float
                 ) -> list[tuple[float, float, float, tuple[float, float]]]:
        """One filled blob (its box: 1 inside) with its pixel weights → coin centres (box
        pixels), with streak length (px) and direction, from its moments."""
        m = cv2.moments(filled, binaryImage=True)
        n = m["m00"]
        cov = (np.array([[m["mu20"], m["mu11"]], [m["mu11"], m["mu02"]]]) / (n - 1.0)
               if n > 2 else np.eye(2))
        evals, evecs = np.linalg.eigh(cov)
        if round(area / self.coin_area_px) >= 2:
            ys, xs = np.nonzero(filled)
            return self._split(xs, ys, weights[ys, xs].astype(float), area)
        mw = cv2.moments(weights)
        major = 4.0 * np.sqrt(max(evals[1], 1e-6))  # full length of a uniform bar ≈ √12σ
        minor = 4.0 * np.sqrt(max(evals[0], 1e-6))
        elongation = major / max(minor, 1e-6)
        streak = max(0.0, major - 2.0 * self.coin_r_px) if elongation > STREAK_ELONGATION \
            else 0.0
        return [(mw["m10"] / mw["m00"], mw["m01"] / mw["m00"], streak,
                 (float(evecs[0, 1]), float(evecs[1, 1])))]

    def _split(self, xs: np.ndarray, ys: np.ndarray, w: np.ndarray, area: float
               ) -> list[tuple[float, float, float, tuple[float, float]]]:
        """One blob → coin centres (blob pixels), with streak length (px) and direction."""
        pts = np.column_stack([xs, ys]).astype(np.float32)
        cov = np.cov(pts.T) if len(pts) > 2 else np.eye(2)
        evals, evecs = np.linalg.eigh(cov)
        major = 4.0 * np.sqrt(max(evals[1], 1e-6))  # full length of a uniform bar ≈ √12σ
        minor = 4.0 * np.sqrt(max(evals[0], 1e-6))
        elongation = major / max(minor, 1e-6)
        n_coins = round(area / self.coin_area_px)
        compact = elongation < 1.4
        if n_coins >= 2 and not compact:
            neck = _neck(pts, evecs[:, 1])
            if neck is not None:  # a chain: each side of its narrowest waist on its own
                out = []
                for side in (neck, ~neck):
                    share = float(side.mean())
                    if share * area >= 0.35 * self.coin_area_px:
                        out += self._split(xs[side], ys[side], w[side], share * area)
                return out
        # Two touching coins are a bar twice as long as wide, never compact: a compact blob
        # of two coins' area no wider than a coin is one coin streaked by its motion (a
        # 2 m/s slide at 720p60, which k-means cut into halves 13 mm apart, closer than
        # coins can lie); a wider one is a coin and a change beside it (a tower's edge).
        one_streak = n_coins == 2 and minor < COMPACT_STREAK_WIDTH * 2.0 * self.coin_r_px
        if n_coins >= 2 and compact and not one_streak:
            k = min(n_coins, 4)
            lab = _clustered(pts, k)
            out = []
            for j in range(k):
                sel = lab == j
                if not sel.any():
                    continue
                ww = w[sel] + 1e-6
                out.append((float(np.average(xs[sel], weights=ww)),
                            float(np.average(ys[sel], weights=ww)), 0.0, (0.0, 0.0)))
            return out
        cx = float(np.average(xs, weights=w + 1e-6))
        cy = float(np.average(ys, weights=w + 1e-6))
        streak = max(0.0, major - 2.0 * self.coin_r_px) if elongation > STREAK_ELONGATION \
            else 0.0
        direction = (float(evecs[0, 1]), float(evecs[1, 1]))
        return [(cx, cy, streak, direction)]

    @property
    def half_image(self) -> np.ndarray | None:
        """The last frame's region of interest at half resolution (the change gate's)."""
        return self._gate.image

    def covered(self, hands: np.ndarray, point_mm: tuple[float, float]) -> bool:
        """Is this table point under a hand in the last frame?"""
        px = self.mapping.to_pixels(np.asarray([point_mm], float))[0]
        x0, y0, _, _ = self.roi
        u, v = round(px[0] - x0), round(px[1] - y0)
        return 0 <= v < hands.shape[0] and 0 <= u < hands.shape[1] and hands[v, u] > 0


@dataclass
class _Found:
    """One frame's finds, kept for the next (which keeps them where its image holds)."""

    found: Detections
    px: np.ndarray
    """(N, 2) each detection's centre in the ROI's pixels."""
    hands: np.ndarray
    """The hands (ROI, 255 = hand)."""
    hand_look: np.ndarray | None
    """The hands' mean colour (None: no hand)."""
    resting: int
    """How many coins were at rest."""
    measured: np.ndarray
    """(N,) True for a blob measured, False for a resting coin kept where it rests."""


@dataclass
class _Measured:
    """One blob's coins as measured at full resolution (kept while its image holds)."""

    blob: np.ndarray
    """Its half-resolution mask, in its box."""
    coins: list
    """(area, cx, cy, streak, direction, colour, by hand) of each coin found in it (centres
    in the ROI's pixels)."""
    done: set
    """The full-resolution components it measured (another blob reaching them skips them),
    by their box in the ROI."""
    with_hands: bool
    """Whether a hand was in view (a coin with a fingertip is measured without the skin)."""


class _Patches:
    """Blobs found at half resolution, measured at full resolution in their own boxes.

    Each box is the blob's, padded by the reach of the morphology, and its full-resolution
    difference goes through the same opening, closing and labelling as the whole ROI's
    would; the boxes are laid side by side in one image (a mosaic), apart by more than that
    reach, so one pass measures them all.  A component that comes within the reach of its
    box's edges (where the mosaic's gap, not the frame, is next to it) is measured again
    alone in a box grown around it, whose edges on the ROI's own are exact; so every
    component kept is exactly the full-resolution one.
    """

    def __init__(self, detector: CoinDetector, crop: np.ndarray, diff: np.ndarray,
                 gain: tuple[float, float, float], hands: np.ndarray,
                 to_hand: tuple[tuple[int, int], np.ndarray] | None,
                 hand_look: np.ndarray | None, origin: tuple[int, int],
                 shadow: np.ndarray, empty: np.ndarray) -> None:
        self.det, self.crop, self.diff, self.gain = detector, crop, diff, gain
        self.hands, self.to_hand, self.hand_look = hands, to_hand, hand_look
        """Hands (full resolution); box origin and distances to them (None: no hand);
        the hands' mean colour (0-1, gain removed)."""
        self.origin = origin
        """Where the images given (a window) lie in the ROI (x, y px, even)."""
        self.shadow, self.empty = shadow, empty
        """The shadow mask and the empty table at this exposure, in the same window (where a
        coin darker than the cloth is looked for)."""
        self.reach = detector._open.shape[0] - 1 + detector._close.shape[0] - 1 + 1
        self.pad = self.reach + 2 * HALF
        self.done: set[tuple[int, int, int, int, int]] = set()

    def _distances(self, gx: int, gy: int, part: np.ndarray) -> np.ndarray:
        """Distance (px) from each pixel of a component (box at gx, gy) to the nearest
        hand pixel (beyond the hands' box: farther than any reach that matters)."""
        assert self.to_hand is not None
        (x0, y0), dist = self.to_hand
        ys, xs = np.nonzero(part)
        ys, xs = ys + (gy - y0), xs + (gx - x0)
        inside = (ys >= 0) & (ys < dist.shape[0]) & (xs >= 0) & (xs < dist.shape[1])
        out = np.full(len(ys), np.inf, np.float32)
        out[inside] = dist[ys[inside], xs[inside]]
        return out

    def _coin_beside_hand(self, cells: tuple[slice, slice], part: np.ndarray, area: int,
                          to_hand: np.ndarray) -> bool:
        """A blob near a hand is still a coin when it is one whole coin's size, does not
        touch the hand and is unlike it in colour: a coin resting a finger's width from the
        hand.  Measured on the quick benchmark's clip (strike, look 100): such coins lie
        0.28-0.61 from the hands' mean colour, fingertips apart from their hand 0.03-0.14, on
        the 0-1 scale of each channel."""
        det = self.det
        if self.hand_look is None or not 0.8 <= area / det.coin_area_px <= 1.25:
            return False
        if float(to_hand.min()) < det.coin_r_px / 2:
            return False
        colour = _mean_look(self.crop[cells], part.view(np.uint8), self.gain)
        return float(np.linalg.norm(colour - self.hand_look)) > HAND_COLOUR_APART

    def _without_skin(self, cells: tuple[slice, slice], part: np.ndarray, area: int
                      ) -> tuple[np.ndarray, int]:
        """The blob without the pixels of the hands' colour, when a fingertip merged into a
        coin: the coin alone is measured (its centre is not dragged toward the finger)."""
        det = self.det
        lo, hi = SKIN_AREAS
        if self.hand_look is None or not lo <= area / det.coin_area_px <= hi:
            return part, area  # one coin alone, or two touching
        pixels = self.crop[cells].astype(np.float32) / (np.float32(255.0) * np.asarray(
            self.gain, np.float32))
        skin = (np.linalg.norm(pixels - self.hand_look.astype(np.float32), axis=2)
                < SKIN_NEAR) & part
        n_skin = int(skin.sum())
        if n_skin < 0.1 * det.coin_area_px or area - n_skin < 0.8 * det.coin_area_px:
            return part, area
        coin, coin_area = _largest_left(part & ~skin, det._open)
        if not 0.8 * det.coin_area_px <= coin_area <= 1.15 * det.coin_area_px:
            return part, area  # no one resting coin is left: a coin blurred with the finger
        return coin, coin_area

    def _run(self, boxes: list[tuple[int, int, int, int]]):
        """Labels and stats of the boxes' foreground laid side by side, and each box's
        offset in that mosaic."""
        if len(boxes) == 1:
            x0, y0, x1, y1 = boxes[0]
            mosaic = self.diff[y0:y1, x0:x1]
            offsets = [0]
        else:
            gap = self.reach + 1
            height = max(y1 - y0 for _, y0, _, y1 in boxes)
            width = sum(x1 - x0 for x0, _, x1, _ in boxes) + gap * (len(boxes) - 1)
            mosaic = np.zeros((height, width), np.uint8)
            offsets, at = [], 0
            for x0, y0, x1, y1 in boxes:
                mosaic[:y1 - y0, at:at + x1 - x0] = self.diff[y0:y1, x0:x1]
                offsets.append(at)
                at += x1 - x0 + gap
        det = self.det
        fg = det._opened_closed(mosaic, det._open, det._close)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
        return labels, stats, offsets

    def coins(self, candidates: list[tuple[int, int, int, int, np.ndarray]],
              known: dict[tuple[int, int, int, int], _Measured], fresh: np.ndarray):
        """(area, cx, cy, streak, direction, colour, by hand) of each coin in the
        half-resolution blobs (box x, y, w, h, its mask in that box), centres in ROI
        pixels; and each blob's measurement, by its box.

        A blob the last frame measured (`known`) in the same shape, whose box the image did
        not change in (`fresh`: the tiles measured again) and no hand reaches, has the coins
        it had."""
        H, W = self.crop.shape[:2]
        pad = self.pad
        alone, together = [], []
        out, measured = [], {}
        with_hands = self.hand_look is not None
        reach = int(np.ceil(self.det._hand_reach_px)) + pad
        ox, oy = self.origin
        for x, y, w, h, blob in candidates:
            box = (max(0, x * HALF - pad), max(0, y * HALF - pad),
                   min(W, (x + w) * HALF + pad), min(H, (y + h) * HALF + pad))
            key = (x + ox // HALF, y + oy // HALF, w, h)  # in the ROI's half resolution
            last = known.get(key)
            if last is not None and self._holds(last, box, blob, fresh, with_hands, reach):
                out += [(area, cx - ox, cy - oy, *rest) for area, cx, cy, *rest in last.coins]
                self.done |= last.done
                measured[key] = last
                continue
            edge = box[0] == 0 or box[1] == 0 or box[2] == W or box[3] == H
            (alone if edge else together).append((box, x, y, w, h, blob))
        mosaic = self._run([c[0] for c in together]) if together else None
        runs = [(mosaic, i, c, True) for i, c in enumerate(together)]
        runs += [(None, 0, c, False) for c in alone]
        for run, i, (box, x, y, w, h, blob), in_mosaic in runs:
            run = run if in_mosaic else self._run([box])
            before = set(self.done)
            coins = self._coins_in(run, i, box, x, y, blob, mosaic=in_mosaic)
            out += coins
            measured[(x + ox // HALF, y + oy // HALF, w, h)] = _Measured(
                blob, [(area, cx + ox, cy + oy, *rest) for area, cx, cy, *rest in coins],
                self.done - before, with_hands)
        return out, measured

    def _holds(self, last: _Measured, box: tuple[int, int, int, int], blob: np.ndarray,
               fresh: np.ndarray, with_hands: bool, reach: int) -> bool:
        """Does a blob's last measurement hold in this frame?"""
        ox, oy = self.origin
        if self.det._gate.any_in(fresh, (box[0] + ox, box[1] + oy, box[2] + ox, box[3] + oy)) \
                or not np.array_equal(last.blob, blob):
            return False
        x0, y0, x1, y1 = box
        if self.hands[max(0, y0 - reach):y1 + reach, max(0, x0 - reach):x1 + reach].any():
            return False  # fingertips, coins beside or touching a hand: measured anew
        lo, hi = SKIN_AREAS
        return not ((with_hands or last.with_hands) and any(
            lo <= area / self.det.coin_area_px <= hi for area, *_ in last.coins))

    def _coins_in(self, run, i: int, box: tuple[int, int, int, int], x: int, y: int,
                  blob: np.ndarray, mosaic: bool, tries: int = 3):
        labels, stats, offsets = run
        H, W = self.crop.shape[:2]
        x0, y0, x1, y1 = box
        ox = offsets[i]
        up = np.repeat(np.repeat(blob, HALF, axis=0), HALF, axis=1)
        ux, uy = x * HALF - x0, y * HALF - y0
        under = labels[uy:y1 - y0, ox + ux:ox + x1 - x0][:up.shape[0], :up.shape[1]]
        ks = [int(k) for k in np.unique(under[up[:under.shape[0], :under.shape[1]]]) if k > 0]
        # A component near an edge of its box that is not the ROI's: measure it again.
        grown = [x0, y0, x1, y1]
        reach, pad = self.reach, self.pad
        for k in ks:
            bx, by, bw, bh = (int(v) for v in stats[k, :4])
            bx -= ox
            if bx < reach and (mosaic or x0 > 0):
                grown[0] = min(grown[0], max(0, x0 + bx - pad))
            if by < reach and (mosaic or y0 > 0):
                grown[1] = min(grown[1], max(0, y0 + by - pad))
            if bx + bw > x1 - x0 - reach and (mosaic or x1 < W):
                grown[2] = max(grown[2], min(W, x0 + bx + bw + pad))
            if by + bh > y1 - y0 - reach and (mosaic or y1 < H):
                grown[3] = max(grown[3], min(H, y0 + by + bh + pad))
        if tuple(grown) != box and tries > 0:
            new = (grown[0], grown[1], grown[2], grown[3])
            return self._coins_in(self._run([new]), 0, new, x, y, blob, False, tries - 1)
        det = self.det
        shown = sum(int(stats[k, cv2.CC_STAT_AREA]) for k in ks
                    if self._key(stats[k], x0 - ox, y0) not in self.done)
        if shown < DARK_COIN_SHOWN * det.coin_area_px and (dark := self._dark_coin(box, blob,
                                                                                  x, y, shown)):
            return dark
        out = []
        for k in ks:
            bx, by, bw, bh, area = (int(v) for v in stats[k])
            gx, gy = x0 + bx - ox, y0 + by  # the component's box in the ROI
            key = self._key(stats[k], x0 - ox, y0)
            if key in self.done or area < 0.35 * det.coin_area_px:
                continue
            self.done.add(key)
            part = labels[by:by + bh, bx:bx + bw] == k
            cells = (slice(gy, gy + bh), slice(gx, gx + bw))
            touching = False
            if self.to_hand is not None:
                if self.hands[cells][part].any():
                    continue  # part of a hand
                to_hand = self._distances(gx, gy, part)
                in_reach = bool(np.mean(to_hand < det._hand_reach_px) > 0.3)
                beside = in_reach and self._coin_beside_hand(cells, part, area, to_hand)
                if in_reach and not beside:
                    self.hands[cells][part] = 255  # a fingertip apart from its hand
                    continue
                touching = not beside and bool((to_hand < det._touch_px).any())
                part, area = self._without_skin(cells, part, area)
            if area > COIN_ON_TILE_AREAS[1] * det.coin_area_px:
                part, area = self._off_tile(cells, part, area)
            parts = None
            if round(area / det.coin_area_px) >= 2:  # coins close together, apart unclosed?
                parts = det._coin_parts(self.diff[cells], part.view(np.uint8) * np.uint8(255))
            if parts is None or len(parts) < 2:
                parts = [(part, area)]
            for part, area in parts:
                out += self._measured_coins(cells, part, area, touching)
        return out

    def _measured_coins(self, cells: tuple[slice, slice], part: np.ndarray, area: int,
                        touching: bool) -> list:
        """The coins of one component (its mask over the window's box `cells`)."""
        det = self.det
        gy, gx = cells[0].start, cells[1].start
        filled = _holes_filled(part)
        colour = _mean_look(self.crop[cells], filled, self.gain)
        filled, weights, gx, gy = self._edge_weights(filled, gx, gy, area)
        out = []
        for cx, cy, streak, direction in det._measure(filled, weights, area):
            if streak < det.coin_r_px and area < OCCLUDED_SHARE * det.coin_area_px:
                cx, cy = self._occluded_centre(filled, gx, gy, cx, cy)
            out.append((area, cx + gx, cy + gy, streak, direction, colour, touching))
        return out

    def _off_tile(self, cells: tuple[slice, slice], part: np.ndarray, area: int
                  ) -> tuple[np.ndarray, int]:
        """A blob that reaches deep into a flat tile, without the tile: the one coin beside
        it, when what is left is one compact coin; else the blob as it was.

        No coin lies on a flat tile; a tile's paper that a hand's shadow dimmed unevenly
        changes, and the closing bridged a 3-pixel gap to Moons beside it (capture at look
        199: read as a 27 mm streak 5 mm off, then a flick and a hit).  A blob of an arm
        over tiles is left whole: its pieces off the tiles are no coin."""
        det = self.det
        ox, oy = self.origin
        rows, cols = cells
        tiles = det._on_tiles[rows.start + oy:rows.stop + oy, cols.start + ox:cols.stop + ox]
        if not tiles[part].any():
            return part, area
        size = round(det.coin_r_px) | 1  # a disc half a coin wide: the bridge goes, a coin stays
        coin, left = _largest_left(part & (tiles == 0), cv2.getStructuringElement(
            cv2.MORPH_ELLIPSE, (size, size)))
        lo, hi = COIN_ON_TILE_AREAS
        if not lo * det.coin_area_px <= left <= hi * det.coin_area_px or \
                _elongation(coin) > STREAK_ELONGATION:
            return part, area
        return coin, left

    def _around(self, blob: np.ndarray, gx: int, gy: int, margin: int
                ) -> tuple[slice, slice]:
        """A blob's box (at gx, gy of the window) grown by `margin` pixels, within the window."""
        H, W = self.diff.shape
        return (slice(max(0, gy - margin), min(H, gy + blob.shape[0] + margin)),
                slice(max(0, gx - margin), min(W, gx + blob.shape[1] + margin)))

    def _edge_weights(self, filled: np.ndarray, gx: int, gy: int, area: int
                      ) -> tuple[np.ndarray, np.ndarray, int, int]:
        """A coin's filled blob (box at gx, gy of the window) padded by a pixel about it,
        its centroid weights and the padded box's origin.

        A pixel on the coin's edge is part coin, part cloth: its change over the coin's own
        against the cloth (`_centre_weights`) is the share of it the coin covers.  Beyond
        the blob's edge the pixels under the threshold still hold a part of it, most on the
        side where the coin is least unlike the cloth (its side wall, a rim into its
        shadow); those taken by another blob or a hand are not this coin's.  A blob of two
        coins or more (`_split`) has no one coin's contrast: its edge is weighted by the
        change over twice the threshold, inside it only (a streak run into a resting coin
        has a fainter middle than the coin, and its centre was drawn 0.5 mm toward it)."""
        cells = self._around(filled, gx, gy, 1)
        y0, x0 = cells[0].start, cells[1].start
        bh, bw = filled.shape
        padded = np.zeros((cells[0].stop - y0, cells[1].stop - x0), np.uint8)
        padded[gy - y0:gy - y0 + bh, gx - x0:gx - x0 + bw] = filled
        change, threshold = self.diff[cells], self.det.config.threshold
        if round(area / self.det.coin_area_px) >= 2:
            return padded, _centre_weights(padded, change, threshold, padded,
                                           2.0 * threshold), x0, y0
        rim = cv2.dilate(padded, None)
        rim[(padded == 0) & (change > threshold)] = 0  # another blob's
        rim[self.hands[cells] > 0] = 0
        return padded, _centre_weights(padded, change, threshold, rim), x0, y0

    def _occluded_centre(self, filled: np.ndarray, gx: int, gy: int, cx: float, cy: float
                         ) -> tuple[float, float]:
        """The centre of a coin partly hidden (its filled blob, box at gx, gy): the circle of
        the coin's radius through its outline where it meets the cloth.

        The centroid of what shows is off the centre, away from what hides the rest (720p60:
        up to 4.8 mm as a coin came out from under a hand, 3.2 mm as a sleeve of the cloth's
        colour, seen only by its shadow's edge, covered a third of one).  The outline beside
        a hand or a shadow is theirs, and so may be a stretch of the rest (a sleeve's edge
        where no shadow shows): the circle is the one through most of the outline left (a
        grid of centres a quarter pixel apart, then least squares on the points within
        OCCLUDED_FIT_PX of it).  It is kept when the whole blob lies within it and it moves
        the centre OCCLUDED_MOVED_PX or more; else the centre stays as measured (cx, cy)."""
        det = self.det
        contours, _ = cv2.findContours(filled, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        if not contours:
            return cx, cy
        outline = max(contours, key=len).reshape(-1, 2).astype(float)
        cells = self._around(filled, gx, gy, int(np.ceil(OCCLUDED_EDGE_PX)) + 1)
        y0, x0 = cells[0].start, cells[1].start
        hiding = self.hands[cells] | (self.shadow[cells].view(np.uint8) * 255)
        if not hiding.any():
            return cx, cy
        apart = cv2.distanceTransform(cv2.compare(hiding, 0, cv2.CMP_EQ), cv2.DIST_L2, 3)
        ix, iy = outline.astype(int).T
        p = outline[apart[iy + gy - y0, ix + gx - x0] > OCCLUDED_EDGE_PX]
        radius = np.sqrt(det.coin_area_px / np.pi) - 0.5  # outline pixels lie inside the edge
        if len(p) < OCCLUDED_OUTLINE * 2.0 * np.pi * radius:
            return cx, cy
        steps = np.arange(-radius, radius + 0.125, 0.25)
        centres = np.stack(np.meshgrid(cx + steps, cy + steps), axis=-1).reshape(-1, 2)
        miss = np.abs(np.hypot(p[None, :, 0] - centres[:, None, 0],
                               p[None, :, 1] - centres[:, None, 1]) - radius)
        best = int(np.argmax((miss < OCCLUDED_FIT_PX).sum(axis=1)))
        on = miss[best] < OCCLUDED_FIT_PX
        if on.sum() < OCCLUDED_OUTLINE * 2.0 * np.pi * radius:
            return cx, cy
        c = _circle_through(p[on], centres[best], radius)
        if (np.hypot(*(outline - c).T) - radius).max() > 2.0 * OCCLUDED_FIT_PX or \
                np.hypot(c[0] - cx, c[1] - cy) < OCCLUDED_MOVED_PX:
            return cx, cy  # no one coin's outline, or hardly hidden
        by_circle, by_centroid = self._change_within(filled, gx, gy, radius + 0.5,
                                                     [(c[0], c[1]), (cx, cy)])
        if by_circle < OCCLUDED_HOLDS * by_centroid:
            return cx, cy  # the outline was its art's: its faint rim lies beyond the circle
        return float(c[0]), float(c[1])

    def _change_within(self, filled: np.ndarray, gx: int, gy: int, radius: float,
                       centres: list[tuple[float, float]]) -> list[float]:
        """How much of a coin's change a disc of `radius` about each centre (in the box of
        its filled blob at gx, gy) holds, its faint rim under the threshold included: each
        pixel by how far its change stands above the cloth's noise (FAINT_LEVEL), up to the
        threshold; not another blob's, nor a hand's or a shadow's."""
        cells = self._around(filled, gx, gy, int(np.ceil(radius)) + 2)
        y0, x0 = cells[0].start, cells[1].start
        change = self.diff[cells].astype(np.float32)
        threshold = self.det.config.threshold
        weights = np.clip((change - FAINT_LEVEL) / (threshold - FAINT_LEVEL), 0.0, 1.0)
        own = np.zeros(change.shape, bool)
        own[gy - y0:gy - y0 + filled.shape[0], gx - x0:gx - x0 + filled.shape[1]] = filled > 0
        weights[((change > threshold) & ~own) | (self.hands[cells] > 0)
                | self.shadow[cells]] = 0.0
        ys, xs = np.mgrid[0:change.shape[0], 0:change.shape[1]]
        return [float(weights[np.hypot(xs - (cx + gx - x0), ys - (cy + gy - y0)) <= radius]
                      .sum()) for cx, cy in centres]

    def _key(self, stat: np.ndarray, x0: int, y0: int) -> tuple[int, int, int, int, int]:
        """A full-resolution component (its stats row, labelled in a box at x0, y0 of the
        window) as the ROI knows it: its box and area, so that one measured once, through
        whichever blob or box, is not measured again (`done`)."""
        bx, by, bw, bh, area = (int(v) for v in stat)
        return x0 + bx + self.origin[0], y0 + by + self.origin[1], bw, bh, area

    def _dark_coin(self, box: tuple[int, int, int, int], blob: np.ndarray, x: int, y: int,
                   shown: int) -> list:
        """A coin darker than the cloth, alike in every channel (a black coin on dark grey
        felt): its rim reads as the cloth's shadow, and only its art as changed.  Its art
        and the "shadow" around it make one whole, solid coin apart from anything else,
        where a shadow cast by a coin or a hand lies beside that coin or hand, which shows
        whole.  Measured like any coin, weighted by the change its shadow test left out."""
        det = self.det
        x0, y0, x1, y1 = box
        cells = (slice(y0, y1), slice(x0, x1))
        shadow = self.shadow[cells]
        if not shadow.any():
            return []  # a fragment of change with no "shadow" about it (most are)
        changed = cv2.compare(self.diff[cells], det.config.threshold, cv2.CMP_GT)
        changed[shadow] = 255
        up = _doubled(blob.view(np.uint8))
        ux, uy = x * HALF - x0, y * HALF - y0
        # The rim that reads as shadow meets the coin's art (across a pixel of its faint
        # edge at most); a shaded strip apart from both is none of it, though the closing
        # would join them (capture at look 422: a tile's shaded side 4 px off Ace's rim, 3
        # px wide, pulled it 3.2 mm toward the tile).
        _, parts = cv2.connectedComponents(cv2.dilate(changed, None), connectivity=8)
        changed[~np.isin(parts, _labels_under(parts, up, ux, uy))] = 0
        fg = det._opened_closed(changed, det._open, det._close)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
        ks = _labels_under(labels, up, ux, uy)
        if len(ks) != 1:
            return []
        k = int(ks[0])
        bx, by, bw, bh, area = (int(v) for v in stats[k])
        on_edge = bx == 0 or by == 0 or bx + bw == x1 - x0 or by + bh == y1 - y0
        key = self._key(stats[k], x0, y0)
        part = labels[by:by + bh, bx:bx + bw] == k
        part_cells = (slice(y0 + by, y0 + by + bh), slice(x0 + bx, x0 + bx + bw))
        if on_edge or key in self.done or area < 1.25 * shown:
            return []
        # Beyond the start spots from the camera a coin looks smaller: black Moons by tower
        # 1, on the far side under a tilted camera, made 0.59 of the start spots' coin, 0.66
        # of a coin there, and was lost for 0.9 s (tower hit at look 210: its hit read as a
        # lift and a place).  Nearer, no more is asked than at the start spots: Moons put
        # down at (100, -200) at that look made 0.70 of the start spots' coin, under 0.6 of
        # a coin there, and asked that, it was lost for six frames.
        least = DARK_COIN_SHOWN * min(det.coin_area_px, det.coin_area_near(
            x0 + bx + bw / 2.0, y0 + by + bh / 2.0))
        if not least <= area <= DARK_COIN_WHOLE * det.coin_area_px \
                or not _solid(part) or self.hands[part_cells][part].any():
            return []
        self.done.add(key)
        # The coin's edge is as faint as the threshold (a rim barely darker than the felt):
        # the pixels just outside its mask still hold part of it, weighted by their change.
        gx, gy = x0 + bx - 1, y0 + by - 1  # one pixel around: inside the box (not on its edge)
        grown = (slice(gy, gy + bh + 2), slice(gx, gx + bw + 2))
        filled = _holes_filled(np.pad(part, 1))
        change = channel_sum(cv2.absdiff(self.crop[grown], self.empty[grown]))
        weights = _centre_weights(filled, change, det.config.threshold,
                                  cv2.dilate(filled, None))
        colour = _mean_look(self.crop[grown], filled, self.gain)
        return [(area, cx + gx, cy + gy, streak, direction, colour, False)
                for cx, cy, streak, direction in det._measure(
                    filled, weights, min(area, det.coin_area_px))]


class _HandReach:
    """Is a half-resolution blob within some reach of the hands?  The distance to them is
    computed once, when first asked (most frames' streak candidates fail sooner)."""

    def __init__(self, hands: np.ndarray) -> None:
        self._hands = hands
        self._to_hand: np.ndarray | None = None

    def within(self, x: int, y: int, part: np.ndarray, reach_px: float) -> bool:
        """`part`: the blob's mask in its box at (x, y), half resolution; `reach_px`: full."""
        if not self._hands.any():
            return False
        if self._to_hand is None:
            self._to_hand = cv2.distanceTransform(
                cv2.compare(_max_pool(self._hands), 0, cv2.CMP_EQ), cv2.DIST_L2, 3)
        h, w = part.shape
        return float(self._to_hand[y:y + h, x:x + w][part].min()) * HALF < reach_px


def _largest_left(part: np.ndarray, opening: np.ndarray) -> tuple[np.ndarray, int]:
    """The largest piece of a blob (bool) once opened by `opening`, and its area (0 when
    nothing is left): a coin cut from what was joined to it."""
    rest = cv2.morphologyEx(part.view(np.uint8), cv2.MORPH_OPEN, opening)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(rest, connectivity=8)
    if count < 2:
        return part, 0
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    return labels == k, int(stats[k, cv2.CC_STAT_AREA])


def _labels_under(labels: np.ndarray, mask: np.ndarray, x: int, y: int) -> np.ndarray:
    """The components of `labels` (0: none) under the nonzero pixels of `mask`, laid at
    (x, y) of it."""
    under = labels[y:y + mask.shape[0], x:x + mask.shape[1]]
    found = np.unique(under[mask[:under.shape[0], :under.shape[1]] > 0])
    return found[found > 0]


def _circle_through(points: np.ndarray, start: np.ndarray, radius: float) -> np.ndarray:
    """The centre of the circle of `radius` nearest (least squares) to the points: a few
    Gauss-Newton steps on |p - c| - radius from `start`."""
    c = np.asarray(start, float).copy()
    for _ in range(10):
        d = points - c
        r = np.maximum(np.hypot(*d.T), 1e-9)
        step, *_ = np.linalg.lstsq(-d / r[:, None], radius - r, rcond=None)
        c += step
        if np.hypot(*step) < 1e-3:
            break
    return c


def _clustered(pts: np.ndarray, k: int) -> np.ndarray:
    """Each point's cluster of k, by scipy's k-means++ from fixed seeds: the same blob
    always splits the same way (OpenCV's draws from a process-wide generator).  Three or
    four coins: the tightest of KMEANS_STARTS starts, as one can settle on a poor split
    (four coins touching in a square, 1 mm apart, read as points up to 9.4 mm off).  Two:
    one start, as the tightest cut of a coin and a tower's changed edge beside it is not
    the one that frees the coin (`test_a_compact_blob_of_two_coins_area_wider_than_a_coin_is_
    still_cut_in_two`)."""
    best, labels = np.inf, np.zeros(len(pts), np.int32)
    for seed in range(KMEANS_STARTS if k >= 3 else 1):
        centres, lab = kmeans2(pts, k, minit="++", seed=seed)
        spread = float(np.sum((pts - centres[lab]) ** 2))
        if spread < best - 1e-6:
            best, labels = spread, lab
    return labels


def _holes_filled(blob: np.ndarray) -> np.ndarray:
    """A blob (bool) with the holes its art leaves filled: 1 inside, 0 out (uint8)."""
    filled = blob.astype(np.uint8)
    contours, _ = cv2.findContours(filled, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    cv2.drawContours(filled, contours, -1, 1, -1)
    return filled


def _centre_weights(filled: np.ndarray, change: np.ndarray, threshold: int,
                    rim: np.ndarray, contrast: float | None = None) -> np.ndarray:
    """Pixel weights for a coin's centroid: 1 inside its filled blob, soft on its edge and
    wherever else `rim` reaches, so the centre is unbiased by the art and the edge counts by
    how much of the coin it holds: the change over the coin's own against the cloth
    (`contrast`; by default the median change of the ring just inside its edge, at least
    the threshold), at most 1."""
    inner = cv2.erode(filled, None)
    if contrast is None:
        ring = change[(inner > 0) & (cv2.erode(inner, None) == 0)]
        contrast = max(float(np.median(ring)) if ring.size > 4 else 2.0 * threshold,
                       float(threshold))
    weights = np.minimum(change * np.float32(1.0 / contrast), np.float32(1.0)) * (rim > 0)
    weights[inner > 0] = 1.0
    return weights + np.float32(1e-6) * filled


def _mean_look(image: np.ndarray, mask: np.ndarray, gain: tuple[float, float, float]
               ) -> np.ndarray:
    """The mean colour under `mask`, the exposure gain removed, each channel 0-1: how a coin
    or the hands look, comparable from frame to frame."""
    return np.asarray(cv2.mean(image, mask)[:3]) / gain / 255.0


def _scaled(image: np.ndarray, gain: tuple[float, float, float]) -> np.ndarray:
    """saturate(round(image × gain)) per channel: cv2.multiply's result, a plane at a time
    (OpenCV's per-channel scalar path is several times slower)."""
    return cv2.merge([cv2.convertScaleAbs(plane, alpha=g)
                      for plane, g in zip(cv2.split(image), gain, strict=True)])


def _in_convex(points: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """(N,) True for the points inside a convex polygon (either winding)."""
    edges = np.roll(polygon, -1, axis=0) - polygon
    rel = points[:, None, :] - polygon[None]
    cross = edges[None, :, 0] * rel[..., 1] - edges[None, :, 1] * rel[..., 0]
    return (cross >= 0).all(axis=1) | (cross <= 0).all(axis=1)


def _on(mask: np.ndarray, point_px: np.ndarray) -> bool:
    """Is a point (px) on a mask's set part?"""
    x, y = round(float(point_px[0])), round(float(point_px[1]))
    return 0 <= y < mask.shape[0] and 0 <= x < mask.shape[1] and bool(mask[y, x])


def _touched(others: np.ndarray, x: int, y: int, part: np.ndarray) -> bool:
    """Does other change (`others`) come within 2 px of a round blob (box at x, y), beyond
    the blob's hull?  Change inside the hull is its own: a pale coin's darker art."""
    m = 3
    h, w = part.shape
    y0, x0 = max(0, y - m), max(0, x - m)
    near = others[y0:y + h + m, x0:x + w + m].copy()
    hull = cv2.convexHull(cv2.findNonZero(part.view(np.uint8)) + np.array([x - x0, y - y0]))
    cv2.fillConvexPoly(near, hull, 0)
    within = np.zeros_like(near)
    within[y - y0:y - y0 + h, x - x0:x - x0 + w] = part
    return bool((cv2.dilate(near, None, iterations=2) & within).any())


def _paper(empty: np.ndarray) -> np.ndarray:
    """Where the empty table (8-bit BGR) is white paper: its channels' mean over
    PAPER_LEVEL."""
    return cv2.transform(empty, np.full((1, 3), 1.0 / 3.0)) > PAPER_LEVEL


def _labelled(labels: np.ndarray, count: int, under: np.ndarray) -> np.ndarray:
    """255 on every labelled component with a pixel under the mask `under`, else 0."""
    keep = np.zeros(count, np.uint8)
    keep[labels[under > 0]] = 255
    keep[0] = 0
    kept = np.flatnonzero(keep)
    if len(kept) > 4:
        return keep[labels]
    out = np.zeros(labels.shape, np.uint8)  # a hand or two: a few compares beat a gather
    for k in kept:
        out |= cv2.compare(labels, float(k), cv2.CMP_EQ)
    return out


def _elongation(mask: np.ndarray) -> float:
    """A blob's length over its width, from its second moments."""
    m = cv2.moments(mask.view(np.uint8), binaryImage=True)
    cov = np.array([[m["mu20"], m["mu11"]], [m["mu11"], m["mu02"]]])
    small, large = np.linalg.eigvalsh(cov)
    return float(np.sqrt(large / max(small, 1e-9)))


def _extent(mask: np.ndarray) -> tuple[float, float]:
    """A blob's width and length across and along its long axis, from its second moments
    (a bar's: √12·σ)."""
    m = cv2.moments(mask.view(np.uint8), binaryImage=True)
    cov = np.array([[m["mu20"], m["mu11"]], [m["mu11"], m["mu02"]]]) / max(m["m00"], 1.0)
    small, large = np.linalg.eigvalsh(cov)
    return float(np.sqrt(12.0 * max(small, 0.0))), float(np.sqrt(12.0 * large))


def _solid(mask: np.ndarray) -> bool:
    """Does a blob fill most of its convex hull (a coin, a streak), unlike the ragged
    fragments of a soft shadow's edge?"""
    points = cv2.findNonZero(mask.view(np.uint8))
    hull = cv2.convexHull(points)
    return float(mask.sum()) >= SOLIDITY * max(cv2.contourArea(hull), 1.0)


def _doubled(half: np.ndarray) -> np.ndarray:
    """Each pixel of a half-resolution mask as a 2×2 block."""
    return cv2.resize(half, (half.shape[1] * HALF, half.shape[0] * HALF),
                      interpolation=cv2.INTER_NEAREST)


def _max_pool(image: np.ndarray) -> np.ndarray:
    """Half resolution: each pixel the largest of its 2×2 block (the ROI's even part)."""
    h, w = image.shape[0] // HALF * HALF, image.shape[1] // HALF * HALF
    if not h or not w:
        return np.zeros((h // HALF, w // HALF), image.dtype)
    rows = cv2.max(image[0:h:2, :w], image[1:h:2, :w])  # (every other row: each contiguous)
    return np.maximum(rows[:, 0::2], rows[:, 1::2])


def _neck(pts: np.ndarray, axis: np.ndarray) -> np.ndarray | None:
    """Where an elongated blob narrows along its long axis, as coins touching side by side
    do, or a streak that ran into a resting coin: the points before its narrowest waist
    (None: no waist).

    A coin blurred by its motion is a bar of even width; touching discs are widest at their
    centres and narrow where they meet, wherever that is along the blob.  Widths are pixel
    counts across the long axis, each the median of three (a single wide count, from the
    art's edge or the noise, is no lobe); a waist is narrower than the widest on *both* sides
    of it (a bar's rounded ends are none).
    """
    along = pts @ axis.astype(np.float64)
    along -= along.min()
    bins = np.floor(along).astype(int)
    part = along - bins  # each point shared by its two bins: no aliasing on a slant
    counts = np.bincount(bins, 1.0 - part) + np.bincount(bins + 1, part)[:-1]
    counts = median_filter(counts, size=3, mode="nearest")
    if len(counts) < 5:
        return None
    waist = np.convolve(counts, np.ones(3) / 3.0, mode="same")
    widest_before = np.maximum.accumulate(counts)
    widest_after = np.maximum.accumulate(counts[::-1])[::-1]
    inner = np.arange(2, len(counts) - 2)
    narrowing = waist[inner] / np.minimum(widest_before[inner - 1], widest_after[inner + 1])
    at = int(np.argmin(narrowing))
    if narrowing[at] >= 0.8:
        return None
    return bins < inner[at]


def _tint_sums(f: np.ndarray, b: np.ndarray, groups: np.ndarray, count: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """Per channel (rows) and group of pixels (`groups`, 0 to count - 1): how far the
    frame's pixels `f` stray in sum from k times the empty table's `b`, k each pixel's
    dimming of its three channels together, and k times the table in sum.  `f`, `b`:
    float32 channel planes (3, pixels).  A shadow strays nowhere; a hand of the table's
    hue, on average, does (`_tinted`, `CoinDetector._bridged`)."""
    dimmed = (f.sum(axis=0) / (b.sum(axis=0) + 1.0)) * b
    off = np.stack([np.bincount(groups, f[c] - dimmed[c], count) for c in range(3)])
    level = np.stack([np.bincount(groups, dimmed[c], count) for c in range(3)])
    return off, level


def _tinted(shadow: np.ndarray, crop: np.ndarray, bg: np.ndarray) -> np.ndarray:
    """The shadow's pixels where, on average, it is tinted away from the table's colour
    (SHADOW_TINT): one pixel's channels say little within the noise, many say it is another
    colour (look 230: a brown hand on brown cloth, channels dimmed to 0.41, 0.47 and 0.53,
    every pixel within the noise of one k).  Averaged over blocks of SHADOW_TINT_PX, on a
    sample of every TINT_STRIDE-th pixel and row (a hand is wide: this is quick), half of
    each block shadow at least.  A hand's worth of them is a hand
    (`CoinDetector._tinted_hands`)."""
    s = TINT_STRIDE
    seen = shadow[::s, ::s]
    ys, xs = np.nonzero(seen)
    f = crop[::s, ::s][ys, xs].astype(np.float32).T
    b = bg[::s, ::s][ys, xs].astype(np.float32).T
    step = SHADOW_TINT_PX // s
    grid = (seen.shape[0] + step - 1) // step, (seen.shape[1] + step - 1) // step
    block = (ys // step) * grid[1] + xs // step
    n = np.bincount(block, minlength=grid[0] * grid[1]).astype(np.float32)
    off, level = _tint_sums(f, b, block, len(n))
    strays = (np.abs(off) > SHADOW_TINT * level + SHADOW_TINT_LEVELS * n).any(axis=0)
    strays &= n >= step * step / 2  # a few pixels say nothing
    if not strays.any():
        return np.zeros(shadow.shape, bool)
    full = cv2.resize(strays.reshape(grid).view(np.uint8),
                      (grid[1] * SHADOW_TINT_PX, grid[0] * SHADOW_TINT_PX),
                      interpolation=cv2.INTER_NEAREST)
    return shadow & (full[:shadow.shape[0], :shadow.shape[1]] > 0)
