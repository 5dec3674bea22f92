"""The demo's simulated table: what the players lay down, staged for the camera to read.

:class:`Stager` speaks to vision's staged camera (``show_order``, ``show_tiles``, ``show_grid``,
``show_nothing``) when it exists, else to the core's :class:`~companion.fakes.FakeCamera`, so the
demo runs either way. No Kivy here.
"""

from __future__ import annotations

import random
from typing import Any

from companion.ports import GridObservation, OrderObservation, RobotReading, TilesObservation
from companion.robots import Palette
from companion.tables.robo_factory import RoboFactoryTable, Step
from companion.tables.robot_master import RobotMasterTable
from ui.i18n import N_

CONFIDENT = 0.97


class Stager:
    def __init__(self, staged: Any = None, fake: Any = None) -> None:
        self.staged = staged
        self.fake = fake

    @property
    def active(self) -> bool:
        return self.staged is not None or self.fake is not None

    def order(self, robot: str) -> None:
        if self.staged is not None:
            self.staged.show_order(robot)
        elif self.fake is not None:
            self.fake.staged.clear()
            self.fake.stage(OrderObservation(RobotReading(robot, CONFIDENT, (CONFIDENT,) * 3)))

    def order_doubtful(self, robot: str, confidence: float = 0.6) -> None:
        """A card the camera reads without being sure (the fake camera only)."""
        if self.fake is not None:
            self.fake.staged.clear()
            self.fake.stage(OrderObservation(RobotReading(robot, confidence, (confidence,) * 3)))

    def tiles(self, robots: dict[int, str]) -> None:
        if self.staged is not None:
            self.staged.show_tiles(robots)
        elif self.fake is not None:
            self.fake.staged.clear()
            self.fake.stage(
                TilesObservation(
                    {
                        seat: RobotReading(r, CONFIDENT, (CONFIDENT,) * 3)
                        for seat, r in robots.items()
                    }
                )
            )

    def grid(self, cells: list[list[int | None]]) -> None:
        if self.staged is not None:
            self.staged.show_grid(cells)
        elif self.fake is not None:
            self.fake.staged.clear()
            conf = tuple(tuple(CONFIDENT for _ in row) for row in cells)
            self.fake.stage(GridObservation(tuple(tuple(row) for row in cells), conf))

    def nothing(self) -> None:
        if self.staged is not None:
            self.staged.show_nothing()
        elif self.fake is not None:
            self.fake.staged.clear()


def simulate_step(
    table: Any, stager: Stager, rng: random.Random, palette: Palette, buyer: str | None = None
) -> str:
    """Stage a plausible reading for what the table is doing now; returns what was staged."""
    if isinstance(table, RobotMasterTable):
        game = table.game
        if game is None:
            grid: list[list[int | None]] = [[None] * 5 for _ in range(5)]
            grid[2][2] = rng.randint(0, 5)
            stager.grid(grid)
            return N_("the start card")
        legal = [cell for cell in game.legal_cells() if 0 <= cell.x < 5 and 0 <= cell.y < 5]
        values = [v for v in range(6) if game.cards_left(v) > 0]
        if not legal or not values or table.setup.frame.value != "fixed":
            return ""
        cell = rng.choice(legal)
        grid = game.grid()
        grid[4 - cell.y][cell.x] = rng.choice(values)
        stager.grid(grid)
        return N_("a card")
    assert isinstance(table, RoboFactoryTable)
    used = {
        str(r)
        for r in (table.order_card(), *table.turn.board, *table.turn.purchases.values())
        if r is not None
    }
    free = [str(card) for card in palette.all_cards() if str(card) not in used]
    if (
        table.step is Step.ORDER
        or table.step is Step.BOARD
        or (table.step is Step.PURCHASES and buyer is not None)
    ):
        stager.order(rng.choice(free))
        return N_("a card")
    if table.step in (Step.PRODUCTION, Step.REVEAL):
        order = table.order_card()
        robots = {}
        for name in table.manufacturers:
            robot = rng.choice(free)
            if order is not None and rng.random() < 0.3:
                robot = str(order)
            robots[table.game.seat(name)] = robot
        stager.tiles(robots)
        return N_("the robots")
    stager.nothing()
    return ""


class DemoCamera:
    """The core's FakeCamera, but an empty table reads as "nothing there", not as an error."""

    def __init__(self) -> None:
        from companion.fakes import FakeCamera

        self._fake = FakeCamera()
        self.staged = self._fake.staged
        self.reads = self._fake.reads

    def stage(self, observation: Any) -> None:
        self._fake.stage(observation)

    def read(self, kind: Any, *, secret: bool = False) -> Any:
        if kind not in self.staged:
            self.reads.append((kind, secret))
            if kind == "order":
                return OrderObservation(RobotReading(None, 0.0))
            if kind == "tiles":
                return TilesObservation({})
            empty: tuple[tuple[int | None, ...], ...] = tuple((None,) * 5 for _ in range(5))
            return GridObservation(empty, tuple((0.0,) * 5 for _ in range(5)))
        return self._fake.read(kind, secret=secret)

    def close(self) -> None:
        self._fake.close()
