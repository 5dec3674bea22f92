"""Robot Master: the engine's rules, golden records (valid and invalid) and the replay command."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from pathlib import Path

import pytest

import companion.generate_robot_master as generate_module
import companion.rules.robot_master as rules_module
from companion.errors import (
    GameOver,
    IllegalPlacement,
    InvalidCard,
    OutOfTurn,
    RecordError,
    RuleError,
)
from companion.records.robot_master import parse, replay, to_record
from companion.rules.robot_master import (
    Cell,
    Frame,
    Outcome,
    RobotMasterGame,
    Side,
    compare_lines,
    line_score,
)

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "robot-master"
VALID = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".expected.json"))
INVALID = sorted((GOLDEN / "invalid").glob("*.json"))


def c(name: str) -> Cell:
    return Cell.parse_name(name)


# ------------------------------------------------------------------------------ docstrings
@pytest.mark.parametrize("module", [rules_module, generate_module])
def test_docstring_examples_run(module: object) -> None:
    result = doctest.testmod(module, verbose=False)  # type: ignore[arg-type]
    assert result.failed == 0 and result.attempted > 0


# ----------------------------------------------------------------------------------- cells
def test_cell_names_follow_the_table() -> None:
    assert c("a1") == Cell(0, 0)
    assert c("c3") == Cell(2, 2)
    assert c("e5") == Cell(4, 4)
    assert c("C4") == Cell(2, 3)
    assert Cell(3, 5).name == "d6"
    assert Cell(-1, 2).name == "(x=-1, y=2)"
    for bad in ("", "c", "3c", "c0", "aa1", "c-1", "c 3"):
        with pytest.raises(ValueError):
            Cell.parse_name(bad)


def test_offsets_round_trip() -> None:
    assert Cell.from_offset({"x": -2, "y": 3}) == Cell(-2, 3)
    assert Cell(-2, 3).offset() == {"x": -2, "y": 3}
    for bad in ({"x": 1}, {"x": 1, "y": 2, "z": 0}, {"x": True, "y": 0}, {"x": "1", "y": 0}):
        with pytest.raises(ValueError):
            Cell.from_offset(bad)


# ------------------------------------------------------------------------------ line score
@pytest.mark.parametrize(
    ("line", "score"),
    [
        ([0, 1, 5, 1, 2], 17),
        ([3, 3, 3, 3, 4], 107),
        ([3, 3, 3, 3, 3], 130),
        ([5, 5, 3, 3, 1], 81),
        ([0, 0, 0], 100),
        ([0, 0], 0),
        ([0, 0, 0, 0], 100),
        ([5, 5, 5, 5, 5], 150),
        ([4, 4, 4, 2, 2], 120),
        ([], 0),
    ],
)
def test_line_score(line: list[int], score: int) -> None:
    assert line_score(line) == score


def test_sorted_comparison() -> None:
    assert compare_lines([1, 2, 3, 4, 5], [5, 4, 3, 2, 1]) == Outcome(None, True, None)
    assert compare_lines([9, 10, 12, 46, 71], [10, 9, 10, 46, 57]) == Outcome(Side.ROWS, False, 3)
    assert compare_lines([1, 1, 1, 1, 2], [1, 1, 1, 1, 3]) == Outcome(Side.COLUMNS, False, 5)


# ----------------------------------------------------------------------------- placements
def test_a_fresh_game_offers_the_four_neighbours_of_c3() -> None:
    game = RobotMasterGame("Ann", "Bob", 3)
    assert [cell.name for cell in game.legal_cells()] == ["b3", "c2", "c4", "d3"]
    assert game.to_move is None
    assert game.cards_left(3) == 5 and game.cards_left(0) == 6
    assert game.grid()[2] == [None, None, 3, None, None]


def test_whoever_moves_first_decides_then_sides_alternate() -> None:
    game = RobotMasterGame("Ann", "Bob", 3)
    game.place(Side.COLUMNS, c("c4"), 1)
    assert game.to_move is Side.ROWS
    with pytest.raises(OutOfTurn, match="Ann's turn"):
        game.check_place(Side.COLUMNS, c("c5"), 1)
    game.place(Side.ROWS, c("c5"), 1)
    assert [p.side for p in game.placements] == [Side.COLUMNS, Side.ROWS]


def test_the_side_chosen_at_setup_moves_first() -> None:
    game = RobotMasterGame("Ann", "Bob", 3, first=Side.ROWS)
    assert game.to_move is Side.ROWS
    with pytest.raises(OutOfTurn):
        game.place(Side.COLUMNS, c("c4"), 1)


@pytest.mark.parametrize(
    ("cell", "value", "error", "words"),
    [
        ("c4", 6, InvalidCard, "0 to 5"),
        ("c4", -1, InvalidCard, "0 to 5"),
        ("c3", 1, IllegalPlacement, "already holds"),
        ("a1", 1, IllegalPlacement, "touches no card"),
        ("d6", 1, IllegalPlacement, "outside the 5x5 frame"),
        ("f3", 1, IllegalPlacement, "outside the 5x5 frame"),
    ],
)
def test_refused_placements_change_nothing(
    cell: str, value: int, error: type[RuleError], words: str
) -> None:
    game = RobotMasterGame("Ann", "Bob", 3)
    game.place(Side.ROWS, c("d3"), 2)
    game.place(Side.COLUMNS, c("e3"), 2)
    before = game.copy()
    with pytest.raises(error, match=words):
        game.place(Side.ROWS, c(cell), value)
    assert game == before and game.cells == before.cells


def test_a_seventh_card_of_a_value_is_refused() -> None:
    game = RobotMasterGame("Ann", "Bob", 4)
    for i, name in enumerate(["c4", "c5", "d3", "e3", "b3"]):
        game.place(Side.ROWS if i % 2 == 0 else Side.COLUMNS, c(name), 4)
    assert game.cards_left(4) == 0
    with pytest.raises(InvalidCard, match="all six cards of value 4"):
        game.place(Side.COLUMNS, c("a3"), 4)
    game.place(Side.COLUMNS, c("a3"), 0)


def test_game_over_after_25_cards() -> None:
    game = generate_module.random_game(__import__("random").Random(3))
    assert game.finished and game.to_move is None and game.legal_cells() == []
    with pytest.raises(GameOver):
        game.check_place(Side.ROWS, c("a1"), 0)


def test_the_start_card_value_is_checked() -> None:
    with pytest.raises(InvalidCard):
        RobotMasterGame("Ann", "Bob", 6)
    with pytest.raises(RuleError):
        RobotMasterGame("Ann", "Ann", 1)


def test_copy_is_independent() -> None:
    game = RobotMasterGame("Ann", "Bob", 3)
    snapshot = game.copy()
    game.place(Side.ROWS, c("c4"), 1)
    assert snapshot.value_at(c("c4")) is None and len(snapshot.placements) == 0
    assert game != snapshot


# ------------------------------------------------------------------------------- floating
def test_floating_frame_limits_the_occupied_area_to_5x5() -> None:
    game = RobotMasterGame("Ann", "Bob", 3, Frame.FLOATING)
    side = Side.ROWS
    for x in range(-1, -5, -1):
        game.place(side, Cell(x, 0), 1 if x % 2 else 2)
        side = side.other
    legal = game.legal_cells()
    assert Cell(1, 0) not in legal and Cell(-5, 0) not in legal
    assert legal == sorted(Cell(x, y) for x in range(-4, 1) for y in (-1, 1))
    with pytest.raises(IllegalPlacement, match="beyond 5x5"):
        game.check_place(side, Cell(1, 0), 0)
    # the row lies where it would in a fixed frame, shifted left by the fewest steps
    rows, columns = game.line_scores()
    assert game.grid()[2] == [2, 1, 2, 1, 3]
    assert rows == [0, 0, line_score([2, 1, 2, 1, 3]), 0, 0]
    assert columns == [2, 1, 2, 1, 3]


def test_floating_grid_maps_onto_5x5_with_the_start_card_where_the_area_puts_it() -> None:
    game = RobotMasterGame("Ann", "Bob", 5, Frame.FLOATING)
    side = Side.ROWS
    for y in range(1, 5):
        game.place(side, Cell(0, y), 0)
        side = side.other
    grid = game.grid()
    assert [row[2] for row in grid] == [0, 0, 0, 0, 5]


def test_from_grid_matches_replay_of_moves() -> None:
    game = generate_module.random_game(__import__("random").Random(11), Frame.FLOATING)
    again = RobotMasterGame.from_grid("Ann", "Bob", game.grid(), Frame.FLOATING)
    assert again.line_scores() == game.line_scores()
    assert again.outcome() == game.outcome()
    assert again.to_move is None


# -------------------------------------------------------------------------- golden records
@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_golden_record(path: Path) -> None:
    record = json.loads(path.read_text())
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    assert replay(record) == expected


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_invalid_record(path: Path) -> None:
    record = json.loads(path.read_text())
    prefix = path.with_suffix(".expected.txt").read_text().strip()
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert str(caught.value).startswith(prefix + " ")


def test_there_are_enough_golden_records() -> None:
    outcomes = [json.loads(p.with_name(p.stem + ".expected.json").read_text()) for p in VALID]
    frames = {json.loads(p.read_text()).get("options", {}).get("frame", "fixed") for p in VALID}
    assert len(VALID) >= 8 and frames == {"fixed", "floating"}
    assert any(o["winner"] == "draw" for o in outcomes)
    assert any(not o["finished"] for o in outcomes)
    assert any((o["decided_at"] or 0) > 1 for o in outcomes)


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_golden_records_survive_export(path: Path) -> None:
    record = json.loads(path.read_text())
    game = parse(record)
    assert parse(json.loads(json.dumps(to_record(game)))) == game
    assert replay(to_record(game)) == replay(record)


def test_not_a_json_object_is_a_record_error() -> None:
    bad: object
    for bad in ([], "robot-master", 3, None):
        with pytest.raises(RecordError):
            replay(bad)  # type: ignore[arg-type]


def test_export_right_after_setup_keeps_who_moves_first() -> None:
    game = RobotMasterGame("Ann", "Bob", 2, first=Side.COLUMNS)
    record = to_record(game)
    assert record["first"] == "Bob"
    assert parse(record) == game


# ----------------------------------------------------------------------- the CLI end to end
def _cli(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", "replay", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


@pytest.mark.parametrize("path", VALID[:3] + INVALID[:3] + INVALID[-3:], ids=lambda p: p.stem)
def test_replay_command(path: Path) -> None:
    done = _cli(path)
    expected_file = path.with_name(path.stem + ".expected.json")
    if expected_file.exists():
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == json.loads(expected_file.read_text())
    else:
        prefix = path.with_suffix(".expected.txt").read_text().strip()
        assert done.returncode == 2
        assert done.stdout == ""
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(prefix + " ")


# --------------------------------------------------------------------------- dependencies
@pytest.mark.parametrize(
    "module",
    [
        "companion/rules/robot_master.py",
        "companion/records/robot_master.py",
        "companion/generate_robot_master.py",
    ],
)
def test_robot_master_code_imports_only_the_standard_library(module: str) -> None:
    import ast

    tree = ast.parse((ROOT / module).read_text())
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    outside = {name for name in imported if name not in sys.stdlib_module_names}
    assert outside <= {"companion"}, outside
