# mypy: disallow-subclassing-any=False
"""Robo Factory: one step at a time, as the view model says (ui.viewmodels.factory_view)."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.utils import escape_markup

from ui import viewmodels as vm
from ui.i18n import _, tr
from ui.screens.base import BaseScreen


class FactoryScreen(BaseScreen):
    title = StringProperty("")
    subtitle = StringProperty("")
    note = StringProperty("")
    note_is_error = BooleanProperty(False)
    secret_scan = BooleanProperty(False)
    can_undo = BooleanProperty(False)
    filled = ("players", "lines", "board", "prompts", "actions")

    def refresh(self) -> None:
        view = self.app.controller.view()
        if not isinstance(view, vm.FactoryView):
            return
        app = self.app
        self.title = view.title
        self.subtitle = view.subtitle
        self.secret_scan = view.secret_scan
        self.can_undo = view.can_undo
        self.note, self.note_is_error = app.note(view.camera_note)
        self._players(view)
        lines = self.ids.lines
        lines.clear_widgets()
        for i, text in enumerate(view.lines):
            label = Label(
                text=text,
                font_size="21sp" if i == len(view.lines) - 1 else "18sp",
                halign="left",
                valign="top",
                size_hint_y=None,
                bold=i == len(view.lines) - 1,
            )
            label.bind(
                width=lambda w, width: setattr(w, "text_size", (width, None)),
                texture_size=lambda w, ts: setattr(w, "height", ts[1] + dp(4)),
            )
            lines.add_widget(label)
        board = self.ids.board
        board.clear_widgets()
        for card, tile in view.board:
            cell = BoxLayout(orientation="vertical", size_hint_x=None, width=dp(96))
            cell.add_widget(app.robot_view(card, size_hint_y=0.72))
            cell.add_widget(
                Label(text=tr("tile {n}", n=tile), font_size="18sp", bold=True, size_hint_y=0.28)
            )
            board.add_widget(cell)
        prompts = self.ids.prompts
        prompts.clear_widgets()
        for prompt in view.prompts[:1]:
            row = BoxLayout(size_hint_y=None, height=dp(58), spacing=dp(6))
            text = prompt.text + (f" ({prompt.problem})" if prompt.problem else "")
            label = Label(
                text=text, font_size="17sp", color=(1, 0.85, 0.4, 1), halign="left", valign="middle"
            )
            label.bind(size=lambda w, s: setattr(w, "text_size", s))
            row.add_widget(label)
            for action in prompt.actions:
                row.add_widget(self.small_button(action, 150 if action.kind == "secret" else 120))
            prompts.add_widget(row)
        actions = self.ids.actions
        actions.clear_widgets()
        for action in view.actions:
            actions.add_widget(
                self.action_button(
                    action,
                    size_hint_x=None,
                    width=dp(max(170, min(330, 11 * len(action.label)))),
                    font_size="19sp",
                )
            )

    def _players(self, view: vm.FactoryView) -> None:
        app = self.app
        box = self.ids.players
        box.clear_widgets()
        height = dp(56) if len(view.players) <= 5 else dp(52)
        for player in view.players:
            row = BoxLayout(size_hint_y=None, height=height, spacing=dp(4))
            colour = app.seat_colour(player.seat)
            badge = Label(
                text=str(player.seat + 1),
                size_hint_x=None,
                width=dp(34),
                bold=True,
                font_size="20sp",
                color=colour,
            )
            row.add_widget(badge)
            marks = ""
            if player.customer:
                marks = ""
            if player.eureka:
                marks += " [color=ffd23f]" + _("EUREKA") + "[/color]"
            elif player.siren_used:
                marks += " [color=888888](" + _("siren used") + ")[/color]"
            cubes = tr("{cubes} cubes", cubes=player.cubes)
            info = Label(
                text=f"[b]{escape_markup(player.name)}[/b]{marks}\n[size=15sp]{cubes}"
                f"  {player.status}{self._roll(player)}[/size]",
                markup=True,
                halign="left",
                valign="middle",
                font_size="19sp",
            )
            info.bind(size=lambda w, s: setattr(w, "text_size", s))
            row.add_widget(info)
            if player.robot is not None:
                row.add_widget(app.robot_view(player.robot, size_hint_x=None, width=dp(40)))
            if player.verdict is not None:
                row.add_widget(
                    Label(
                        text="✔" if player.verdict else "✘",
                        size_hint_x=None,
                        width=dp(28),
                        font_size="26sp",
                        color=(0.4, 0.9, 0.5, 1) if player.verdict else (1, 0.45, 0.4, 1),
                        font_name=app.symbol_font,
                    )
                )
            width = {1: 150, 2: 118}.get(len(player.actions), 96)
            for action in player.actions:
                row.add_widget(self.small_button(action, width))
            box.add_widget(row)
        box.add_widget(Label())

    @staticmethod
    def _roll(player: vm.PlayerRow) -> str:
        return "" if player.roll is None else "  " + tr("rolled {roll}", roll=player.roll)
