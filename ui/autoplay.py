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
from functools import partial
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window

from companion import commands as c
from companion.rules.robot_master import CENTRE, Cell, connected_order
from companion.session import Suggestion
from companion.tables.robo_factory import RoboFactoryTable, Step
from companion.tables.robot_master import RobotMasterTable
from ui import viewmodels as vm
from ui.widgets import TapButton

log = logging.getLogger(__name__)

#: the finished grid of the Robot Master game (DESIGN.md's example), top row first
MASTER_GRID = [[3, 0, 5, 2, 2], [1, 4, 4, 0, 5], [2, 2, 3, 1, 0], [5, 1, 0, 3, 4], [4, 3, 1, 5, 2]]

Script = Iterator[float]


class AutoplayError(RuntimeError):
    pass


class Autoplay:
    def __init__(
        self,
        app: Any,
        shots: Path | None,
        games: tuple[str, ...] = ("robo-factory", "robot-master"),
    ) -> None:
        self.app = app
        self.games = games
        self.dir = shots
        self.shots = 0
        self.steps = 0
        self.error: str | None = None
        self._last: str | None = None
        self._script: Script | None = None
        self._flash_shown = False
        #: waits scale with this: screenshots need settled frames, tests only need the clock
        self.pace = 1.0 if shots is not None else 0.3

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
        if self.dir is not None:
            # The first read of the frame buffer under Xvfb comes back black: prime it once.
            Window.screenshot(name=str(self.dir / "prime.png"))
            for primed in self.dir.glob("prime*.png"):
                primed.unlink()
        Clock.schedule_once(self._advance, 0.3)

    def _advance(self, _dt: float) -> None:
        assert self._script is not None
        self.snapshot()
        try:
            wait = next(self._script)
        except StopIteration:
            self.app.stop()
            return
        except Exception as exc:
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
        parts = [app.sm.current, app.lang]
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
        if self.app.flash.opacity > 0 and not force:
            return  # the flash is caught once on purpose (see card_read_shot)
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
        yield 0.15 * self.pace

    def until(
        self, what: str, test: Callable[[], bool], timeout: float = 8.0, flash: bool = True
    ) -> Script:
        waited = 0.0
        # also wait for the "card read" flash to fade, so each screen is seen clearly
        flash = flash and self.dir is not None  # only screenshots need the flash gone
        while not test() or (flash and self.app.flash.opacity > 0):
            if waited > timeout:
                raise AutoplayError(f"waited {timeout:.0f} s for {what}")
            yield 0.1 * self.pace
            waited += 0.1 * self.pace
        yield 0.15 * self.pace

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
        yield 0.3 * self.pace
        hold.release()
        yield 0.15 * self.pace
        yield from self.tap("secret-done")

    @property
    def table(self) -> Any:
        return self.app.controller.table

    def step(self) -> Step | None:
        table = self.table
        return table.step if isinstance(table, RoboFactoryTable) else None

    # ------------------------------------------------------------------ camera readings

    def read(
        self,
        what: str,
        test: Callable[[], bool],
        fallback: Callable[[], Script] | None = None,
        restage: Callable[[], None] | None = None,
        timeout: float = 6.0,
        flash: bool = True,
    ) -> Script:
        """Wait for a staged reading to be applied, answering the app's questions as the table
        would: a doubtful reading is confirmed when right and corrected by touch when wrong.
        When the camera reads nothing, the card is laid again once, then entered by touch."""
        waited = 0.0
        restaged = False
        while not test():
            pending = self.app.controller.pending
            if pending and self.app.sm.current in ("factory", "master"):
                yield from self.answer(pending[0])
                continue
            if restage is not None and not restaged and waited > timeout / 2:
                self.app.stager.nothing()
                yield 0.3 * self.pace
                restage()
                restaged = True
            if waited > timeout:
                if fallback is None:
                    raise AutoplayError(f"waited {timeout:.0f} s for the camera to read {what}")
                self.fallbacks += 1
                self.app.stager.nothing()
                yield from fallback()
                fallback = None
                waited = 0.0
                continue
            yield 0.1 * self.pace
            waited += 0.1 * self.pace
        yield from self.until(what, test, flash=flash)

    fallbacks = 0

    def answer(self, suggestion: Suggestion) -> Script:
        cmd = suggestion.command
        right = self.is_expected(cmd) and not suggestion.problem
        if vm.is_secret(cmd):
            yield from self.tap("check-reading")
            if right:
                yield from self.hold_secret()
            else:
                hold = self.app.sm.current_screen.ids.hold
                hold.press()
                yield 0.2 * self.pace
                hold.release()
                yield from self.tap("secret-fix")
                yield from self.pick_robot(str(self.want))
        elif right:
            yield from self.tap("accept-reading")
        elif isinstance(cmd, (c.PlaceStart, c.PlaceCard)):
            if (
                isinstance(cmd, c.PlaceCard)
                and self.want_cell is not None
                and cmd.cell != self.want_cell[0]
            ):
                yield from self.tap("dismiss-reading")
                yield from self.tap(f"cell:{self.want_cell[0]}")
                yield from self.tap(f"number:{self.want_cell[1]}")
            else:
                yield from self.tap("fix-reading")
                value = self.want_cell[1] if self.want_cell is not None else self.want
                yield from self.tap(f"number:{value}")
        else:
            yield from self.tap("fix-reading")
            if isinstance(cmd, c.SetRobot):
                yield from self.pick_robot(self.want_robots[cmd.player])
            else:
                yield from self.pick_robot(str(self.want))

    def is_expected(self, cmd: c.Command) -> bool:
        if isinstance(cmd, (c.ScanOrder, c.LayBoardCard)):
            return bool(cmd.robot == self.want)
        if isinstance(cmd, c.Buy):
            return bool(cmd.card == self.want)
        if isinstance(cmd, c.SetRobot):
            return self.want_robots.get(cmd.player) == cmd.robot
        if isinstance(cmd, c.PlaceStart):
            return bool(cmd.value == self.want)
        if isinstance(cmd, c.PlaceCard):
            return self.want_cell == (cmd.cell, cmd.value)
        return False

    want: Any = None
    want_robots: dict[str, str] = {}  # noqa: RUF012 - replaced, never mutated
    want_cell: tuple[str, int] | None = None

    # ------------------------------------------------------------------ the games

    def script(self) -> Script:
        yield from self.until("the table to start", self.started, timeout=60)
        yield 0.3 * self.pace
        if "robo-factory" in self.games:
            yield from self.robo_factory()
        if "robot-master" in self.games:
            yield from self.robot_master()
        if "calibration" in self.games:
            yield from self.calibration()
        yield from self.tap("language:nl")
        yield 0.3 * self.pace
        yield from self.tap("language:de")
        yield 0.3 * self.pace
        yield from self.tap("language:en")

    def calibration(self) -> Script:
        """Set up the demo's staged camera by the guided steps, as players would: lay down what
        each step asks, take the picture; once with nothing laid down, which is not kept."""
        app = self.app
        camera = app.calibratable_camera()
        if camera is None or not hasattr(camera, "show_tiles"):
            return  # the core's fake camera (or none): there is nothing to set up
        yield from self.tap("calibrate")
        yield from self.until("the camera set-up", lambda: app.sm.current == "calibrate")
        screen = app.sm.current_screen
        run = screen.run
        camera.show_nothing()
        camera.show_tiles({})  # the first step looks at tiles: an empty table
        yield 1.0 * self.pace  # the preview shows the empty table
        yield from self.take_picture(screen, kept=False)
        colours = list(app.config_.game.colours)
        while run.step is not None:
            step = run.step
            if step.kind == "tiles":
                robot = "-".join(colours[k] for k in step.lanes)
                camera.show_tiles({seat: robot for seat in range(4)})
            elif step.kind == "order":
                camera.show_order(step.robot)
            else:
                camera.show_grid(step.grid)
            yield 1.5 * self.pace  # the preview catches up (the staged scene is drawn first)
            yield from self.take_picture(screen, kept=True)
        yield from self.tap("calibrate-learn")
        yield from self.until("the camera to learn", lambda: screen.finished, timeout=300)
        yield 0.5 * self.pace
        self.snapshot(force=True, label="calibrate-done")
        yield from self.tap("calibrate-close")
        yield from self.until("home", lambda: app.sm.current == "home")

    def take_picture(self, screen: Any, kept: bool) -> Script:
        run = screen.run
        before = run.taken
        yield from self.tap("calibrate-take")
        yield from self.until(
            "the picture to be checked",
            lambda: not run.busy and run.results.empty() and not screen.busy,
            timeout=60,
        )
        if (run.taken > before) != kept:
            raise AutoplayError(
                f"the set-up step {'was not' if kept else 'was'} kept: {screen.status!r}"
            )
        if not kept:
            self.snapshot(force=True, label="calibrate-retry")

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
            attempts=[
                ({1: "red-green-green", 2: "yellow-green-blue"}, [1]),
                ({1: "red-green-blue", 2: "red-blue-blue"}, []),
            ],
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
            (
                "yellow-red-green",
                ["yellow-red-red", "green-red-green", "blue-blue-blue"],
                {1: "yellow-red-green", 2: "yellow-red-red"},
            ),
            (
                "red-red-red",
                ["red-red-green", "green-green-green", "blue-red-yellow"],
                {0: "red-red-green", 2: "red-red-red"},
            ),
            (
                "green-blue-blue",
                ["green-blue-red", "blue-blue-blue", "yellow-green-red"],
                {0: "green-blue-blue", 1: "green-blue-blue"},
            ),
        ):
            yield from self.turn(order=order, board=board, attempts=[(robots, [])])
        yield from self.until("the results", lambda: app.sm.current == "end")
        yield 0.3 * self.pace
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
        yield 0.2 * self.pace
        self.want = order

        def touch_order() -> Script:
            yield from self.tap("enter-order")
            yield from self.pick_robot(order)

        if stager.active:
            stager.order(order)
            if not self._flash_shown:
                yield from self.read(
                    "the order card",
                    lambda: self.app.flash.opacity > 0.9 or self.step() is not Step.ORDER,
                    touch_order,
                    lambda: stager.order(order),
                    flash=False,
                )
                if self.app.flash.opacity > 0:
                    self.snapshot(force=True, label="card-read")
                self._flash_shown = True
        else:
            yield from touch_order()
        yield from self.read(
            "the order card",
            lambda: self.step() is Step.BOARD,
            touch_order,
            lambda: stager.order(order),
        )
        if str(self.table.order_card()) != order:  # read wrongly with confidence: undo, touch
            yield from self.tap("undo")
            stager.nothing()
            yield from self.tap("enter-order")
            yield from self.pick_robot(order)
        for i, card in enumerate(board):
            laid = len(self.table.turn.board)
            self.want = card
            if i == touch_board or not stager.active:
                stager.nothing()
                yield from self.tap("enter-board")
                yield from self.pick_robot(card)
            elif doubtful_board and i == 0 and stager.fake is not None:
                stager.order_doubtful(card)
            else:
                stager.order(card)
            yield from self.read(
                f"board card {i + 1}",
                self.board_beyond(laid),
                partial(self.touch_board, card),
                partial(stager.order, card),
            )
            if str(self.table.turn.board[-1]) != card:
                yield from self.tap("undo")
                stager.nothing()
                yield from self.tap("enter-board")
                yield from self.pick_robot(card)
        for buyer, card, how in buys or []:
            self.want = card
            yield from self.tap(f"buy:{buyer}")
            if how == "touch" or not stager.active:
                stager.nothing()
                yield from self.tap("enter-buy")
                yield from self.pick_robot(card)
            else:
                stager.order(card)
            yield from self.read(
                "the handed card",
                lambda: self.showing_tile(),
                partial(self.touch_buy, card),
                partial(stager.order, card),
            )
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
                if app.simulator is not None or app.service.board is not None:
                    app.press_station(station)
                else:  # no siren board: Eureka by touch
                    yield from self.tap(f"eureka:{name}")
                yield from self.until(
                    f"{name}'s Eureka", partial(self.called_eureka, name), flash=False
                )
                yield 0.3 * self.pace
                self.snapshot(force=True, label="eureka")
                yield from self.until("the flash to fade", lambda: True)
            self.want_robots = {self.table.game.players[seat]: r for seat, r in robots.items()}
            stager.tiles(robots)
            yield from self.tap("reveal")
            if not stager.active:
                for seat, robot in robots.items():
                    yield from self.tap(f"robot:{self.table.game.players[seat]}")
                    yield from self.pick_robot(robot)
            yield from self.read(
                "the robots",
                lambda: not self.table.missing_robots(),
                self.touch_robots,
                partial(stager.tiles, robots),
            )
            for name, robot in self.want_robots.items():
                if str(self.table.robots.get(name)) != robot:  # read wrongly: fix by touch
                    yield from self.tap(f"robot:{name}")
                    yield from self.pick_robot(robot)
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
            yield 0.3 * self.pace
            yield from self.tap("commit")
            yield 0.3 * self.pace
        if self.table.finished:
            return
        yield from self.until("the ledger", lambda: self.step() is Step.LEDGER)
        yield 0.3 * self.pace
        yield from self.tap("next-turn")

    def showing_tile(self) -> bool:
        """A hold-to-reveal screen with a data tile (not a reading to check) is open."""
        screen = self.app.sm.current_screen
        secret = getattr(screen, "secret", None)
        return self.app.sm.current == "secret" and secret is not None and secret.tile is not None

    def started(self) -> bool:
        if self.app.wired is None and self.app.problems:
            raise AutoplayError("; ".join(self.app.problems))
        return bool(self.app.ready)

    def board_beyond(self, laid: int) -> Callable[[], bool]:
        return lambda: len(self.table.turn.board) > laid

    def cells_beyond(self, placed: int) -> Callable[[], bool]:
        return lambda: len(self.table.game.cells) > placed

    def called_eureka(self, name: str) -> bool:
        return name in self.table.eureka

    def touch_board(self, card: str) -> Script:
        yield from self.tap("enter-board")
        yield from self.pick_robot(card)

    def touch_buy(self, card: str) -> Script:
        yield from self.tap("enter-buy")
        yield from self.pick_robot(card)

    def touch_robots(self) -> Script:
        for name in list(self.table.missing_robots()):
            yield from self.tap(f"robot:{name}")
            yield from self.pick_robot(self.want_robots[name])

    def touch_cell(self, cell: str | None, value: int) -> Script:
        if cell is None:
            yield from self.tap("enter-start")
        else:
            yield from self.tap(f"cell:{cell}")
        yield from self.tap(f"number:{value}")

    def robot_master(self) -> Script:
        app = self.app
        stager = app.stager
        yield from self.tap("new:robot-master")
        yield from self.tap("begin")
        yield from self.until("the Robot Master screen", lambda: app.sm.current == "master")
        start = MASTER_GRID[2][2]
        shown: list[list[int | None]] = [[None] * 5 for _ in range(5)]
        shown[2][2] = start
        self.want = start
        if stager.active:
            stager.grid(shown)
        else:
            yield from self.tap("enter-start")
            yield from self.tap(f"number:{start}")
        yield from self.read(
            "the start card",
            lambda: self.table.game is not None,
            lambda: self.touch_cell(None, start),
            lambda: stager.grid(shown),
        )
        values = {
            Cell(col, 4 - r): v for r, row in enumerate(MASTER_GRID) for col, v in enumerate(row)
        }
        order, _stranded = connected_order(values, CENTRE)
        for move, cell in enumerate(order[1:]):
            table: RobotMasterTable = self.table
            assert table.game is not None
            placed = len(table.game.cells)
            value = values[cell]
            self.want_cell = (cell.name, value)
            if move == 3:  # a mistake: a cell that touches nothing
                far = next(
                    n
                    for n in ("a1", "e5", "a5", "e1")
                    if n not in table.legal_cells() and Cell.parse_name(n) not in table.game.cells
                )
                yield from self.tap(f"cell:{far}")
                yield 0.3 * self.pace
            shown[4 - cell.y][cell.x] = value
            if move % 2 == 0 and stager.active:
                stager.grid(shown)
            else:
                yield from self.tap(f"cell:{cell.name}")
                yield from self.tap(f"number:{value}")
            yield from self.read(
                f"a card on {cell.name}",
                self.cells_beyond(placed),
                partial(self.touch_cell, cell.name, value),
                lambda: stager.grid(shown),
            )
            if self.table.game.value_at(cell) != value:
                raise AutoplayError(
                    f"{cell.name} holds {self.table.game.value_at(cell)}, not {value}"
                )
        stager.nothing()
        yield from self.until("the results", lambda: app.sm.current == "end")
        yield 0.3 * self.pace
        yield from self.tap("home")
