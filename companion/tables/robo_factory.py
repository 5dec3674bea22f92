"""A Robo Factory table: the rules engine plus what the table is doing right now.

The engine (:mod:`companion.rules.robo_factory`) knows turns, attempts and the ledger. The table
adds the steps between them that the device leads: the board cards laid one at a time, the
purchases, production with the Eureka window open, the reveal with its rolls, the private feedback
and the ledger. It is plain data, advanced only by :meth:`RoboFactoryTable.apply`.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from companion import commands as c
from companion.errors import IllegalEureka, OutOfTurn, RuleError
from companion.instructions import Instruction
from companion.robots import Palette, Robot, data_tile
from companion.rules.robo_factory import (
    AttemptResult,
    Options,
    Payment,
    Penalty,
    RoboFactoryGame,
    Stage,
    Tie,
)


class Step(StrEnum):
    ORDER = "order"
    BOARD = "board"
    PURCHASES = "purchases"
    PRODUCTION = "production"
    REVEAL = "reveal"
    FEEDBACK = "feedback"
    LEDGER = "ledger"
    GAME_OVER = "game-over"


@dataclass(frozen=True)
class RoboFactorySetup:
    players: tuple[str, ...]
    first_customer: str
    options: Options = field(default_factory=Options)
    colours: tuple[str, ...] = Palette.default().colours
    game: str = "robo-factory"

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": list(self.players),
            "first_customer": self.first_customer,
            "options": self.options.to_json(),
            "colours": list(self.colours),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RoboFactorySetup:
        options = data.get("options", {})
        return cls(
            players=tuple(data["players"]),
            first_customer=data["first_customer"],
            options=Options(
                Tie(options.get("tie", "share")), Penalty(options.get("penalty", "rulebook"))
            ),
            colours=tuple(data.get("colours", Palette.default().colours)),
        )


class RoboFactoryTable:
    """The state of one Robo Factory game at the table."""

    kind = "robo-factory"

    def __init__(self, setup: RoboFactorySetup) -> None:
        self.setup = setup
        self.palette = Palette(setup.colours)
        self.game = RoboFactoryGame(setup.players, setup.first_customer, setup.options)
        self.game.begin_turn(setup.first_customer)
        self.step = Step.ORDER
        #: the attempt being prepared: robots read so far, Eureka callers (board time), rolls
        self.robots: dict[str, Robot] = {}
        self.eureka: dict[str, int | None] = {}
        self.rolls: dict[str, int] = {}
        self.feedback_seen: set[str] = set()
        #: payments of the last committed reveal (and the turn's purchases), for the ledger
        self.ledger: list[Payment] = []
        self.last_attempt: AttemptResult | None = None
        #: Eureka window number, counting every window opened in this game
        self.window = 0

    def copy(self) -> RoboFactoryTable:
        return copy.deepcopy(self)

    # ------------------------------------------------------------------ queries

    @property
    def turn(self) -> Any:
        return self.game.current

    @property
    def customer(self) -> str:
        return str(self.game.current.customer)

    @property
    def manufacturers(self) -> list[str]:
        return self.game.manufacturers(self.customer)

    @property
    def window_open(self) -> bool:
        return self.step is Step.PRODUCTION

    @property
    def eureka_eligible(self) -> list[str]:
        """Manufacturers who may still call Eureka in this attempt (seat order)."""
        if self.step not in (Step.PRODUCTION, Step.REVEAL):
            return []
        return [
            m for m in self.manufacturers if m not in self.game.sirens_used and m not in self.eureka
        ]

    @property
    def attempt_number(self) -> int:
        return int(self.game.current.next_attempt) or len(self.game.current.attempts)

    @property
    def finished(self) -> bool:
        return self.game.finished

    @property
    def wants_reading(self) -> tuple[str, bool] | None:
        """(kind, secret) the camera should read now, or None."""
        if self.step is Step.ORDER:
            return ("order", True)
        if self.step is Step.BOARD:
            return ("order", False)
        if self.step is Step.PURCHASES:
            return ("order", True)
        if self.step in (Step.PRODUCTION, Step.REVEAL):
            return ("tiles", False)
        return None

    def missing_rolls(self) -> list[str]:
        return [m for m in self.manufacturers if m in self.eureka and m not in self.rolls]

    def missing_robots(self) -> list[str]:
        return [m for m in self.manufacturers if m not in self.robots]

    def instructions(self) -> list[Instruction]:
        turn = self.game.current
        if self.step is Step.ORDER:
            return [Instruction("scan-order", {"customer": self.customer})]
        if self.step is Step.BOARD:
            done = [
                Instruction("lay-tile", {"customer": self.customer, "tile": t, "slot": i + 1})
                for i, t in enumerate(turn.board_tiles)
            ]
            return [
                *done,
                Instruction("lay-board", {"customer": self.customer, "slot": len(turn.board) + 1}),
            ]
        if self.step is Step.PURCHASES:
            return [Instruction("may-buy", {"customer": self.customer})]
        if self.step is Step.PRODUCTION:
            return [Instruction("build" if self.attempt_number == 1 else "build-again")]
        if self.step is Step.REVEAL:
            return [Instruction("turn-over")] + [
                Instruction("roll-for", {"player": p}) for p in self.missing_rolls()
            ]
        if self.step is Step.FEEDBACK:
            return [ledger_instruction(p) for p in self.ledger] + [
                Instruction("feedback-for", {"player": p})
                for p in self.manufacturers
                if p not in self.feedback_seen
            ]
        if self.step is Step.LEDGER:
            out = [ledger_instruction(p) for p in self.ledger]
            nxt = self.game.next_customer
            if nxt is not None:
                out.append(Instruction("next-customer", {"customer": nxt}))
            return out
        return [winner_instruction(self.game)]

    # ------------------------------------------------------------------ applying commands

    def apply(self, command: c.Command) -> None:
        """Apply one command in place; raises RuleError (callers apply to a copy)."""
        handler = getattr(self, "_on_" + command.type.replace("-", "_"), None)
        if handler is None:
            raise RuleError(f"{command.type} is not part of Robo Factory")
        handler(command)

    def _need(self, *steps: Step, action: str) -> None:
        if self.step not in steps:
            raise OutOfTurn(f"cannot {action} now (the table is at the {self.step.value} step)")

    def _robot(self, text: str) -> Robot:
        return self.palette.parse(text)

    def _player(self, name: str) -> str:
        if name not in self.game.players:
            raise RuleError(f"{name!r} is not one of the players")
        return name

    def _on_scan_order(self, cmd: c.ScanOrder) -> None:
        self._need(Step.ORDER, action="scan the order card")
        self.game.set_order(self._robot(cmd.robot))
        self.step = Step.BOARD

    def _on_lay_board_card(self, cmd: c.LayBoardCard) -> None:
        self._need(Step.BOARD, action="lay a board card")
        self.game.add_board_card(self._robot(cmd.robot))
        self.ledger = []
        if len(self.game.current.board) == 3:
            self.step = Step.PURCHASES

    def _on_buy(self, cmd: c.Buy) -> None:
        self._need(Step.PURCHASES, action="buy a data tile")
        self.game.buy(self._player(cmd.player), self._robot(cmd.card))
        self.ledger.append(self.game.payments[-1])

    def _on_start_production(self, cmd: c.StartProduction) -> None:
        if self.step is Step.FEEDBACK:
            waiting = [p for p in self.manufacturers if p not in self.feedback_seen]
            if waiting:
                raise OutOfTurn(f"{', '.join(waiting)} must see their feedback tile first")
        else:
            self._need(Step.PURCHASES, action="start production")
        self._begin_attempt()

    def _begin_attempt(self) -> None:
        self.step = Step.PRODUCTION
        self.robots = {}
        self.eureka = {}
        self.rolls = {}
        self.window += 1

    def _on_set_robot(self, cmd: c.SetRobot) -> None:
        self._need(Step.PRODUCTION, Step.REVEAL, action="read a robot")
        player = self._player(cmd.player)
        if player == self.customer:
            raise RuleError(f"{player} is the Customer and builds no robot")
        self.robots[player] = self._robot(cmd.robot)

    def _on_eureka(self, cmd: c.CallEureka) -> None:
        player = self._player(cmd.player)
        # The board has authority over its window: a press it timed before the close still counts
        # while the reveal is not committed. A call by touch needs the window open.
        if cmd.source == "board":
            self._need(Step.PRODUCTION, Step.REVEAL, action="call Eureka")
        elif self.step is Step.REVEAL:
            raise IllegalEureka("the Eureka window has closed: robots are being revealed")
        else:
            self._need(Step.PRODUCTION, action="call Eureka")
        self.game.check_eureka(player)
        if player in self.eureka:
            raise IllegalEureka(f"{player} has already called Eureka in this attempt")
        self.eureka[player] = cmd.board_us

    def _on_start_reveal(self, cmd: c.StartReveal) -> None:
        self._need(Step.PRODUCTION, action="reveal the robots")
        self.step = Step.REVEAL

    def _on_roll(self, cmd: c.SetRoll) -> None:
        self._need(Step.REVEAL, action="enter a die roll")
        player = self._player(cmd.player)
        if player not in self.eureka:
            raise IllegalEureka(f"{player} did not call Eureka and rolls no die")
        if isinstance(cmd.roll, bool) or not isinstance(cmd.roll, int) or not 1 <= cmd.roll <= 6:
            raise IllegalEureka(f"a d6 roll is 1 to 6, not {cmd.roll!r}")
        self.rolls[player] = cmd.roll

    def _on_commit_reveal(self, cmd: c.CommitReveal) -> None:
        self._need(Step.REVEAL, action="settle the reveal")
        missing = self.missing_robots()
        if missing:
            raise RuleError(f"no robot read yet for {', '.join(missing)}")
        rolls = self.missing_rolls()
        if rolls:
            raise RuleError(f"no die roll yet for {', '.join(rolls)}")
        result = self.game.attempt(self.robots, {p: self.rolls[p] for p in self.eureka})
        self.last_attempt = result
        turn = self.game.current
        if turn.stage is Stage.OVER:
            self.ledger = list(result.payments)
            self.step = Step.GAME_OVER if self.game.finished else Step.LEDGER
        else:
            self.ledger = list(result.payments)
            self.feedback_seen = set()
            self.step = Step.FEEDBACK

    def _on_feedback_seen(self, cmd: c.FeedbackSeen) -> None:
        self._need(Step.FEEDBACK, action="show a feedback tile")
        player = self._player(cmd.player)
        if player not in self.manufacturers:
            raise RuleError(f"{player} is the Customer and gets no feedback tile")
        self.feedback_seen.add(player)

    def _on_next_turn(self, cmd: c.NextTurn) -> None:
        self._need(Step.LEDGER, action="begin the next turn")
        nxt = self.game.next_customer
        if nxt is None:  # pragma: no cover - LEDGER is only reached while the game goes on
            raise OutOfTurn("the game has ended")
        self.game.begin_turn(nxt)
        self.ledger = []
        self.last_attempt = None
        self.robots, self.eureka, self.rolls = {}, {}, {}
        self.step = Step.ORDER

    # ------------------------------------------------------------------ secrets

    def order_card(self) -> Robot | None:
        """The order card (a secret: shown only to the Customer on a hold-to-reveal screen)."""
        order = self.game.current.order
        return order if isinstance(order, Robot) else None

    def purchase_tile(self, player: str) -> int | None:
        tile = self.game.current.purchase_tiles.get(player)
        return tile if isinstance(tile, int) else None

    def feedback_tile(self, player: str) -> int | None:
        tile = self.game.current.feedback_tiles.get(player)
        return tile if isinstance(tile, int) else None

    def match_count(self, robot: Robot) -> int | None:
        order = self.order_card()
        return None if order is None else data_tile(order, robot)


def ledger_instruction(payment: Payment) -> Instruction:
    if payment.payer is None:
        return Instruction("take", {"player": payment.payee, "amount": payment.amount})
    if payment.payee is None:
        return Instruction("pay-bank", {"player": payment.payer, "amount": payment.amount})
    return Instruction(
        "pay-player", {"player": payment.payer, "amount": payment.amount, "payee": payment.payee}
    )


def winner_instruction(game: RoboFactoryGame) -> Instruction:
    winners = game.winners
    cubes = game.cubes[winners[0]] if winners else 0
    names = " and ".join(winners)
    return Instruction(
        "winner" if len(winners) == 1 else "winners", {"names": names, "cubes": cubes}
    )
