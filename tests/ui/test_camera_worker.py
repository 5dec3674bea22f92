"""The camera worker's pace: slower while the camera sees nothing, at once when the session
wants another reading, silent while nothing is wanted."""

from __future__ import annotations

import queue
import threading
from pathlib import Path

from companion.ports import (
    CameraError,
    GridObservation,
    Observation,
    OrderObservation,
    ReadingKind,
    RobotReading,
    TilesObservation,
)
from companion.service import CameraWorker, sees_nothing

#: long enough that only a wake-up, never the pause, can explain a read in these tests
NEVER = 3600.0
#: how long a test waits for something that must happen (a failure, not a figure)
PATIENCE = 30.0

EMPTY_GRID = GridObservation(
    tuple((None,) * 5 for _ in range(5)), tuple((0.0,) * 5 for _ in range(5))
)


class CountingCamera:
    def __init__(self, observation: Observation) -> None:
        self.observation = observation
        self.reads: list[tuple[ReadingKind, bool]] = []
        self.read_once = threading.Event()

    def read(self, kind: ReadingKind, *, secret: bool = False) -> Observation:
        self.reads.append((kind, secret))
        self.read_once.set()
        return self.observation

    def close(self) -> None:
        pass


def test_nothing_in_view_is_told_apart_from_a_reading() -> None:
    assert sees_nothing(OrderObservation(RobotReading(None, 0.0)))
    assert not sees_nothing(OrderObservation(RobotReading("red-blue-green", 0.95)))
    assert sees_nothing(TilesObservation({}))
    assert sees_nothing(TilesObservation({2: RobotReading(None, 0.3)}))
    assert not sees_nothing(TilesObservation({2: RobotReading("red-blue-green", 0.9)}))
    assert sees_nothing(EMPTY_GRID)
    one_card = tuple(
        tuple(0.9 if (r, c) == (2, 2) else 0.0 for c in range(5)) for r in range(5)
    )
    cells = tuple(tuple(3 if (r, c) == (2, 2) else None for c in range(5)) for r in range(5))
    assert not sees_nothing(GridObservation(cells, one_card))


def test_an_empty_table_is_read_at_the_idle_pace_and_a_card_at_the_full_pace() -> None:
    out: queue.Queue[Observation | CameraError] = queue.Queue()
    camera = CountingCamera(OrderObservation(RobotReading(None, 0.0)))
    worker = CameraWorker(camera, out, interval=0.25, idle_interval=0.5)
    assert worker.pause_after(OrderObservation(RobotReading(None, 0.0))) == 0.5
    assert worker.pause_after(OrderObservation(RobotReading("red-blue-green", 0.9))) == 0.25
    assert worker.pause_after(TilesObservation({})) == 0.5
    # an idle pace below the full one would read an empty table more often than a card
    assert CameraWorker(camera, out, interval=0.25, idle_interval=0.1).idle_interval == 0.25


def test_a_new_wish_is_read_at_once_and_stop_does_not_wait_for_the_pause() -> None:
    out: queue.Queue[Observation | CameraError] = queue.Queue()
    camera = CountingCamera(OrderObservation(RobotReading(None, 0.0)))
    worker = CameraWorker(camera, out, interval=NEVER, idle_interval=NEVER)
    worker.start()
    try:
        worker.want(("order", True))
        assert camera.read_once.wait(PATIENCE)
        assert camera.reads[0] == ("order", True)
        reading = out.get(timeout=PATIENCE)
        assert isinstance(reading, OrderObservation)
    finally:
        worker.stop()
    assert not worker._thread.is_alive()
    assert camera.reads == [("order", True)]


def test_nothing_is_read_while_nothing_is_wanted() -> None:
    out: queue.Queue[Observation | CameraError] = queue.Queue()
    camera = CountingCamera(TilesObservation({}))
    worker = CameraWorker(camera, out, interval=0.01, idle_interval=0.01)
    worker.start()
    try:
        worker.want(None)  # no change: nothing was wanted to begin with
        assert not camera.read_once.wait(0.2)
        worker.want(("tiles", False))
        assert camera.read_once.wait(PATIENCE)
    finally:
        worker.stop()
    assert all(kind == "tiles" for kind, _ in camera.reads)


class _RecordingWorker:
    def __init__(self) -> None:
        self.wishes: list[tuple[ReadingKind, bool] | None] = []

    def want(self, reading: tuple[ReadingKind, bool] | None) -> None:
        self.wishes.append(reading)


def test_the_game_reads_nothing_while_the_camera_is_held_for_its_set_up(tmp_path: Path) -> None:
    from companion.journal import Journal
    from companion.service import TableService
    from companion.tables.robot_master import RobotMasterSetup

    service = TableService(Journal(tmp_path / "journal.sqlite3"))
    worker = _RecordingWorker()
    service._worker = worker  # type: ignore[assignment]
    service.new_game(RobotMasterSetup("Ann", "Bob"))
    wanted = worker.wishes[-1]
    assert wanted is not None  # the first Robot Master card is looked for
    service.hold_camera(True)
    assert worker.wishes[-1] is None
    service.new_game(RobotMasterSetup("Ann", "Bob"))  # a change of the table while held
    assert worker.wishes[-1] is None
    service.hold_camera(False)
    assert worker.wishes[-1] == wanted
    service.journal.close()
