"""``robo-companion demo --autoplay [--screenshots DIR]``: scripted games through the real app.

A 3-player Robo Factory game and a Robot Master game are played by tapping the app's own buttons,
pressing stations on the simulated siren board and staging what the players lay down for the
camera. After every step the screen is compared with the last one; each new screen state is saved
as a PNG. The script is a generator driven by Kivy's clock: ``yield seconds`` waits, so the app's
own clock (polling the service, the camera thread) keeps running in between.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window

from companion.rules.robot_master import CENTRE, Cell, connected_order
from companion.tables.robo_factory import RoboFactoryTable, Step
from companion.tables.robot_master import RobotMasterTable
from ui.widgets import TapButton

log = logging.getLogger(__name__)

#: the finished grid of the Robot Master game (DESIGN.md's example), top row first
MASTER_GRID = [[3, 0, 5, 2, 2], [1, 4, 4, 0, 5], [2, 2, 3, 1, 0], [5, 1, 0, 3, 4], [4, 3, 1, 5, 2]]

Script = Iterator[float]


class AutoplayError(RuntimeError):
    pass


class Autoplay:
    def __init__(self, app: Any, shots: Path | None) -> None:
        self.app = app
        self.dir = shots
        self.shots = 0
        self.steps = 0
        self.error: str | None = None
        self._last: str | None = None
        self._script: Script | None = None

    def install(self) -> None:
        self.app.bind(on_start=self._on_start)
        if self.dir is not None:
            self.dir.mkdir(parents=True, exist_ok=True)

    # ------------------------------------------------------------------ driving

    def _on_start(self, *_args: Any) -> None:
        # Returns None: a true value would stop Kivy calling the app's own on_start.
        Clock.schedule_once(self._begin, 1.0)

    def _begin(self, _dt: float) -> None:
        self._script = self.script()
        self._advance(0)

    def _advance(self, _dt: float) -> None:
        assert self._script is not None
        self.snapshot()
        try:
            wait = next(self._script)
        except StopIteration:
            self.app.stop()
            return
        except Exception as exc:  # noqa: BLE001 - report in one line, keep the traceback in the log
            log.error("autoplay failed:\n%s", traceback.format_exc())
            self.error = f"{type(exc).__name__}: {exc}"
            self.snapshot(force=True, label="error")
            self.app.stop()
            return
        self.steps += 1
        Clock.schedule_once(self._advance, wait)

    def signature(self) -> str:
        app = self.app
        screen = app.sm.current_screen
        parts = [app.sm.current, app.lang, str(app.flash.opacity > 0.5 and app.flash.text)]
        if app.sm.current in ("factory", "master"):
            parts.append(repr(app.controller.view()))
        elif app.sm.current == "picker":
            parts.append(repr(getattr(screen, "chosen", None)) + screen.title)
        elif app.sm.current == "secret":
            parts.append(str(screen.ids.hold.held) + screen.title + screen.hint)
        else:
            parts.append(repr([w.text for w in screen.walk() if hasattr(w, "text")][:60]))
        return "|".join(parts)

    def snapshot(self, force: bool = False, label: str = "") -> None:
        if self.dir is None:
            return
        sig = self.signature()
        if sig == self._last and not force:
            return
        self._last = sig
        self.shots += 1
        name = label or self.app.sm.current
        target = self.dir / f"{self.shots:03d}-{name}.png"
        made = Window.screenshot(name=str(self.dir / f"{self.shots:03d}-{name}.png"))
        if made:
            Path(made).replace(target)

    # ------------------------------------------------------------------ helpers

    def find(self, key: str) -> TapButton:
        for widget in self.app.sm.current_screen.walk(restrict=True):
            if isinstance(widget, TapButton) and widget.action_key == key:
                return widget
        raise AutoplayError(f"no button {key!r} on the {self.app.sm.current} screen")

    def tap(self, key: str) -> Script:
        button = self.find(key)
        if button.disabled:
            raise AutoplayError(f"button {key!r} on the {self.app.sm.current} screen is disabled")
        button.trigger_action(0)
        yield 0.15

    def until(self, what: str, test: Callable[[], bool], timeout: float = 8.0) -> Script:
        waited = 0.0
        while not test():
            if waited > timeout:
                raise AutoplayError(f"waited {timeout:.0f} s for {what}")
            yield 0.1
            waited += 0.1
        yield 0.15

    def pick_robot(self, robot: str) -> Script:
        if self.app.sm.current != "picker":
            raise AutoplayError("the robot picker is not open")
        for part, colour in zip(("head", "torso", "legs"), robot.split("-"), strict=True):
            yield from self.tap(f"colour:{part}:{colour}")
        yield from self.tap("picker-ok")

    def hold_secret(self) -> Script:
        if self.app.sm.current != "secret":
            raise AutoplayError("no hold-to-reveal screen is open")
        hold = self.app.sm.current_screen.ids.hold
        hold.press()
        yield 0.3
        hold.release()
        yield 0.15
        yield from self.tap("secret-done")

    @property
    def table(self) -> Any:
        return self.app.controller.table

    def step(self) -> Step | None:
        table = self.table
        return table.step if isinstance(table, RoboFactoryTable) else None

    # ------------------------------------------------------------------ the games

    def script(self) -> Script:
        yield 0.5
        yield from self.robo_factory()
        yield from self.robot_master()
        yield from self.tap("language:nl")
        yield 0.3
        yield from self.tap("language:de")
        yield 0.3
        yield from self.tap("language:en")

    def robo_factory(self) -> Script:
        app = self.app
        yield from self.tap("new:robo-factory")
        yield from self.tap("begin")
        yield from self.until("the Robo Factory screen", lambda: app.sm.current == "factory")
        # Turn 1, Ann is the Customer: the long turn, with purchases, Eureka and two attempts.
        yield from self.turn(
            order="red-green-blue",
            board=["blue-blue-blue", "red-green-yellow", "yellow-red-green"],
            touch_board=2,
            buys=[("Bob", "green-green-blue", "camera"), ("Cid", "yellow-yellow-yellow", "touch")],
            attempts=[({1: "red-green-green", 2: "yellow-green-blue"}, [1]),
                      ({1: "red-green-blue", 2: "red-blue-blue"}, [])],
            fix=("Cid", "red-blue-green"),
        )
        # Turn 2, Bob: Cid calls Eureka and is right in the first attempt.
        yield from self.turn(
            order="green-green-yellow",
            board=["green-blue-yellow", "blue-green-red", "yellow-yellow-yellow"],
            attempts=[({0: "green-red-yellow", 2: "green-green-yellow"}, [2])],
            doubtful_board=True,
        )
        # Turn 3, Cid: a physical die roll entered by touch for Ann's Eureka.
        yield from self.turn(
            order="blue-yellow-red",
            board=["blue-blue-red", "red-yellow-blue", "green-green-green"],
            buys=[("Ann", "blue-yellow-green", "camera")],
            attempts=[({0: "blue-yellow-red", 1: "blue-blue-red"}, [0])],
            roll_by_touch=True,
        )
        for order, board, robots in (
            ("yellow-red-green", ["yellow-red-red", "green-red-green", "blue-blue-blue"],
             {1: "yellow-red-green", 2: "yellow-red-red"}),
            ("red-red-red", ["red-red-green", "green-green-green", "blue-red-yellow"],
             {0: "red-red-green", 2: "red-red-red"}),
            ("green-blue-blue", ["green-blue-red", "blue-blue-blue", "yellow-green-red"],
             {0: "green-blue-blue", 1: "green-blue-blue"}),
        ):
            yield from self.turn(order=order, board=board, attempts=[(robots, [])])
        yield from self.until("the results", lambda: app.sm.current == "end")
        yield 0.3
        yield from self.tap("home")

    def turn(
        self,
        order: str,
        board: list[str],
        attempts: list[tuple[dict[int, str], list[int]]],
        buys: list[tuple[str, str, str]] | None = None,
        touch_board: int | None = None,
        fix: tuple[str, str] | None = None,
        doubtful_board: bool = False,
        roll_by_touch: bool = False,
    ) -> Script:
        app = self.app
        stager = app.stager
        yield from self.until("the order step", lambda: self.step() is Step.ORDER)
        yield 0.2
        stager.order(order)
        yield from self.until("the order card to be read", lambda: self.step() is Step.BOARD)
        for i, card in enumerate(board):
            laid = len(self.table.turn.board)
            if i == touch_board or not stager.active:
                stager.nothing()
                yield from self.tap("enter-board")
                yield from self.pick_robot(card)
            elif doubtful_board and i == 0 and stager.fake is not None:
                stager.order_doubtful(card)
                yield from self.until("a question about the reading",
                                      lambda: bool(app.controller.pending))
                yield from self.tap("accept-reading")
            else:
                stager.order(card)
            yield from self.until(f"board card {i + 1}",
                                  lambda laid=laid: len(self.table.turn.board) > laid)
        for buyer, card, how in buys or []:
            yield from self.tap(f"buy:{buyer}")
            if how == "touch" or not stager.active:
                yield from self.tap("enter-buy")
                yield from self.pick_robot(card)
            else:
                stager.order(card)
            yield from self.until("the data tile for the Customer",
                                  lambda: app.sm.current == "secret")
            yield from self.hold_secret()
        stager.nothing()
        yield from self.until("the purchases", lambda: self.step() is Step.PURCHASES)
        yield from self.tap("start-production")
        for number, (robots, eureka) in enumerate(attempts):
            if number == 1:
                for name in list(self.table.manufacturers):
                    yield from self.tap(f"feedback:{name}")
                    yield from self.hold_secret()
                yield from self.tap("second-attempt")
            yield from self.until("production", lambda: self.step() is Step.PRODUCTION)
            for station in eureka:
                name = self.table.game.players[station]
                app.press_station(station)
                yield from self.until(f"{name}'s Eureka", lambda n=name: n in self.table.eureka)
                yield 0.4
            yield 1.4  # the Eureka flash fades
            stager.tiles(robots)
            yield from self.tap("reveal")
            if not stager.active:
                for seat, robot in robots.items():
                    yield from self.tap(f"robot:{self.table.game.players[seat]}")
                    yield from self.pick_robot(robot)
            yield from self.until("the robots to be read",
                                  lambda: not self.table.missing_robots())
            if fix is not None and number == len(attempts) - 1:
                yield from self.tap(f"robot:{fix[0]}")
                yield from self.pick_robot(fix[1])
            for name in list(self.table.missing_rolls()):
                if roll_by_touch:
                    yield from self.tap(f"enter-roll:{name}")
                    yield from self.tap("number:5")
                else:
                    yield from self.tap(f"roll:{name}")
            stager.nothing()
            yield from self.tap("commit")
            yield 0.3
        if self.table.finished:
            return
        yield from self.until("the ledger", lambda: self.step() is Step.LEDGER)
        yield 0.3
        yield from self.tap("next-turn")

    def robot_master(self) -> Script:
        app = self.app
        stager = app.stager
        yield from self.tap("new:robot-master")
        yield from self.tap("begin")
        yield from self.until("the Robot Master screen", lambda: app.sm.current == "master")
        start = MASTER_GRID[2][2]
        shown: list[list[int | None]] = [[None] * 5 for _ in range(5)]
        shown[2][2] = start
        if stager.active:
            stager.grid(shown)
        else:
            yield from self.tap("enter-start")
            yield from self.tap(f"number:{start}")
        yield from self.until("the start card", lambda: self.table.game is not None)
        values = {Cell(c, 4 - r): v for r, row in enumerate(MASTER_GRID) for c, v in enumerate(row)}
        order, _stranded = connected_order(values, CENTRE)
        for move, cell in enumerate(order[1:]):
            table: RobotMasterTable = self.table
            placed = len(table.game.cells)
            value = values[cell]
            if move == 3:  # a mistake: a cell that touches nothing
                far = next(c for c in ("a1", "e5", "a5", "e1") if c not in table.legal_cells()
                           and Cell.parse_name(c) not in table.game.cells)
                yield from self.tap(f"cell:{far}")
                yield 0.3
            if move % 2 == 0 and stager.active:
                shown[4 - cell.y][cell.x] = value
                stager.grid(shown)
            else:
                shown[4 - cell.y][cell.x] = value
                yield from self.tap(f"cell:{cell.name}")
                yield from self.tap(f"number:{value}")
            yield from self.until(f"a card on {cell.name}",
                                  lambda placed=placed: len(self.table.game.cells) > placed)
        yield from self.until("the results", lambda: app.sm.current == "end")
        yield 0.3
        stager.nothing()
        yield from self.tap("home")
