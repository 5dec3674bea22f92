"""View models: what each screen shows, computed from the table session. No Kivy here.

Each function takes the session's table (and what the app is doing locally, such as who is
buying) and returns plain frozen dataclasses with every text already translated. Screens only lay
these out, so the rules of what to show (and what never to show: secrets) are tested here.

Action keys are ``verb`` or ``verb:player``; the screen hands them back to the app's controller.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion import commands as c
from companion.robots import PARTS, Robot
from companion.rules.robot_master import Cell, Frame, line_score
from companion.session import Suggestion
from companion.tables.robo_factory import RoboFactoryTable, Step
from companion.tables.robot_master import RobotMasterTable, cell_text
from companion.tables.robot_master import Step as MasterStep
from ui.i18n import N_, _, instruction, tr

# ----------------------------------------------------------------------------- shared pieces


@dataclass(frozen=True)
class Action:
    key: str
    label: str
    enabled: bool = True
    #: "primary" (the next step), "normal", "danger" (cannot be undone) or "secret"
    kind: str = "normal"


@dataclass(frozen=True)
class Prompt:
    """A camera reading the table must confirm or correct (never applied without a tap)."""

    text: str
    problem: str
    #: True when the reading is a secret: it is checked on a hold-to-reveal screen only
    secret: bool
    actions: tuple[Action, ...]


def colour_letter(colour: str, colours: tuple[str, ...]) -> str:
    """A short mark that tells colours apart without colour: the first letter, or two if shared."""
    first = colour[:1].upper()
    if sum(1 for other in colours if other[:1].upper() == first) == 1:
        return first
    return colour[:2].upper()


SECRET_COMMANDS = (c.ScanOrder, c.Buy)


def is_secret(command: c.Command) -> bool:
    return isinstance(command, SECRET_COMMANDS)


def prompt_for(suggestion: Suggestion, customer: str | None = None) -> Prompt:
    """How a doubtful camera reading is put to the table."""
    cmd = suggestion.command
    if is_secret(cmd):
        who = customer or ""
        return Prompt(
            tr(
                "The camera is not sure about the card. {customer}: check it privately",
                customer=who,
            ),
            suggestion.problem,
            True,
            (
                Action(
                    "check-reading", tr("{customer}: check privately", customer=who), kind="secret"
                ),
                Action("dismiss-reading", _("Ignore")),
            ),
        )
    text = tr("Is this right? {what}", what=_describe_reading(cmd))
    actions: list[Action] = []
    if not suggestion.problem:
        actions.append(Action("accept-reading", _("Yes, right"), kind="primary"))
    actions.append(Action("fix-reading", _("Correct it")))
    actions.append(Action("dismiss-reading", _("Ignore")))
    return Prompt(text, suggestion.problem, False, tuple(actions))


def _describe_reading(cmd: c.Command) -> str:
    if isinstance(cmd, c.LayBoardCard):
        return tr("board card {robot}", robot=robot_words(cmd.robot))
    if isinstance(cmd, c.SetRobot):
        return tr("{player}'s robot: {robot}", player=cmd.player, robot=robot_words(cmd.robot))
    if isinstance(cmd, c.PlaceStart):
        return tr("start card {value}", value=cmd.value)
    if isinstance(cmd, c.PlaceCard):
        return tr("card {value} on {cell}", value=cmd.value, cell=cmd.cell)
    return cmd.type


def robot_words(robot: str | Robot) -> str:
    """``red-green-blue`` in the current language (head, torso, legs)."""
    parts = str(robot).split("-")
    return "-".join(_(p) for p in parts)


# ----------------------------------------------------------------------------- Robo Factory

STEP_TITLES = {
    Step.ORDER: N_("The order card"),
    Step.BOARD: N_("The board cards"),
    Step.PURCHASES: N_("Buying data tiles"),
    Step.PRODUCTION: N_("Production"),
    Step.REVEAL: N_("The reveal"),
    Step.FEEDBACK: N_("Feedback tiles"),
    Step.LEDGER: N_("The ledger"),
    Step.GAME_OVER: N_("Game over"),
}


@dataclass(frozen=True)
class PlayerRow:
    name: str
    seat: int
    cubes: int
    customer: bool
    #: the robot built in this attempt (shown only once production has begun)
    robot: str | None = None
    #: Eureka called in this attempt
    eureka: bool = False
    #: the player's siren is used up for the game
    siren_used: bool = False
    #: at the reveal: True correct, False wrong, None not judged (or hidden)
    verdict: bool | None = None
    roll: int | None = None
    status: str = ""
    actions: tuple[Action, ...] = ()


@dataclass(frozen=True)
class FactoryView:
    step: str
    title: str
    subtitle: str
    lines: tuple[str, ...]
    players: tuple[PlayerRow, ...]
    #: board cards laid so far with their data tiles
    board: tuple[tuple[str, int], ...]
    actions: tuple[Action, ...]
    prompts: tuple[Prompt, ...] = ()
    #: a secret is being scanned: the camera works, nothing it sees is shown
    secret_scan: bool = False
    can_undo: bool = False
    finished: bool = False
    camera_note: str = ""


@dataclass
class FactoryContext:
    """What the app is doing locally, beyond the session's state."""

    buying: str | None = None
    pending: list[Suggestion] = field(default_factory=list)
    has_camera: bool = False
    has_board: bool = False


def factory_view(
    table: RoboFactoryTable, can_undo: bool, ctx: FactoryContext | None = None
) -> FactoryView:
    ctx = ctx or FactoryContext()
    game = table.game
    turn = game.current
    step = table.step
    customer = table.customer
    total_turns = _turns_due(table)
    subtitle = tr(
        "Turn {n} of {total} · Customer: {customer}",
        n=turn.number,
        total=total_turns,
        customer=customer,
    )
    if step in (Step.PRODUCTION, Step.REVEAL):
        subtitle += " · " + tr("attempt {n} of 2", n=max(1, table.attempt_number))
    elif step is Step.FEEDBACK:
        subtitle += " · " + _("before the second attempt")
    lines = [instruction(i) for i in table.instructions()]
    actions: list[Action] = []
    secret_scan = False
    camera_note = ""
    board = tuple(
        (str(card), tile) for card, tile in zip(turn.board, turn.board_tiles, strict=False)
    )

    order = table.order_card()
    # Robots are built face-down: nothing about them is shown before the reveal.
    showing_robots = step is Step.REVEAL
    revealed = step is Step.REVEAL

    if step is Step.ORDER:
        secret_scan = True
        camera_note = _("The camera reads the card privately: nothing it sees is shown.")
        actions.append(
            Action(
                "enter-order",
                tr("{customer}: enter the card by touch", customer=customer),
                kind="secret",
            )
        )
    elif step is Step.BOARD:
        actions.append(
            Action("enter-board", tr("Enter board card {slot} by touch", slot=len(turn.board) + 1))
        )
        if ctx.has_camera:
            camera_note = _("Hold each board card under the camera, one at a time.")
    elif step is Step.PURCHASES:
        if ctx.buying is not None:
            secret_scan = True
            lines.append(
                tr(
                    "{buyer} buys: {customer}, show the handed card to the camera, privately",
                    buyer=ctx.buying,
                    customer=customer,
                )
            )
            camera_note = _("The camera reads the card privately: nothing it sees is shown.")
            actions.append(
                Action(
                    "enter-buy",
                    tr("{customer}: enter the card by touch", customer=customer),
                    kind="secret",
                )
            )
            actions.append(Action("cancel-buy", _("Cancel the purchase")))
        else:
            actions.append(Action("start-production", _("Start production"), kind="primary"))
    elif step is Step.PRODUCTION:
        actions.append(Action("reveal", _("Reveal the robots"), enabled=True, kind="primary"))
    elif step is Step.REVEAL:
        missing = table.missing_robots() or table.missing_rolls()
        actions.append(Action("commit", _("Settle the reveal"), enabled=not missing, kind="danger"))
        if missing:
            lines.append(tr("Waiting for: {names}", names=", ".join(missing)))
    elif step is Step.FEEDBACK:
        waiting = [p for p in table.manufacturers if p not in table.feedback_seen]
        actions.append(
            Action(
                "second-attempt", _("Start the second attempt"), enabled=not waiting, kind="primary"
            )
        )
    elif step is Step.LEDGER:
        nxt = game.next_customer
        actions.append(
            Action(
                "next-turn",
                tr("Done: next Customer {customer}", customer=nxt or ""),
                kind="primary",
            )
        )
    elif step is Step.GAME_OVER:
        actions.append(Action("show-end", _("See the results"), kind="primary"))

    players: list[PlayerRow] = []
    last = table.last_attempt
    for seat, name in enumerate(game.players):
        is_customer = name == customer
        row_actions: list[Action] = []
        status = ""
        robot = table.robots.get(name) if showing_robots else None
        verdict: bool | None = None
        roll = table.rolls.get(name) if showing_robots else None
        if is_customer:
            status = _("Customer")
        elif step is Step.PURCHASES and ctx.buying is None:
            bought = name in turn.purchases
            if bought:
                status = _("bought a data tile")
            elif game.cubes[name] < 1:
                status = _("no cubes to buy with")
            else:
                row_actions.append(Action(f"buy:{name}", _("Buy a tile")))
        elif step is Step.PRODUCTION:
            status = (
                _("Eureka called")
                if name in table.eureka
                else (_("siren used") if name in game.sirens_used else _("building"))
            )
            if name in table.eureka_eligible:
                row_actions.append(Action(f"eureka:{name}", _("Eureka!")))
        elif step is Step.REVEAL:
            row_actions.append(
                Action(f"robot:{name}", _("Set robot") if robot is None else _("Fix robot"))
            )
            if robot is not None and order is not None:
                verdict = robot == order
                status = _("correct") if verdict else _("wrong")
            if name in table.eureka and name not in table.rolls:
                row_actions.append(Action(f"roll:{name}", _("Roll the die"), kind="primary"))
                row_actions.append(Action(f"enter-roll:{name}", _("Enter a roll")))
        elif step is Step.FEEDBACK:
            seen = name in table.feedback_seen
            status = _("has seen the tile") if seen else _("waiting")
            if not seen:
                row_actions.append(
                    Action(
                        f"feedback:{name}",
                        tr("{player}: see your tile", player=name),
                        kind="secret",
                    )
                )
        elif step in (Step.LEDGER, Step.GAME_OVER) and last is not None and name in last.robots:
            verdict = name in last.correct
            robot = last.robots[name]
            roll = last.eureka.get(name)
            status = _("correct") if verdict else _("wrong")
        players.append(
            PlayerRow(
                name=name,
                seat=seat,
                cubes=game.cubes[name],
                customer=is_customer,
                robot=None if robot is None else str(robot),
                eureka=name in table.eureka
                or (
                    step in (Step.LEDGER, Step.GAME_OVER)
                    and last is not None
                    and name in last.eureka
                ),
                siren_used=name in game.sirens_used,
                verdict=verdict if (revealed or step in (Step.LEDGER, Step.GAME_OVER)) else None,
                roll=roll,
                status=status,
                actions=tuple(row_actions),
            )
        )
    if step in (Step.LEDGER, Step.GAME_OVER) and order is not None:
        lines.insert(0, tr("The order was {robot}", robot=robot_words(order)))

    prompts = tuple(prompt_for(s, customer) for s in ctx.pending)
    return FactoryView(
        step=step.value,
        title=_(STEP_TITLES[step]),
        subtitle=subtitle,
        lines=tuple(lines),
        players=tuple(players),
        board=board,
        actions=tuple(actions),
        prompts=prompts,
        secret_scan=secret_scan,
        can_undo=can_undo,
        finished=table.finished,
        camera_note=camera_note,
    )


def _turns_due(table: RoboFactoryTable) -> int:
    game = table.game
    return int(game._turns_due())


# ----------------------------------------------------------------------------- secrets


@dataclass(frozen=True)
class SecretView:
    """A hold-to-reveal screen addressed to one named player."""

    player: str
    title: str
    hint: str
    #: what is shown while the button is held: a number (data tile) or a robot
    tile: int | None = None
    robot: str | None = None
    done_label: str = ""


def order_secret(customer: str, robot: str) -> SecretView:
    return SecretView(
        customer,
        tr("{player} only", player=customer),
        _("Hold the button to check the order card read. Others look away."),
        robot=robot,
        done_label=_("Done"),
    )


def purchase_secret(customer: str, buyer: str, tile: int) -> SecretView:
    return SecretView(
        customer,
        tr("{player} only", player=customer),
        tr("Hold the button to see which data tile to give {buyer}.", buyer=buyer),
        tile=tile,
        done_label=_("Done: tile handed over"),
    )


def feedback_secret(player: str, tile: int) -> SecretView:
    return SecretView(
        player,
        tr("{player} only", player=player),
        _("Hold the button to see your feedback tile: how many parts of your robot match."),
        tile=tile,
        done_label=_("Done: I have seen it"),
    )


def reading_secret(customer: str, robot: str) -> SecretView:
    return SecretView(
        customer,
        tr("{player} only", player=customer),
        _("The camera was not sure. Hold the button to see what it read."),
        robot=robot,
        done_label=_("It is right"),
    )


# ----------------------------------------------------------------------------- robot picker


@dataclass(frozen=True)
class PickerView:
    title: str
    #: rows of (part label, [(colour, letter, chosen)])
    rows: tuple[tuple[str, tuple[tuple[str, str, bool], ...]], ...]
    complete: bool
    robot: str | None


PART_LABELS = {"head": N_("Head"), "torso": N_("Torso"), "legs": N_("Legs")}


def picker_view(title: str, colours: tuple[str, ...], chosen: list[str | None]) -> PickerView:
    rows = []
    for part, pick in zip(PARTS, chosen, strict=True):
        rows.append(
            (
                _(PART_LABELS[part]),
                tuple((col, colour_letter(col, colours), col == pick) for col in colours),
            )
        )
    complete = all(chosen)
    robot = "-".join(str(p) for p in chosen) if complete else None
    return PickerView(title, tuple(rows), complete, robot)


# ----------------------------------------------------------------------------- Robot Master


@dataclass(frozen=True)
class GridCell:
    name: str  # the cell as the core writes it: "c4" or "x,y"
    value: int | None
    legal: bool
    selected: bool = False


@dataclass(frozen=True)
class MasterView:
    step: str
    title: str
    subtitle: str
    lines: tuple[str, ...]
    #: rows top first; each a tuple of cells left to right
    grid: tuple[tuple[GridCell, ...], ...]
    row_labels: tuple[str, ...]
    column_labels: tuple[str, ...]
    row_scores: tuple[int, ...]
    column_scores: tuple[int, ...]
    to_move: str
    #: values 0..5 and how many of each remain
    cards_left: tuple[int, ...]
    warning: str
    actions: tuple[Action, ...]
    prompts: tuple[Prompt, ...] = ()
    can_undo: bool = False
    finished: bool = False
    comparison: tuple[tuple[int, int], ...] = ()
    decided_at: int | None = None


def master_window(table: RobotMasterTable) -> tuple[list[int], list[int]]:
    """The x and y values shown, left to right and top to bottom."""
    if table.setup.frame is Frame.FIXED or table.game is None:
        if table.setup.frame is Frame.FIXED:
            return list(range(5)), list(range(4, -1, -1))
        return list(range(-2, 3)), list(range(2, -3, -1))
    cells = table.game.cells
    xs = [cell.x for cell in cells]
    ys = [cell.y for cell in cells]
    # The cards and one cell around them (where the next card may go), never beyond 5 wide.
    x0, x1 = max(min(xs) - 1, max(xs) - 4), min(max(xs) + 1, min(xs) + 4)
    y0, y1 = max(min(ys) - 1, max(ys) - 4), min(max(ys) + 1, min(ys) + 4)
    return list(range(x0, x1 + 1)), list(range(y1, y0 - 1, -1))


def master_view(
    table: RobotMasterTable,
    can_undo: bool,
    selected: str | None = None,
    warning: str = "",
    pending: list[Suggestion] | None = None,
) -> MasterView:
    frame = table.setup.frame
    xs, ys = master_window(table)
    legal = set(table.legal_cells())
    game = table.game
    values = game.cells if game is not None else {}
    grid: list[tuple[GridCell, ...]] = []
    for y in ys:
        row = []
        for x in xs:
            cell = Cell(x, y)
            name = cell_text(cell, frame)
            row.append(GridCell(name, values.get(cell), name in legal, name == selected))
        grid.append(tuple(row))
    row_scores = tuple(
        line_score([v for v in (c.value for c in row) if v is not None]) for row in grid
    )
    column_scores = tuple(
        line_score([v for v in (row[i].value for row in grid) if v is not None])
        for i in range(len(xs))
    )
    if frame is Frame.FIXED:
        row_labels = tuple(str(y + 1) for y in ys)
        column_labels = tuple("abcde"[x] for x in xs)
    else:
        row_labels = tuple(f"{y:+d}" for y in ys)
        column_labels = tuple(f"{x:+d}" for x in xs)
    rows_name, columns_name = table.setup.rows, table.setup.columns
    lines = [instruction(i) for i in table.instructions()]
    actions: list[Action] = []
    to_move = ""
    comparison: tuple[tuple[int, int], ...] = ()
    decided_at = None
    if table.step is MasterStep.START:
        title = _("Robot Master: the start card")
        actions.append(Action("enter-start", _("Enter the start card by touch"), kind="primary"))
    elif table.step is MasterStep.PLAY:
        assert game is not None
        side = game.to_move
        to_move = table.name_of(side) if side is not None else ""
        title = tr("{player} to move", player=to_move)
    else:
        assert game is not None
        title = _("Robot Master: game over")
        rows, columns = game.line_scores()
        outcome = game.outcome()
        comparison = tuple(zip(sorted(rows), sorted(columns), strict=True))
        decided_at = outcome.decided_at
        actions.append(Action("show-end", _("See the results"), kind="primary"))
    cards_left = tuple(game.cards_left(v) if game is not None else 6 for v in range(6))
    subtitle = tr(
        "{rows} owns the rows · {columns} owns the columns", rows=rows_name, columns=columns_name
    )
    return MasterView(
        step=table.step.value,
        title=title,
        subtitle=subtitle,
        lines=tuple(lines),
        grid=tuple(grid),
        row_labels=row_labels,
        column_labels=column_labels,
        row_scores=row_scores,
        column_scores=column_scores,
        to_move=to_move,
        cards_left=cards_left,
        warning=warning,
        actions=tuple(actions),
        prompts=tuple(prompt_for(s) for s in (pending or [])),
        can_undo=can_undo,
        finished=table.finished,
        comparison=comparison,
        decided_at=decided_at,
    )


def placement_warning(table: RobotMasterTable, cell: str) -> str:
    """A clear sentence when a card may not go on ``cell``; empty when it may."""
    game = table.game
    if game is None:
        return _("Lay the start card first.")
    if game.finished:
        return _("The game is over: all 25 cells are filled.")
    if cell in set(table.legal_cells()):
        return ""
    from companion.tables.robot_master import parse_cell

    target = parse_cell(cell, table.setup.frame)
    if target in game.cells:
        return tr("{cell} already holds a card. Choose a highlighted cell.", cell=cell)
    if not any(n in game.cells for n in target.neighbours()):
        return tr("{cell} touches no card. A card must touch another edge to edge.", cell=cell)
    return tr("{cell} is outside the 5x5 frame. Choose a highlighted cell.", cell=cell)


# ----------------------------------------------------------------------------- end of game


@dataclass(frozen=True)
class Series:
    name: str
    points: tuple[int, ...]
    winner: bool


@dataclass(frozen=True)
class EndView:
    game: str
    title: str
    headline: str
    lines: tuple[str, ...]
    #: Robo Factory: cubes after each turn per player (the chart)
    series: tuple[Series, ...] = ()
    #: Robot Master: the grid's values and each line's score (the heat map)
    grid: tuple[tuple[int | None, ...], ...] = ()
    row_scores: tuple[int, ...] = ()
    column_scores: tuple[int, ...] = ()
    max_score: int = 1


def end_view(table: RoboFactoryTable | RobotMasterTable) -> EndView:
    if isinstance(table, RoboFactoryTable):
        game = table.game
        winners = game.winners
        headline = (
            instruction(table.instructions()[-1]) if table.finished else _("The game was stopped")
        )
        ranked = sorted(game.players, key=lambda p: (-game.cubes[p], game.seat(p)))
        lines = tuple(tr("{player}: {cubes} cubes", player=p, cubes=game.cubes[p]) for p in ranked)
        series = tuple(
            Series(p, tuple(h[p] for h in game.history), p in winners) for p in game.players
        )
        return EndView("robo-factory", _("Robo Factory: the results"), headline, lines, series)
    rm = table.game
    if rm is None:
        return EndView(
            "robot-master", _("Robot Master: the results"), _("The game was stopped"), ()
        )
    headline = (
        instruction(table.instructions()[-1]) if table.finished else _("The game was stopped")
    )
    rows, columns = rm.line_scores()
    lines = (
        tr(
            "{player} (rows), sorted: {scores}",
            player=table.setup.rows,
            scores=" ".join(str(s) for s in sorted(rows)),
        ),
        tr(
            "{player} (columns), sorted: {scores}",
            player=table.setup.columns,
            scores=" ".join(str(s) for s in sorted(columns)),
        ),
    )
    grid = tuple(tuple(row) for row in rm.grid())
    return EndView(
        "robot-master",
        _("Robot Master: the results"),
        headline,
        lines,
        grid=grid,
        row_scores=tuple(rows),
        column_scores=tuple(columns),
        max_score=max([1, *rows, *columns]),
    )


# ----------------------------------------------------------------------------- setup


@dataclass(frozen=True)
class SetupCheck:
    ok: bool
    problem: str


def check_factory_setup(names: list[str]) -> SetupCheck:
    cleaned = [n.strip() for n in names]
    if not 2 <= len(cleaned) <= 6:
        return SetupCheck(False, _("Robo Factory needs 2 to 6 players."))
    if any(not n for n in cleaned):
        return SetupCheck(False, _("Every player needs a name."))
    if len(set(cleaned)) != len(cleaned):
        return SetupCheck(False, _("Two players have the same name."))
    if any(n == "-" for n in cleaned):
        return SetupCheck(False, _("Every player needs a name."))
    return SetupCheck(True, "")


def check_master_setup(rows: str, columns: str) -> SetupCheck:
    if not rows.strip() or not columns.strip():
        return SetupCheck(False, _("Both players need a name."))
    if rows.strip() == columns.strip():
        return SetupCheck(False, _("The two players need different names."))
    return SetupCheck(True, "")


def history_rows(games: list[Any]) -> list[tuple[int, str]]:
    """(game id, one line) for the home screen's list of past games, newest first."""
    out = []
    kinds = {"robo-factory": _("Robo Factory"), "robot-master": _("Robot Master")}
    statuses = {"playing": _("in progress"), "finished": _("finished"), "abandoned": _("stopped")}
    for row in sorted(games, key=lambda g: g.id, reverse=True):
        players = row.setup.get("players") or [row.setup.get("rows"), row.setup.get("columns")]
        when = str(row.started)[:16].replace("T", " ")
        out.append(
            (
                row.id,
                f"{when}  {kinds.get(row.kind, row.kind)}  ·  "
                f"{', '.join(str(p) for p in players)}  ·  {statuses.get(row.status, row.status)}",
            )
        )
    return out
