"""Robot Master grid, a close call between the best two values: decided between just those two,
where their prints differ, with both prints laid on one card (each the way up it fits the card,
shifted by where it lies on its card); only as clearly as calibration's own cards of the other
value never were (learnt left one picture out)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import cv2
import numpy as np
import pytest

from tests.vision.grid_area import DICE_PIPS, dice_pictures, print_look, scored_alike
from tests.vision.grid_area import area as _area
from vision import grid
from vision.grid import geometry, judge, pairs, templates
from vision.thresholds import section


def _card(value: int, rng: np.random.Generator, dx: int = 0, dy: int = 0,
          turned: bool = False) -> np.ndarray:
    """A card of ``value`` in its cell, moved by (dx, dy) and lying turned or not: a border,
    a title bar at its top (dice pips alone look the same both ways up) and its pips."""
    w, h = geometry._cell_size()
    card: np.ndarray = np.full((h, w), 215, np.uint8)
    cv2.rectangle(card, (2, 2), (w - 3, h - 3), 120, 1)
    # inside the middle the templates are cut from (15 % in from each side)
    cv2.rectangle(card, (12, 11), (w - 13, 13), 60, -1)
    if value == 0:
        cv2.circle(card, (w // 2, h // 2), 7, 40, 2)
    for fx, fy in DICE_PIPS[value]:
        cv2.circle(card, (round(6 + fx * (w - 12)), round(26 + fy * (h - 38))), 4, 40, -1)
    if turned:
        card = cv2.rotate(card, cv2.ROTATE_180)
    card = cv2.warpAffine(card, np.array([[1, 0, dx], [0, 1, dy]], np.float32), (w, h),
                          borderMode=cv2.BORDER_CONSTANT, borderValue=90)
    return np.asarray(np.clip(card + rng.normal(0, 3, card.shape), 0, 255).astype(np.uint8))


def _pictures(rng: np.random.Generator, first: dict[int, tuple[int, int, bool]] | None = None
              ) -> tuple[list[np.ndarray], list[grid.Grid]]:
    """Three calibration pictures of this file's cards (see grid_area.dice_pictures)."""
    return dice_pictures(_card, rng, first)


def _look(greys: list[np.ndarray], grids: list[grid.Grid]) -> grid.GridLook:
    # the nearest calibration card names 3 whatever the print: only the prints decide below
    return print_look(greys, grids, 3)


@pytest.fixture(scope="module")
def pip_look() -> grid.GridLook:
    return _look(*_pictures(np.random.default_rng(11)))


@pytest.fixture(scope="module")
def astray_first_look() -> grid.GridLook:
    # own art 9723 g002 and g050: the 3s' first calibration card lay upright and to one side
    # of its cell, the 5s' first one turned and to the other: the two values' mean prints
    # are stored the other way up and shifted against each other by 6 pixels
    return _look(*_pictures(np.random.default_rng(21),
                            first={3: (3, 1, False), 5: (-3, -1, True)}))


def test_the_floor_is_learnt_left_one_picture_out(pip_look: grid.GridLook) -> None:
    floor = pip_look.pair_floor
    assert floor.shape == (6, 6)
    assert np.isfinite(floor[3, 5]) and np.isfinite(floor[5, 3])
    # calibration's own 5s lean clearly to 5 (their extra pips are there), and so 3s to 3
    assert floor[3, 5] < 0 and floor[5, 3] < 0
    # one picture alone leaves nobody out: nothing learnt
    greys, grids = _pictures(np.random.default_rng(12))
    assert np.isnan(grid.learn_pair_floor(greys[:1], grids[:1])).all()


def test_where_each_value_lies_on_its_card_is_learnt(astray_first_look: grid.GridLook) -> None:
    # the stored prints are cut where their value's first card lay: the 3's card 3 pixels
    # right and 1 down, so the print's middle lies 1 up and 3 left of its card's middle; the
    # 5's card turned, 3 left and 1 up: as stored (turned) the print lies 1 down, 3 right
    offsets = astray_first_look.print_offsets
    assert np.isfinite(offsets[:6]).all()
    assert np.allclose(offsets[3], (-1, -3), atol=1.01)
    assert np.allclose(offsets[5], (1, 3), atol=1.01)


def test_the_pair_score_tells_a_shifted_three_from_a_five(pip_look: grid.GridLook) -> None:
    # each value's templates fit best at their own placement: a 3 shifted by a pip spacing
    # looks like part of a 5. Found by what both share, the pips where they differ tell.
    rng = np.random.default_rng(13)
    for dx, dy, turned in ((0, 0, False), (2, -2, True), (-3, 1, False)):
        three = geometry._window(_area({(2, 2): _card(3, rng, dx, dy, turned)}), 2, 2)
        five = geometry._window(_area({(2, 2): _card(5, rng, dx, dy, turned)}), 2, 2)
        assert grid.pair_score(pip_look, three, 3, 5) >= 0.35
        assert grid.pair_score(pip_look, five, 3, 5) <= -0.35
        assert grid.pair_score(pip_look, five, 5, 3) >= 0.35


def test_prints_stored_the_other_way_up_and_shifted_are_compared_on_one_card(
        astray_first_look: grid.GridLook) -> None:
    # own art 9723 g002, g050: averaged as stored, a 3 upright with a 5 turned and 6 pixels
    # off, the "print both share" fit each card somewhere else and the score named the wrong
    # value of the pair on 6 cells out of 6 (+0.32 to +0.37), agreeing with templates that
    # had it wrong too: three cells read wrong per grid. Each laid the way up it fits the
    # card, where it lies on its card, the score names the card's own value
    rng = np.random.default_rng(22)
    for dx, dy, turned in ((0, 0, False), (0, 0, True), (2, -1, False), (-2, 2, True)):
        three = geometry._window(_area({(2, 2): _card(3, rng, dx, dy, turned)}), 2, 2)
        five = geometry._window(_area({(2, 2): _card(5, rng, dx, dy, turned)}), 2, 2)
        assert grid.pair_score(astray_first_look, three, 3, 5) >= 0.3
        assert grid.pair_score(astray_first_look, five, 3, 5) <= -0.3
        assert grid.pair_score(astray_first_look, five, 5, 3) >= 0.3
        assert grid.pair_score(astray_first_look, three, 5, 3) <= -0.3


def test_prints_that_do_not_lie_on_one_card_give_no_score(
        astray_first_look: grid.GridLook) -> None:
    # were the 5's print laid a pip's spacing below where it lies on its card (as two prints
    # averaged as stored were), what the two share fits a 5 poorly: no score, not a guess
    offsets = astray_first_look.print_offsets.copy()
    offsets[5] += (12, 0)
    off = dataclasses.replace(astray_first_look, print_offsets=offsets)
    rng = np.random.default_rng(23)
    five = geometry._window(_area({(2, 2): _card(5, rng)}), 2, 2)
    assert grid.pair_score(astray_first_look, five, 3, 5) <= -0.3
    assert np.isnan(grid.pair_score(off, five, 3, 5))
    # (laid on the 5's own print, the 3's misplaced print may still leave the 5 fitting: the
    # score then says 5, never 3)
    five_over_three = grid.pair_score(off, five, 5, 3)
    assert np.isnan(five_over_three) or five_over_three >= 0.3


def _classify(look: grid.GridLook, cards: list[int], turned: bool = False) -> list[int | None]:
    rng = np.random.default_rng(14)
    g = _area({(0, c): _card(v, rng, turned=turned) for c, v in enumerate(cards)})
    windows = [geometry._window(g, 0, c) for c in range(len(cards))]
    feats = np.zeros((len(cards), 4), np.float32)
    values, _, _ = grid.classify(look, feats, windows=windows)
    return values


def test_a_close_call_is_read_only_the_way_the_pips_say(
        pip_look: grid.GridLook, astray_first_look: grid.GridLook,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the templates put 3 a hair ahead of 5 (0.86 and 0.85: under every gap) on every card,
    # the nearest calibration card says 3: declined before. The 3s are now read; the 5s,
    # whose pips say 5, stay declined (never read as 3); so does a 3 when its pair's floor
    # (calibration's 5s leaning that far to 3) is above what the card shows
    scores = [-1.0, -1.0, -1.0, 0.86, -1.0, 0.85]
    assert scores[3] - scores[5] < float(section("grid")["min_gap_agreed"])
    monkeypatch.setattr(judge, "match_windows", scored_alike(scores))
    monkeypatch.setattr(templates, "match_windows", judge.match_windows)
    for look in (pip_look, astray_first_look):
        for turned in (False, True):
            assert _classify(look, [3, 5, 3, 5], turned) == [3, None, 3, None]
    high = dataclasses.replace(pip_look, pair_floor=np.full((6, 6), 0.6, np.float32))
    assert _classify(high, [3, 5, 3]) == [None, None, None]
    # calibrations stored before the pairwise step (no floor, no offsets) decline as they did
    for key in ("pair_floor", "print_offsets"):
        stored = pip_look.to_json()
        del stored[key]
        old = grid.GridLook.from_json(json.loads(json.dumps(stored)))
        assert np.isnan(getattr(old, key)).all()
        assert _classify(old, [3, 5, 3]) == [None, None, None]
    again = grid.GridLook.from_json(json.loads(json.dumps(pip_look.to_json())))
    assert np.allclose(again.pair_floor, pip_look.pair_floor, equal_nan=True)
    assert np.allclose(again.print_offsets, pip_look.print_offsets, equal_nan=True)


def test_a_card_that_does_not_say_which_way_up_it_lies_is_not_read_pairwise(
        pip_look: grid.GridLook, monkeypatch: pytest.MonkeyPatch) -> None:
    # dice pips without the title bar look the same both ways up: which of a value's two
    # stored prints to compare is then a guess, and the step says nothing
    rng = np.random.default_rng(16)
    w, h = geometry._cell_size()
    card = np.full((h, w), 215, np.uint8)
    for fx, fy in DICE_PIPS[3]:
        cv2.circle(card, (round(6 + fx * (w - 12)), round(26 + fy * (h - 38))), 4, 40, -1)
    card = np.asarray(np.clip(card + rng.normal(0, 3, card.shape), 0, 255).astype(np.uint8))
    window = geometry._window(_area({(0, 0): card}), 0, 0)
    monkeypatch.setitem(section("grid"), "pair_turn_gap", 0.05)
    assert pairs._lies_turned(pip_look, window, 3) is None
    assert np.isnan(grid.pair_score(pip_look, window, 3, 5))


def test_a_clear_gap_is_left_to_the_templates(pip_look: grid.GridLook) -> None:
    # the pairwise step only runs on close calls: a gap of min_gap is the templates' to call
    scores = np.array([-1.0, -1.0, -1.0, 0.9, -1.0, 0.9 - float(section("grid")["min_gap"])])
    window = geometry._window(_area({(0, 0): _card(5, np.random.default_rng(15))}), 0, 0)
    assert not grid.pair_decides(pip_look, window, 3, 5, scores)


def test_own_art_9723_g002_its_close_calls_are_scored_the_way_the_cards_lie(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the picture the step first went wrong on (`vision synth --n 60 --seed 9723`, g002,
    # rendered again here as write_dataset renders it): calibration's first 3 lay upright,
    # its first 5 turned, so the stored prints were averaged the other way up and 10 pixels
    # apart, and three close calls in one picture (two in one column) were scored +0.32 to
    # +0.37 for the wrong value of the pair, agreeing with templates that had it wrong too
    from companion.config import Config
    from vision.synth import calibration_examples, make_example
    from vision.synth.scenes import Style

    config = Config()
    rng = np.random.default_rng(9723)
    style = Style.random(rng, config.game.display)
    calibration = calibration_examples(style, config, rng, 4)
    tests = [make_example(kind, name, style, config, rng)
             for kind, name in (("tiles", "t000"), ("order", "o001"), ("grid", "g002"))]
    picture = tests[2]
    assert picture.grid is not None
    # since each value's templates are aligned on a central card where the first lies far
    # off its cell's middle (templates._central_first), the templates put those cards' own
    # values first and no close call is left: the picture reads exactly
    central = grid.learn([(e.image, e.grid) for e in calibration if e.kind == "grid"])
    read = grid.read_grid(picture.image, central)
    assert [list(row) for row in read.cells] == [list(row) for row in picture.grid]
    assert all(c > 0 for row in read.confidence for c in row)
    # aligned on the first card found, as when this step was made, the close calls are
    # still there for the pairwise score to settle the right way
    real = dict(section("grid"))
    monkeypatch.setattr(templates, "section", lambda name: {**real, "template_central_first":
                                                            False} if name == "grid"
                        else section(name))
    look = grid.learn([(e.image, e.grid) for e in calibration if e.kind == "grid"])
    assert picture.grid is not None
    asked: list[tuple[int, int, float]] = []
    score = grid.pair_score
    # the vetoes on close calls the nearest card settled (wrong readings round 4, and the
    # third value close behind) score pairs too; only the close-call step's own scores are
    # recorded here
    vetoing = [False]

    def unrecorded(veto: Any) -> Any:
        def vetoed(*args: Any) -> bool:
            vetoing[0] = True
            try:
                return bool(veto(*args))
            finally:
                vetoing[0] = False
        return vetoed

    def recorded(look: grid.GridLook, window: np.ndarray, a: int, b: int) -> float:
        s = score(look, window, a, b)
        if not vetoing[0]:
            asked.append((a, b, s))
        return s

    monkeypatch.setattr(judge, "pair_score", recorded)
    monkeypatch.setattr(pairs, "pair_score", judge.pair_score)
    monkeypatch.setattr(judge, "_agreed_contradicted", unrecorded(judge._agreed_contradicted))
    monkeypatch.setattr(judge, "_third_leans_away", unrecorded(judge._third_leans_away))
    seen = grid.read_grid(picture.image, look)
    # the templates put the wrong value of 3/5 first on three cards: the pairwise score
    # names the other value for each, so none is read. (Since the wrong-cells and astray
    # rounds, calibration's registration lets the templates put one of the three, (2, 1),
    # right by a hair, so it never reaches the pairwise step: the others still must.)
    called = sorted((a, b) for a, b, _ in asked)
    assert called in ([(3, 5), (5, 3)], [(3, 5), (5, 3), (5, 3)])
    assert all(s <= -0.3 for _, _, s in asked)
    for r in range(5):
        for c in range(5):
            if seen.confidence[r][c] > 0:
                assert seen.cells[r][c] == picture.grid[r][c]


def test_how_far_calibrations_own_values_fell_behind_is_learnt() -> None:
    # each picture's cards read with templates learnt without it: these cards' own values
    # always fit best, so no close call is declined for a third value on their look
    greys, grids = _pictures(np.random.default_rng(12))
    floor, miss = pairs.learn_left_out(greys, grids)
    assert miss == 0.0
    assert np.array_equal(np.isnan(floor), np.isnan(grid.learn_pair_floor(greys, grids)))


def test_a_close_call_with_a_third_value_as_near_as_calibration_missed_is_declined() -> None:
    # blind third art g2448 (seven-segment digits on cards lying a fifth of a cell off): a 5
    # read as 3 over 1 at 0.02, the 5 itself 0.15 behind; its calibration cards' own values
    # fell up to 0.24 behind the best two
    scores = np.array([0.836, 0.894, -1.0, 0.915, 0.714, 0.763])
    order = np.argsort(scores)[::-1]
    assert judge._missed_third(grid.GridLook(template_miss=0.24), scores, order)
    # the third 0.08 behind: further than this look's calibration ever fell
    assert not judge._missed_third(grid.GridLook(template_miss=0.05), scores, order)
    assert not judge._missed_third(grid.GridLook(), scores, order)  # (none learnt)


def test_the_templates_miss_survives_the_calibration_file(pip_look: grid.GridLook) -> None:
    look = dataclasses.replace(pip_look, template_miss=0.24)
    data = json.loads(json.dumps(look.to_json()))
    assert grid.GridLook.from_json(data).template_miss == 0.24
    del data["template_miss"]  # stored before it was learnt: none
    assert grid.GridLook.from_json(data).template_miss == 0.0


def test_a_close_call_the_nearest_card_disputes_is_declined_on_a_look_that_missed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # blind third art g2507 g016 (seven-segment digits, template_miss 0.031): three 5s read as
    # 3 by 0.05-0.09 on the pairwise step, the nearest calibration card a 5's. Here the cards
    # are 3s, their pips say 3, the nearest card always says 5 (the runner-up)
    look = print_look(*_pictures(np.random.default_rng(11)), 5)
    monkeypatch.setattr(judge, "match_windows", scored_alike([-1.0, -1.0, -1.0, 0.86, -1.0, 0.85]))
    monkeypatch.setattr(templates, "match_windows", judge.match_windows)
    assert look.template_miss == 0.0
    assert _classify(look, [3, 3]) == [3, 3]  # a look that missed none: read as before
    missed = dataclasses.replace(look, template_miss=0.031)
    assert _classify(missed, [3, 3]) == [None, None]
    monkeypatch.setitem(section("grid"), "missed_disputed", False)
    assert _classify(missed, [3, 3]) == [3, 3]
