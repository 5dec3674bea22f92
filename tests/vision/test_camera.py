"""The camera adapter: sources, stability, privacy, the staged camera, probe and make_camera."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision
from companion.config import CameraConfig, Config
from companion.ports import Camera, CameraError, OrderObservation, TilesObservation
from vision.calibration import Calibration
from vision.camera import FrameCamera
from vision.sources import OpenCVSource, ReplaySource
from vision.stability import Stability
from vision.staged import StagedCamera
from vision.synth import make_example
from vision.synth.scenes import Style


def _with_camera(config: Config, **changes: str) -> Config:
    return dataclasses.replace(config, camera=dataclasses.replace(CameraConfig(), **changes))


def test_no_camera_configured_means_play_by_touch(config: Config) -> None:
    assert vision.make_camera(_with_camera(config, source="none")) is None
    ok, message = vision.probe(_with_camera(config, source="none"))
    assert ok and "by touch" in message


def test_a_missing_usb_camera_is_named_in_plain_words(config: Config) -> None:
    with pytest.raises(CameraError, match="no camera answers at /dev/video-missing"):
        vision.make_camera(_with_camera(config, source="opencv", device="/dev/video-missing"))
    ok, message = vision.probe(_with_camera(config, source="opencv",
                                            device="/dev/video-missing"))
    assert not ok and "video-missing" in message


def test_probe_never_raises_on_this_machine(config: Config) -> None:
    ok, message = vision.probe(config)
    assert isinstance(ok, bool) and message and "Traceback" not in message


def test_replay_folder_cycles_through_its_images(tmp_path: Path) -> None:
    for i in range(2):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((8, 8, 3), 40 * (i + 1), np.uint8))
    source = ReplaySource(str(tmp_path))
    values = [int(source.frame()[0, 0, 0]) for _ in range(3)]
    assert values == [40, 80, 40]
    with pytest.raises(CameraError, match="does not exist"):
        ReplaySource(str(tmp_path / "gone"))


def test_replay_camera_reads_and_commits_after_steady_frames(
        tmp_path: Path, config: Config, style: Style, calibration: Calibration) -> None:
    example = make_example("order", "o.png", style, config, np.random.default_rng(21))
    for i in range(4):
        cv2.imwrite(str(tmp_path / f"{i}.png"), example.image)
    camera = FrameCamera(ReplaySource(str(tmp_path)), calibration)
    assert isinstance(camera, Camera)
    readings = [camera.read("order") for _ in range(4)]
    assert [r.stable for r in readings] == [False, False, True, True]
    assert all(isinstance(r, OrderObservation) for r in readings)
    assert {r.reading.robot for r in readings} <= {example.robot, None}  # type: ignore[union-attr]


def test_movement_over_the_region_keeps_a_reading_unsure() -> None:
    stability = Stability(frames=3, motion=6.0)
    obs = TilesObservation({})
    still = np.full((90, 160, 3), 100, np.uint8)
    moved = still.copy()
    moved[20:70, 40:120] = 200  # a hand passes over the region
    assert not stability.update(obs, still, (0, 0, 160, 90))
    assert not stability.update(obs, still, (0, 0, 160, 90))
    assert stability.update(obs, still, (0, 0, 160, 90))
    assert not stability.update(obs, moved, (0, 0, 160, 90))
    assert not stability.update(obs, moved, (0, 0, 160, 90))
    # movement outside the region does not matter
    stability.reset()
    for _ in range(3):
        result = stability.update(obs, moved, (0, 0, 30, 15))
    assert result


def test_opencv_source_reports_a_missing_device() -> None:
    with pytest.raises(CameraError):
        OpenCVSource("/dev/video-missing", 640, 480)


@pytest.fixture(scope="module")
def staged() -> StagedCamera:
    return StagedCamera(Config(), seed=0)


def _settle(camera: StagedCamera, kind: str, secret: bool = False):  # type: ignore[no-untyped-def]
    for _ in range(6):
        obs = camera.read(kind, secret=secret)  # type: ignore[arg-type]
        if obs.stable:
            return obs
    raise AssertionError("the staged reading never settled")


def test_staged_camera_reads_what_is_shown(staged: StagedCamera) -> None:
    assert isinstance(staged, Camera)
    staged.show_tiles({1: "blue-yellow-red", 5: "green-green-green"})
    obs = _settle(staged, "tiles")
    assert isinstance(obs, TilesObservation)
    assert set(obs.robots) == {1, 5}
    for seat, robot in {1: "blue-yellow-red", 5: "green-green-green"}.items():
        assert obs.robots[seat].robot in (robot, None)
    staged.show_grid([[None] * 5, [None] * 5, [None, 1, 3, 5, None], [None] * 5, [None] * 5])
    grid = _settle(staged, "grid")
    want = [[None] * 5, [None] * 5, [None, 1, 3, 5, None], [None] * 5, [None] * 5]
    for r in range(5):
        for c in range(5):
            if grid.confidence[r][c] > 0:  # read, not declined: must be right
                assert grid.cells[r][c] == want[r][c], (r, c)
    staged.show_nothing()
    nothing = _settle(staged, "tiles")
    assert nothing.robots == {}


def test_a_secret_scan_logs_only_card_read_and_writes_nothing(
        staged: StagedCamera, caplog: pytest.LogCaptureFixture, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)

    def no_writes(*args: object, **kwargs: object) -> bool:
        raise AssertionError("an image was written during a secret scan")

    monkeypatch.setattr(cv2, "imwrite", no_writes)
    staged.show_order("red-blue-yellow")
    with caplog.at_level(logging.DEBUG, logger="vision"):
        obs = _settle(staged, "order", secret=True)
    assert isinstance(obs, OrderObservation)
    assert obs.reading.robot in ("red-blue-yellow", None)
    messages = {r.getMessage() for r in caplog.records if r.name.startswith("vision")}
    assert messages == {"card read"}
    assert list(tmp_path.iterdir()) == []


class _Frames:
    """A frame source that shows whatever picture the test puts in ``image``."""

    name = "test frames"

    def __init__(self, image: np.ndarray) -> None:
        self.image = image

    def frame(self) -> np.ndarray:
        return self.image

    def lock(self) -> None:
        pass

    def close(self) -> None:
        pass


def test_an_unchanged_empty_table_is_not_read_again_until_something_comes_into_view(
        config: Config, style: Style, calibration: Calibration,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.camera as camera_module

    rng = np.random.default_rng(5)
    empty = rng.normal(120, 4, (720, 1280, 3)).clip(0, 255).astype(np.uint8)
    card = make_example("order", "o.png", style, config, np.random.default_rng(21))
    calls: list[str] = []
    real_read = camera_module.read_region

    def counting_read(image: np.ndarray, kind: str, cal: Calibration):  # type: ignore[no-untyped-def]
        calls.append(kind)
        return real_read(image, kind, cal)  # type: ignore[arg-type]

    monkeypatch.setattr(camera_module, "read_region", counting_read)
    source = _Frames(empty)
    camera = FrameCamera(source, calibration)  # type: ignore[arg-type]
    skips = camera._idle_skips
    for _ in range(skips + 1):
        # fresh sensor noise each frame: noise alone is no change
        source.image = (empty.astype(np.int16) + rng.integers(-6, 7, empty.shape)).clip(
            0, 255).astype(np.uint8)
        assert camera.read("order").reading.robot is None  # type: ignore[union-attr]
    assert len(calls) == 1  # read once, then skipped while nothing changed
    source.image = empty
    camera.read("order")
    assert len(calls) == 2  # ...and read again after `skips` frames all the same
    # another kind of reading is never skipped on the strength of an order search
    camera.read("tiles")
    assert calls[-1] == "tiles"
    # a card held up is read at once, and every frame while something is read
    source.image = card.image
    readings = [camera.read("order") for _ in range(3)]
    assert calls[-3:] == ["order", "order", "order"]
    assert readings[-1].reading.robot == card.robot  # type: ignore[union-attr]
    assert readings[-1].stable
