# mypy: disallow-subclassing-any=False
"""Hold-to-reveal: a secret for one named player, shown only while a finger holds the button.

Nothing of the secret is on screen otherwise, and the screen looks the same for every secret
(the same layout, sound and timing), so onlookers learn nothing from it.
"""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.label import Label

from ui import viewmodels as vm
from ui.screens.base import BaseScreen


class SecretScreen(BaseScreen):
    title = StringProperty("")
    hint = StringProperty("")
    done_label = StringProperty("")
    can_fix = BooleanProperty(False)

    def show(self, secret: vm.SecretView, on_done: Any, on_fix: Any = None) -> None:
        self.secret = secret
        self._on_done = on_done
        self._on_fix = on_fix
        self.title = secret.title
        self.hint = secret.hint
        self.done_label = secret.done_label
        self.can_fix = on_fix is not None
        self.ids.hold.seen = False
        self.ids.hold.held = False
        box = self.ids.secret
        box.clear_widgets()
        if secret.tile is not None:
            box.add_widget(Label(text=str(secret.tile), font_size="140sp", bold=True))
        elif secret.robot is not None:
            box.add_widget(self.app.robot_view(secret.robot, padding=(dp(40), dp(10))))

    def on_hold(self, held: bool) -> None:
        if held:
            self.app.play("reveal")

    def done(self) -> None:
        self.ids.hold.held = False
        self.ids.secret.clear_widgets()  # nothing secret survives on this screen
        self._on_done()

    def fix(self) -> None:
        self.ids.hold.held = False
        self.ids.secret.clear_widgets()
        if self._on_fix is not None:
            self._on_fix()
