"""The camera set-up screen's work, without Kivy: what each guided calibration step asks of the
players in the table's language, and the slow parts (checking a step's picture, learning from
all of them) on a thread of their own, so the screen keeps answering taps.

The screen polls :meth:`CalibrationRun.poll` from Kivy's clock; results come back through a
queue, never by a call from the worker thread into the UI. The pictures stay inside
:class:`vision.guided.GuidedCalibration` (in memory until it learns); only a small preview
frame crosses over, and only while the screen is open (the game's readings are held then, so no
secret is ever under a scan while frames are shown).
"""

from __future__ import annotations

import logging
import queue
import threading
from dataclasses import dataclass
from typing import Any

from ui.i18n import N_, _, colour_name, tr

log = logging.getLogger(__name__)

#: the reasons guided calibration gives for not taking a picture (``vision.guided.MESSAGES``,
#: written out here so the catalogs' extraction finds them; a test keeps the two the same)
RETRY_MESSAGES = (
    N_("No seat shows all three tiles. Check the light and try again."),
    N_("The card is not in view. Hold it flat, facing the camera."),
    N_("The play area's corner markers are not all in view."),
)


def step_prompt(step: Any, colours: tuple[str, ...]) -> str:
    """What the players are asked to lay down or hold up for ``step`` (a ``GuidedStep``)."""
    if step.kind == "tiles":
        head, torso, legs = (colour_name(colours[k]) for k in step.lanes)
        return tr(
            "Every player: lay the head tile on the {head} lane, the torso tile on the "
            "{torso} lane and the legs tile on the {legs} lane.",
            head=head,
            torso=torso,
            legs=legs,
        )
    if step.kind == "order":
        return _("Hold this order card up to the camera, flat and still.")
    return _("Lay Robot Master cards in the play area as shown, every card on its own cell.")


@dataclass(frozen=True)
class Result:
    """What the worker thread hands back: a step's picture checked, or the learning done."""

    kind: str  # "captured" or "finished"
    ok: bool
    message: str  # translated: why to retry, what was learnt, or what went wrong


class CalibrationRun:
    """One pass through the guided steps, driven by taps: take, skip, finish."""

    def __init__(self, guide: Any) -> None:
        self.guide = guide
        self.results: queue.Queue[Result] = queue.Queue()
        self.busy = False
        self.done = False

    @property
    def step(self) -> Any:
        return self.guide.current

    @property
    def progress(self) -> tuple[int, int]:
        index, total = self.guide.progress
        return index, total

    @property
    def taken(self) -> int:
        return int(self.guide.taken)

    def capture(self) -> bool:
        """Check and keep this step's picture on the worker thread; False while busy."""
        return self._start(self._capture, "captured")

    def finish(self) -> bool:
        """Learn from the pictures taken and store the calibration, on the worker thread."""
        return self._start(self._finish, "finished")

    def skip(self) -> None:
        if not self.busy and self.guide.current is not None:
            self.guide.skip()

    def poll(self) -> list[Result]:
        """Results handed back since the last poll (call from the UI thread)."""
        out: list[Result] = []
        while True:
            try:
                out.append(self.results.get_nowait())
            except queue.Empty:
                return out

    def _start(self, work: Any, kind: str) -> bool:
        if self.busy or self.done:
            return False
        self.busy = True
        threading.Thread(
            target=self._run, args=(work, kind), name="calibration", daemon=True
        ).start()
        return True

    def _run(self, work: Any, kind: str) -> None:
        try:
            result = work()
        except Exception as exc:  # the screen must say it, not lose the thread
            log.exception("calibration %s failed", kind)
            problem = str(exc)
            result = Result(kind, False, tr("The camera set-up failed: {problem}", problem=problem))
        self.busy = False
        self.results.put(result)

    def _capture(self) -> Result:
        ok, message = self.guide.capture()
        return Result("captured", ok, _(message) if message else "")

    def _finish(self) -> Result:
        from vision.errors import CalibrationError, VisionError

        pictures = self.guide.taken
        try:
            summary = self.guide.finish()
        except (CalibrationError, VisionError) as exc:
            return Result("finished", False, tr("Nothing was learnt: {problem}", problem=str(exc)))
        self.done = True
        log.info("camera set up: %s", summary)  # the figures are for the log, not the table
        message = tr("Learnt from {n} pictures of your components, and kept.", n=pictures)
        if getattr(self.guide, "cards_declined", False):
            # said at once: otherwise the table only finds out when an order card is asked
            message += " " + _(
                "Your robot cards could not be learnt, so order cards are asked by touch. "
                "Set up the camera again, holding each card flat in good light."
            )
        return Result("finished", True, message)


def preview_frame(camera: Any, width: int = 320) -> Any:
    """A small copy of the camera's frame for the set-up screen (BGR, ``width`` wide), or None
    when the camera gives none."""
    import cv2

    from companion.ports import CameraError

    try:
        frame = camera.frame()
    except CameraError:
        return None
    height = max(1, round(frame.shape[0] * width / frame.shape[1]))
    return cv2.resize(frame, (width, height), interpolation=cv2.INTER_AREA)
