"""Videos the renderer writes are read back by OpenCV, as vision reads them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from referee.sim.encode import VideoWriter


def _frames(n: int, size: tuple[int, int] = (320, 240)) -> list[np.ndarray]:
    """A bright disc sliding over a noisy grey cloth: the kind of picture the renderer makes."""
    rng = np.random.default_rng(0)
    out = []
    for i in range(n):
        frame = np.full((size[1], size[0], 3), (60, 110, 70), np.uint8)
        cv2.circle(frame, (40 + 8 * i, size[1] // 2), 20, (200, 190, 180), -1, cv2.LINE_AA)
        noise = rng.normal(0.0, 3.0, frame.shape)
        out.append(np.clip(frame + noise, 0, 255).astype(np.uint8))
    return out


def _read(path) -> tuple[list[np.ndarray], str]:
    cap = cv2.VideoCapture(str(path))
    fourcc = int(cap.get(cv2.CAP_PROP_FOURCC)).to_bytes(4, "little").decode("ascii", "replace")
    frames = []
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        frames.append(frame)
    cap.release()
    return frames, fourcc


@pytest.mark.parametrize("suffix, codec", [(".mp4", "h264"), (".avi", "MJPG")])
def test_a_clip_reads_back_with_opencv(tmp_path, suffix: str, codec: str) -> None:
    frames = _frames(24)
    path = tmp_path / f"clip{suffix}"
    with VideoWriter(path, (320, 240), 30.0) as writer:
        for frame in frames:
            writer.write(frame)
    back, fourcc = _read(path)
    assert fourcc.lower() == codec.lower()
    assert len(back) == len(frames) and back[0].shape == frames[0].shape
    for a, b in zip(frames, back, strict=True):
        assert cv2.PSNR(a, b) > 30.0  # the picture survives; the codec only smooths noise
    # the disc is where it was drawn, in every frame
    for i, frame in enumerate(back):
        row = frame[120, :, 0].astype(float)
        assert abs(float(np.argmax(row > 150)) - (40 + 8 * i - 20)) <= 2


def test_h264_is_much_smaller_than_opencvs_mp4v(tmp_path) -> None:
    frames = _frames(30, (640, 360))
    with VideoWriter(tmp_path / "a.mp4", (640, 360), 30.0) as writer:
        for frame in frames:
            writer.write(frame)
    mp4v = cv2.VideoWriter(str(tmp_path / "b.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), 30.0,
                           (640, 360))
    for frame in frames:
        mp4v.write(frame)
    mp4v.release()
    assert (tmp_path / "a.mp4").stat().st_size < 0.5 * (tmp_path / "b.mp4").stat().st_size


def test_odd_sizes_and_bad_input(tmp_path) -> None:
    frames = _frames(3, (1920, 1080))
    with VideoWriter(tmp_path / "hd.mp4", (1920, 1080), 60.0) as writer:  # 1080: not /16
        for frame in frames:
            writer.write(frame)
    back, _ = _read(tmp_path / "hd.mp4")
    assert len(back) == 3 and back[0].shape == (1080, 1920, 3)
    with pytest.raises(ValueError, match="mp4"):
        VideoWriter(tmp_path / "clip.mkv", (320, 240), 30.0)
    with VideoWriter(tmp_path / "c.mp4", (320, 240), 30.0) as writer, \
            pytest.raises(ValueError, match="320x240"):
        writer.write(np.zeros((240, 321, 3), np.uint8))


def _coins_found(path, session, camera, frames: int) -> int:
    """Coins the vision detector finds within 4 mm of the truth, over the clip's frames."""
    from referee.vision.calibrated import mapping_from_camera
    from referee.vision.detect import CoinDetector

    layout = session.scenario.layout
    detector = CoinDetector(mapping_from_camera(camera), layout, camera.size)
    found = 0
    back, _ = _read(path)
    assert len(back) == frames
    for i, frame in enumerate(back):
        truth = np.array([c.center_mm for c in session.timeline.at(i / 30.0).coins if c.visible])
        if i == 0:
            detector.learn_empty_table(frame, [tuple(p) for p in truth])
        seen = detector.detect(frame)[0].center_mm
        if len(seen):
            found += int((np.linalg.norm(truth[:, None] - seen[None], axis=2).min(axis=1)
                          < 4.0).sum())
    return found


def test_vision_finds_the_coins_in_h264_as_in_mp4v(tmp_path) -> None:
    """The codec is no handicap for vision: the same rendered frames, encoded both ways."""
    from referee.commands.simulate import build_session
    from referee.sim.look import Look
    from referee.sim.render import Renderer

    session = build_session("gate-run", 1)
    renderer = Renderer(session.scenario.layout, Look.random(1), (1280, 720), 30.0)
    frames = list(renderer.frames(session.timeline, 0, 90))  # the first flick and its slide
    mp4v = cv2.VideoWriter(str(tmp_path / "a.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), 30.0,
                           (1280, 720))
    for frame in frames:
        mp4v.write(frame)
    mp4v.release()
    with VideoWriter(tmp_path / "b.mp4", (1280, 720), 30.0) as writer:
        for frame in frames:
            writer.write(frame)
    total = sum(sum(c.visible for c in session.timeline.at(i / 30.0).coins) for i in range(90))
    old = _coins_found(tmp_path / "a.mp4", session, renderer.camera, 90)
    new = _coins_found(tmp_path / "b.mp4", session, renderer.camera, 90)
    assert old > 0.6 * total
    assert new >= 0.98 * old
