"""Value marks: a calibration card laid neither way up clearly is left out of its value's mean
(marks._way_unclear, the last pass of marks.learn_marks).

Each calibration card is lined up on its value's mean, either way up, the way chosen where the
value's two ways differ. A card lying far off its cell is cut by its window's edge when turned:
the right way then fits it badly, and the wrong way (a seven-segment 4 against an "h", which
share all but two segments) fits as well or better (third art g2615: five of eleven 4s laid
the wrong way, 0.98-1.14 from the mean where the ways differ, 1.04-1.53 the other way, and the
4s' mean showed both). Cards laid right differ by 0.01-0.35 and by 1.0 or more the other way; a
value that looks the same either way up differs little both ways. Third art g2502 read 7 more
of its 20 grids once such cards were left out.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.vision.test_grid_marks import _low_card, _read_grids
from tests.vision.thirdart.build import write_dataset
from tests.vision.thresholds_patch import set_thresholds
from vision.grid import geometry, judge, learning, marks
from vision.thresholds import section


def test_a_card_far_from_its_mean_both_ways_is_unclear() -> None:
    cfg = section("grid")
    # g2615's 4s laid the wrong way; a g2502 2 cut by its window's edge
    assert marks._way_unclear((0.98, 1.04), cfg)
    assert marks._way_unclear((1.13, 2.04), cfg)
    # laid right: little the way chosen, much the other
    assert not marks._way_unclear((0.03, 1.9), cfg)
    # a seven-segment 0, 2 or 5 (the same either way up): little both ways
    assert not marks._way_unclear((0.12, 0.16), cfg)
    # far off the mean, but much farther the other way: the way is clear
    assert not marks._way_unclear((0.91, 2.11), cfg)
    # no way to tell (a print the same either way up, such as dice pips)
    assert not marks._way_unclear(None, cfg)


def test_laying_a_card_tells_how_far_it_lies_from_the_mean_each_way() -> None:
    s = geometry.SEARCH
    upright = _low_card(False)
    mean = upright[s:-s, s:-s]
    way = marks._way_mask(mean)
    assert way is not None
    _, _, _, differs = marks._lay(_low_card(True), mean, way, pad=12)
    assert differs is not None
    chosen, other = differs
    assert chosen < 0.1 < 1.0 < other
    assert marks._lay(_low_card(True), mean, None, pad=12)[3] is None


@pytest.fixture(scope="module")
def g2502(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # third art seed 2502: seven-segment digits on a dark panel, on wood; its first two grid
    # pictures were declined before the rule (a 4's marks led a 1 laid the other way by too
    # little)
    out = tmp_path_factory.mktemp("g2502")
    write_dataset(out, n=2, seed=2502, hard=False)
    return out


def _cards(folder: Path) -> list[tuple[int, int | None]]:
    return [(want, got) for w, g in _read_grids(folder) for rw, rg in zip(w, g, strict=True)
            for want, got in zip(rw, rg, strict=True) if want is not None]


def test_g2502s_grids_read_whole_once_unclear_cards_are_left_out(
        g2502: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # (calibration learnt with the corrections its cards' boxes split kept, as when the case
    # was found: learning._cards_split now drops them, and no card is declined without this
    # rule either)
    set_thresholds(monkeypatch, learning, "grid", calibration_cards_centred=0.0)
    cards = _cards(g2502)
    assert all(got == want for want, got in cards)
    # with every card kept, as before, some are declined, none read wrong
    off = {**section("grid"), "marks_learn_way_error": 1e9}

    def changed(name: str) -> dict[str, object]:
        return off if name == "grid" else section(name)

    monkeypatch.setattr(marks, "section", changed)
    monkeypatch.setattr(judge, "section", changed)
    before = _cards(g2502)
    assert all(got in (None, want) for want, got in before)
    assert sum(got is None for _, got in before) >= 1
