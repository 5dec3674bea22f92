# mypy: disallow-subclassing-any=False
"""Pick a number: a physical die roll (1..6) or a Robot Master card (0..5, with cards left)."""

from __future__ import annotations

from typing import Any

from kivy.properties import StringProperty

from ui import viewmodels as vm
from ui.i18n import tr
from ui.screens.base import BaseScreen


class NumberScreen(BaseScreen):
    title = StringProperty("")
    filled = ("numbers",)

    def show(
        self,
        title: str,
        choices: tuple[int, ...],
        on_pick: Any,
        on_cancel: Any,
        left: tuple[int, ...] | None = None,
    ) -> None:
        self.title = title
        self._on_pick = on_pick
        self._on_cancel = on_cancel
        grid = self.ids.numbers
        grid.clear_widgets()
        for n in choices:
            label = str(n)
            if left is not None:
                label = f"[b]{n}[/b]\n[size=15sp]{tr('{n} left', n=left[n])}[/size]"
            button = self.action_button(
                vm.Action(f"number:{n}", label, kind="normal"),
                self.pick,
                font_size="40sp",
                markup=True,
            )
            grid.add_widget(button)

    def pick(self, key: str) -> None:
        self._on_pick(int(key.split(":")[1]))

    def cancel(self) -> None:
        self._on_cancel()
