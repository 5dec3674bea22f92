# mypy: disallow-subclassing-any=False
"""The robot picker: three parts, four colours each; every colour also carries its letter."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from companion.robots import PARTS
from ui import viewmodels as vm
from ui.i18n import colour_name
from ui.screens.base import BaseScreen
from ui.widgets import TapButton, hex_colour, ink_for


class PickerScreen(BaseScreen):
    title = StringProperty("")
    private = BooleanProperty(False)
    complete = BooleanProperty(False)
    filled = ("rows", "preview")

    def show(
        self,
        title: str,
        on_pick: Any,
        on_cancel: Any,
        initial: str | None = None,
        private: bool = False,
    ) -> None:
        self.title = title
        self.private = private
        self._on_pick = on_pick
        self._on_cancel = on_cancel
        parts = initial.split("-") if initial else []
        self.chosen: list[str | None] = list(parts) if len(parts) == 3 else [None, None, None]
        self.refresh()

    def refresh(self) -> None:
        if not hasattr(self, "chosen"):
            return
        app = self.app
        colours = tuple(app.config_.game.colours)
        view = vm.picker_view(self.title, colours, self.chosen)
        self.complete = view.complete
        rows = self.ids.rows
        rows.clear_widgets()
        for part, (label, options) in zip(PARTS, view.rows, strict=True):
            row = BoxLayout(spacing=dp(6))
            row.add_widget(
                Label(text=label, size_hint_x=None, width=dp(90), font_size="20sp", bold=True)
            )
            for colour, letter, chosen in options:
                fill = hex_colour(app.config_.game.display.get(colour, "#888888"))
                button = TapButton(
                    text=f"[b]{letter}[/b]\n[size=14sp]{colour_name(colour)}[/size]",
                    markup=True,
                    action_key=f"colour:{part}:{colour}",
                    background_color=fill,
                    color=ink_for(fill),
                    font_size="22sp",
                )
                if chosen:  # the chosen colour is framed and marked, not only coloured
                    button.text = f"[b]✔ {letter}[/b]\n[size=14sp]{colour_name(colour)}[/size]"
                    button.font_name = app.symbol_font
                    button.background_color = fill
                    button.bold = True
                else:
                    button.background_color = (fill[0] * 0.55, fill[1] * 0.55, fill[2] * 0.55, 1)
                    button.color = (1, 1, 1, 1)
                button.bind(on_release=lambda b: self.pick(b.action_key))
                row.add_widget(button)
            rows.add_widget(row)
        preview = self.ids.preview
        preview.clear_widgets()
        preview.add_widget(app.robot_view("-".join(c or "?" for c in self.chosen)))

    def pick(self, key: str) -> None:
        _verb, part, colour = key.split(":")
        self.chosen[PARTS.index(part)] = colour
        self.app.play("tap")
        self.refresh()

    def ok(self) -> None:
        if all(self.chosen):
            robot = "-".join(str(c) for c in self.chosen)
            self.chosen = [None, None, None]  # a secret must not linger on the picker
            self._on_pick(robot)

    def cancel(self) -> None:
        self.chosen = [None, None, None]
        self._on_cancel()
