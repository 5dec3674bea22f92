# mypy: disallow-subclassing-any=False
"""Setup: players (2 to 6 names in seat order, clockwise), first Customer and the game options
(Robo Factory); the rows and columns players, who starts and the frame (Robot Master)."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.textinput import TextInput

from companion.rules.robo_factory import Options, Penalty, Tie
from companion.rules.robot_master import Frame, Side
from companion.tables.robo_factory import RoboFactorySetup
from companion.tables.robot_master import RobotMasterSetup
from ui import viewmodels as vm
from ui.i18n import _, tr
from ui.screens.base import BaseScreen

DEFAULT_NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


class SetupScreen(BaseScreen):
    game = StringProperty("robo-factory")
    title = StringProperty("")
    problem = StringProperty("")
    names = ListProperty(DEFAULT_NAMES[:3])

    def start(self, game: str, config: Any) -> None:
        self.game = game
        self.first = 0
        self.tie = config.robo_factory.tie
        self.penalty = config.robo_factory.penalty
        self.frame = config.robot_master.frame
        self.side_first = "rows"
        self.names = DEFAULT_NAMES[:3] if game == "robo-factory" else DEFAULT_NAMES[:2]
        self.problem = ""
        self.refresh()

    def refresh(self) -> None:
        factory = self.game == "robo-factory"
        self.title = _("New game of Robo Factory") if factory else _("New game of Robot Master")
        players = self.ids.players
        players.clear_widgets()
        self._inputs: list[TextInput] = []
        for i, name in enumerate(self.names):
            row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(4))
            label = tr("Seat {n}", n=i + 1) if factory else (_("Rows") if i == 0 else _("Columns"))
            row.add_widget(Label(text=label, size_hint_x=None, width=dp(86), font_size="16sp"))
            box = TextInput(
                text=name,
                multiline=False,
                font_size="22sp",
                write_tab=False,
                padding=(dp(8), dp(12)),
            )
            box.bind(text=lambda w, t, i=i: self._rename(i, t))
            self._inputs.append(box)
            row.add_widget(box)
            if factory:
                row.add_widget(
                    self.small_button(
                        vm.Action(
                            f"first:{i}",
                            _("First Customer") if self.first == i else _("Customer?"),
                            kind="primary" if self.first == i else "normal",
                        ),
                        124,
                        self.option,
                    )
                )
                row.add_widget(
                    self.small_button(
                        vm.Action(f"up:{i}", _("Move up"), enabled=i > 0), 100, self.option
                    )
                )
            players.add_widget(row)
        options = self.ids.options
        options.clear_widgets()
        if factory:
            options.add_widget(
                self._row(
                    [
                        vm.Action("remove-player", "− " + _("player"), enabled=len(self.names) > 2),
                        vm.Action("add-player", "+ " + _("player"), enabled=len(self.names) < 6),
                    ]
                )
            )
            options.add_widget(self._caption(_("When the lead is tied")))
            options.add_widget(
                self._row(
                    [
                        vm.Action(
                            "tie:share", _("Share the win"), kind=self._on(self.tie == "share")
                        ),
                        vm.Action(
                            "tie:extra-round",
                            _("Extra round"),
                            kind=self._on(self.tie == "extra-round"),
                        ),
                    ]
                )
            )
            options.add_widget(self._caption(_("Wrong robots in the 2nd attempt pay")))
            options.add_widget(
                self._row(
                    [
                        vm.Action(
                            "penalty:rulebook",
                            _("Always (rule book)"),
                            kind=self._on(self.penalty == "rulebook"),
                        ),
                        vm.Action(
                            "penalty:faq",
                            _("If no one is right (FAQ)"),
                            kind=self._on(self.penalty == "faq"),
                        ),
                    ]
                )
            )
        else:
            options.add_widget(self._caption(_("Who lays the first card")))
            options.add_widget(
                self._row(
                    [
                        vm.Action(
                            "side-first:rows",
                            self.names[0],
                            kind=self._on(self.side_first == "rows"),
                        ),
                        vm.Action(
                            "side-first:columns",
                            self.names[1],
                            kind=self._on(self.side_first == "columns"),
                        ),
                    ]
                )
            )
            options.add_widget(self._caption(_("Frame")))
            options.add_widget(
                self._row(
                    [
                        vm.Action(
                            "frame:fixed",
                            _("Fixed (start in the centre)"),
                            kind=self._on(self.frame == "fixed"),
                        ),
                        vm.Action(
                            "frame:floating", _("Floating"), kind=self._on(self.frame == "floating")
                        ),
                    ]
                )
            )
        options.add_widget(Label())

    @staticmethod
    def _on(flag: bool) -> str:
        return "primary" if flag else "normal"

    def _caption(self, text: str) -> Label:
        label = Label(text=text, size_hint_y=None, height=dp(28), font_size="16sp", halign="left")
        label.bind(size=lambda w, s: setattr(w, "text_size", s))
        return label

    def _row(self, actions: list[vm.Action]) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height=dp(60), spacing=dp(4))
        for action in actions:
            row.add_widget(self.action_button(action, self.option, font_size="15sp"))
        return row

    def _rename(self, i: int, text: str) -> None:
        if i < len(self.names):
            self.names[i] = text

    def option(self, key: str) -> None:
        verb, _sep, arg = key.partition(":")
        names = list(self.names)
        if verb == "add-player" and len(names) < 6:
            unused = [n for n in DEFAULT_NAMES if n not in names]
            names.append(unused[0] if unused else tr("Player {n}", n=len(names) + 1))
        elif verb == "remove-player" and len(names) > 2:
            names.pop()
            self.first = min(self.first, len(names) - 1)
        elif verb == "first":
            self.first = int(arg)
        elif verb == "up":
            i = int(arg)
            names[i - 1], names[i] = names[i], names[i - 1]
            if self.first in (i, i - 1):
                self.first = i - 1 if self.first == i else i
        elif verb == "tie":
            self.tie = arg
        elif verb == "penalty":
            self.penalty = arg
        elif verb == "frame":
            self.frame = arg
        elif verb == "side-first":
            self.side_first = arg
        self.names = names
        self.refresh()

    def setup(self) -> RoboFactorySetup | RobotMasterSetup | None:
        names = [n.strip() for n in self.names]
        if self.game == "robo-factory":
            check = vm.check_factory_setup(names)
            if not check.ok:
                self.problem = check.problem
                return None
            return RoboFactorySetup(
                tuple(names),
                names[self.first],
                Options(Tie(self.tie), Penalty(self.penalty)),
                tuple(self.app.config_.game.colours),
            )
        check = vm.check_master_setup(names[0], names[1])
        if not check.ok:
            self.problem = check.problem
            return None
        return RobotMasterSetup(names[0], names[1], Frame(self.frame), Side(self.side_first))

    def begin(self) -> None:
        setup = self.setup()
        if setup is not None:
            self.problem = ""
            self.app.begin_game(setup)
