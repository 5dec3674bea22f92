"""View models: what each screen shows, and what it must never show (secrets)."""

from __future__ import annotations

from companion import commands as c
from companion.session import Suggestion, TableSession
from companion.tables.robo_factory import RoboFactorySetup, RoboFactoryTable, Step
from companion.tables.robot_master import RobotMasterSetup, RobotMasterTable
from ui import viewmodels as vm

ORDER = "red-green-blue"
BOARD = ["blue-blue-blue", "red-green-yellow", "yellow-red-green"]


def session_at(step: Step) -> TableSession:
    s = TableSession(RoboFactorySetup(("Ann", "Bob", "Cid"), "Ann"))
    script: list[c.Command] = [
        c.ScanOrder(ORDER),
        *(c.LayBoardCard(b) for b in BOARD),
        c.Buy("Bob", "green-green-blue"),
        c.StartProduction(),
        c.CallEureka("Bob"),
        c.SetRobot("Bob", "red-green-green"),
        c.SetRobot("Cid", "yellow-green-blue"),
        c.StartReveal(),
        c.SetRoll("Bob", 2),
        c.CommitReveal(),
    ]
    for command in script:
        if isinstance(s.state, RoboFactoryTable) and s.state.step is step:
            break
        assert s.submit(command).accepted, command
    assert isinstance(s.state, RoboFactoryTable)
    return s


def view_at(step: Step, **ctx: object) -> vm.FactoryView:
    s = session_at(step)
    assert isinstance(s.state, RoboFactoryTable)
    return vm.factory_view(s.state, s.can_undo, vm.FactoryContext(**ctx))  # type: ignore[arg-type]


def all_text(view: object) -> str:
    return repr(view)


def test_order_step_is_a_secret_scan_with_touch_entry_for_the_customer() -> None:
    view = view_at(Step.ORDER)
    assert view.secret_scan
    assert [a.key for a in view.actions] == ["enter-order"]
    assert view.actions[0].kind == "secret"
    assert "Ann" in view.actions[0].label
    assert not view.can_undo


def test_the_order_card_never_appears_before_the_turn_is_over() -> None:
    for step in (Step.BOARD, Step.PURCHASES, Step.PRODUCTION, Step.REVEAL, Step.FEEDBACK):
        assert ORDER not in all_text(view_at(step)), step


def test_board_step_shows_the_cards_and_their_data_tiles() -> None:
    s = session_at(Step.BOARD)
    s.submit(c.LayBoardCard(BOARD[0]))
    assert isinstance(s.state, RoboFactoryTable)
    view = vm.factory_view(s.state, s.can_undo)
    assert view.board == ((BOARD[0], 1),)
    assert any("data tile 1" in line for line in view.lines)
    assert view.can_undo


def test_purchases_offer_a_tile_to_each_manufacturer_with_cubes() -> None:
    view = view_at(Step.PURCHASES)
    keys = {a.key for p in view.players for a in p.actions}
    assert keys == {"buy:Bob", "buy:Cid"}
    assert "start-production" in [a.key for a in view.actions]


def test_while_buying_the_camera_reads_privately_and_the_tile_is_not_shown() -> None:
    view = view_at(Step.PURCHASES, buying="Bob")
    assert view.secret_scan
    assert {a.key for a in view.actions} == {"enter-buy", "cancel-buy"}


def test_production_hides_robots_and_offers_eureka_to_unused_sirens() -> None:
    s = session_at(Step.PRODUCTION)
    s.submit(c.SetRobot("Cid", "yellow-green-blue"))
    assert isinstance(s.state, RoboFactoryTable)
    view = vm.factory_view(s.state, s.can_undo)
    assert all(p.robot is None for p in view.players)
    assert "yellow-green-blue" not in all_text(view)
    assert {a.key for p in view.players for a in p.actions} == {"eureka:Bob", "eureka:Cid"}


def test_reveal_shows_each_robot_with_its_verdict_and_asks_for_rolls() -> None:
    view = view_at(Step.FEEDBACK)  # passes the reveal; check the reveal itself below
    s = session_at(Step.REVEAL)
    for cmd in (c.StartReveal(),):
        s.submit(cmd)
    assert isinstance(s.state, RoboFactoryTable)
    view = vm.factory_view(s.state, s.can_undo)
    bob = next(p for p in view.players if p.name == "Bob")
    assert bob.robot == "red-green-green" and bob.verdict is False and bob.eureka
    assert {"roll:Bob", "enter-roll:Bob"} <= {a.key for a in bob.actions}
    commit = next(a for a in view.actions if a.key == "commit")
    assert not commit.enabled and commit.kind == "danger"


def test_feedback_tiles_are_only_offered_on_a_hold_screen() -> None:
    view = view_at(Step.FEEDBACK)
    keys = {a.key for p in view.players for a in p.actions}
    assert keys == {"feedback:Bob", "feedback:Cid"}
    assert not view.can_undo  # the reveal was committed
    second = next(a for a in view.actions if a.key == "second-attempt")
    assert not second.enabled
    secret = vm.feedback_secret("Bob", 2)
    assert secret.player == "Bob" and "Bob" in secret.title and secret.tile == 2


def test_a_doubtful_secret_reading_is_checked_privately_never_shown() -> None:
    prompt = vm.prompt_for(
        Suggestion(c.ScanOrder(ORDER, "camera", 0.5), False, "the order card"), "Ann"
    )
    assert prompt.secret
    assert ORDER not in prompt.text
    assert [a.key for a in prompt.actions] == ["check-reading", "dismiss-reading"]


def test_a_doubtful_public_reading_can_be_accepted_or_corrected() -> None:
    prompt = vm.prompt_for(Suggestion(c.LayBoardCard(BOARD[0], "camera", 0.5), False, "x"))
    assert [a.key for a in prompt.actions] == ["accept-reading", "fix-reading", "dismiss-reading"]
    refused = vm.prompt_for(Suggestion(c.LayBoardCard(ORDER), False, "x", "is the order card"))
    assert "accept-reading" not in [a.key for a in refused.actions]


def test_ledger_names_what_the_table_must_do() -> None:
    s = session_at(Step.FEEDBACK)
    for cmd in (
        c.FeedbackSeen("Bob"),
        c.FeedbackSeen("Cid"),
        c.StartProduction(),
        c.SetRobot("Bob", ORDER),
        c.SetRobot("Cid", "red-blue-blue"),
        c.StartReveal(),
        c.CommitReveal(),
    ):
        assert s.submit(cmd).accepted, cmd
    assert isinstance(s.state, RoboFactoryTable)
    view = vm.factory_view(s.state, s.can_undo)
    assert view.step == "ledger"
    assert "Bob takes 2 cubes from the bank" in view.lines
    assert "Cid pays 1 to Ann" in view.lines
    assert any(ORDER.replace("-", "-") in line for line in view.lines)  # the order, at last
    assert [a.key for a in view.actions] == ["next-turn"]


def test_colour_letters_tell_every_colour_apart() -> None:
    colours = ("red", "green", "blue", "yellow")
    assert [vm.colour_letter(x, colours) for x in colours] == ["R", "G", "B", "Y"]
    shared = ("red", "rose", "blue", "yellow")
    letters = [vm.colour_letter(x, shared) for x in shared]
    assert len(set(letters)) == 4


def test_picker_marks_the_chosen_colour_and_completes_with_three_parts() -> None:
    view = vm.picker_view("t", ("red", "green", "blue", "yellow"), ["red", None, "blue"])
    assert not view.complete and view.robot is None
    assert [chosen for _c, _l, chosen in view.rows[0][1]] == [True, False, False, False]
    done = vm.picker_view("t", ("red", "green", "blue", "yellow"), ["red", "green", "blue"])
    assert done.complete and done.robot == ORDER


# ----------------------------------------------------------------------------- Robot Master


def master(*moves: tuple[str, int]) -> TableSession:
    s = TableSession(RobotMasterSetup("Ann", "Bob"))
    s.submit(c.PlaceStart(3))
    for cell, value in moves:
        assert s.submit(c.PlaceCard(cell, value)).accepted
    return s


def test_master_view_lights_the_legal_cells_and_scores_every_line() -> None:
    s = master(("c4", 3))
    assert isinstance(s.state, RobotMasterTable)
    view = vm.master_view(s.state, s.can_undo)
    legal = {cell.name for row in view.grid for cell in row if cell.legal}
    assert legal == set(s.state.legal_cells())
    assert view.row_labels == ("5", "4", "3", "2", "1")
    assert view.column_scores[2] == 30  # a pair of threes in column c
    assert view.to_move == "Bob"


def test_an_illegal_cell_gets_a_clear_warning() -> None:
    s = master()
    assert isinstance(s.state, RobotMasterTable)
    assert "touches no card" in vm.placement_warning(s.state, "a1")
    assert "already holds" in vm.placement_warning(s.state, "c3")
    assert vm.placement_warning(s.state, "c4") == ""


def test_floating_frame_window_stays_within_five_columns() -> None:
    from companion.rules.robot_master import Frame

    s = TableSession(RobotMasterSetup("Ann", "Bob", Frame.FLOATING))
    s.submit(c.PlaceStart(2))
    s.submit(c.PlaceCard("1,0", 4))
    assert isinstance(s.state, RobotMasterTable)
    view = vm.master_view(s.state, s.can_undo)
    assert len(view.grid[0]) <= 6 and len(view.grid) <= 6
    legal = {cell.name for row in view.grid for cell in row if cell.legal}
    assert legal == set(s.state.legal_cells())


def test_robot_master_end_view_names_the_deciding_comparison() -> None:
    from companion.rules.robot_master import CENTRE, Cell, connected_order

    grid = [[3, 0, 5, 2, 2], [1, 4, 4, 0, 5], [2, 2, 3, 1, 0], [5, 1, 0, 3, 4], [4, 3, 1, 5, 2]]
    values = {Cell(col, 4 - r): v for r, row in enumerate(grid) for col, v in enumerate(row)}
    order, _ = connected_order(values, CENTRE)
    s = master(*((cell.name, values[cell]) for cell in order[1:]))
    assert isinstance(s.state, RobotMasterTable)
    view = vm.master_view(s.state, s.can_undo)
    assert view.finished and view.decided_at == 1
    assert view.comparison[0] == (13, 10)
    end = vm.end_view(s.state)
    assert end.headline.startswith("Ann (rows) wins")
    assert end.row_scores == (28, 46, 24, 13, 15)
    assert end.max_score == 46


def test_setup_checks() -> None:
    assert vm.check_factory_setup(["Ann", "Bob"]).ok
    assert not vm.check_factory_setup(["Ann"]).ok
    assert not vm.check_factory_setup(["Ann", "Ann"]).ok
    assert not vm.check_factory_setup(["Ann", " "]).ok
    assert vm.check_master_setup("Ann", "Bob").ok
    assert not vm.check_master_setup("Ann", "Ann").ok
