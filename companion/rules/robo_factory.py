"""The Robo Factory rules engine, as RULINGS.md reads the rules.

Pure Python, no I/O. A :class:`RoboFactoryGame` is advanced by a few operations, each with a
``check_*`` that raises a named :class:`~companion.errors.RuleError` (changing nothing) and an
apply method that checks first:

>>> from companion.robots import Palette
>>> p = Palette.default()
>>> game = RoboFactoryGame(["Ann", "Bob", "Cid"])
>>> game.begin_turn("Ann")
>>> game.set_order(p.parse("red-green-blue"))
>>> game.set_board([p.parse(c) for c in ("blue-blue-blue", "red-green-yellow", "yellow-red-green")])
>>> game.current.board_tiles
[1, 2, 0]
>>> game.buy("Bob", p.parse("green-green-blue"))
2
>>> result = game.attempt({"Bob": p.parse("red-green-blue"), "Cid": p.parse("red-blue-blue")}, {})
>>> result.correct
['Bob']
>>> game.cubes
{'Ann': 5, 'Bob': 7, 'Cid': 4}
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from companion.errors import (
    DuplicateCard,
    GameOver,
    IllegalAttempt,
    IllegalEureka,
    IllegalPurchase,
    OutOfTurn,
    RuleError,
)
from companion.robots import Robot, data_tile

START_CUBES = 4
REWARD_FIRST = 4
REWARD_SECOND = 2
PENALTY_SECOND = 1
PURCHASE_PRICE = 1


class Tie(StrEnum):
    SHARE = "share"
    EXTRA_ROUND = "extra-round"


class Penalty(StrEnum):
    RULEBOOK = "rulebook"
    FAQ = "faq"


@dataclass(frozen=True)
class Options:
    tie: Tie = Tie.SHARE
    penalty: Penalty = Penalty.RULEBOOK

    def to_json(self) -> dict[str, str]:
        return {"tie": self.tie.value, "penalty": self.penalty.value}


BANK = None  # a payment to or from the bank has None on that side


class Payment(NamedTuple):
    """Cube value moving from ``payer`` to ``payee``; None is the bank.

    A named tuple: the ledger makes many of these during replay, and they are cheap to create.
    """

    payer: str | None
    payee: str | None
    amount: int
    reason: str

    def describe(self) -> str:
        """What the table must do, e.g. "Bob takes 4 cubes" or "Cid pays 1 to Ann"."""
        unit = "cube" if self.amount == 1 else "cubes"
        if self.payer is None and self.payee is not None:
            return f"{self.payee} takes {self.amount} {unit} from the bank ({self.reason})"
        if self.payee is None and self.payer is not None:
            return f"{self.payer} pays {self.amount} {unit} to the bank ({self.reason})"
        return f"{self.payer} pays {self.amount} to {self.payee} ({self.reason})"


# Replay is hot (``robo-companion bench rules``), and in CPython 3.11 a few idioms cost far more
# than they look, so the hot paths below avoid them:
# - building a named tuple through its class runs a Python-level __new__: payments and attempt
#   results are built straight from the tuple type (the objects are the same);
# - a comprehension creates and calls a function object each time: over a handful of items a
#   plain loop is cheaper;
# - reading an enum member off its class is slow: stages are compared with module aliases.
_tuple_new = tuple.__new__


class AttemptResult(NamedTuple):
    number: int  # 1 or 2
    robots: dict[str, Robot]
    eureka: dict[str, int]
    correct: list[str]  # seat order
    payments: list[Payment]
    feedback_tiles: dict[str, int]  # after a failed first attempt, else empty


class Stage(StrEnum):
    """Where a turn is. Each stage names what the table does next."""

    ORDER = "order"  # the Customer scans the order card
    BOARD = "board"  # three board cards are laid and their data tiles shown
    PRODUCTION = "production"  # purchases allowed until the first attempt; then attempts
    OVER = "over"  # the turn has ended


_ORDER, _BOARD, _PRODUCTION, _OVER = Stage.ORDER, Stage.BOARD, Stage.PRODUCTION, Stage.OVER
_SHARE, _RULEBOOK = Tie.SHARE, Penalty.RULEBOOK


@dataclass(slots=True)
class Turn:
    customer: str
    number: int  # 1-based
    order: Robot | None = None
    board: tuple[Robot, ...] = ()
    purchases: dict[str, Robot] = field(default_factory=dict)
    purchase_tiles: dict[str, int] = field(default_factory=dict)
    attempts: list[AttemptResult] = field(default_factory=list)
    stage: Stage = Stage.ORDER

    @property
    def board_tiles(self) -> list[int]:
        order = self.order
        if order is None:
            return []
        tiles = []  # data tiles, part by part (indexing a tuple beats reading its named fields)
        for card in self.board:
            tiles.append((order[0] == card[0]) + (order[1] == card[1]) + (order[2] == card[2]))
        return tiles

    def advance(self) -> None:
        """Recompute :attr:`stage` after the turn changed (kept, not derived: replay is hot)."""
        if self.order is None:
            self.stage = _ORDER
        elif len(self.board) < 3:
            self.stage = _BOARD
        elif self.attempts and (self.attempts[0].correct or len(self.attempts) == 2):
            self.stage = _OVER
        else:
            self.stage = _PRODUCTION

    @property
    def next_attempt(self) -> int:
        """1 or 2 while attempts may be made, 0 when the turn has ended."""
        return 0 if self.stage is _OVER else len(self.attempts) + 1

    @property
    def feedback_tiles(self) -> dict[str, int]:
        return dict(self.attempts[0].feedback_tiles) if self.attempts else {}


class RoboFactoryGame:
    """One game of Robo Factory: players by seat, the cube ledger, turns and the end."""

    def __init__(
        self,
        players: Sequence[str],
        first_customer: str | None = None,
        options: Options | None = None,
    ) -> None:
        names = list(players)
        if not 2 <= len(names) <= 6:
            raise RuleError(f"Robo Factory needs 2 to 6 players, {len(names)} were given")
        for name in names:
            if not isinstance(name, str) or not name.strip():
                raise RuleError(f"a player's name must be a non-empty text, not {name!r}")
        if len(set(names)) != len(names):
            raise RuleError("two players have the same name")
        first = names[0] if first_customer is None else first_customer
        if first not in names:
            raise RuleError(f"the first Customer {first!r} is not one of the players")
        self.players: tuple[str, ...] = tuple(names)
        self.first_customer = first
        self.options = options or Options()
        self.cubes: dict[str, int] = {name: START_CUBES for name in names}
        self.sirens_used: set[str] = set()
        self.turns: list[Turn] = []
        self.payments: list[Payment] = []
        #: cube holdings after each ended turn, for the end-of-game chart
        self.history: list[dict[str, int]] = [dict(self.cubes)]
        # Whether the game has ended changes only when a turn ends, so it is kept, not derived.
        self._finished = False
        # Replay is hot: who manufactures for each Customer is worked out once.
        self._makers: dict[str, tuple[str, ...]] = {
            c: (*names[:i], *names[i + 1 :]) for i, c in enumerate(names)
        }
        # ... and as a set, to check an attempt names exactly the Manufacturers
        self._maker_sets: dict[str, frozenset[str]] = {
            c: frozenset(m) for c, m in self._makers.items()
        }
        self._first_index = names.index(first)
        # the turns a game lasts without extra rounds (2 players: 3 rounds, else 2)
        self._base_turns = (3 if len(names) == 2 else 2) * len(names)

    # ------------------------------------------------------------------ queries

    def copy(self) -> RoboFactoryGame:
        return copy.deepcopy(self)

    @property
    def current(self) -> Turn:
        if not self.turns:
            raise RuleError("no turn has begun yet")
        return self.turns[-1]

    def seat(self, name: str) -> int:
        return self.players.index(name)

    def manufacturers(self, customer: str) -> list[str]:
        """Everyone but the Customer, in seat order (a fresh list)."""
        return list(self._makers[customer])

    def _turns_due(self) -> int:
        """Turns the game lasts, counting extra rounds already forced by a tie."""
        per_player = 3 if len(self.players) == 2 else 2
        base = per_player * len(self.players)
        if self.options.tie is _SHARE:
            return base
        due = base
        # Each extra round is a full round; another is due while the lead stays tied at its end.
        while len(self.turns) >= due and self._turn_complete(due) and self._tied_after(due):
            due += len(self.players)
        return due

    def _turn_complete(self, count: int) -> bool:
        return len(self.turns) >= count and self.turns[count - 1].stage is _OVER

    def _tied_after(self, count: int) -> bool:
        # history[0] is the start; history[k] follows the k-th turn (turns end in order).
        holdings = self.history[count]
        best = max(holdings.values())
        return sum(1 for v in holdings.values() if v == best) > 1

    @property
    def finished(self) -> bool:
        return self._finished

    def _compute_finished(self) -> bool:
        if len(self.turns) < self._base_turns:
            return False  # the common case on the replay path: the game is young
        due = self._turns_due()
        return len(self.turns) >= due and self._turn_complete(due)

    @property
    def winners(self) -> list[str]:
        """Names in seat order; empty until the game has finished."""
        if not self.finished:
            return []
        best = max(self.cubes.values())
        return [p for p in self.players if self.cubes[p] == best]

    @property
    def next_customer(self) -> str | None:
        """Who is Customer of the next turn to begin, or None when no turn may begin."""
        turns = self.turns
        if (turns and turns[-1].stage is not _OVER) or self._finished:
            return None
        return self.players[(self._first_index + len(turns)) % len(self.players)]

    # ------------------------------------------------------------------ turn start

    def check_begin_turn(self, customer: str) -> None:
        if self._finished:
            raise GameOver("the game has ended; no further turn may begin")
        turns = self.turns
        if turns and turns[-1].stage is not _OVER:
            raise OutOfTurn(f"turn {len(turns)} has not ended yet")
        expected = self.players[(self._first_index + len(turns)) % len(self.players)]
        if customer != expected:
            if customer not in self.players:
                raise OutOfTurn(f"{customer!r} is not one of the players")
            raise OutOfTurn(f"it is {expected}'s turn to be the Customer, not {customer}'s")

    def begin_turn(self, customer: str) -> None:
        self.check_begin_turn(customer)
        self.turns.append(Turn(customer, len(self.turns) + 1))  # (keywords cost more per call)

    # ------------------------------------------------------------------ order and board

    def _require_stage(self, stage: Stage, action: str) -> Turn:
        turns = self.turns
        if turns and turns[-1].stage is stage:
            return turns[-1]
        raise self._stage_error(action)

    def _stage_error(self, action: str) -> RuleError:
        if not self.turns:
            return OutOfTurn(f"cannot {action}: no turn has begun")
        turn = self.turns[-1]
        if turn.stage is _OVER:
            why = (
                "a robot was correct in the first attempt"
                if turn.attempts and turn.attempts[0].correct
                else "both attempts have been made"
            )
            return OutOfTurn(f"cannot {action}: turn {turn.number} has ended ({why})")
        return OutOfTurn(f"cannot {action} now (the turn is at the {turn.stage.value} step)")

    def check_set_order(self, order: Robot) -> None:
        self._require_stage(_ORDER, "set the order card")

    def set_order(self, order: Robot) -> None:
        turn = self._require_stage(_ORDER, "set the order card")  # check_set_order, inlined
        turn.order = order
        turn.stage = _BOARD  # what advance() finds: no board card can come before the order

    def check_board_card(self, card: Robot, slot: int | None = None) -> None:
        turn = self._require_stage(_BOARD, "lay a board card")
        assert turn.order is not None
        if card == turn.order:
            raise DuplicateCard(f"board card {card} is the order card; every card exists once")
        others = turn.board if slot is None else [c for i, c in enumerate(turn.board) if i != slot]
        if card in others:
            raise DuplicateCard(f"board card {card} is already on the board")

    def add_board_card(self, card: Robot) -> int:
        """Lay one board card; returns its data tile."""
        self.check_board_card(card)
        turn = self.turns[-1]
        turn.board = (*turn.board, card)
        turn.advance()
        assert turn.order is not None
        return data_tile(turn.order, card)

    def check_set_board(self, cards: Sequence[Robot]) -> None:
        turn = self._require_stage(_BOARD, "lay the board cards")
        if turn.board:
            raise OutOfTurn("board cards have already been laid this turn")
        if len(cards) != 3:
            raise DuplicateCard(f"the board takes 3 cards, {len(cards)} were given")
        first, second, third = cards
        if first != second != third != first and turn.order not in cards:
            return  # the common case, decided without the per-card loop that names the culprit
        for i, card in enumerate(cards):
            if card == turn.order:
                raise DuplicateCard(f"board card {i + 1} ({card}) is the order card")
            if card in cards[:i]:
                raise DuplicateCard(f"board card {i + 1} ({card}) is already on the board")

    def set_board(self, cards: Sequence[Robot]) -> None:
        self.check_set_board(cards)
        turn = self.turns[-1]
        turn.board = tuple(cards)
        turn.stage = _PRODUCTION  # what advance() finds: no attempt can come before the board

    # ------------------------------------------------------------------ purchases

    def check_buy(self, manufacturer: str, card: Robot) -> None:
        turns = self.turns  # _require_stage, inlined: this runs for every purchase
        if not turns or turns[-1].stage is not _PRODUCTION:
            raise self._stage_error("buy a data tile")
        turn = turns[-1]
        if turn.attempts:
            raise IllegalPurchase("data tiles can only be bought before the first attempt")
        if manufacturer not in self.players:
            raise IllegalPurchase(f"{manufacturer!r} is not one of the players")
        if manufacturer == turn.customer:
            raise IllegalPurchase(f"{manufacturer} is the Customer and cannot buy a data tile")
        if manufacturer in turn.purchases:
            raise IllegalPurchase(f"{manufacturer} has already bought a data tile this turn")
        if self.cubes[manufacturer] < PURCHASE_PRICE:
            raise IllegalPurchase(f"{manufacturer} has no cubes to pay for a data tile")
        if card == turn.order:
            raise DuplicateCard(f"{manufacturer} cannot hand in {card}: it is the order card")
        if card in turn.board:
            raise DuplicateCard(f"{manufacturer} cannot hand in {card}: it is on the board")

    def buy(self, manufacturer: str, card: Robot) -> int:
        """Record a purchase; the buyer pays 1 to the Customer. Returns the (secret) tile."""
        self.check_buy(manufacturer, card)  # the buyer holds a cube: the payment cannot fail
        turn = self.turns[-1]
        order = turn.order
        assert order is not None
        turn.purchases[manufacturer] = card
        tile = (order[0] == card[0]) + (order[1] == card[1]) + (order[2] == card[2])  # data_tile
        turn.purchase_tiles[manufacturer] = tile
        customer = turn.customer
        cubes = self.cubes
        cubes[manufacturer] -= PURCHASE_PRICE
        cubes[customer] += PURCHASE_PRICE
        self.payments.append(
            _tuple_new(Payment, (manufacturer, customer, PURCHASE_PRICE, "data tile"))
        )
        return tile

    # ------------------------------------------------------------------ attempts

    def check_attempt(self, robots: Mapping[str, Robot], eureka: Mapping[str, int]) -> None:
        turns = self.turns  # _require_stage, inlined: this runs for every attempt
        if not turns or turns[-1].stage is not _PRODUCTION:
            raise self._stage_error("reveal robots")
        turn = turns[-1]
        customer = turn.customer
        if customer in robots:
            raise IllegalAttempt(f"{customer} is the Customer and builds no robot")
        if robots.keys() != self._maker_sets[customer]:
            for name in robots:
                if name not in self.players:
                    raise IllegalAttempt(f"{name!r} is not one of the players")
            missing = [m for m in self._makers[customer] if m not in robots]
            raise IllegalAttempt(f"no robot for {', '.join(missing)}")
        for name, roll in eureka.items():
            self.check_eureka(name)
            if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 6:
                raise IllegalEureka(f"{name}'s die roll must be 1 to 6, not {roll!r}")

    def check_eureka(self, name: str) -> None:
        """May ``name`` call Eureka in the coming attempt?"""
        turn = self._require_stage(_PRODUCTION, "call Eureka")
        if name not in self.players:
            raise IllegalEureka(f"{name!r} is not one of the players")
        if name == turn.customer:
            raise IllegalEureka(f"{name} is the Customer and cannot call Eureka")
        if name in self.sirens_used:
            raise IllegalEureka(f"{name} has already used their siren in this game")

    def attempt(self, robots: Mapping[str, Robot], eureka: Mapping[str, int]) -> AttemptResult:
        """Reveal one attempt and settle it: Eureka first, then rewards and penalties."""
        self.check_attempt(robots, eureka)
        turn = self.turns[-1]
        order = turn.order
        assert order is not None
        number = len(turn.attempts) + 1
        customer = turn.customer
        makers = self._makers[customer]
        # The result keeps its own copies, in seat order (the caller may reuse its dicts), and
        # everything below walks them, so the ledger reads the same way every time.
        # (a record lists the robots in seat order already: then a plain copy keeps that order)
        robots = dict(robots) if tuple(robots) == makers else {m: robots[m] for m in makers}
        # (with no caller or one, a plain copy is in seat order too)
        eureka = {m: eureka[m] for m in makers if m in eureka} if len(eureka) > 1 else dict(eureka)
        correct: list[str] = []  # (plain loops: see the note on the hot paths at the top)
        for name, robot in robots.items():
            if robot == order:
                correct.append(name)
        cubes = self.cubes
        paid: list[Payment] = []
        for name, roll in eureka.items():
            self.sirens_used.add(name)
            if robots[name] == order:
                paid.append(Payment(BANK, name, roll, f"Eureka, rolled {roll}"))
                cubes[name] += roll
            else:
                amount = min(roll, cubes[name])
                if amount:
                    paid.append(Payment(name, BANK, amount, f"wrong Eureka, rolled {roll}"))
                    cubes[name] -= amount
        feedback: dict[str, int] = {}
        if number == 1:
            if correct:
                for name in correct:
                    paid.append(_tuple_new(Payment, (BANK, name, REWARD_FIRST, "correct robot")))
                    cubes[name] += REWARD_FIRST
            else:
                for name, robot in robots.items():  # data tiles (as in Turn.board_tiles)
                    feedback[name] = (
                        (order[0] == robot[0]) + (order[1] == robot[1]) + (order[2] == robot[2])
                    )
        else:
            reason = "correct robot, second attempt"
            for name in correct:
                paid.append(_tuple_new(Payment, (BANK, name, REWARD_SECOND, reason)))
                cubes[name] += REWARD_SECOND
            if self.options.penalty is _RULEBOOK or not correct:
                for name in makers:
                    # a wrong Manufacturer pays only while holding cubes (after any Eureka loss)
                    if name not in correct and cubes[name] > 0:
                        paid.append(
                            _tuple_new(Payment, (name, customer, PENALTY_SECOND, "wrong robot"))
                        )
                        cubes[name] -= PENALTY_SECOND
                        cubes[customer] += PENALTY_SECOND
        self.payments.extend(paid)
        result = _tuple_new(AttemptResult, (number, robots, eureka, correct, paid, feedback))
        turn.attempts.append(result)
        if correct or number == 2:  # Turn.advance(), decided here without re-reading the turn
            turn.stage = _OVER
            self.history.append(dict(cubes))
            self._finished = self._compute_finished()
        return result
