"""A Robot Master table: the engine plus the start card step.

Cells are written "c4" in a fixed frame and "x,y" (offsets from the start card) in a floating one.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion import commands as c
from companion.errors import GameOver, InvalidCard, OutOfTurn, RuleError
from companion.instructions import Instruction
from companion.rules.robot_master import Cell, Frame, RobotMasterGame, Side


class Step(StrEnum):
    START = "start"
    PLAY = "play"
    GAME_OVER = "game-over"


@dataclass(frozen=True)
class RobotMasterSetup:
    rows: str
    columns: str
    frame: Frame = Frame.FIXED
    first: Side = Side.ROWS
    game: str = "robot-master"

    @property
    def players(self) -> tuple[str, str]:
        return (self.rows, self.columns)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "rows": self.rows,
            "columns": self.columns,
            "frame": self.frame.value,
            "first": self.first.value,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RobotMasterSetup:
        return cls(
            rows=data["rows"],
            columns=data["columns"],
            frame=Frame(data.get("frame", "fixed")),
            first=Side(data.get("first", "rows")),
        )


def parse_cell(text: str, frame: Frame) -> Cell:
    if frame is Frame.FLOATING:
        try:
            x, y = (int(part) for part in text.split(","))
        except ValueError:
            raise RuleError(
                f"{text!r} is not a cell: write x,y offsets from the start card"
            ) from None
        return Cell(x, y)
    try:
        return Cell.parse_name(text)
    except ValueError as exc:
        raise RuleError(str(exc)) from None


def cell_text(cell: Cell, frame: Frame) -> str:
    return f"{cell.x},{cell.y}" if frame is Frame.FLOATING else cell.name


class RobotMasterTable:
    kind = "robot-master"

    def __init__(self, setup: RobotMasterSetup) -> None:
        if not setup.rows.strip() or not setup.columns.strip() or setup.rows == setup.columns:
            raise RuleError("Robot Master needs two players with different names")
        self.setup = setup
        self.game: RobotMasterGame | None = None
        self.step = Step.START

    def copy(self) -> RobotMasterTable:
        return copy.deepcopy(self)

    @property
    def players(self) -> tuple[str, str]:
        return self.setup.players

    def name_of(self, side: Side) -> str:
        return self.setup.rows if side is Side.ROWS else self.setup.columns

    @property
    def finished(self) -> bool:
        return self.game is not None and self.game.finished

    @property
    def wants_reading(self) -> tuple[str, bool] | None:
        return None if self.step is Step.GAME_OVER else ("grid", False)

    def legal_cells(self) -> list[str]:
        if self.game is None or self.game.finished:
            return []
        return [cell_text(cell, self.setup.frame) for cell in self.game.legal_cells()]

    def instructions(self) -> list[Instruction]:
        if self.step is Step.START:
            return [Instruction("place-start")]
        assert self.game is not None
        if self.step is Step.PLAY:
            side = self.game.to_move
            assert side is not None
            return [Instruction("place-card", {"player": self.name_of(side), "side": side.value})]
        outcome = self.game.outcome()
        if outcome.draw or outcome.winner is None:
            return [Instruction("rm-draw")]
        rows, columns = self.game.line_scores()
        mine = sorted(rows if outcome.winner is Side.ROWS else columns)
        theirs = sorted(columns if outcome.winner is Side.ROWS else rows)
        k = (outcome.decided_at or 1) - 1
        detail = f"line {k + 1} from the lowest: {mine[k]} against {theirs[k]}"
        return [
            Instruction(
                "rm-winner",
                {
                    "player": self.name_of(outcome.winner),
                    "side": outcome.winner.value,
                    "detail": detail,
                },
            )
        ]

    def apply(self, command: c.Command) -> None:
        if isinstance(command, c.PlaceStart):
            if self.step is not Step.START:
                raise OutOfTurn("the start card has already been laid")
            if (
                isinstance(command.value, bool)
                or not isinstance(command.value, int)
                or not 0 <= command.value <= 5
            ):
                raise InvalidCard(f"a Robot Master card is 0 to 5, not {command.value!r}")
            self.game = RobotMasterGame(
                self.setup.rows,
                self.setup.columns,
                command.value,
                self.setup.frame,
                self.setup.first,
            )
            self.step = Step.PLAY
        elif isinstance(command, c.PlaceCard):
            if self.step is Step.START or self.game is None:
                raise OutOfTurn("lay the start card first")
            if self.step is Step.GAME_OVER:
                raise GameOver("the game has ended: all 25 cells are filled")
            side = self.game.to_move
            assert side is not None
            self.game.place(side, parse_cell(command.cell, self.setup.frame), command.value)
            if self.game.finished:
                self.step = Step.GAME_OVER
        else:
            raise RuleError(f"{command.type} is not part of Robot Master")
