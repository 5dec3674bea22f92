"""The Robot Master rules engine, as RULINGS.md reads the rules.

Pure Python, no I/O. Two players share one 5x5 grid of cards valued 0..5: one owns the five rows,
the other the five columns. :class:`RobotMasterGame` holds the cards on the table; ``check_place``
says whether a card may go somewhere (raising a named error, changing nothing) and ``place``
checks and then lays it down.

>>> game = RobotMasterGame("Ann", "Bob", start_value=4)
>>> game.legal_cells()
[Cell(x=1, y=2), Cell(x=2, y=1), Cell(x=2, y=3), Cell(x=3, y=2)]
>>> game.place(Side.ROWS, Cell.parse_name("c4"), 2)
>>> game.to_move
<Side.COLUMNS: 'columns'>
>>> game.place(Side.COLUMNS, Cell.parse_name("d3"), 5)
>>> game.line_scores()
([0, 2, 9, 0, 0], [0, 0, 6, 5, 0])

Coordinates. In a fixed frame a :class:`Cell` is absolute: x 0..4 are the columns a..e, y 0..4 the
rows 1..5 (bottom to top), so the centre ``c3`` is ``Cell(2, 2)``. In a floating frame a cell is an
offset from the origin, x to the right and y up; the origin is the start card (in a game built
from a grid record it is the grid's centre cell, see :meth:`RobotMasterGame.from_grid`).

Mapping a floating game onto 5x5 (``grid`` and ``line_scores``): the origin is put where ``c3``
would be, then the whole occupied area is shifted by the fewest steps that bring it inside the
5x5. A floating game that never strays outside the fixed frame therefore looks exactly like a
fixed one, and a finished floating game (whose cards fill exactly 5x5) maps one to one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from companion.errors import GameOver, IllegalPlacement, InvalidCard, OutOfTurn, RuleError

SIZE = 5
CELLS = SIZE * SIZE
VALUES = range(6)
COPIES = 6  # cards of each value in the box
COLUMN_LETTERS = "abcde"


class Side(StrEnum):
    """Which lines a player owns."""

    ROWS = "rows"
    COLUMNS = "columns"

    @property
    def other(self) -> Side:
        return Side.COLUMNS if self is Side.ROWS else Side.ROWS


class Frame(StrEnum):
    """Option ``frame``: ``fixed`` (start card on c3 of a 5x5 frame) or ``floating``."""

    FIXED = "fixed"
    FLOATING = "floating"


@dataclass(frozen=True, order=True, slots=True)
class Cell:
    """A place on the table (see the module docstring for the two coordinate systems).

    Cells sort by x, then y; in a fixed frame that is the order of their names (a1, a2, ..., e5).
    """

    x: int
    y: int

    @classmethod
    def parse_name(cls, name: str) -> Cell:
        """A fixed-frame cell from its name: a column letter and a row number (1 up).

        >>> Cell.parse_name("c4")
        Cell(x=2, y=3)
        >>> Cell.parse_name("d6")  # a cell of that name, though outside the 5x5 frame
        Cell(x=3, y=5)
        """
        known = _NAMED.get(name)
        if known is not None:
            return known
        text = name.strip().lower() if isinstance(name, str) else ""
        if len(text) >= 2 and "a" <= text[0] <= "z" and text[1:].isdecimal() and text[1] != "0":
            return cls(ord(text[0]) - ord("a"), int(text[1:]) - 1)
        raise ValueError(f"{name!r} is not a cell name like c4")

    @property
    def name(self) -> str:
        """The fixed-frame name (``c4``); cells no name can describe show as ``(x=.., y=..)``."""
        if 0 <= self.x < 26 and self.y >= 0:
            return f"{chr(ord('a') + self.x)}{self.y + 1}"
        return self.describe_offset()

    @classmethod
    def from_offset(cls, offset: Mapping[str, object]) -> Cell:
        """A floating-frame cell from ``{"x": dx, "y": dy}``.

        >>> Cell.from_offset({"x": -1, "y": 2})
        Cell(x=-1, y=2)
        """
        if len(offset) != 2 or "x" not in offset or "y" not in offset:
            raise ValueError("an offset has exactly the keys x and y")
        x, y = offset["x"], offset["y"]
        if type(x) is not int or type(y) is not int:
            raise ValueError("offsets x and y are whole numbers")
        return cls(x, y)

    def offset(self) -> dict[str, int]:
        """The ``{"x": dx, "y": dy}`` form used for floating frames."""
        return {"x": self.x, "y": self.y}

    def describe_offset(self) -> str:
        return f"(x={self.x}, y={self.y})"

    def neighbours(self) -> tuple[Cell, Cell, Cell, Cell]:
        """The four cells sharing an edge with this one."""
        x, y = self.x, self.y
        return (Cell(x - 1, y), Cell(x + 1, y), Cell(x, y - 1), Cell(x, y + 1))


_NAMED: dict[str, Cell] = {
    f"{letter}{row + 1}": Cell(col, row)
    for col, letter in enumerate(COLUMN_LETTERS)
    for row in range(SIZE)
}
CENTRE = Cell(2, 2)
ORIGIN = Cell(0, 0)


def _is_int(value: object) -> bool:
    # JSON true/false arrive as bool, which Python counts as int; a card is never a bool.
    return type(value) is int


class Placement(NamedTuple):
    """One card laid down. ``side`` is None where it is not known (the start card, grid records).

    A named tuple rather than a dataclass: a replay makes one per card and this is cheaper.
    """

    side: Side | None
    cell: Cell
    value: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result. Unfinished games have no winner; ``decided_at`` is 1-based in the sorted
    comparison and None on a draw or before the end."""

    winner: Side | None
    draw: bool
    decided_at: int | None


def line_score(values: Sequence[int]) -> int:
    """Score one row or column: per value v seen n times, n=1: v, n=2: 10v, n=3: 100,
    n=4: 100+v, n=5: 100+10v (a trio plus a pair of the same value).

    >>> line_score([0, 1, 5, 1, 2])
    17
    >>> line_score([3, 3, 3, 3, 4])
    107
    >>> line_score([3, 3, 3, 3, 3])
    130
    >>> line_score([5, 5, 3, 3, 1])
    81
    >>> line_score([0, 0, 0])
    100
    """
    counts = [0] * 6
    for v in values:
        counts[v] += 1
    total = 0
    for v, n in enumerate(counts):
        if n == 1:
            total += v
        elif n == 2:
            total += 10 * v
        elif n == 3:
            total += 100
        elif n == 4:
            total += 100 + v
        elif n == 5:
            total += 100 + 10 * v
    return total


def compare_lines(rows: Sequence[int], columns: Sequence[int]) -> Outcome:
    """Sort both sides' line scores low to high; the first difference decides, higher wins.

    >>> compare_lines([17, 36, 70, 57, 60], [102, 53, 41, 22, 74])
    Outcome(winner=<Side.COLUMNS: 'columns'>, draw=False, decided_at=1)
    >>> compare_lines([10, 20, 30, 40, 50], [50, 40, 30, 20, 10])
    Outcome(winner=None, draw=True, decided_at=None)
    """
    for position, (r, c) in enumerate(zip(sorted(rows), sorted(columns), strict=True), start=1):
        if r != c:
            return Outcome(Side.ROWS if r > c else Side.COLUMNS, False, position)
    return Outcome(None, True, None)


def connected_order(cells: Iterable[Cell], start: Cell) -> tuple[list[Cell], list[Cell]]:
    """Breadth-first order of ``cells`` reachable edge to edge from ``start`` (neighbours taken
    left, right, down, up), and the sorted cells that cannot be reached."""
    todo = set(cells)
    if start not in todo:
        return [], sorted(todo)
    todo.discard(start)
    order = [start]
    i = 0
    while i < len(order):
        for n in order[i].neighbours():
            if n in todo:
                todo.discard(n)
                order.append(n)
        i += 1
    return order, sorted(todo)


class RobotMasterGame:
    """The cards on the table and whose turn it is. Mutable; ``copy()`` for a snapshot.

    ``first`` is the side chosen at setup to move first; None lets whoever moves first decide.
    After that the sides alternate.
    """

    def __init__(
        self,
        rows_player: str,
        columns_player: str,
        start_value: int,
        frame: Frame = Frame.FIXED,
        first: Side | None = None,
    ) -> None:
        if rows_player == columns_player:
            raise RuleError("the rows player and the columns player need different names")
        if not _is_int(start_value) or start_value not in VALUES:
            raise InvalidCard(f"the start card's value must be 0 to 5, not {start_value!r}")
        self.rows_player = rows_player
        self.columns_player = columns_player
        self.frame = Frame(frame)
        self.start = Placement(None, CENTRE if self.frame is Frame.FIXED else ORIGIN, start_value)
        self.placements: list[Placement] = []
        # occupied cells keyed by (x, y): tuples hash in C, which keeps replays fast
        self._values: dict[tuple[int, int], int] = {
            (self.start.cell.x, self.start.cell.y): start_value
        }
        self._counts = [0] * 6
        self._counts[start_value] = 1
        self._next: Side | None = None if first is None else Side(first)
        # bounding box of the occupied cells, kept up to date for the floating-frame check
        self._box = [self.start.cell.x, self.start.cell.x, self.start.cell.y, self.start.cell.y]

    # ----------------------------------------------------------------- building from a grid
    @classmethod
    def from_grid(
        cls,
        rows_player: str,
        columns_player: str,
        grid: Sequence[Sequence[int | None]],
        frame: Frame = Frame.FIXED,
    ) -> RobotMasterGame:
        """The game a 5x5 grid (top row first, None = empty) shows; who placed what is unknown.

        The start card is ``c3`` in a fixed frame. In a floating frame the origin of offsets is
        the grid's centre cell; the start card is that cell if it holds a card, else the first
        card in reading order. The other cards become placements (side None) in breadth-first
        order from the start card; the next card may come from either side.
        Raises InvalidCard or IllegalPlacement when the grid is no reachable position.
        """
        frame = Frame(frame)
        if len(grid) != SIZE or any(len(row) != SIZE for row in grid):
            raise IllegalPlacement("a grid is 5 rows of 5 cells")
        values: dict[Cell, int] = {}
        counts = [0] * 6
        for r, row in enumerate(grid):
            for c, value in enumerate(row):
                if value is None:
                    continue
                fixed = Cell(c, SIZE - 1 - r)
                if not _is_int(value) or value not in VALUES:
                    raise InvalidCard(f"{fixed.name} holds {value!r}, but card values run 0 to 5")
                counts[value] += 1
                if counts[value] > COPIES:
                    raise InvalidCard(
                        f"{fixed.name} is a seventh card of value {value}; only six exist"
                    )
                cell = fixed if frame is Frame.FIXED else Cell(fixed.x - 2, fixed.y - 2)
                values[cell] = value
        if frame is Frame.FIXED:
            start = CENTRE
            if start not in values:
                raise IllegalPlacement(
                    "c3 is empty, but the start card lies on c3 in a fixed frame"
                )
        else:
            if not values:
                raise IllegalPlacement("the grid holds no card, not even the start card")
            start = ORIGIN if ORIGIN in values else min(values, key=lambda k: (-k.y, k.x))
        order, stranded = connected_order(values, start)
        if stranded:
            where = stranded[0].name if frame is Frame.FIXED else _fixed_name_of_offset(stranded[0])
            raise IllegalPlacement(f"{where} is not connected edge to edge to the start card")
        game = cls(rows_player, columns_player, values[start], frame)
        if start != game.start.cell:
            game._values = {(start.x, start.y): values[start]}
            game.start = Placement(None, start, values[start])
            game._box = [start.x, start.x, start.y, start.y]
        for cell in order[1:]:
            game._apply(Placement(None, cell, values[cell]))
        game._next = None
        return game

    # ----------------------------------------------------------------------------- queries
    @property
    def to_move(self) -> Side | None:
        """The side that must place the next card; None if either may (or the game is over)."""
        return None if self.finished else self._next

    @property
    def finished(self) -> bool:
        return len(self._values) == CELLS

    @property
    def start_value(self) -> int:
        return self.start.value

    def player(self, side: Side) -> str:
        return self.rows_player if side == Side.ROWS else self.columns_player

    def side_of(self, name: str) -> Side | None:
        """The side a player's name plays, or None for a stranger."""
        if name == self.rows_player:
            return Side.ROWS
        if name == self.columns_player:
            return Side.COLUMNS
        return None

    def cards_left(self, value: int) -> int:
        """Cards of ``value`` not yet on the table (six of each exist)."""
        return COPIES - self._counts[value]

    def value_at(self, cell: Cell) -> int | None:
        return self._values.get((cell.x, cell.y))

    @property
    def cells(self) -> dict[Cell, int]:
        """A copy of the occupied cells and their values."""
        return {Cell(x, y): value for (x, y), value in self._values.items()}

    def describe(self, cell: Cell) -> str:
        """How a cell is written in messages for this frame."""
        return cell.name if self.frame is Frame.FIXED else cell.describe_offset()

    def legal_cells(self) -> list[Cell]:
        """Every cell the next card may go on, sorted by x then y; empty once finished."""
        if self.finished:
            return []
        occupied = self._values
        found: set[tuple[int, int]] = set()
        for x, y in occupied:
            for n in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                if n not in occupied and self._inside(Cell(*n)):
                    found.add(n)
        return [Cell(x, y) for x, y in sorted(found)]

    def grid(self) -> list[list[int | None]]:
        """The table as 5x5, top row (row 5) first; None marks an empty cell.

        A floating game is mapped as the module docstring says.
        """
        dx, dy = self._to_fixed()
        out: list[list[int | None]] = [[None] * SIZE for _ in range(SIZE)]
        for (x, y), value in self._values.items():
            out[SIZE - 1 - (y + dy)][x + dx] = value
        return out

    def line_scores(self) -> tuple[list[int], list[int]]:
        """(rows top first, columns a first), counting the cards placed so far."""
        rows: list[list[int]] = [[] for _ in range(SIZE)]
        columns: list[list[int]] = [[] for _ in range(SIZE)]
        dx, dy = self._to_fixed()
        for (x, y), value in self._values.items():
            rows[SIZE - 1 - (y + dy)].append(value)
            columns[x + dx].append(value)
        return [line_score(r) for r in rows], [line_score(c) for c in columns]

    def outcome(self) -> Outcome:
        """The winner by the sorted comparison; no winner and no draw before the end."""
        if not self.finished:
            return Outcome(None, False, None)
        rows, columns = self.line_scores()
        return compare_lines(rows, columns)

    # ------------------------------------------------------------------- checks and moves
    def check_place(self, side: Side, cell: Cell, value: int) -> None:
        """Raise a named error if ``side`` may not put a card of ``value`` on ``cell`` now.

        Checks in this order: game over, turn, card value, seventh card, frame, filled, touching.
        """
        if len(self._values) == CELLS:
            raise GameOver("the game is over: all 25 cells hold a card")
        if self._next is not None and side != self._next:
            raise OutOfTurn(
                f"it is {self.player(self._next)}'s turn ({self._next.value}), "
                f"not {self.player(side)}'s"
            )
        if not _is_int(value) or value not in VALUES:
            raise InvalidCard(f"{value!r} is not a card value; values run 0 to 5")
        if self._counts[value] >= COPIES:
            raise InvalidCard(f"all six cards of value {value} are already on the table")
        if not self._inside(cell):
            if self.frame is Frame.FIXED:
                raise IllegalPlacement(f"{cell.name} is outside the 5x5 frame")
            raise IllegalPlacement(f"{cell.describe_offset()} would stretch the cards beyond 5x5")
        taken = self._values
        x, y = cell.x, cell.y
        if (x, y) in taken:
            raise IllegalPlacement(f"{self.describe(cell)} already holds a card")
        if (
            (x - 1, y) not in taken
            and (x + 1, y) not in taken
            and (x, y - 1) not in taken
            and (x, y + 1) not in taken
        ):
            raise IllegalPlacement(f"{self.describe(cell)} touches no card edge to edge")

    def place(self, side: Side, cell: Cell, value: int) -> None:
        """Check, then lay the card down and pass the turn."""
        if side.__class__ is not Side:
            side = Side(side)  # a plain "rows" works too
        self.check_place(side, cell, value)
        self._apply(Placement(side, cell, value))
        self._next = side.other

    def _apply(self, placement: Placement) -> None:
        cell = placement.cell
        self._values[(cell.x, cell.y)] = placement.value
        self._counts[placement.value] += 1
        self.placements.append(placement)
        box = self._box
        if cell.x < box[0]:
            box[0] = cell.x
        elif cell.x > box[1]:
            box[1] = cell.x
        if cell.y < box[2]:
            box[2] = cell.y
        elif cell.y > box[3]:
            box[3] = cell.y

    def _inside(self, cell: Cell) -> bool:
        if self.frame is Frame.FIXED:
            return 0 <= cell.x < SIZE and 0 <= cell.y < SIZE
        x0, x1, y0, y1 = self._box
        x, y = cell.x, cell.y
        # the bounding box with this cell added must stay within 5x5 (no max/min calls: hot path)
        width = (x if x > x1 else x1) - (x if x < x0 else x0)
        height = (y if y > y1 else y1) - (y if y < y0 else y0)
        return width < SIZE and height < SIZE

    def _to_fixed(self) -> tuple[int, int]:
        """The shift that maps this game's cells onto the 5x5 (x 0..4, y 0..4)."""
        if self.frame is Frame.FIXED:
            return 0, 0
        x0, x1, y0, y1 = self._box
        return _shift(x0 + 2, x1 + 2) + 2, _shift(y0 + 2, y1 + 2) + 2

    # ---------------------------------------------------------------------- value semantics
    def copy(self) -> RobotMasterGame:
        other = RobotMasterGame.__new__(RobotMasterGame)
        other.rows_player = self.rows_player
        other.columns_player = self.columns_player
        other.frame = self.frame
        other.start = self.start
        other.placements = list(self.placements)
        other._values = dict(self._values)
        other._counts = list(self._counts)
        other._next = self._next
        other._box = list(self._box)
        return other

    def _key(self) -> tuple[object, ...]:
        return (
            self.rows_player,
            self.columns_player,
            self.frame,
            self.start,
            tuple(self.placements),
            self.to_move,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RobotMasterGame):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (
            f"RobotMasterGame({self.rows_player!r}, {self.columns_player!r}, "
            f"frame={self.frame.value}, cards={len(self._values)}, to_move={self.to_move})"
        )


def _shift(low: int, high: int) -> int:
    """Fewest steps that bring low..high (at most 5 wide) inside 0..4."""
    if low < 0:
        return -low
    if high > SIZE - 1:
        return SIZE - 1 - high
    return 0


def _fixed_name_of_offset(cell: Cell) -> str:
    # A floating game read from a grid has its origin at the grid's centre (c3).
    return Cell(cell.x + 2, cell.y + 2).name
