"""Commands the table gives the session, and how they are written to the journal.

A command accepted by the session becomes an event: the same dataclass, stored as JSON with a
``type`` field. The session's state is a pure function of its setup and its events, so the journal
needs nothing else to resume a game exactly where it was.

``source`` says where a reading came from ("touch", "camera", "board", "app") and ``confidence``
how sure the camera was; they are kept for the record of what happened, never to decide rules.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.errors import CompanionError


class CommandError(CompanionError):
    """A journal entry or a command that cannot be read."""


@dataclass(frozen=True)
class Command:
    type: ClassVar[str] = ""
    #: an undo may not reach back past a barrier (a committed reveal)
    barrier: ClassVar[bool] = False

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["type"] = self.type
        return data


@dataclass(frozen=True)
class Undo(Command):
    type: ClassVar[str] = "undo"


# ----------------------------------------------------------------------------- Robo Factory


@dataclass(frozen=True)
class ScanOrder(Command):
    """The Customer shows the order card (a secret)."""

    type: ClassVar[str] = "scan-order"
    robot: str
    source: str = "touch"
    confidence: float = 1.0


@dataclass(frozen=True)
class LayBoardCard(Command):
    """One of the three face-up board cards."""

    type: ClassVar[str] = "lay-board-card"
    robot: str
    source: str = "touch"
    confidence: float = 1.0


@dataclass(frozen=True)
class Buy(Command):
    """A Manufacturer hands a card to the Customer for a data tile (the card is a secret)."""

    type: ClassVar[str] = "buy"
    player: str
    card: str
    source: str = "touch"
    confidence: float = 1.0


@dataclass(frozen=True)
class StartProduction(Command):
    """Purchases are over (first attempt) or feedback is done (second); the Eureka window opens."""

    type: ClassVar[str] = "start-production"


@dataclass(frozen=True)
class SetRobot(Command):
    """The robot a Manufacturer built, as read by the camera or entered by touch."""

    type: ClassVar[str] = "set-robot"
    player: str
    robot: str
    source: str = "touch"
    confidence: float = 1.0


@dataclass(frozen=True)
class CallEureka(Command):
    """A siren press (``board_us`` is the board's timestamp) or a Eureka entered by touch."""

    type: ClassVar[str] = "eureka"
    player: str
    source: str = "touch"
    board_us: int | None = None


@dataclass(frozen=True)
class StartReveal(Command):
    """Production ends: the Eureka window closes and the robots are shown."""

    type: ClassVar[str] = "start-reveal"


@dataclass(frozen=True)
class SetRoll(Command):
    """A Eureka caller's d6: rolled by the app or a physical roll entered by touch."""

    type: ClassVar[str] = "roll"
    player: str
    roll: int
    source: str = "touch"


@dataclass(frozen=True)
class CommitReveal(Command):
    """Settle the attempt: Eureka, rewards and penalties. Cannot be undone."""

    type: ClassVar[str] = "commit-reveal"
    barrier: ClassVar[bool] = True


@dataclass(frozen=True)
class FeedbackSeen(Command):
    """A Manufacturer has seen their private feedback tile."""

    type: ClassVar[str] = "feedback-seen"
    player: str


@dataclass(frozen=True)
class NextTurn(Command):
    """The ledger has been settled at the table; the next Customer begins."""

    type: ClassVar[str] = "next-turn"


# ----------------------------------------------------------------------------- Robot Master


@dataclass(frozen=True)
class PlaceStart(Command):
    """The face-up start card."""

    type: ClassVar[str] = "place-start"
    value: int
    source: str = "touch"
    confidence: float = 1.0


@dataclass(frozen=True)
class PlaceCard(Command):
    """The player to move places a card; ``cell`` is "c4" (fixed) or "x,y" (floating)."""

    type: ClassVar[str] = "place-card"
    cell: str
    value: int
    source: str = "touch"
    confidence: float = 1.0


COMMANDS: dict[str, type[Command]] = {
    cls.type: cls
    for cls in (
        Undo,
        ScanOrder,
        LayBoardCard,
        Buy,
        StartProduction,
        SetRobot,
        CallEureka,
        StartReveal,
        SetRoll,
        CommitReveal,
        FeedbackSeen,
        NextTurn,
        PlaceStart,
        PlaceCard,
    )
}


def from_json(data: Any) -> Command:
    """Read a command written by :meth:`Command.to_json`."""
    if not isinstance(data, dict) or data.get("type") not in COMMANDS:
        raise CommandError(f"not a known command: {data!r}")
    cls = COMMANDS[data["type"]]
    fields = {f.name: f for f in dataclasses.fields(cls)}
    kwargs = {k: v for k, v in data.items() if k != "type"}
    unknown = set(kwargs) - set(fields)
    if unknown:
        raise CommandError(f"{data['type']}: unknown fields {sorted(unknown)}")
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise CommandError(f"{data['type']}: {exc}") from None
