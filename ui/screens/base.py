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
    #: ids of the boxes that every refresh (or ``show``) fills anew: emptied when the screen is
    #: left, so a screen out of sight holds no widgets (see docs/ui.md, "Memory")
    filled: tuple[str, ...] = ()

    def refresh(self) -> None:
        """Redraw from the current state (and language)."""

    def left(self) -> None:
        """The screen is out of sight: let go of what the next refresh makes anew."""
        for name in self.filled:
            self.ids[name].clear_widgets()

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

    @staticmethod
    def update_button(button: TapButton, action: Action) -> None:
        """Make a button made by :meth:`action_button` show ``action`` (its handler stays)."""
        button.text = action.label
        button.action_key = action.key
        button.disabled = not action.enabled
        button.kind = action.kind
        button.on_kind()  # the kind's colour, also when the kind is unchanged

    def sync_buttons(self, box: Any, actions: tuple[Action, ...], **kwargs: Any) -> None:
        """``box`` shows one button per action, in order: the buttons it has are reused when
        there are as many, and made anew (with ``kwargs``) only when the count changes.

        A refresh runs after every change of the table (a camera reading, a tap): made anew
        each time, the buttons (each some hundreds of Python objects in reference cycles) pile
        up as garbage until Python's rare full collection (see docs/ui.md, "Memory")."""
        buttons = box.children[::-1]  # Kivy keeps children last added first
        if len(buttons) == len(actions) and all(isinstance(b, TapButton) for b in buttons):
            for button, action in zip(buttons, actions, strict=True):
                self.update_button(button, action)
            return
        box.clear_widgets()
        for action in actions:
            box.add_widget(self.action_button(action, **kwargs))

    def small_button(self, action: Action, width: float = 110, on_tap: Any = None) -> TapButton:
        return self.action_button(
            action, on_tap, size_hint=(None, None), size=(dp(width), dp(52)), font_size="16sp"
        )
