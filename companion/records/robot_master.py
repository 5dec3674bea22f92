"""Robot Master game records: read (validating every field), replay and write.

The format is DESIGN.md's, in two forms: a ``grid`` (finished or partial, top row first, null for
an empty cell) or a ``start`` card plus ``moves``. Every problem raises
:class:`~companion.errors.RecordError` whose ``where`` names the move (``move 3``, counted from 1
after the start card), ``start``, ``grid`` or nothing, and whose ``field`` names the field::

    move 3, cell: d6 is outside the 5x5 frame

Beyond DESIGN.md one optional top-level key is read: ``first``, the name of the player chosen at
setup to move first. :func:`to_record` writes it only while no move has been made (later the first
move says it), so a game exported right after setup comes back with the same player to move.

A floating frame's cells are ``{"x": dx, "y": dy}`` offsets from the start card. In a floating
*grid* record the offsets (in ``legal_cells``) are counted from the grid's centre cell instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import (
    GameOver,
    IllegalPlacement,
    InvalidCard,
    OutOfTurn,
    RecordError,
    RuleError,
)
from companion.records.shape import json_list, json_object, no_unknown, show
from companion.rules.robot_master import (
    CENTRE,
    COPIES,
    ORIGIN,
    SIZE,
    Cell,
    Frame,
    RobotMasterGame,
    Side,
    compare_lines,
    connected_order,
)

GAME = "robot-master"
TOP_KEYS = {"game", "rows", "columns", "first", "options", "grid", "start", "moves"}
OPTION_KEYS = {"frame"}
START_KEYS = {"cell", "value"}
MOVE_KEYS = {"player", "cell", "value"}

# Which field a rules error is about, for the "where, field" of the message.
_FIELD_OF: tuple[tuple[type[RuleError], str], ...] = (
    (GameOver, "player"),
    (OutOfTurn, "player"),
    (InvalidCard, "value"),
    (IllegalPlacement, "cell"),
)


def _name(obj: Mapping[str, Any], key: str) -> str:
    if key not in obj:
        raise RecordError("", key, "missing")
    value = obj[key]
    if not isinstance(value, str) or not value.strip():
        raise RecordError("", key, f"expected a player's name, got {show(value)}")
    return value


def _value(obj: Mapping[str, Any], where: str) -> int:
    if "value" not in obj:
        raise RecordError(where, "value", "missing")
    value = obj["value"]
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(where, "value", f"expected a card value 0 to 5, got {show(value)}")
    if not 0 <= value <= 5:
        raise RecordError(where, "value", f"{value} is not a card value; values run 0 to 5")
    return value


def _cell(value: Any, frame: Frame, where: str) -> Cell:
    if frame is Frame.FIXED:
        if not isinstance(value, str):
            raise RecordError(where, "cell", f"expected a cell name like c4, got {show(value)}")
        try:
            return Cell.parse_name(value)
        except ValueError:
            raise RecordError(
                where, "cell", f"{show(value)} is not a cell of the 5x5 frame (a1 to e5)"
            ) from None
    if not isinstance(value, dict):
        raise RecordError(
            where, "cell", f'expected an offset like {{"x": 1, "y": 0}}, got {show(value)}'
        )
    try:
        return Cell.from_offset(value)
    except ValueError as exc:
        raise RecordError(where, "cell", f"{exc}, got {show(value)}") from None


def parse_options(value: Any) -> Frame:
    """The frame a record's ``options`` choose (fixed when absent)."""
    if value is None:
        return Frame.FIXED
    obj = json_object(value, "", "options")
    no_unknown(obj, OPTION_KEYS, "", "options.")
    frame = obj.get("frame", Frame.FIXED.value)
    try:
        return Frame(frame)
    except ValueError:
        raise RecordError(
            "", "options.frame", f"expected 'fixed' or 'floating', got {show(frame)}"
        ) from None


def parse(record: Mapping[str, Any]) -> RobotMasterGame:
    """Validate a whole record and return the game it reaches."""
    obj = json_object(record, "", "record")
    no_unknown(obj, TOP_KEYS, "")
    if obj.get("game") != GAME:
        raise RecordError("", "game", f"expected {GAME!r}, got {show(obj.get('game'))}")
    rows_player = _name(obj, "rows")
    columns_player = _name(obj, "columns")
    if rows_player == columns_player:
        raise RecordError("", "columns", "the rows and columns players need different names")
    frame = parse_options(obj.get("options"))
    first: Side | None = None
    if "first" in obj:
        first_name = obj["first"]
        first = (
            Side.ROWS
            if first_name == rows_player
            else Side.COLUMNS
            if first_name == columns_player
            else None
        )
        if first is None:
            raise RecordError(
                "",
                "first",
                f"expected {rows_player!r} or {columns_player!r}, got {show(first_name)}",
            )
    if "grid" in obj:
        for key in ("start", "moves", "first"):
            if key in obj:
                raise RecordError("", key, "a record holds either a grid or a start card and moves")
        return _from_grid(obj["grid"], rows_player, columns_player, frame)
    if "start" not in obj:
        raise RecordError("", "start", "missing (a record needs a grid, or a start card and moves)")
    if "moves" not in obj:
        raise RecordError("", "moves", "missing (use [] when only the start card lies)")
    start_value = _start(obj["start"], frame)
    game = RobotMasterGame(rows_player, columns_player, start_value, frame, first)
    for number, move in enumerate(json_list(obj["moves"], "", "moves"), start=1):
        _apply_move(game, move, f"move {number}")
    return game


load = parse


def _start(value: Any, frame: Frame) -> int:
    start = json_object(value, "start", "")
    no_unknown(start, START_KEYS, "start")
    if "cell" in start:
        raw = start["cell"]
        cell = _cell(raw, frame, "start") if not (frame is Frame.FLOATING and raw == "c3") else None
        expected = CENTRE if frame is Frame.FIXED else ORIGIN
        if cell is not None and cell != expected:
            where = "c3" if frame is Frame.FIXED else '{"x": 0, "y": 0} (or c3)'
            raise RecordError("start", "cell", f"the start card lies on {where}, got {show(raw)}")
    return _value(start, "start")


def _apply_move(game: RobotMasterGame, value: Any, where: str) -> None:
    move = json_object(value, where, "move")
    if not MOVE_KEYS.issuperset(move):
        no_unknown(move, MOVE_KEYS, where)
    if "player" not in move:
        raise RecordError(where, "player", "missing")
    name = move["player"]
    side = game.side_of(name) if isinstance(name, str) else None
    if side is None:
        raise RecordError(
            where,
            "player",
            f"expected {game.rows_player!r} (rows) or {game.columns_player!r} (columns), "
            f"got {show(name)}",
        )
    if "cell" not in move:
        raise RecordError(where, "cell", "missing")
    cell = _cell(move["cell"], game.frame, where)
    card = _value(move, where)
    try:
        game.place(side, cell, card)
    except RuleError as exc:
        raise RecordError(where, _field_of(exc), str(exc)) from None


def _field_of(exc: RuleError) -> str:
    for kind, field in _FIELD_OF:
        if isinstance(exc, kind):
            return field
    return ""


def _from_grid(value: Any, rows_player: str, columns_player: str, frame: Frame) -> RobotMasterGame:
    rows = json_list(value, "grid", "")
    if len(rows) != SIZE:
        raise RecordError("grid", "", f"expected 5 rows (top row first), got {len(rows)}")
    counts = [0] * 6
    occupied: set[Cell] = set()
    for r, row_value in enumerate(rows):
        row_number = SIZE - r
        row = json_list(row_value, "grid", f"row {row_number}")
        if len(row) != SIZE:
            raise RecordError("grid", f"row {row_number}", f"expected 5 cells, got {len(row)}")
        for c, card in enumerate(row):
            if card is None:
                continue
            cell = Cell(c, row_number - 1)
            if isinstance(card, bool) or not isinstance(card, int):
                raise RecordError(
                    "grid", cell.name, f"expected a card value 0 to 5 or null, got {show(card)}"
                )
            if not 0 <= card <= 5:
                raise RecordError(
                    "grid", cell.name, f"{card} is not a card value; values run 0 to 5"
                )
            counts[card] += 1
            if counts[card] > COPIES:
                raise RecordError(
                    "grid", cell.name, f"a seventh card of value {card}; only six exist"
                )
            occupied.add(cell)
    # Named per grid position (a1..e5) whatever the frame, so the user can find the card.
    if frame is Frame.FIXED:
        if CENTRE not in occupied:
            raise RecordError("grid", "c3", "empty, but the start card lies on c3 in a fixed frame")
        start = CENTRE
    else:
        if not occupied:
            raise RecordError("grid", "", "no card at all, not even the start card")
        start = CENTRE if CENTRE in occupied else min(occupied, key=lambda k: (-k.y, k.x))
    _, stranded = connected_order(occupied, start)
    if stranded:
        raise RecordError("grid", stranded[0].name, "not connected edge to edge to the other cards")
    try:
        return RobotMasterGame.from_grid(rows_player, columns_player, rows, frame)
    except RuleError as exc:  # pragma: no cover - the checks above already refused it
        raise RecordError("grid", "", str(exc)) from None


def summary(game: RobotMasterGame) -> dict[str, Any]:
    """The replay object of DESIGN.md for the state ``game`` has reached."""
    rows, columns = game.line_scores()
    outcome = compare_lines(rows, columns) if game.finished else game.outcome()
    winner: str | None
    if not game.finished:
        winner = None
    elif outcome.draw:
        winner = "draw"
    else:
        assert outcome.winner is not None
        winner = outcome.winner.value
    legal: list[Any]
    if game.frame is Frame.FIXED:
        legal = [cell.name for cell in game.legal_cells()]
    else:
        legal = [cell.offset() for cell in game.legal_cells()]
    return {
        "game": GAME,
        "finished": game.finished,
        "rows": rows,
        "columns": columns,
        "winner": winner,
        "winner_name": game.player(outcome.winner) if outcome.winner is not None else None,
        "decided_at": outcome.decided_at,
        "legal_cells": legal,
    }


def replay(record: Mapping[str, Any]) -> dict[str, Any]:
    """Validate and replay a record; DESIGN.md's replay object for Robot Master."""
    return summary(parse(record))


def to_record(game: RobotMasterGame) -> dict[str, Any]:
    """Write the game as a record; ``parse(to_record(game)) == game``.

    Written in the moves form. A game read from a grid (who placed which card unknown) is
    written back as a grid; if moves were added after that, who placed the grid's cards stays
    unknown and the moves' order is lost.
    """
    record: dict[str, Any] = {
        "game": GAME,
        "rows": game.rows_player,
        "columns": game.columns_player,
        "options": {"frame": game.frame.value},
    }
    usual_start = CENTRE if game.frame is Frame.FIXED else ORIGIN
    if game.start.cell != usual_start or any(p.side is None for p in game.placements):
        record["grid"] = game.grid()
        return record
    if game.frame is Frame.FIXED:
        record["start"] = {"cell": game.start.cell.name, "value": game.start.value}
    else:
        record["start"] = {"cell": game.start.cell.offset(), "value": game.start.value}
    if not game.placements and game.to_move is not None:
        record["first"] = game.player(game.to_move)
    record["moves"] = [
        {
            "player": game.player(p.side) if p.side is not None else "",
            "cell": p.cell.name if game.frame is Frame.FIXED else p.cell.offset(),
            "value": p.value,
        }
        for p in game.placements
    ]
    return record
