# mypy: disallow-subclassing-any=False
"""Setting up the camera: the guided calibration, one step per picture, with a live preview.

The players lay down or hold up what each step asks, look at the preview and tap "Take the
picture". A picture the camera cannot use is not kept, and the reason is shown. After the last
step the camera learns from the pictures (on a thread: it takes seconds) and the calibration
is stored; the game's readings are held the whole time (``TableService.hold_camera``).
"""

from __future__ import annotations

import contextlib
import queue
import threading
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.graphics.texture import Texture
from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label

from ui.calibration import CalibrationRun, preview_frame, step_prompt
from ui.i18n import _, tr
from ui.screens.base import BaseScreen

#: seconds between preview frames: enough to aim the camera, little work for a Pi
PREVIEW_EVERY = 0.4


class CalibrateScreen(BaseScreen):
    filled = ("example",)
    title = StringProperty("")
    prompt = StringProperty("")
    status = StringProperty("")
    status_error = BooleanProperty(False)
    busy = BooleanProperty(False)
    finished = BooleanProperty(False)
    at_end = BooleanProperty(False)
    taken_label = StringProperty("")

    def start(self, run: CalibrationRun, camera: Any, on_close: Any, release: Any) -> None:
        """``release()`` gives the camera back to the game: called once, however the screen is
        left (its buttons, or a request of the game that takes the screen over)."""
        self.run = run
        self._camera = camera
        self._on_close = on_close
        self._release = release
        self._frames: queue.Queue[Any] = queue.Queue(maxsize=1)
        self._preview_stop = threading.Event()
        self.status = ""
        self.status_error = False
        self.finished = False
        self._shown_step: Any = None
        self._poll_event = Clock.schedule_interval(self._poll, 0.1)
        threading.Thread(
            target=self._preview_loop,
            args=(self._preview_stop,),
            name="camera preview",
            daemon=True,
        ).start()

    # ------------------------------------------------------------------ taps
    def take(self) -> None:
        if self.run.capture():
            self.status, self.status_error = _("Looking at the picture..."), False
            self.refresh()

    def skip(self) -> None:
        self.run.skip()
        self.status, self.status_error = "", False
        self.refresh()

    def learn(self) -> None:
        if self.run.taken == 0:
            self.status, self.status_error = _("No pictures were taken yet."), True
            return
        if self.run.finish():
            self._preview_stop.set()  # the camera is not needed while it learns
            self.status = _("Learning from the pictures. This can take a minute...")
            self.status_error = False
            self.refresh()

    def close(self) -> None:
        if self.run.busy and not self.finished:
            return  # a picture or the learning is under way: it ends in a moment
        self._stop()
        self._on_close(self.finished)

    def left(self) -> None:
        self._stop()
        super().left()

    def _stop(self) -> None:
        self._preview_stop.set()
        event = getattr(self, "_poll_event", None)
        if event is not None:
            event.cancel()
            self._poll_event = None
        release, self._release = getattr(self, "_release", None), None
        if release is not None:
            release()

    # ------------------------------------------------------------------ clock
    def _poll(self, _dt: float) -> None:
        for result in self.run.poll():
            self.status = result.message
            self.status_error = not result.ok
            if result.kind == "captured" and result.ok:
                self.status = tr("Picture {n} kept.", n=self.run.taken)
                self.app.play("tap")
            if result.kind == "finished" and result.ok:
                self.finished = True
                self.app.play("reveal")
            self.refresh()
        try:
            frame = self._frames.get_nowait()
        except queue.Empty:
            return
        self._show_frame(frame)

    def _preview_loop(self, stop: threading.Event) -> None:
        # frames are taken here, not on the UI thread: a USB camera's read can block
        while not stop.is_set():
            if not self.run.busy:
                small = preview_frame(self._camera)
                if small is not None:
                    # the screen has not shown the last one yet: this one is skipped
                    with contextlib.suppress(queue.Full):
                        self._frames.put_nowait(small)
            stop.wait(PREVIEW_EVERY)

    def _show_frame(self, frame: Any) -> None:
        h, w = frame.shape[:2]
        texture = self.ids.preview.texture
        if texture is None or tuple(texture.size) != (w, h):
            texture = Texture.create(size=(w, h), colorfmt="bgr")
            texture.flip_vertical()  # pictures run top-down, textures bottom-up
        texture.blit_buffer(frame.tobytes(), colorfmt="bgr", bufferfmt="ubyte")
        self.ids.preview.texture = texture
        self.ids.preview.canvas.ask_update()

    # ------------------------------------------------------------------ drawing
    def refresh(self) -> None:
        run = getattr(self, "run", None)
        if run is None:
            return
        index, total = run.progress
        step = run.step
        self.busy = run.busy
        self.at_end = step is None
        self.taken_label = "" if self.finished else tr("Pictures kept: {n}", n=run.taken)
        if self.finished:
            self.title = _("The camera is calibrated")
            self.prompt = _("Readings now use what was learnt from your components.")
        elif step is None:
            self.title = _("Set up the camera: all steps done")
            self.prompt = tr(
                "Learn from the {n} pictures kept, or go back without changing anything.",
                n=run.taken,
            )
        else:
            self.title = tr("Set up the camera: step {k} of {n}", k=index + 1, n=total)
            self.prompt = step_prompt(step, tuple(self.app.config_.game.colours))
        if step is not self._shown_step or self.finished:
            self._shown_step = step
            self._draw_example(None if self.finished else step)

    def _draw_example(self, step: Any) -> None:
        box = self.ids.example
        box.clear_widgets()
        if step is None:
            return
        colours = tuple(self.app.config_.game.colours)
        if step.kind in ("tiles", "order"):
            robot = step.robot or "-".join(colours[k] for k in step.lanes)
            box.add_widget(self.app.robot_view(robot, padding=(dp(30), dp(6))))
            return
        cells = GridLayout(cols=5, spacing=dp(3))
        for row in step.grid:
            for value in row:
                cells.add_widget(_cell(value))
        box.add_widget(cells)


def _cell(value: int | None) -> Label:
    """One cell of the layout to lay: a card (its number, dark on paper) or the bare table."""
    label = Label(
        text="" if value is None else str(value),
        bold=True,
        font_size="20sp",
        color=(0.1, 0.1, 0.1, 1),
    )
    with label.canvas.before:
        Color(*((0.93, 0.91, 0.85, 1) if value is not None else (0.22, 0.24, 0.3, 1)))
        rect = Rectangle(pos=label.pos, size=label.size)
    label.bind(
        pos=lambda _w, pos: setattr(rect, "pos", pos),
        size=lambda _w, size: setattr(rect, "size", size),
    )
    return label
