"""The app's controller: turns taps and the service's updates into commands and screen requests.

No Kivy here. The app calls :meth:`Controller.poll` from its clock (10 Hz) and
:meth:`Controller.handle` with an action key from a view model; both return what the app must
do next: redraw, play a sound, or show a picker or a hold-to-reveal screen (:class:`Request`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion import commands as c
from companion.service import TableService
from companion.session import Result, Suggestion, TableSession
from companion.tables.robo_factory import RoboFactoryTable
from companion.tables.robot_master import RobotMasterTable
from ui import viewmodels as vm
from ui.i18n import _, tr

log = logging.getLogger(__name__)


@dataclass
class Request:
    """Something the app must show before a command can be made.

    ``kind``: "pick-robot" (three parts), "pick-number" (a die roll or a card value),
    "secret" (hold-to-reveal for one player), "end" (the results screen).
    ``done`` is called with the choice (a robot text, a number, or None for a secret seen).
    """

    kind: str
    title: str = ""
    done: Callable[[Any], Any] | None = None
    secret: vm.SecretView | None = None
    #: for pick-number: the choices; for pick-robot: a robot to start from
    choices: tuple[int, ...] = ()
    initial: str | None = None
    #: the robot picker enters a secret: addressed to one player, others look away
    private: bool = False
    #: for a secret: what "Correct it" opens instead of confirming
    fix: Request | None = None


@dataclass
class Outcome:
    """What one poll or tap changed, for the app to show and sound."""

    changed: bool = False
    sounds: list[str] = field(default_factory=list)
    message: str = ""
    error: bool = False
    requests: list[Request] = field(default_factory=list)
    #: a card was read (order, board or handed in): the same flash for every one
    card_read: bool = False
    eureka: list[str] = field(default_factory=list)


class Controller:
    def __init__(
        self, service: TableService, *, has_camera: bool = False, has_board: bool = False
    ) -> None:
        self.service = service
        self.has_camera = has_camera
        self.has_board = has_board
        self.pending: list[Suggestion] = []
        self.buying: str | None = None
        self.selected_cell: str | None = None
        self.warning = ""
        self.board_message = ""
        self.camera_message = ""
        # The card just read stays under the camera for a moment; its reading again is no news.
        self._last_card: str | None = None
        # A person is checking or correcting a reading on a screen of its own: the camera may
        # grow sure of the card meanwhile, but the person decides (committing the camera's
        # reading would refuse their answer, a correction included, as out of turn).
        self.checking = False

    # ------------------------------------------------------------------ state

    @property
    def session(self) -> TableSession | None:
        return self.service.session

    @property
    def table(self) -> RoboFactoryTable | RobotMasterTable | None:
        return None if self.service.session is None else self.service.session.state

    def context(self) -> vm.FactoryContext:
        return vm.FactoryContext(self.buying, list(self.pending), self.has_camera, self.has_board)

    def view(self) -> vm.FactoryView | vm.MasterView | None:
        session = self.session
        if session is None:
            return None
        table = session.state
        if isinstance(table, RoboFactoryTable):
            return vm.factory_view(table, session.can_undo, self.context())
        return vm.master_view(
            table, session.can_undo, self.selected_cell, self.warning, self.pending
        )

    # ------------------------------------------------------------------ commands

    def submit(self, command: c.Command, out: Outcome | None = None) -> Result:
        out = out if out is not None else Outcome()
        result = self.service.submit(command)
        out.changed = True
        if not result.accepted:
            out.message = result.reason
            out.error = True
            out.sounds.append("refused")
            return result
        self.pending = []
        self.warning = ""
        if isinstance(command, (c.ScanOrder, c.LayBoardCard, c.Buy)):
            out.card_read = True
            out.sounds.append("card")
            self._last_card = command.card if isinstance(command, c.Buy) else command.robot
        if isinstance(command, c.CallEureka):
            out.eureka.append(command.player)
            out.sounds.append("eureka")
        if isinstance(command, c.Buy):
            self.buying = None
            self.service.buyer = None
            table = self.table
            assert isinstance(table, RoboFactoryTable)
            tile = table.purchase_tile(command.player)
            if tile is not None:
                out.requests.append(
                    Request(
                        "secret", secret=vm.purchase_secret(table.customer, command.player, tile)
                    )
                )
        if isinstance(command, c.CommitReveal):
            table = self.table
            assert isinstance(table, RoboFactoryTable)
            last = table.last_attempt
            out.sounds.append("correct" if last is not None and last.correct else "wrong")
            if table.finished:
                out.requests.append(Request("end"))
        if isinstance(command, c.PlaceCard) and self.table is not None and self.table.finished:
            out.sounds.append("correct")
            out.requests.append(Request("end"))
        if isinstance(command, c.PlaceCard):
            self.selected_cell = None
            out.sounds.append("card")
        if isinstance(command, c.NextTurn):
            self._last_card = None
        return result

    def undo(self, out: Outcome | None = None) -> Result:
        out = out if out is not None else Outcome()
        self.checking = False
        self.buying = None
        self.service.buyer = None
        self.selected_cell = None
        return self.submit(c.Undo(), out)

    def request_closed(self) -> None:
        """A picker or hold-to-reveal screen was left without a choice."""
        self.selected_cell = None
        self.checking = False

    # ------------------------------------------------------------------ the clock

    def poll(self) -> Outcome:
        out = Outcome()
        try:
            update = self.service.poll()
        except Exception as exc:
            log.exception("poll failed")
            out.message = tr("Something went wrong: {problem}", problem=str(exc))
            out.error = True
            out.changed = True
            return out
        for result in update.results:  # siren presses, already applied by the service
            out.changed = True
            if result.accepted and isinstance(result.command, c.CallEureka):
                out.eureka.append(result.command.player)
                out.sounds.append("eureka")
            elif not result.accepted:
                out.message = result.reason
        if update.board_status is not None:
            status = update.board_status
            self.board_message = "" if status.connected else status.message
            self.has_board = status.connected
            out.changed = True
        if update.camera_problem:
            self.camera_message = update.camera_problem
            out.changed = True
        pending: list[Suggestion] = []
        for suggestion in update.suggestions:
            if self._stale(suggestion):
                continue
            if suggestion.confident and not self.checking:
                self.submit(suggestion.command, out)
            else:
                pending.append(suggestion)
        if (update.suggestions or update.observations) and self.camera_message:
            self.camera_message = ""
        if pending != self.pending and (pending or update.observations or update.suggestions):
            self.pending = pending
            out.changed = True
        return out

    def _stale(self, suggestion: Suggestion) -> bool:
        cmd = suggestion.command
        card = cmd.card if isinstance(cmd, c.Buy) else getattr(cmd, "robot", None)
        if isinstance(cmd, c.SetRobot):
            return False
        # Every card exists once: the card just read, still under the camera, is no new card
        # (nor a purchase by the next buyer).
        return card is not None and card == self._last_card

    # ------------------------------------------------------------------ taps

    def handle(self, key: str) -> Outcome:
        """An action key from a view model (see :mod:`ui.viewmodels`)."""
        out = Outcome(changed=True)
        self.checking = False  # a tap on a game screen: no check screen is open any more
        verb, _sep, arg = key.partition(":")
        table = self.table
        if verb == "undo":
            self.undo(out)
            return out
        if isinstance(table, RoboFactoryTable):
            self._factory(table, verb, arg, out)
        elif isinstance(table, RobotMasterTable):
            self._master(table, verb, arg, out)
        if verb in ("accept-reading", "fix-reading", "dismiss-reading", "check-reading"):
            self._reading(verb, out)
        return out

    def _factory(self, table: RoboFactoryTable, verb: str, arg: str, out: Outcome) -> None:
        customer = table.customer
        if verb == "enter-order":
            out.requests.append(
                Request(
                    "pick-robot",
                    tr("{player} only: enter the order card (others look away)", player=customer),
                    done=lambda robot: self._submit_picked(c.ScanOrder(robot), out_holder=None),
                    private=True,
                )
            )
        elif verb == "enter-board":
            slot = len(table.turn.board) + 1
            out.requests.append(
                Request(
                    "pick-robot",
                    tr("Board card {slot}", slot=slot),
                    done=lambda robot: self._submit_picked(c.LayBoardCard(robot)),
                )
            )
        elif verb == "buy":
            self.buying = arg
            self.service.buyer = arg
        elif verb == "cancel-buy":
            self.buying = None
            self.service.buyer = None
            self.pending = []
        elif verb == "enter-buy":
            buyer = self.buying or ""
            out.requests.append(
                Request(
                    "pick-robot",
                    tr(
                        "{player} only: enter the card {buyer} handed in (others look away)",
                        player=customer,
                        buyer=buyer,
                    ),
                    done=lambda robot: self._submit_picked(c.Buy(buyer, robot)),
                    private=True,
                )
            )
        elif verb == "start-production" or verb == "second-attempt":
            self.submit(c.StartProduction(), out)
        elif verb == "robot":
            current = table.robots.get(arg)
            out.requests.append(
                Request(
                    "pick-robot",
                    tr("{player}'s robot", player=arg),
                    done=lambda robot: self._submit_picked(c.SetRobot(arg, robot)),
                    initial=None if current is None else str(current),
                )
            )
        elif verb == "eureka":
            self.submit(c.CallEureka(arg), out)
        elif verb == "reveal":
            self.submit(c.StartReveal(), out)
        elif verb == "roll":
            result = self.service.roll(arg)
            out.changed = True
            if result.accepted:
                out.sounds.append("dice")
                out.message = tr(
                    "{player} rolled {roll}", player=arg, roll=getattr(result.command, "roll", "?")
                )
            else:
                out.message, out.error = result.reason, True
        elif verb == "enter-roll":
            out.requests.append(
                Request(
                    "pick-number",
                    tr("{player}'s roll", player=arg),
                    choices=(1, 2, 3, 4, 5, 6),
                    done=lambda n: self._submit_picked(c.SetRoll(arg, int(n))),
                )
            )
        elif verb == "commit":
            self.submit(c.CommitReveal(), out)
        elif verb == "feedback":
            tile = table.feedback_tile(arg)
            if tile is not None:
                out.requests.append(
                    Request(
                        "secret",
                        secret=vm.feedback_secret(arg, tile),
                        done=lambda _x: self._submit_picked(c.FeedbackSeen(arg)),
                    )
                )
        elif verb == "next-turn":
            self.submit(c.NextTurn(), out)
        elif verb == "show-end":
            out.requests.append(Request("end"))

    def _master(self, table: RobotMasterTable, verb: str, arg: str, out: Outcome) -> None:
        if verb == "enter-start":
            out.requests.append(
                Request(
                    "pick-number",
                    _("The start card"),
                    choices=(0, 1, 2, 3, 4, 5),
                    done=lambda n: self._submit_picked(c.PlaceStart(int(n))),
                )
            )
        elif verb == "cell":
            warning = vm.placement_warning(table, arg)
            if warning:
                self.warning = warning
                self.selected_cell = None
                out.sounds.append("refused")
                return
            self.warning = ""
            self.selected_cell = arg
            game = table.game
            choices = tuple(v for v in range(6) if game is not None and game.cards_left(v) > 0)
            out.requests.append(
                Request(
                    "pick-number",
                    tr("Which card goes on {cell}?", cell=arg),
                    choices=choices,
                    done=lambda n: self._submit_picked(c.PlaceCard(arg, int(n))),
                )
            )
        elif verb == "show-end":
            out.requests.append(Request("end"))

    def _reading(self, verb: str, out: Outcome) -> None:
        if not self.pending:
            return
        suggestion = self.pending[0]
        cmd = suggestion.command
        if verb in ("check-reading", "fix-reading"):
            self.checking = True
        if verb == "dismiss-reading":
            self.pending = self.pending[1:]
        elif verb == "accept-reading":
            self.submit(_as_touch(cmd), out)
        elif verb == "check-reading":
            table = self.table
            customer = table.customer if isinstance(table, RoboFactoryTable) else ""
            robot = cmd.card if isinstance(cmd, c.Buy) else getattr(cmd, "robot", "")
            fix = Request(
                "pick-robot",
                _("Correct the reading"),
                private=True,
                done=lambda r: self._submit_picked(_with_robot(cmd, str(r))),
            )
            out.requests.append(
                Request(
                    "secret",
                    secret=vm.reading_secret(customer, str(robot)),
                    done=lambda _x: self._submit_picked(_as_touch(cmd)),
                    fix=fix,
                )
            )
        elif verb == "fix-reading":
            if isinstance(cmd, (c.PlaceStart, c.PlaceCard)):
                value_cmd = cmd
                out.requests.append(
                    Request(
                        "pick-number",
                        _describe_fix(cmd),
                        choices=(0, 1, 2, 3, 4, 5),
                        done=lambda n: self._submit_picked(_with_value(value_cmd, int(n))),
                    )
                )
            else:
                robot = cmd.card if isinstance(cmd, c.Buy) else getattr(cmd, "robot", None)
                out.requests.append(
                    Request(
                        "pick-robot",
                        _("Correct the reading"),
                        initial=robot,
                        done=lambda r: self._submit_picked(_with_robot(cmd, str(r))),
                        private=vm.is_secret(cmd),
                    )
                )

    def _submit_picked(self, command: c.Command, out_holder: Outcome | None = None) -> Outcome:
        out = out_holder or Outcome()
        self.checking = False
        self.submit(command, out)
        return out


def _as_touch(cmd: c.Command) -> c.Command:
    # A reading confirmed by a person is a touch entry: the record says who decided.
    import dataclasses

    if any(f.name == "source" for f in dataclasses.fields(cmd)):
        return dataclasses.replace(cmd, source="touch")  # type: ignore[call-arg]
    return cmd


def _with_robot(cmd: c.Command, robot: str) -> c.Command:
    if isinstance(cmd, c.Buy):
        return c.Buy(cmd.player, robot)
    if isinstance(cmd, c.SetRobot):
        return c.SetRobot(cmd.player, robot)
    if isinstance(cmd, c.ScanOrder):
        return c.ScanOrder(robot)
    return c.LayBoardCard(robot)


def _with_value(cmd: c.PlaceStart | c.PlaceCard, value: int) -> c.Command:
    if isinstance(cmd, c.PlaceStart):
        return c.PlaceStart(value)
    return c.PlaceCard(cmd.cell, value)


def _describe_fix(cmd: c.PlaceStart | c.PlaceCard) -> str:
    if isinstance(cmd, c.PlaceStart):
        return _("The start card")
    return tr("Which card goes on {cell}?", cell=cmd.cell)
