"""The third-art generator writes a dataset that ``vision.dataset`` loads, with sound labels."""

from __future__ import annotations

from pathlib import Path

from companion.config import Config
from tests.vision.thirdart.build import write_dataset
from vision.dataset import load_labelled


def test_thirdart_writes_a_loadable_labelled_dataset(tmp_path: Path) -> None:
    write_dataset(tmp_path, n=1, seed=5, hard=True)
    config = Config()
    calibration = load_labelled(tmp_path / "calibration", config)
    test = load_labelled(tmp_path / "test", config)
    assert len(calibration) <= 12
    assert {e.kind for e in calibration} == {e.kind for e in test} == {"tiles", "order", "grid"}
    for e in calibration + test:
        assert e.image.ndim == 3 and e.image.shape[2] == 3
        if e.kind == "order":
            assert e.robot is not None
        if e.kind == "grid":
            assert e.grid[2][2] is not None  # every game starts from the centre
    assert any(e.robots for e in test if e.kind == "tiles")
