"""Marker sheets: the size formula, and that the printed markers are found again."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from vision import markers, markers_cli, sheet


def test_marker_size_formula() -> None:
    # 700 mm, 1280 px, 66 degrees: 909 mm seen, 1.41 px/mm, 24 px at the edge of view = 21 mm
    assert sheet.marker_side_mm(700, 1280, 66) == 21
    assert sheet.marker_side_mm(700, 1920, 66) == 14
    assert sheet.marker_side_mm(1000, 1280, 66) > 21


def test_printed_sheets_hold_every_marker_labelled(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert markers_cli.main(["print", "--out", str(tmp_path / "m.png")]) == 0
    assert "21 mm" in capsys.readouterr().out
    pages = sorted(tmp_path.glob("m*.png"))
    assert len(pages) == 3
    found: set[int] = set()
    for page in pages:
        image = cv2.imread(str(page), cv2.IMREAD_GRAYSCALE)
        small = cv2.resize(image, (image.shape[1] // 3, image.shape[0] // 3),
                           interpolation=cv2.INTER_AREA)
        found |= set(markers.detect(small))
    assert found == set(range(46))


def test_pdf_sheets_are_written(tmp_path: Path) -> None:
    assert markers_cli.main(["print", "--out", str(tmp_path / "m.pdf"), "--size-mm", "25"]) == 0
    assert (tmp_path / "m.pdf").read_bytes().startswith(b"%PDF")


def test_other_formats_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert markers_cli.main(["print", "--out", str(tmp_path / "m.svg")]) == 2
    assert ".pdf or .png" in capsys.readouterr().err
