"""The controller: whole games by touch alone, camera readings that ask before they count,
siren presses, undo, and the privacy of what is read while a secret is scanned."""

from __future__ import annotations

import time
from typing import Any

from companion import commands as c
from companion.fakes import FakeCamera, FakeSirenBoard
from companion.ports import OrderObservation, RobotReading, TilesObservation
from companion.rules.robot_master import CENTRE, Cell, connected_order
from companion.service import TableService
from companion.tables.robo_factory import RoboFactorySetup, RoboFactoryTable, Step
from companion.tables.robot_master import RobotMasterSetup, RobotMasterTable
from ui import viewmodels as vm
from ui.controller import Controller, Outcome, Request


def only_request(out: Outcome, kind: str) -> Request:
    assert [r.kind for r in out.requests] == [kind], out
    return out.requests[0]


def pick(ctl: Controller, key: str, value: Any) -> Outcome:
    request = only_request(
        ctl.handle(key), "pick-robot" if isinstance(value, str) else "pick-number"
    )
    assert request.done is not None
    out = request.done(value)
    assert isinstance(out, Outcome)
    assert not out.error, out.message
    return out


def table(ctl: Controller) -> RoboFactoryTable:
    assert isinstance(ctl.table, RoboFactoryTable)
    return ctl.table


def play_turn_by_touch(
    ctl: Controller, order: str, board: list[str], robots: dict[str, str]
) -> None:
    pick(ctl, "enter-order", order)
    for card in board:
        pick(ctl, "enter-board", card)
    ctl.handle("start-production")
    ctl.handle("reveal")
    for name, robot in robots.items():
        pick(ctl, f"robot:{name}", robot)
    out = ctl.handle("commit")
    assert not out.error, out.message


def test_a_whole_robo_factory_game_by_touch_alone(service: TableService) -> None:
    service.new_game(RoboFactorySetup(("Ann", "Bob"), "Ann"))
    ctl = Controller(service)
    for turn in range(6):
        t = table(ctl)
        customer = t.customer
        other = next(p for p in t.game.players if p != customer)
        play_turn_by_touch(
            ctl,
            "red-green-blue",
            ["blue-blue-blue", "red-red-red", "green-red-blue"],
            {other: "red-green-blue" if turn % 2 == 0 else "yellow-yellow-yellow"},
        )
        if table(ctl).step is Step.FEEDBACK:
            secret = only_request(ctl.handle(f"feedback:{other}"), "secret")
            assert secret.secret is not None and secret.secret.player == other
            assert secret.done is not None
            secret.done(None)
            ctl.handle("second-attempt")
            ctl.handle("reveal")
            pick(ctl, f"robot:{other}", "red-green-blue")
            ctl.handle("commit")
        if not table(ctl).finished:
            ctl.handle("next-turn")
    t = table(ctl)
    assert t.finished
    end = vm.end_view(t)
    assert [s.name for s in end.series] == ["Ann", "Bob"]
    assert all(len(s.points) == 7 for s in end.series)  # the start and six turns
    assert end.headline.endswith("cubes") or "share" in end.headline


def test_a_whole_robot_master_game_by_touch_alone(service: TableService) -> None:
    service.new_game(RobotMasterSetup("Ann", "Bob"))
    ctl = Controller(service)
    grid = [[3, 0, 5, 2, 2], [1, 4, 4, 0, 5], [2, 2, 3, 1, 0], [5, 1, 0, 3, 4], [4, 3, 1, 5, 2]]
    values = {Cell(col, 4 - r): v for r, row in enumerate(grid) for col, v in enumerate(row)}
    order, _ = connected_order(values, CENTRE)
    pick(ctl, "enter-start", values[CENTRE])
    last = Outcome()
    for cell in order[1:]:
        last = pick(ctl, f"cell:{cell.name}", values[cell])
    assert isinstance(ctl.table, RobotMasterTable) and ctl.table.finished
    assert "end" in [r.kind for r in last.requests]


def test_an_illegal_cell_warns_and_changes_nothing(service: TableService) -> None:
    service.new_game(RobotMasterSetup("Ann", "Bob"))
    ctl = Controller(service)
    pick(ctl, "enter-start", 2)
    out = ctl.handle("cell:a1")
    assert not out.requests and "refused" in out.sounds
    view = ctl.view()
    assert isinstance(view, vm.MasterView) and "touches no card" in view.warning


def test_undo_until_the_reveal_is_committed(service: TableService) -> None:
    service.new_game(RoboFactorySetup(("Ann", "Bob"), "Ann"))
    ctl = Controller(service)
    pick(ctl, "enter-order", "red-green-blue")
    ctl.handle("undo")
    assert table(ctl).step is Step.ORDER
    play_turn_by_touch(
        ctl,
        "red-green-blue",
        ["blue-blue-blue", "red-red-red", "green-red-blue"],
        {"Bob": "red-green-blue"},
    )
    view = ctl.view()
    assert isinstance(view, vm.FactoryView) and not view.can_undo
    out = ctl.handle("undo")
    assert out.error and "cannot be undone" in out.message


def test_buying_shows_the_tile_to_the_customer_on_a_hold_screen(service: TableService) -> None:
    service.new_game(RoboFactorySetup(("Ann", "Bob", "Cid"), "Ann"))
    ctl = Controller(service)
    pick(ctl, "enter-order", "red-green-blue")
    for card in ["blue-blue-blue", "red-red-red", "green-red-blue"]:
        pick(ctl, "enter-board", card)
    ctl.handle("buy:Bob")
    assert service.buyer == "Bob"
    out = pick(ctl, "enter-buy", "red-green-yellow")
    secret = only_request(out, "secret").secret
    assert secret is not None and secret.player == "Ann" and secret.tile == 2
    assert service.buyer is None and ctl.buying is None
    assert out.card_read and "card" in out.sounds


def wait_for(ctl: Controller, test: Any, timeout: float = 5.0) -> list[Outcome]:
    outs = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        outs.append(ctl.poll())
        if test():
            return outs
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_confident_readings_count_and_doubtful_ones_ask(
    wired_service: tuple[TableService, FakeCamera, FakeSirenBoard],
) -> None:
    service, camera, _board = wired_service
    service.start()
    service.new_game(RoboFactorySetup(("Ann", "Bob", "Cid"), "Ann"))
    ctl = Controller(service, has_camera=True)
    camera.stage(OrderObservation(RobotReading("red-green-blue", 0.99)))
    outs = wait_for(ctl, lambda: table(ctl).step is Step.BOARD)
    assert any(o.card_read for o in outs)
    # the order card still under the camera is not a board card, and no question either
    time.sleep(0.4)
    ctl.poll()
    assert ctl.pending == [] and table(ctl).turn.board == ()
    camera.stage(OrderObservation(RobotReading("blue-blue-blue", 0.5)))
    wait_for(ctl, lambda: bool(ctl.pending))
    assert table(ctl).turn.board == ()  # never applied without a tap
    view = ctl.view()
    assert isinstance(view, vm.FactoryView)
    assert view.prompts[0].actions[0].key == "accept-reading"
    ctl.handle("accept-reading")
    assert [str(r) for r in table(ctl).turn.board] == ["blue-blue-blue"]
    assert service.session is not None
    assert service.session.live[-1] == c.LayBoardCard("blue-blue-blue", "touch", 0.5)


def doubtful_order_card(
    wired_service: tuple[TableService, FakeCamera, FakeSirenBoard],
) -> tuple[Controller, FakeCamera]:
    """A two-player game whose Customer (Ann) holds an order card the camera is unsure of."""
    service, camera, _board = wired_service
    service.start()
    service.new_game(RoboFactorySetup(("Ann", "Bob"), "Ann"))
    ctl = Controller(service, has_camera=True)
    camera.stage(OrderObservation(RobotReading("red-green-blue", 0.5)))
    wait_for(ctl, lambda: bool(ctl.pending))
    return ctl, camera


def test_a_doubtful_order_card_is_confirmed_on_a_private_screen(
    wired_service: tuple[TableService, FakeCamera, FakeSirenBoard],
) -> None:
    ctl, _camera = doubtful_order_card(wired_service)
    view = ctl.view()
    assert isinstance(view, vm.FactoryView) and "red" not in repr(view)
    request = only_request(ctl.handle("check-reading"), "secret")
    assert request.secret is not None and request.secret.robot == "red-green-blue"
    assert request.secret.player == "Ann" and request.fix is not None
    assert request.done is not None
    request.done(None)
    assert table(ctl).step is Step.BOARD


def test_a_reading_being_checked_is_not_committed_by_the_camera_meanwhile(
    wired_service: tuple[TableService, FakeCamera, FakeSirenBoard],
) -> None:
    """Found in the demo: while the Customer looked at a doubtful order card's check screen, the
    camera grew sure of the card and committed it, and the Customer's answer was then refused
    as out of turn (a correction would have been lost the same way)."""
    ctl, camera = doubtful_order_card(wired_service)
    request = only_request(ctl.handle("check-reading"), "secret")
    camera.stage(OrderObservation(RobotReading("red-green-blue", 0.99)))
    wait_for(ctl, lambda: bool(ctl.pending) and ctl.pending[0].confident)
    assert table(ctl).step is Step.ORDER  # held while Ann decides
    assert request.fix is not None and request.fix.done is not None
    out = request.fix.done("red-red-red")  # Ann corrects it: her card counts
    assert isinstance(out, Outcome) and not out.error, out.message
    assert str(table(ctl).order_card()) == "red-red-red"
    assert table(ctl).step is Step.BOARD


def test_a_check_left_without_an_answer_lets_the_camera_commit_again(
    wired_service: tuple[TableService, FakeCamera, FakeSirenBoard],
) -> None:
    ctl, camera = doubtful_order_card(wired_service)
    only_request(ctl.handle("check-reading"), "secret")
    ctl.request_closed()  # the picker or secret screen was left with its back button
    camera.stage(OrderObservation(RobotReading("red-green-blue", 0.99)))
    wait_for(ctl, lambda: table(ctl).step is Step.BOARD)
    assert str(table(ctl).order_card()) == "red-green-blue"


def test_siren_presses_call_eureka_and_robots_are_read(
    wired_service: tuple[TableService, FakeCamera, FakeSirenBoard],
) -> None:
    service, camera, board = wired_service
    service.start()
    service.new_game(RoboFactorySetup(("Ann", "Bob", "Cid"), "Ann"))
    ctl = Controller(service, has_camera=True, has_board=True)
    pick(ctl, "enter-order", "red-green-blue")
    for card in ["blue-blue-blue", "red-red-red", "green-red-blue"]:
        pick(ctl, "enter-board", card)
    ctl.handle("start-production")
    board.press(2)
    outs = wait_for(ctl, lambda: "Cid" in table(ctl).eureka)
    assert any("Cid" in o.eureka and "eureka" in o.sounds for o in outs)
    camera.stage(
        TilesObservation(
            {1: RobotReading("red-green-blue", 0.99), 2: RobotReading("red-green-yellow", 0.99)}
        )
    )
    ctl.handle("reveal")
    wait_for(ctl, lambda: not table(ctl).missing_robots())
    out = ctl.handle("roll:Cid")
    assert "rolled 3" in out.message
    out = ctl.handle("commit")
    assert "correct" in out.sounds
    assert table(ctl).step is Step.LEDGER
