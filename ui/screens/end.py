# mypy: disallow-subclassing-any=False
"""End of game: the winners, each player's cubes over the turns, or a heat map of line scores."""

from __future__ import annotations

from kivy.properties import StringProperty

from ui import viewmodels as vm
from ui.screens.base import BaseScreen
from ui.widgets import CubesChart, HeatMap

CHART_COLOURS = [
    (0.95, 0.45, 0.35, 1),
    (0.35, 0.8, 0.55, 1),
    (0.45, 0.65, 1.0, 1),
    (1.0, 0.85, 0.35, 1),
    (0.8, 0.5, 0.95, 1),
    (0.6, 0.9, 0.95, 1),
]


class EndScreen(BaseScreen):
    title = StringProperty("")
    headline = StringProperty("")
    lines = StringProperty("")
    note = StringProperty("")
    filled = ("chart",)

    def refresh(self) -> None:
        table = self.app.controller.table
        if table is None:
            return
        view = vm.end_view(table)
        self.title = view.title
        self.headline = view.headline
        self.lines = "\n".join(view.lines)
        self.note = self.app.note("")[0]
        # the chart or heat map already shown is updated, not made anew at every refresh
        box = self.ids.chart
        shown = box.children[0] if len(box.children) == 1 else None
        if view.series:
            chart = shown if isinstance(shown, CubesChart) else CubesChart(palette=CHART_COLOURS)
            chart.symbol_font = self.app.symbol_font
            chart.series = [(s.name, list(s.points), s.winner) for s in view.series]
            if chart is not shown:
                box.clear_widgets()
                box.add_widget(chart)
        elif view.grid:
            heat = shown if isinstance(shown, HeatMap) else HeatMap()
            heat.row_scores = list(view.row_scores)
            heat.column_scores = list(view.column_scores)
            heat.max_score = view.max_score
            heat.grid = [list(r) for r in view.grid]
            if heat is not shown:
                box.clear_widgets()
                box.add_widget(heat)
        else:
            box.clear_widgets()
