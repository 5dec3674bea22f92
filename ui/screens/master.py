# mypy: disallow-subclassing-any=False
"""Robot Master: the live grid with every line's score, the legal cells lit, whose turn it is."""

from __future__ import annotations

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
        n = len(view.grid[0]) if view.grid else 5
        grid = self.ids.grid
        grid.clear_widgets()
        grid.cols = n + 2
        grid.add_widget(Label(size_hint=(0.5, 0.5)))
        for label in view.column_labels:
            grid.add_widget(
                Label(text=label, font_size="16sp", size_hint_y=0.5, color=COLUMNS_COLOUR)
            )
        grid.add_widget(Label(size_hint=(0.8, 0.5)))
        for r, row in enumerate(view.grid):
            grid.add_widget(
                Label(text=view.row_labels[r], font_size="16sp", size_hint_x=0.5, color=ROWS_COLOUR)
            )
            for cell in row:
                grid.add_widget(self._cell(cell))
            grid.add_widget(
                Label(
                    text=str(view.row_scores[r]),
                    font_size="19sp",
                    bold=True,
                    size_hint_x=0.8,
                    color=ROWS_COLOUR,
                )
            )
        grid.add_widget(Label(size_hint=(0.5, 0.8)))
        for score in view.column_scores:
            grid.add_widget(
                Label(
                    text=str(score),
                    font_size="19sp",
                    bold=True,
                    size_hint_y=0.8,
                    color=COLUMNS_COLOUR,
                )
            )
        grid.add_widget(Label(size_hint=(0.8, 0.8)))
        prompts = self.ids.prompts
        prompts.clear_widgets()
        for prompt in view.prompts[:1]:
            label = Label(
                text=prompt.text + (f" ({prompt.problem})" if prompt.problem else ""),
                font_size="17sp",
                color=(1, 0.85, 0.4, 1),
                size_hint_y=None,
                height=dp(30),
            )
            prompts.add_widget(label)
            row = BoxLayout(size_hint_y=None, height=dp(54), spacing=dp(4))
            for action in prompt.actions:
                row.add_widget(self.action_button(action, font_size="16sp"))
            prompts.add_widget(row)
        actions = self.ids.actions
        actions.clear_widgets()
        for action in view.actions:
            actions.add_widget(self.action_button(action, font_size="19sp"))

    def _cell(self, cell: vm.GridCell) -> TapButton:
        if cell.value is not None:
            text, kind = str(cell.value), "normal"
        elif cell.legal:
            text, kind = "+", "primary"
        else:
            text, kind = "", "empty"
        button = self.action_button(
            vm.Action(f"cell:{cell.name}", text, kind=kind), font_size="30sp", bold=True
        )
        if kind == "empty":
            button.background_color = (0.17, 0.18, 0.22, 1)
        if cell.value is not None:
            button.background_color = (0.85, 0.85, 0.8, 1)
            button.color = (0.05, 0.05, 0.08, 1)
        if cell.selected:
            button.background_color = (0.95, 0.8, 0.25, 1)
        return button
