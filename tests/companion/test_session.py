"""The table session: steps, the Eureka window, undo, camera suggestions, the service."""

from __future__ import annotations

import pytest

from companion import commands as c
from companion.fakes import FakeCamera, FakeSirenBoard, ScriptedDice
from companion.journal import Journal
from companion.ports import (
    LightPattern,
    OrderObservation,
    RobotReading,
    SirenPress,
    TilesObservation,
)
from companion.rules.robot_master import Frame, Side
from companion.service import TableService
from companion.session import CloseWindow, OpenWindow, TableSession
from companion.tables.robo_factory import RoboFactorySetup, Step
from companion.tables.robot_master import RobotMasterSetup

SETUP = RoboFactorySetup(("Ann", "Bob", "Cid"), "Ann")
ORDER = "red-green-blue"


#: the commands that take a fresh 3-player table to production (purchases skipped)
TO_PRODUCTION: tuple[c.Command, ...] = (
    c.ScanOrder(ORDER),
    c.LayBoardCard("blue-blue-blue"),
    c.LayBoardCard("red-green-yellow"),
    c.LayBoardCard("yellow-red-green"),
    c.StartProduction(),
)


def to_production(session: TableSession) -> None:
    for cmd in TO_PRODUCTION:
        assert session.submit(cmd).accepted


def test_steps_follow_the_rules_order() -> None:
    session = TableSession(SETUP)
    assert session.state.step is Step.ORDER
    assert session.submit(c.ScanOrder(ORDER)).accepted
    assert session.state.step is Step.BOARD
    refused = session.submit(c.StartProduction())
    assert not refused.accepted and "board" in refused.reason
    for card in ("blue-blue-blue", "red-green-yellow", "yellow-red-green"):
        session.submit(c.LayBoardCard(card))
    assert session.state.step is Step.PURCHASES
    assert session.state.turn.board_tiles == [1, 2, 0]


def test_a_refused_command_changes_nothing() -> None:
    session = TableSession(SETUP)
    to_production(session)
    before = (session.state.step, dict(session.state.game.cubes), list(session.live))
    for cmd in (
        c.Buy("Bob", "green-green-green"),
        c.CallEureka("Ann"),
        c.SetRobot("Bob", "red-red"),
        c.CommitReveal(),
        c.SetRobot("Ann", ORDER),
    ):
        assert not session.submit(cmd).accepted
    assert (session.state.step, dict(session.state.game.cubes), list(session.live)) == before


def test_the_eureka_window_opens_at_production_and_closes_at_the_reveal() -> None:
    session = TableSession(SETUP)
    for cmd in TO_PRODUCTION[:-1]:
        session.submit(cmd)
    opened = session.submit(TO_PRODUCTION[-1])
    assert OpenWindow((1, 2)) in opened.effects
    closed = session.submit(c.StartReveal())
    assert CloseWindow() in closed.effects


def test_a_board_press_after_the_close_is_late() -> None:
    session = TableSession(SETUP)
    to_production(session)
    result = session.on_siren(SirenPress(station=1, board_us=10, in_window=False))
    assert result is not None and not result.accepted
    assert "after the Eureka window closed" in result.reason
    assert session.state.eureka == {}


def test_the_board_decides_a_press_that_arrives_after_the_reveal_began() -> None:
    session = TableSession(SETUP)
    to_production(session)
    session.submit(c.StartReveal())
    # timed by the board inside the window, delivered after the host closed it: it counts
    accepted = session.on_siren(SirenPress(station=2, board_us=1234, in_window=True))
    assert accepted is not None and accepted.accepted
    assert session.state.eureka == {"Cid": 1234}
    # but a call by touch once the reveal began is refused
    assert not session.submit(c.CallEureka("Bob")).accepted


def test_eureka_by_the_customer_or_twice_is_refused() -> None:
    session = TableSession(SETUP)
    to_production(session)
    assert not session.on_siren(SirenPress(0, 5, True)).accepted  # type: ignore[union-attr]
    assert session.on_siren(SirenPress(1, 6, True)).accepted  # type: ignore[union-attr]
    again = session.on_siren(SirenPress(1, 7, True))
    assert again is not None and not again.accepted


def test_undo_until_the_reveal_is_committed() -> None:
    session = TableSession(SETUP)
    to_production(session)
    session.submit(c.SetRobot("Bob", ORDER))
    session.submit(c.SetRobot("Cid", "red-red-red"))
    session.submit(c.CallEureka("Bob"))
    assert session.submit(c.Undo()).accepted
    assert session.state.eureka == {}
    session.submit(c.StartReveal())
    assert session.submit(c.Undo()).accepted
    assert session.state.step is Step.PRODUCTION
    session.submit(c.StartReveal())
    session.submit(c.CommitReveal())
    refused = session.submit(c.Undo())
    assert not refused.accepted and "cannot be undone" in refused.reason
    assert session.state.game.cubes == {"Ann": 4, "Bob": 8, "Cid": 4}


def test_rolls_are_needed_before_the_reveal_is_settled() -> None:
    session = TableSession(SETUP)
    to_production(session)
    session.submit(c.SetRobot("Bob", ORDER))
    session.submit(c.SetRobot("Cid", "red-red-red"))
    session.submit(c.CallEureka("Cid"))
    session.submit(c.StartReveal())
    refused = session.submit(c.CommitReveal())
    assert "roll" in refused.reason
    assert not session.submit(c.SetRoll("Bob", 3)).accepted  # Bob did not call Eureka
    assert not session.submit(c.SetRoll("Cid", 9)).accepted
    session.submit(c.SetRoll("Cid", 3))
    done = session.submit(c.CommitReveal())
    assert done.accepted
    texts = [i.text() for i in done.instructions]
    assert "Cid pays 3 to the bank" in texts
    assert "Bob takes 4 cubes from the bank" in texts
    assert session.state.step is Step.LEDGER


def test_feedback_then_second_attempt() -> None:
    session = TableSession(SETUP)
    to_production(session)
    session.submit(c.SetRobot("Bob", "red-green-green"))
    session.submit(c.SetRobot("Cid", "yellow-yellow-yellow"))
    session.submit(c.StartReveal())
    session.submit(c.CommitReveal())
    assert session.state.step is Step.FEEDBACK
    assert session.state.feedback_tile("Bob") == 2
    assert session.state.feedback_tile("Cid") == 0
    assert not session.submit(c.StartProduction()).accepted  # not everyone has seen theirs
    session.submit(c.FeedbackSeen("Bob"))
    session.submit(c.FeedbackSeen("Cid"))
    assert OpenWindow((1, 2)) in session.submit(c.StartProduction()).effects


def test_low_confidence_readings_are_not_confident_and_secrets_are_not_named() -> None:
    session = TableSession(SETUP)
    unsure = session.interpret(OrderObservation(RobotReading(ORDER, 0.5)))
    assert len(unsure) == 1 and not unsure[0].confident
    assert ORDER not in unsure[0].what
    sure = session.interpret(OrderObservation(RobotReading(ORDER, 0.99)))
    assert sure[0].confident
    unstable = session.interpret(OrderObservation(RobotReading(ORDER, 0.99), stable=False))
    assert not unstable[0].confident
    declined = session.interpret(OrderObservation(RobotReading(None, 0.0)))
    assert declined == []


def test_tiles_reading_suggests_robots_for_manufacturers_only() -> None:
    session = TableSession(SETUP)
    to_production(session)
    obs = TilesObservation(
        {
            0: RobotReading("red-red-red", 0.99),
            1: RobotReading(ORDER, 0.95),
            2: RobotReading("blue-blue-blue", 0.4),
        }
    )
    suggestions = session.interpret(obs)
    assert [(s.command.player, s.confident) for s in suggestions] == [("Bob", True), ("Cid", False)]  # type: ignore[attr-defined]


def test_an_impossible_reading_carries_its_problem() -> None:
    session = TableSession(SETUP)
    session.submit(c.ScanOrder(ORDER))
    [suggestion] = session.interpret(OrderObservation(RobotReading(ORDER, 0.99)))
    assert not suggestion.confident
    assert "order card" in suggestion.problem


def test_robot_master_through_the_session() -> None:
    session = TableSession(RobotMasterSetup("Ann", "Bob", Frame.FIXED, Side.COLUMNS))
    assert not session.submit(c.PlaceCard("c4", 2)).accepted
    assert session.submit(c.PlaceStart(3)).accepted
    assert sorted(session.state.legal_cells()) == ["b3", "c2", "c4", "d3"]
    assert session.submit(c.PlaceCard("c4", 2)).accepted
    refused = session.submit(c.PlaceCard("a1", 2))
    assert not refused.accepted
    assert session.summary()["columns"][2] == 5


def test_service_journals_before_acknowledging_and_resumes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    board = FakeSirenBoard()
    journal = Journal(tmp_path / "j.sqlite3")
    service = TableService(journal, board=board, camera=None, dice=ScriptedDice([5]))
    service.start()
    service.new_game(SETUP)
    for cmd in TO_PRODUCTION:
        assert service.submit(cmd).accepted
    assert board.open_stations == (1, 2)
    board.press(2)
    update = service.poll()
    assert [r.accepted for r in update.results] == [True]
    assert board.lights[2] is LightPattern.ON
    assert len(journal.events(service.game_id or 0)) == 6
    service.close()

    # power cut: a new service on the same file resumes exactly there and reopens the window
    board2 = FakeSirenBoard()
    service2 = TableService(Journal(tmp_path / "j.sqlite3"), board=board2, dice=ScriptedDice([5]))
    service2.start()
    session = service2.resume()
    assert session is not None
    assert session.state.step is Step.PRODUCTION
    assert session.state.eureka == {"Cid": 1000}
    assert board2.open_stations == (1,)
    service2.submit(c.SetRobot("Bob", ORDER))
    service2.submit(c.SetRobot("Cid", "red-red-red"))
    service2.submit(c.StartReveal())
    assert service2.roll("Cid").accepted
    assert service2.submit(c.CommitReveal()).accepted
    assert service2.session.state.game.cubes == {"Ann": 4, "Bob": 8, "Cid": 0}  # type: ignore[union-attr]
    service2.close()


def test_service_reads_the_camera_for_the_current_step(tmp_path) -> None:  # type: ignore[no-untyped-def]
    camera = FakeCamera()
    camera.stage(OrderObservation(RobotReading(ORDER, 0.99)))
    service = TableService(Journal(tmp_path / "j.sqlite3"), camera=camera)
    service.new_game(SETUP)
    service.start()
    import time

    for _ in range(200):  # the worker reads every 0.25 s; poll until it has
        update = service.poll()
        if update.suggestions:
            break
        time.sleep(0.05)
    service.close()
    assert update.suggestions and update.suggestions[0].confident
    assert update.observations == []  # a secret scan never hands the frame's reading to the UI
    assert ("order", True) in camera.reads


@pytest.mark.parametrize("bad", ["", "Ann"])
def test_bad_robot_master_setups_are_refused(bad: str) -> None:
    from companion.errors import RuleError

    with pytest.raises(RuleError):
        TableSession(RobotMasterSetup("Ann", bad))


def test_a_game_killed_after_its_last_event_is_not_resumed_after_a_later_game(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """kill -9 between a game's last event and its "finished" mark left it "playing" for ever.

    The next game then finished properly, and a later resume picked the old game up again
    (the most recent game still marked playing), at its game-over step.
    """
    import random

    from companion.generate_robo_factory import random_record
    from companion.script import script_for

    path = tmp_path / "j.sqlite3"
    first_setup, first = script_for(random_record(random.Random(1), players=3))
    second_setup, second = script_for(random_record(random.Random(2), players=4))

    journal = Journal(path)
    game = journal.new_game(first_setup.to_json())
    for command in first:
        journal.append(game, command.to_json())  # the kill came before set_status
    journal.close()

    service = TableService(Journal(path))
    session = service.resume()
    # the power came back at the results: they are still shown, and the game is now closed
    assert session is not None and session.state.finished
    assert service.journal.game(game).status == "finished"
    service.new_game(second_setup)
    for command in second:
        assert service.submit(command).accepted
    service.close()

    again = TableService(Journal(path))
    assert again.resume() is None
    again.close()
