# mypy: disallow-subclassing-any=False
"""Robot Master: the live grid with every line's score, the legal cells lit, whose turn it is."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from ui import viewmodels as vm
from ui.i18n import _
from ui.screens.base import BaseScreen
from ui.widgets import TapButton

ROWS_COLOUR = (0.95, 0.6, 0.25, 1)
COLUMNS_COLOUR = (0.45, 0.7, 1.0, 1)


class MasterScreen(BaseScreen):
    title = StringProperty("")
    subtitle = StringProperty("")
    lines = StringProperty("")
    warning = StringProperty("")
    legend = StringProperty("")
    note = StringProperty("")
    can_undo = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: the grid's shape when its widgets were made, and the widgets to update
        self._shape: tuple[int, ...] | None = None
        self._grid_widgets: dict[str, list[Any]] = {}
        #: the prompt's line and its row of buttons, made at the first prompt
        self._prompt: tuple[Label, BoxLayout] | None = None

    def refresh(self) -> None:
        view = self.app.controller.view()
        if not isinstance(view, vm.MasterView):
            return
        self.title = view.title
        self.subtitle = view.subtitle
        self.lines = "\n".join(view.lines)
        self.warning = view.warning
        self.can_undo = view.can_undo
        self.note = self.app.note("")[0]
        self.legend = _(
            "Highlighted cells (+) take the next card. Scores: rows at the right, columns below."
        )
        self._fill_grid(view)
        prompts = self.ids.prompts
        prompt = view.prompts[0] if view.prompts else None
        if prompt is None:
            prompts.clear_widgets()
        else:
            if self._prompt is None:
                label = Label(
                    font_size="17sp",
                    color=(1, 0.85, 0.4, 1),
                    size_hint_y=None,
                    height=dp(30),
                )
                self._prompt = (label, BoxLayout(size_hint_y=None, height=dp(54), spacing=dp(4)))
            label, row = self._prompt
            label.text = prompt.text + (f" ({prompt.problem})" if prompt.problem else "")
            self.sync_buttons(row, prompt.actions, font_size="16sp")
            if prompts.children[::-1] != [label, row]:
                prompts.clear_widgets()
                prompts.add_widget(label)
                prompts.add_widget(row)
        self.sync_buttons(self.ids.actions, view.actions, font_size="19sp")

    def _fill_grid(self, view: vm.MasterView) -> None:
        """The cells, the line labels and the line scores. The widgets are made when the grid
        takes a new shape (a floating game's grows as cards are laid) and reused otherwise: a
        refresh runs after every change of the table, several times a second while the camera
        reads, and some 60 widgets made anew each time piled up as garbage (see docs/ui.md,
        "Memory")."""
        n = len(view.grid[0]) if view.grid else 5
        shape = (len(view.grid), n, len(view.column_labels), len(view.column_scores))
        if self._shape != shape:
            self._build_grid(view, n)
            self._shape = shape
        widgets = self._grid_widgets
        for label, text in zip(widgets["column_labels"], view.column_labels, strict=True):
            label.text = text
        for r, row in enumerate(view.grid):
            widgets["row_labels"][r].text = view.row_labels[r]
            for button, cell in zip(widgets["cells"][r], row, strict=True):
                self._set_cell(button, cell)
            widgets["row_scores"][r].text = str(view.row_scores[r])
        for label, score in zip(widgets["column_scores"], view.column_scores, strict=True):
            label.text = str(score)

    def _build_grid(self, view: vm.MasterView, n: int) -> None:
        grid = self.ids.grid
        grid.clear_widgets()
        grid.cols = n + 2
        widgets: dict[str, list[Any]] = {
            "column_labels": [],
            "row_labels": [],
            "cells": [],
            "row_scores": [],
            "column_scores": [],
        }
        grid.add_widget(Label(size_hint=(0.5, 0.5)))
        for _label in view.column_labels:
            label = Label(font_size="16sp", size_hint_y=0.5, color=COLUMNS_COLOUR)
            widgets["column_labels"].append(label)
            grid.add_widget(label)
        grid.add_widget(Label(size_hint=(0.8, 0.5)))
        for row in view.grid:
            label = Label(font_size="16sp", size_hint_x=0.5, color=ROWS_COLOUR)
            widgets["row_labels"].append(label)
            grid.add_widget(label)
            buttons = []
            for cell in row:
                button = self.action_button(
                    vm.Action(f"cell:{cell.name}", ""), font_size="30sp", bold=True
                )
                buttons.append(button)
                grid.add_widget(button)
            widgets["cells"].append(buttons)
            score = Label(font_size="19sp", bold=True, size_hint_x=0.8, color=ROWS_COLOUR)
            widgets["row_scores"].append(score)
            grid.add_widget(score)
        grid.add_widget(Label(size_hint=(0.5, 0.8)))
        for _score in view.column_scores:
            score = Label(font_size="19sp", bold=True, size_hint_y=0.8, color=COLUMNS_COLOUR)
            widgets["column_scores"].append(score)
            grid.add_widget(score)
        grid.add_widget(Label(size_hint=(0.8, 0.8)))
        self._grid_widgets = widgets

    def _set_cell(self, button: TapButton, cell: vm.GridCell) -> None:
        if cell.value is not None:
            text, kind = str(cell.value), "normal"
        elif cell.legal:
            text, kind = "+", "primary"
        else:
            text, kind = "", "empty"
        self.update_button(button, vm.Action(f"cell:{cell.name}", text, kind=kind))
        button.color = (0.05, 0.05, 0.08, 1) if cell.value is not None else (1, 1, 1, 1)
        if kind == "empty":
            button.background_color = (0.17, 0.18, 0.22, 1)
        if cell.value is not None:
            button.background_color = (0.85, 0.85, 0.8, 1)
        if cell.selected:
            button.background_color = (0.95, 0.8, 0.25, 1)
