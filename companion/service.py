"""The service the UI talks to: one table session, its journal and its adapters.

The UI thread calls :meth:`TableService.submit` for touch commands and :meth:`TableService.poll`
from its clock. The siren board and the camera worker run on their own threads and only ever put
events on queues; ``poll`` drains them on the caller's thread, so the session is touched by one
thread only.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from companion import commands as c
from companion.errors import CompanionError, JournalError
from companion.journal import Journal
from companion.ports import (
    Camera,
    CameraError,
    Dice,
    Observation,
    OrderObservation,
    ReadingKind,
    SirenBoard,
    SirenEvent,
    SirenStatus,
    TilesObservation,
)
from companion.session import (
    CloseWindow,
    Effect,
    Light,
    OpenWindow,
    Result,
    Setup,
    Suggestion,
    TableSession,
    setup_from_json,
)

log = logging.getLogger(__name__)


@dataclass
class Update:
    """What happened since the last poll, for the UI to show."""

    results: list[Result] = field(default_factory=list)
    suggestions: list[Suggestion] = field(default_factory=list)
    board_status: SirenStatus | None = None
    camera_problem: str | None = None
    #: observations as read (never of a secret scan: those arrive only as suggestions)
    observations: list[Observation] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (
            self.results
            or self.suggestions
            or self.board_status
            or self.camera_problem
            or self.observations
        )


class CameraWorker:
    """Reads the camera on its own thread for whatever the session wants, into a queue.

    It reads every ``interval`` seconds while something is in view, and every
    ``idle_interval`` seconds while the readings find nothing (an empty table while the app
    waits for the order card, the tiles or the first Robot Master card): a card held up is then
    seen within ``idle_interval`` and, read every ``interval`` from there, is stable (3 frames)
    within about a second. When the session wants another reading it is read at once, and
    nothing is read while nothing is wanted.
    """

    def __init__(
        self,
        camera: Camera,
        out: queue.Queue[Observation | CameraError],
        interval: float = 0.25,
        idle_interval: float = 0.5,
    ) -> None:
        self.camera = camera
        self.out = out
        self.interval = interval
        self.idle_interval = max(interval, idle_interval)
        self._want: tuple[ReadingKind, bool] | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._wake = threading.Event()  # set by want() and stop()
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def want(self, reading: tuple[ReadingKind, bool] | None) -> None:
        with self._lock:
            changed = reading != self._want
            self._want = reading
        if changed:
            self._wake.set()

    def _run(self) -> None:
        failed = False
        wait: float | None = self.interval
        while True:
            # Waiting on an event rather than sleeping: a new wish is read at once, and with
            # nothing wanted the thread sleeps until there is (no wake-ups four times a second).
            self._wake.wait(wait)
            self._wake.clear()
            if self._stop.is_set():
                return
            with self._lock:
                want = self._want
            if want is None:
                wait = None
                continue
            wait = self.interval
            kind, secret = want
            try:
                observation = self.camera.read(kind, secret=secret)
            except CameraError as exc:
                if not failed:  # say it once, not four times a second
                    self.out.put(exc)
                failed = True
                continue
            except Exception as exc:  # an adapter bug must not kill the thread
                log.exception("camera read failed")
                self.out.put(CameraError(f"the camera failed ({type(exc).__name__})"))
                continue
            failed = False
            wait = self.pause_after(observation)
            self.out.put(observation)

    def pause_after(self, observation: Observation) -> float:
        """Seconds to wait before the next read after ``observation``."""
        return self.idle_interval if sees_nothing(observation) else self.interval

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2)


def sees_nothing(observation: Observation) -> bool:
    """True when a reading holds nothing at all (every robot and cell declined): the camera
    looks at an empty table, an empty play area or no card."""
    if isinstance(observation, TilesObservation):
        return all(r.robot is None for r in observation.robots.values())
    if isinstance(observation, OrderObservation):
        return observation.reading.robot is None
    return all(c <= 0.0 for row in observation.confidence for c in row)


class TableService:
    def __init__(
        self,
        journal: Journal,
        board: SirenBoard | None = None,
        camera: Camera | None = None,
        dice: Dice | None = None,
        confidence: float = 0.9,
    ) -> None:
        self.journal = journal
        self.board = board
        self.camera = camera
        self.dice = dice
        self.confidence = confidence
        self.session: TableSession | None = None
        self.game_id: int | None = None
        self.siren_events: queue.Queue[SirenEvent] = queue.Queue()
        self.camera_events: queue.Queue[Observation | CameraError] = queue.Queue()
        self._worker: CameraWorker | None = None
        self.buyer: str | None = None  # who is buying, while the Customer scans the handed card
        self.camera_held = False  # the camera set-up screen is open: the game reads nothing
        self._on_finished: list[Callable[[int], None]] = []

    # ------------------------------------------------------------------ life cycle

    def start(self) -> None:
        """Start the adapters' threads (the wiring calls this once)."""
        if self.board is not None:
            try:
                self.board.start(self.siren_events)
            except Exception as exc:
                log.warning("siren board unavailable: %s", exc)
                self.siren_events.put(SirenStatus(False, f"The siren board is not working: {exc}"))
                self.board = None
        if self.camera is not None:
            self._worker = CameraWorker(self.camera, self.camera_events)
            self._worker.start()
            self._update_camera()

    def close(self) -> None:
        if self._worker is not None:
            self._worker.stop()
        for adapter in (self.board, self.camera):
            if adapter is not None:
                try:
                    adapter.close()
                except Exception:
                    log.exception("closing an adapter failed")
        self.journal.close()

    def new_game(self, setup: Setup) -> TableSession:
        if (
            self.session is not None
            and self.game_id is not None
            and not self.session.state.finished
        ):
            self.journal.set_status(self.game_id, "abandoned")
        game_id = self.journal.new_game(setup.to_json())
        self._attach(game_id, TableSession(setup, (), self._recorder(game_id), self.confidence))
        return self._require()

    def resume(self) -> TableSession | None:
        """Resume the last unfinished game from the journal, exactly where it was."""
        row = self.journal.unfinished()
        if row is None:
            return None
        try:
            setup = setup_from_json(row.setup)
            events = [c.from_json(e) for e in self.journal.events(row.id)]
            session = TableSession(setup, events, self._recorder(row.id), self.confidence)
        except (CompanionError, KeyError, TypeError, ValueError) as exc:
            raise JournalError(f"game {row.id} in the journal cannot be resumed ({exc})") from None
        if session.state.finished:
            # The power went between the game's last event and its "finished" mark. Show its
            # results once more, but close it, or a later resume would pick it up again.
            self.journal.set_status(row.id, "finished")
        self._attach(row.id, session)
        self._carry_out(session.restore_effects())
        return session

    def _attach(self, game_id: int, session: TableSession) -> None:
        self.game_id = game_id
        self.session = session
        self._update_camera()

    def _recorder(self, game_id: int) -> Callable[[c.Command], None]:
        def record(command: c.Command) -> None:
            self.journal.append(game_id, command.to_json())

        return record

    def _require(self) -> TableSession:
        if self.session is None:
            raise CompanionError("no game is being played")
        return self.session

    # ------------------------------------------------------------------ commands

    def submit(self, command: c.Command) -> Result:
        session = self._require()
        result = session.submit(command)
        if result.accepted:
            self._carry_out(result.effects)
            self._update_camera()
            if session.state.finished and self.game_id is not None:
                self.journal.set_status(self.game_id, "finished")
        return result

    def roll(self, player: str) -> Result:
        """The app rolls the die for a Eureka caller."""
        if self.dice is None:
            return Result(False, "no die is configured: enter the physical roll")
        return self.submit(c.SetRoll(player, self.dice.roll(), source="app"))

    def _carry_out(self, effects: tuple[Effect, ...] | list[Effect]) -> None:
        board = self.board
        if board is None:
            return
        for effect in effects:
            try:
                if isinstance(effect, OpenWindow):
                    board.open_window(effect.stations)
                elif isinstance(effect, CloseWindow):
                    board.close_window()
                elif isinstance(effect, Light):
                    board.set_light(effect.station, effect.pattern)
            except Exception as exc:
                log.warning("siren board command failed: %s", exc)
                self.siren_events.put(
                    SirenStatus(False, f"The siren board stopped answering: {exc}")
                )

    def hold_camera(self, held: bool) -> None:
        """Hold the game's readings while the camera is being set up (calibration takes frames
        of its own), and give them back after. While held no secret can be under a scan."""
        self.camera_held = held
        self._update_camera()

    def _update_camera(self) -> None:
        if self._worker is None:
            return
        if self.camera_held:
            self._worker.want(None)
            return
        if self.session is None:
            return
        want = self.session.state.wants_reading
        self._worker.want(None if want is None else (want[0], want[1]))  # type: ignore[arg-type]

    # ------------------------------------------------------------------ polling

    def poll(self) -> Update:
        """Drain the board and camera queues (call from the UI thread)."""
        update = Update()
        while True:
            try:
                event = self.siren_events.get_nowait()
            except queue.Empty:
                break
            if isinstance(event, SirenStatus):
                update.board_status = event
            elif self.session is not None:
                result = self.session.on_siren(event)
                if result is not None:
                    if result.accepted:
                        self._carry_out(result.effects)
                    update.results.append(result)
        latest: Observation | None = None
        while True:
            try:
                item = self.camera_events.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, CameraError):
                update.camera_problem = str(item)
            else:
                latest = item  # only the newest reading matters
        if latest is not None and self.session is not None:
            want = self.session.state.wants_reading
            if want is not None and not want[1]:
                update.observations.append(latest)
            update.suggestions = self.session.interpret(latest, player=self.buyer)
        return update
