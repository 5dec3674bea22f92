"""Robot Master properties over random valid games (hypothesis draws the generator's seed)."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import RecordError, RuleError
from companion.generate_robot_master import random_game, random_record
from companion.records.robot_master import parse, replay, to_record
from companion.rules.robot_master import Cell, Frame, RobotMasterGame, Side

seeds = st.integers(min_value=0, max_value=2**32 - 1)
frames = st.sampled_from([Frame.FIXED, Frame.FLOATING])
move_counts = st.one_of(st.none(), st.integers(min_value=0, max_value=24))


def rule_score(line: list[int]) -> int:
    """RULINGS.md's sum rule written out independently of the engine."""
    total = 0
    for v, n in Counter(line).items():
        total += {1: v, 2: 10 * v, 3: 100, 4: 100 + v, 5: 100 + 10 * v}[n]
    return total


@settings(max_examples=150, deadline=None)
@given(seeds, frames, move_counts)
def test_replay_is_deterministic(seed: int, frame: Frame, moves: int | None) -> None:
    record = random_record(random.Random(seed), frame, moves)
    assert record == random_record(random.Random(seed), frame, moves)
    through_json = json.loads(json.dumps(record))
    assert replay(record) == replay(through_json) == replay(record)


@settings(max_examples=150, deadline=None)
@given(seeds, frames, move_counts)
def test_export_then_import_gives_the_same_game_and_record(
    seed: int, frame: Frame, moves: int | None
) -> None:
    game = random_game(random.Random(seed), frame, moves)
    record = json.loads(json.dumps(to_record(game)))
    assert parse(record) == game
    assert to_record(parse(record)) == record


@settings(max_examples=100, deadline=None)
@given(seeds, frames, move_counts)
def test_grid_records_round_trip_and_score_like_the_moves(
    seed: int, frame: Frame, moves: int | None
) -> None:
    game = random_game(random.Random(seed), frame, moves)
    grid_game = RobotMasterGame.from_grid("Ann", "Bob", game.grid(), frame)
    assert grid_game.line_scores() == game.line_scores()
    assert grid_game.outcome() == game.outcome()
    assert len(grid_game.legal_cells()) == len(game.legal_cells())
    record = json.loads(json.dumps(to_record(grid_game)))
    assert parse(record) == grid_game
    if frame is Frame.FIXED:
        assert replay(record) == replay(to_record(game))


@settings(max_examples=150, deadline=None)
@given(seeds, frames)
def test_line_scores_of_a_finished_grid_follow_the_sum_rule(seed: int, frame: Frame) -> None:
    game = random_game(random.Random(seed), frame)
    grid = game.grid()
    assert game.finished and all(v is not None for row in grid for v in row)
    rows = [[v for v in row if v is not None] for row in grid]
    columns = [[row[i] for row in rows] for i in range(5)]
    assert game.line_scores() == ([rule_score(r) for r in rows], [rule_score(c) for c in columns])
    assert sorted(Counter(v for r in rows for v in r).values())[-1] <= 6


@settings(max_examples=100, deadline=None)
@given(seeds, frames)
def test_transposing_a_finished_grid_swaps_the_winner(seed: int, frame: Frame) -> None:
    game = random_game(random.Random(seed), frame)
    grid = game.grid()
    transposed = [[grid[c][r] for c in range(5)] for r in range(5)]
    other = RobotMasterGame.from_grid("Ann", "Bob", transposed, frame)
    a, b = game.outcome(), other.outcome()
    assert (a.draw, a.decided_at) == (b.draw, b.decided_at)
    assert a.winner is None if b.winner is None else a.winner is b.winner.other


@settings(max_examples=80, deadline=None)
@given(seeds, frames)
def test_every_generated_move_is_legal_and_legal_cells_agree_with_check_place(
    seed: int, frame: Frame
) -> None:
    record = random_record(random.Random(seed), frame)
    game = RobotMasterGame("Ann", "Bob", record["start"]["value"], frame)
    for move in record["moves"]:
        side = game.side_of(move["player"])
        assert side is not None
        cell = Cell.parse_name(move["cell"]) if frame is Frame.FIXED else Cell(**move["cell"])
        legal = game.legal_cells()
        assert legal, "legal_cells is never empty before the end"
        assert cell in legal
        # check_place accepts exactly the legal cells (for a value still in the box)
        value = next(v for v in range(6) if game.cards_left(v) > 0)
        window = range(-6, 7)
        accepted = []
        for x in window:
            for y in window:
                try:
                    game.check_place(side, Cell(x, y), value)
                except RuleError:
                    continue
                accepted.append(Cell(x, y))
        assert accepted == legal
        before = game.copy()
        try:
            game.check_place(side.other, cell, move["value"])
        except RuleError:
            pass
        else:  # pragma: no cover - only when whoever moves first decides
            assert game.to_move is None
        assert game == before
        game.place(side, cell, move["value"])
    assert game.finished and game.legal_cells() == []
    assert game == parse(record)


@settings(max_examples=60, deadline=None)
@given(seeds, st.integers(min_value=0, max_value=23))
def test_a_bad_move_inside_a_valid_record_names_that_move(seed: int, at: int) -> None:
    record = random_record(random.Random(seed))
    record["moves"][at]["value"] = 6
    try:
        replay(record)
    except RecordError as exc:
        assert str(exc).startswith(f"move {at + 1}, value: ")
    else:  # pragma: no cover
        raise AssertionError("a card of value 6 was accepted")


@settings(max_examples=60, deadline=None)
@given(seeds)
def test_sides_alternate_in_generated_records(seed: int) -> None:
    record = random_record(random.Random(seed))
    players = [m["player"] for m in record["moves"]]
    assert all(a != b for a, b in itertools.pairwise(players))
    assert Counter(players) == Counter({"Ann": 12, "Bob": 12})
    assert parse(record).to_move is None
    assert Side.ROWS.other is Side.COLUMNS
