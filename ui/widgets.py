# mypy: disallow-subclassing-any=False
"""Small widgets shared by the screens: buttons sized for fingers, a robot drawn with letters,
the hold-to-reveal button, the cubes chart and the line-score heat map."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp
from kivy.properties import (
    BooleanProperty,
    DictProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from ui.i18n import _

#: minimum touch target (px at the Pi display's density)
TOUCH = dp(52)

KIND_COLOURS = {
    "primary": (0.15, 0.55, 0.30, 1),
    "normal": (0.25, 0.28, 0.36, 1),
    "danger": (0.70, 0.35, 0.10, 1),
    "secret": (0.35, 0.25, 0.55, 1),
}


def hex_colour(text: str) -> tuple[float, float, float, float]:
    text = text.lstrip("#")
    return (int(text[0:2], 16) / 255, int(text[2:4], 16) / 255, int(text[4:6], 16) / 255, 1.0)


def ink_for(rgba: tuple[float, ...]) -> tuple[float, float, float, float]:
    """Black or white text, whichever reads better on ``rgba``."""
    luminance = 0.299 * rgba[0] + 0.587 * rgba[1] + 0.114 * rgba[2]
    return (0, 0, 0, 1) if luminance > 0.6 else (1, 1, 1, 1)


class TapButton(Button):
    """A button carrying an action key from a view model; ``kind`` picks its colour."""

    action_key = StringProperty("")
    kind = StringProperty("normal")

    def on_kind(self, *_args: Any) -> None:
        rgba = KIND_COLOURS.get(self.kind, KIND_COLOURS["normal"])
        # disabled: the same colour, faded, so the layout never jumps
        self.background_color = (*rgba[:3], 0.35) if self.disabled else rgba

    def on_disabled(self, *_args: Any) -> None:
        self.on_kind()


class HoldButton(Button):
    """Shows a secret only while a finger stays on it."""

    held = BooleanProperty(False)
    seen = BooleanProperty(False)

    def on_touch_down(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos):
            touch.grab(self)
            self.press()
            return True
        return bool(super().on_touch_down(touch))

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is self:
            touch.ungrab(self)
            self.release()
            return True
        return bool(super().on_touch_up(touch))

    def press(self) -> None:
        self.held = True
        self.seen = True

    def release(self) -> None:
        self.held = False


class PartLabel(Label):
    fill = ListProperty([0.3, 0.3, 0.3, 1])


class RobotView(BoxLayout):
    """A robot as three stacked parts, each in its colour and marked with its letter."""

    robot = StringProperty("")
    display = DictProperty({})
    letters = DictProperty({})

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=dp(2), **kwargs)
        self._parts: list[PartLabel] = []
        for widths in (0.6, 1.0, 0.8):
            part = PartLabel(size_hint_x=widths, pos_hint={"center_x": 0.5}, bold=True)
            self._parts.append(part)
            self.add_widget(part)
        self.bind(robot=self._draw, display=self._draw, letters=self._draw)
        self._draw()

    def _draw(self, *_args: Any) -> None:
        colours = self.robot.split("-") if self.robot else []
        for i, part in enumerate(self._parts):
            if i < len(colours) and colours[i] in self.display:
                fill = hex_colour(self.display[colours[i]])
                part.fill = list(fill)
                part.color = ink_for(fill)
                part.text = self.letters.get(colours[i], colours[i][:1].upper())
            else:
                part.fill = [0.3, 0.3, 0.3, 1]
                part.text = "?"
                part.color = (1, 1, 1, 1)


class _LabelPool:
    """The labels a drawn widget (chart, heat map) puts on its drawing, reused from one drawing
    to the next: a drawing runs whenever the widget moves or is resized (several times while
    its screen is laid out), and labels made anew each time piled up as garbage (each some
    hundreds of Python objects in reference cycles, and a texture; see docs/ui.md, "Memory").
    """

    _labels: list[Label]
    _used: int

    def _pool_start(self, *redrawn_by: str) -> None:
        """No labels yet; draw once a frame however many of ``redrawn_by`` (property names)
        change in it."""
        self._labels = []
        self._used = 0
        redraw = Clock.create_trigger(self._draw, -1)
        self.bind(**{name: redraw for name in redrawn_by})  # type: ignore[attr-defined]

    def _draw(self, *_args: Any) -> None:
        self.canvas.before.clear()  # type: ignore[attr-defined]
        self._labels_begin()
        try:
            if self._has_content():
                self._draw_content()
        finally:
            self._labels_end()

    def _has_content(self) -> bool:
        raise NotImplementedError

    def _draw_content(self) -> None:
        raise NotImplementedError

    def _labels_begin(self) -> None:
        """A new drawing: the lines and boxes go to ``canvas.before`` (cleared for it), under the
        labels, whose own canvases stay in ``canvas`` while they are reused."""
        self._used = 0

    def _labels_place(self, **props: Any) -> Label:
        """The next label of this drawing, showing ``props`` (every property a caller sets)."""
        if self._used < len(self._labels):
            label = self._labels[self._used]
            for name, value in props.items():
                setattr(label, name, value)
        else:
            label = Label(**props)
            self._labels.append(label)
            self.add_widget(label)  # type: ignore[attr-defined]
        self._used += 1
        return label

    def _labels_end(self) -> None:
        """Let go of the labels this drawing did not need."""
        for label in self._labels[self._used:]:
            self.remove_widget(label)  # type: ignore[attr-defined]
        del self._labels[self._used:]


class CubesChart(_LabelPool, Widget):
    """Each player's cubes after every turn, one line per player, named at its end."""

    series = ListProperty([])  # [(name, [values], winner)]
    palette = ListProperty([])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._pool_start("series", "palette", "size", "pos")

    def _has_content(self) -> bool:
        return bool(self.series)

    def _draw_content(self) -> None:
        left, bottom = self.x + dp(40), self.y + dp(28)
        width, height = self.width - dp(130), self.height - dp(56)
        turns = max(len(points) for _n, points, _w in self.series) - 1
        top_value = max(max(points) for _n, points, _w in self.series)
        top_value = max(top_value, 1)
        step_x = width / max(turns, 1)
        with self.canvas.before:
            Color(0.5, 0.5, 0.55, 1)
            Line(points=[left, bottom, left + width, bottom], width=1)
            Line(points=[left, bottom, left, bottom + height], width=1)
            for tick in range(0, top_value + 1, max(1, top_value // 5)):
                yy = bottom + height * tick / top_value
                Color(0.3, 0.3, 0.35, 1)
                Line(points=[left, yy, left + width, yy], width=1)
        for tick in range(0, top_value + 1, max(1, top_value // 5)):
            self._label(
                str(tick),
                left - dp(36),
                bottom + height * tick / top_value - dp(10),
                dp(30),
                halign="right",
            )
        for t in range(turns + 1):
            self._label(str(t), left + t * step_x - dp(10), self.y + dp(2), dp(20))
        # what the axes count, in words: a new user should not have to guess
        self._label(_("cubes"), left - dp(36), bottom + height + dp(2), dp(60), halign="left")
        self._label(_("turn"), left + width + dp(6), self.y + dp(2), dp(60), halign="left")
        for i, (name, points, winner) in enumerate(self.series):
            rgba = self.palette[i % len(self.palette)] if self.palette else (1, 1, 1, 1)
            coords: list[float] = []
            for t, value in enumerate(points):
                coords += [left + t * step_x, bottom + height * value / top_value]
            with self.canvas.before:
                Color(*rgba)
                # winners get a thicker line; every line carries its name, so colour is not needed
                Line(
                    points=coords,
                    width=dp(3.5) if winner else dp(1.8),
                )
                for k in range(0, len(coords), 2):
                    Rectangle(pos=(coords[k] - dp(3), coords[k + 1] - dp(3)), size=(dp(6), dp(6)))
            end_y = coords[-1] - dp(10) + (i - len(self.series) / 2) * dp(2)
            mark = " ★" if winner else ""
            self._label(
                f"{name} {points[-1]}{mark}",
                coords[-2] + dp(8),
                end_y,
                dp(110),
                color=rgba,
                halign="left",
            )

    def _label(
        self,
        text: str,
        x: float,
        y: float,
        w: float,
        color: Any = (0.85, 0.85, 0.9, 1),
        halign: str = "center",
    ) -> None:
        self._labels_place(
            text=text,
            pos=(x, y),
            size=(w, dp(20)),
            font_size="15sp",
            color=color,
            font_name="DejaVuSans",
            halign=halign,
            valign="middle",
            text_size=(w, dp(20)),
        )


class HeatMap(_LabelPool, Widget):
    """The Robot Master grid with every line's score; stronger colour = higher score."""

    grid = ListProperty([])
    row_scores = ListProperty([])
    column_scores = ListProperty([])
    max_score = NumericProperty(1)
    rows_colour = ObjectProperty((0.95, 0.55, 0.2, 1))
    columns_colour = ObjectProperty((0.3, 0.6, 0.95, 1))

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._pool_start("grid", "row_scores", "column_scores", "max_score", "size", "pos")

    def _has_content(self) -> bool:
        return bool(self.grid)

    def _draw_content(self) -> None:
        n = len(self.grid)
        cell = min(self.width / (n + 1.3), self.height / (n + 1.3))
        x0 = self.x + (self.width - cell * (n + 1.3)) / 2
        y_top = self.top
        top = max(self.max_score, 1)
        for r, row in enumerate(self.grid):
            for col, value in enumerate(row):
                x, y = x0 + col * cell, y_top - (r + 1) * cell
                with self.canvas.before:
                    Color(0.22, 0.24, 0.3, 1)
                    Rectangle(pos=(x + 1, y + 1), size=(cell - 2, cell - 2))
                self._text("" if value is None else str(value), x, y, cell, cell)
            score = self.row_scores[r] if r < len(self.row_scores) else 0
            self._score(
                score,
                x0 + n * cell + dp(4),
                y_top - (r + 1) * cell,
                cell * 1.3 - dp(4),
                cell,
                self.rows_colour,
                top,
            )
        for col in range(n):
            score = self.column_scores[col] if col < len(self.column_scores) else 0
            self._score(
                score,
                x0 + col * cell,
                y_top - (n + 1.3) * cell,
                cell,
                cell * 1.3 - dp(4),
                self.columns_colour,
                top,
            )

    def _score(
        self, score: int, x: float, y: float, w: float, h: float, rgba: Any, top: int
    ) -> None:
        strength = 0.15 + 0.85 * score / top
        with self.canvas.before:
            Color(rgba[0] * strength, rgba[1] * strength, rgba[2] * strength, 1)
            Rectangle(pos=(x + 1, y + 1), size=(w - 2, h - 2))
        self._text(str(score), x, y, w, h, bold=True)

    def _text(self, text: str, x: float, y: float, w: float, h: float, bold: bool = False) -> None:
        self._labels_place(text=text, pos=(x, y), size=(w, h), font_size="20sp", bold=bold)
