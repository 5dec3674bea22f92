"""The camera set-up screen's work without Kivy: prompts in the table's words, the retry reasons
translated, and the slow parts on a thread whose results come back through a queue."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from ui import i18n
from ui.calibration import RETRY_MESSAGES, CalibrationRun, step_prompt

COLOURS = ("red", "green", "blue", "yellow")
#: how long a test waits for the worker thread (a failure, not a figure)
PATIENCE = 30.0


def test_the_retry_reasons_are_the_ones_guided_calibration_gives() -> None:
    from vision.guided import MESSAGES

    assert RETRY_MESSAGES == MESSAGES


def test_every_step_asks_in_the_tables_language() -> None:
    from vision.guided import make_steps

    steps = make_steps(list(COLOURS))
    assert [s.kind for s in steps] == ["tiles"] * 4 + ["order"] * 4 + ["grid"] * 3
    first = step_prompt(steps[0], COLOURS)
    assert "head tile on the red lane" in first and "legs tile on the blue lane" in first
    i18n.set_language("nl")
    dutch = step_prompt(steps[1], COLOURS)
    assert "groen" in dutch and "lane" not in dutch
    assert "kaart" in step_prompt(steps[4], COLOURS)
    assert "Robot Master" in step_prompt(steps[8], COLOURS)


class _Guide:
    """Guided calibration's surface, with a gate the test opens to let a capture finish."""

    def __init__(self, answers: list[tuple[bool, str]], steps: int = 2) -> None:
        self.answers = answers
        self.steps = steps
        self.index = 0
        self.taken = 0
        self.gate = threading.Event()
        self.finish_error: Exception | None = None
        self.cards_declined = False

    @property
    def current(self) -> Any:
        return self.index if self.index < self.steps else None

    @property
    def progress(self) -> tuple[int, int]:
        return self.index, self.steps

    def skip(self) -> None:
        self.index += 1

    def capture(self) -> tuple[bool, str]:
        self.gate.wait(PATIENCE)
        ok, message = self.answers.pop(0)
        if ok:
            self.index += 1
            self.taken += 1
        return ok, message

    def finish(self) -> str:
        if self.finish_error is not None:
            raise self.finish_error
        self.taken = 0
        return "calibrated on 1 images"


def _wait(run: CalibrationRun) -> list[Any]:
    for _ in range(int(PATIENCE * 100)):
        results = run.poll()
        if results:
            return results
        threading.Event().wait(0.01)
    raise AssertionError("the worker thread handed nothing back")


def test_a_capture_runs_off_the_ui_thread_and_one_at_a_time() -> None:
    guide = _Guide([(False, RETRY_MESSAGES[0]), (True, "")])
    run = CalibrationRun(guide)
    i18n.set_language("de")
    assert run.capture()
    assert run.busy and not run.capture()  # a second tap while busy is ignored
    run.skip()  # and so is skipping under a capture
    assert guide.index == 0
    guide.gate.set()
    (result,) = _wait(run)
    assert (result.kind, result.ok) == ("captured", False)
    assert result.message == i18n._(RETRY_MESSAGES[0]) != RETRY_MESSAGES[0]  # translated
    assert run.capture()
    (result,) = _wait(run)
    assert result.ok and run.taken == 1 and run.progress == (1, 2)


def test_finishing_reports_what_went_wrong_in_words() -> None:
    from vision.errors import CalibrationError

    guide = _Guide([(True, "")], steps=1)
    guide.gate.set()
    run = CalibrationRun(guide)
    guide.finish_error = CalibrationError("no pictures were taken")
    assert run.finish()
    (result,) = _wait(run)
    assert (result.kind, result.ok) == ("finished", False)
    assert "no pictures were taken" in result.message and not run.done
    guide.finish_error = RuntimeError("disk full")
    assert run.finish()
    (result,) = _wait(run)
    assert not result.ok and "disk full" in result.message  # an unforeseen failure: said too
    guide.finish_error = None
    assert run.capture()
    _wait(run)
    assert run.finish()
    (result,) = _wait(run)
    assert result.ok and "1 pictures" in result.message and run.done
    assert not run.capture()  # learnt and stored: this run is over


def _one_picture_taken() -> tuple[_Guide, CalibrationRun]:
    guide = _Guide([(True, "")], steps=1)
    guide.gate.set()
    run = CalibrationRun(guide)
    assert run.capture()
    _wait(run)
    return guide, run


def test_finishing_says_when_the_robot_cards_could_not_be_learnt() -> None:
    guide, run = _one_picture_taken()
    guide.cards_declined = True  # what GuidedCalibration.finish sets from the calibration
    i18n.set_language("de")
    assert run.finish()
    (result,) = _wait(run)
    assert result.ok and run.done
    assert "Roboterkarten" in result.message and "Berührung" in result.message


def test_finishing_says_nothing_of_cards_that_were_learnt() -> None:
    _, run = _one_picture_taken()
    assert run.finish()
    (result,) = _wait(run)
    assert result.ok and "robot cards" not in result.message


@pytest.fixture(autouse=True)
def _english_after() -> Any:
    yield
    i18n.set_language("en")
