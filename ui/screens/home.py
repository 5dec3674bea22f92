# mypy: disallow-subclassing-any=False
"""Home: choose a game, the language and the sound; past games, each exportable as a record."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from ui import viewmodels as vm
from ui.i18n import LANGUAGES, _
from ui.screens.base import BaseScreen


class HomeScreen(BaseScreen):
    can_resume = BooleanProperty(False)
    problems = StringProperty("")
    can_calibrate = BooleanProperty(False)

    def refresh(self) -> None:
        app = self.app
        self.can_resume = app.can_resume()
        problems = list(app.problems)
        if app.ready:
            problems.extend(app.calibration_problems())
        self.can_calibrate = app.ready and app.calibratable_camera() is not None
        if not app.ready and not problems:
            problems.append(_("Getting the table ready: camera and siren board..."))
        if app.demo:
            problems.append(
                _(
                    "Demo: keys 1 to 6 press the sirens; 'Demo: lay it down' (or S) "
                    "puts what a player would lay under the camera."
                )
            )
        self.problems = "\n".join(problems)
        box = self.ids.languages
        box.clear_widgets()
        for code, name in LANGUAGES.items():
            action = vm.Action(
                f"language:{code}", name, kind="primary" if code == app.lang else "normal"
            )
            box.add_widget(self.action_button(action))
        history = self.ids.history
        history.clear_widgets()
        rows = vm.history_rows(app.past_games())
        if not rows:
            history.add_widget(Label(text=_("No games yet."), size_hint_y=None, height=dp(40)))
        for game_id, line in rows[:30]:
            row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(4))
            text = Label(text=line, font_size="14sp", halign="left", valign="middle")
            text.bind(size=lambda w, s: setattr(w, "text_size", s))
            row.add_widget(text)
            row.add_widget(self.small_button(vm.Action(f"export:{game_id}", _("Export")), 96))
            history.add_widget(row)
