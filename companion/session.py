"""The table session: runs one live game step by step for the UI.

It takes commands from touch, observations from the camera and presses from the siren board,
refuses what the rules forbid with a reason (changing nothing), and says what the table must do
next. It owns the Eureka window: open while the Manufacturers build, closed at the reveal. Every
command it accepts is handed to ``recorder`` (the journal) *before* the state changes, so nothing
acknowledged is ever lost; the state is a pure function of the setup and the accepted commands.

No I/O happens here: opening the board's window or lighting a station are returned as
:class:`Effect` values for the caller (``companion.service``) to carry out.

>>> from companion.tables.robo_factory import RoboFactorySetup
>>> session = TableSession(RoboFactorySetup(("Ann", "Bob"), "Ann"))
>>> session.submit(c.ScanOrder("red-green-blue")).accepted
True
>>> print(session.submit(c.LayBoardCard("red-green-blue")).reason)
board card red-green-blue is the order card; every card exists once
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from companion import commands as c
from companion.errors import CompanionError, RuleError
from companion.instructions import Instruction
from companion.ports import (
    GridObservation,
    LightPattern,
    Observation,
    OrderObservation,
    SirenEvent,
    SirenPress,
    TilesObservation,
)
from companion.tables.robo_factory import RoboFactorySetup, RoboFactoryTable, Step
from companion.tables.robot_master import RobotMasterSetup, RobotMasterTable, cell_text

Setup = RoboFactorySetup | RobotMasterSetup
Table = RoboFactoryTable | RobotMasterTable
Recorder = Callable[[c.Command], None]

#: camera readings at or above this confidence (and stable) are applied without asking
DEFAULT_CONFIDENCE = 0.9


# ----------------------------------------------------------------------------- effects


@dataclass(frozen=True)
class OpenWindow:
    """Open the board's Eureka window for these stations."""

    stations: tuple[int, ...]


@dataclass(frozen=True)
class CloseWindow:
    """Close the board's Eureka window."""


@dataclass(frozen=True)
class Light:
    station: int
    pattern: LightPattern


Effect = OpenWindow | CloseWindow | Light


@dataclass(frozen=True)
class Result:
    """The answer to one command: accepted, or refused with a reason in plain words."""

    accepted: bool
    reason: str = ""
    command: c.Command | None = None
    instructions: tuple[Instruction, ...] = ()
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True)
class Suggestion:
    """A command read from the camera. Unless ``confident``, the app asks before submitting it.

    ``problem`` is set when the command would be refused (e.g. a card already on the board).
    """

    command: c.Command
    confident: bool
    what: str
    problem: str = ""


def setup_from_json(data: dict[str, Any]) -> Setup:
    if data.get("game") == "robot-master":
        return RobotMasterSetup.from_json(data)
    return RoboFactorySetup.from_json(data)


def new_table(setup: Setup) -> Table:
    if isinstance(setup, RobotMasterSetup):
        return RobotMasterTable(setup)
    return RoboFactoryTable(setup)


def fold(setup: Setup, events: Iterable[c.Command]) -> tuple[Table, list[c.Command]]:
    """Rebuild the table from accepted events (undo included). Returns it and the live events."""
    table = new_table(setup)
    live: list[c.Command] = []
    for event in events:
        if isinstance(event, c.Undo):
            if not live or live[-1].barrier:
                raise RuleError("the journal has an undo with nothing to undo")
            live.pop()
            table = new_table(setup)
            for kept in live:
                table.apply(kept)
        else:
            table.apply(event)
            live.append(event)
    return table, live


class TableSession:
    def __init__(
        self,
        setup: Setup,
        events: Sequence[c.Command] = (),
        recorder: Recorder | None = None,
        confidence: float = DEFAULT_CONFIDENCE,
    ) -> None:
        self.setup = setup
        self.state, self.live = fold(setup, events)
        self._recorder = recorder
        self.confidence = confidence

    # ------------------------------------------------------------------ commands

    def check(self, command: c.Command) -> str | None:
        """The reason ``command`` would be refused, or None if it would be accepted."""
        try:
            self._after(command)
        except CompanionError as exc:
            return str(exc)
        return None

    def _after(self, command: c.Command) -> Table:
        if isinstance(command, c.Undo):
            if not self.live:
                raise RuleError("there is nothing to undo")
            if self.live[-1].barrier:
                raise RuleError("the reveal has been settled: it cannot be undone")
            table, _ = fold(self.setup, self.live[:-1])
            return table
        table = self.state.copy()
        table.apply(command)
        return table

    def submit(self, command: c.Command) -> Result:
        """Check, record, then apply. A refused command changes nothing."""
        try:
            after = self._after(command)
        except CompanionError as exc:
            return Result(False, str(exc), command, tuple(self.state.instructions()))
        if self._recorder is not None:
            try:
                self._recorder(command)
            except CompanionError as exc:
                return Result(False, f"not saved, so not accepted: {exc}", command)
        before = self.state
        self.state = after
        if isinstance(command, c.Undo):
            self.live.pop()
        else:
            self.live.append(command)
        return Result(
            True, "", command, tuple(after.instructions()), tuple(_effects(before, after, command))
        )

    @property
    def can_undo(self) -> bool:
        return bool(self.live) and not self.live[-1].barrier

    def instructions(self) -> list[Instruction]:
        return self.state.instructions()

    def restore_effects(self) -> list[Effect]:
        """Effects that bring the board in line with the state (after a resume)."""
        table = self.state
        if isinstance(table, RoboFactoryTable) and table.window_open:
            stations = tuple(table.game.seat(p) for p in table.eureka_eligible)
            lit = [Light(table.game.seat(p), LightPattern.ON) for p in table.eureka]
            return [OpenWindow(stations), *lit]
        return [CloseWindow()]

    # ------------------------------------------------------------------ siren board

    def on_siren(self, event: SirenEvent) -> Result | None:
        """A board event: a press inside the window calls Eureka for that seat."""
        if not isinstance(event, SirenPress):
            return None
        table = self.state
        if not isinstance(table, RoboFactoryTable):
            return None
        if not 0 <= event.station < len(table.game.players):
            return Result(False, f"station {event.station + 1} has no player")
        player = table.game.players[event.station]
        if not event.in_window:
            return Result(False, f"{player}'s siren was pressed after the Eureka window closed")
        return self.submit(c.CallEureka(player, source="board", board_us=event.board_us))

    # ------------------------------------------------------------------ camera

    def interpret(self, observation: Observation, *, player: str | None = None) -> list[Suggestion]:
        """Commands the camera's reading implies now (``player``: the buyer, when buying)."""
        table = self.state
        out: list[Suggestion] = []
        if isinstance(table, RoboFactoryTable):
            if isinstance(observation, OrderObservation):
                reading = observation.reading
                if reading.robot is None:
                    return []
                sure = observation.stable and reading.confidence >= self.confidence
                command: c.Command
                if table.step is Step.ORDER:
                    command = c.ScanOrder(reading.robot, "camera", reading.confidence)
                    what = "the order card"  # never name a secret in the suggestion text
                elif table.step is Step.BOARD:
                    command = c.LayBoardCard(reading.robot, "camera", reading.confidence)
                    what = f"board card {len(table.turn.board) + 1}: {reading.robot}"
                elif table.step is Step.PURCHASES and player is not None:
                    command = c.Buy(player, reading.robot, "camera", reading.confidence)
                    what = f"the card {player} hands in"
                else:
                    return []
                out.append(self._suggest(command, sure, what))
            elif isinstance(observation, TilesObservation) and table.step in (
                Step.PRODUCTION,
                Step.REVEAL,
            ):
                for seat, reading in sorted(observation.robots.items()):
                    if reading.robot is None or not 0 <= seat < len(table.game.players):
                        continue
                    name = table.game.players[seat]
                    if name not in table.manufacturers:
                        continue
                    current = table.robots.get(name)
                    if current is not None and str(current) == reading.robot:
                        continue
                    sure = observation.stable and reading.confidence >= self.confidence
                    command = c.SetRobot(name, reading.robot, "camera", reading.confidence)
                    out.append(self._suggest(command, sure, f"{name}'s robot: {reading.robot}"))
        elif isinstance(observation, GridObservation):
            out.extend(self._interpret_grid(table, observation))
        return out

    def _suggest(self, command: c.Command, sure: bool, what: str) -> Suggestion:
        problem = self.check(command) or ""
        return Suggestion(command, sure and not problem, what, problem)

    def _interpret_grid(self, table: RobotMasterTable, obs: GridObservation) -> list[Suggestion]:
        # The camera sees the whole frame; only a single new card is a move. Anything else
        # (two new cards, a card changed or gone) is for the people at the table to sort out.
        sure = obs.stable
        if table.game is None:
            centre = obs.cells[2][2] if len(obs.cells) == 5 and len(obs.cells[2]) == 5 else None
            if centre is None:
                return []
            conf = obs.confidence[2][2]
            start = c.PlaceStart(centre, "camera", conf)
            return [self._suggest(start, sure and conf >= self.confidence, f"start card {centre}")]
        if table.setup.frame.value != "fixed":
            return []  # a floating frame is entered by touch: the camera's frame has no anchor
        known = table.game.grid()
        changes = []
        for r in range(5):
            for col in range(5):
                seen = obs.cells[r][col]
                if seen is not None and known[r][col] is None:
                    changes.append((r, col, seen, obs.confidence[r][col]))
        if len(changes) != 1:
            return []
        r, col, value, conf = changes[0]
        from companion.rules.robot_master import Cell

        name = cell_text(Cell(col, 4 - r), table.setup.frame)
        cmd = c.PlaceCard(name, value, "camera", conf)
        return [self._suggest(cmd, sure and conf >= self.confidence, f"card {value} on {name}")]

    # ------------------------------------------------------------------ records

    def to_record(self) -> dict[str, Any]:
        table = self.state
        if isinstance(table, RoboFactoryTable):
            from companion.records.robo_factory import to_record

            return to_record(table.game)
        from companion.records.robot_master import to_record as robot_master_record

        if table.game is None:  # the start card is not down yet: nothing to record but names
            return {
                "game": "robot-master",
                "rows": table.setup.rows,
                "columns": table.setup.columns,
                "options": {"frame": table.setup.frame.value},
                "grid": [[None] * 5 for _ in range(5)],
            }
        return robot_master_record(table.game)

    def summary(self) -> dict[str, Any]:
        """The replay object (DESIGN.md) of the game so far."""
        from companion.replay import replay_record

        palette = self.state.palette if isinstance(self.state, RoboFactoryTable) else None
        return replay_record(self.to_record(), palette)


def _effects(before: Table, after: Table, command: c.Command) -> list[Effect]:
    if not isinstance(after, RoboFactoryTable) or not isinstance(before, RoboFactoryTable):
        return []
    out: list[Effect] = []
    if after.window_open and (not before.window_open or before.window != after.window):
        stations = tuple(after.game.seat(p) for p in after.eureka_eligible)
        out.append(OpenWindow(stations))
        out.extend(Light(s, LightPattern.COUNTDOWN) for s in stations)
    if before.window_open and not after.window_open:
        out.append(CloseWindow())
        out.extend(
            Light(after.game.seat(p), LightPattern.OFF)
            for p in after.manufacturers
            if p not in after.eureka
        )
    if isinstance(command, c.CallEureka):
        out.append(Light(after.game.seat(command.player), LightPattern.ON))
    if isinstance(command, c.CommitReveal):
        out.extend(Light(after.game.seat(p), LightPattern.OFF) for p in after.game.players)
    return out
