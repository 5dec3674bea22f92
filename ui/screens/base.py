# mypy: disallow-subclassing-any=False
"""What every screen shares: a link to the app and a ``refresh`` the app calls after changes."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.screenmanager import Screen

from ui.viewmodels import Action
from ui.widgets import TapButton


class BaseScreen(Screen):
    def refresh(self) -> None:
        """Redraw from the current state (and language)."""

    @property
    def app(self) -> Any:
        return App.get_running_app()

    def action_button(self, action: Action, on_tap: Any = None, **kwargs: Any) -> TapButton:
        button = TapButton(
            text=action.label,
            action_key=action.key,
            kind=action.kind,
            disabled=not action.enabled,
            **kwargs,
        )
        button.kind = action.kind  # fire on_kind even for the default
        button.on_kind()
        handler = on_tap if on_tap is not None else self.app.act
        button.bind(on_release=lambda b: handler(b.action_key))
        return button

    def small_button(self, action: Action, width: float = 110, on_tap: Any = None) -> TapButton:
        return self.action_button(
            action, on_tap, size_hint=(None, None), size=(dp(width), dp(52)), font_size="16sp"
        )
