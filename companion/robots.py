"""Robots, robot cards, colours and data tiles.

A robot is three part colours written ``head-torso-legs``. The colour names come from the
configuration (the printed game's fourth colour is unconfirmed), so a :class:`Palette` is passed
to everything that parses a robot.

>>> palette = Palette.default()
>>> order = palette.parse("red-green-blue")
>>> data_tile(order, palette.parse("red-green-yellow"))
2
>>> len(palette.all_cards())
64
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import NamedTuple

from companion.errors import InvalidRobot, UnknownColour

PARTS = ("head", "torso", "legs")
DEFAULT_COLOURS = ("red", "green", "blue", "yellow")


class Robot(NamedTuple):
    """A robot card or a built robot: one colour per part, head first.

    A named tuple rather than a dataclass: robots are compared constantly during replay, and
    tuple equality runs in C.
    """

    head: str
    torso: str
    legs: str

    @property
    def parts(self) -> tuple[str, str, str]:
        return (self.head, self.torso, self.legs)

    def __str__(self) -> str:
        return f"{self.head}-{self.torso}-{self.legs}"


def data_tile(order: Robot, other: Robot) -> int:
    """How many parts of ``other`` equal the order, part by part (0..3)."""
    return (order.head == other.head) + (order.torso == other.torso) + (order.legs == other.legs)


@dataclass(frozen=True)
class Palette:
    """The four colour names in use (from configuration)."""

    colours: tuple[str, ...] = DEFAULT_COLOURS

    def __post_init__(self) -> None:
        if len(self.colours) != 4:
            raise UnknownColour(f"the game has 4 colours, {len(self.colours)} were configured")
        if len(set(self.colours)) != 4:
            raise UnknownColour("the 4 colour names must differ from each other")
        for name in self.colours:
            if not name or "-" in name or name != name.strip():
                raise UnknownColour(f"colour name {name!r} must be a word without '-'")

    @classmethod
    def default(cls) -> Palette:
        return cls(DEFAULT_COLOURS)

    def parse(self, text: object) -> Robot:
        """Read ``head-torso-legs``; raise :class:`InvalidRobot` naming what is wrong."""
        if isinstance(text, str):
            known = _cards_by_text(self.colours).get(text)
            if known is not None:
                return known
        if not isinstance(text, str):
            raise InvalidRobot(f"a robot is written head-torso-legs, not {text!r}")
        parts = text.split("-")
        if len(parts) != 3:
            raise InvalidRobot(f"{text!r} is not a robot: write three colours as head-torso-legs")
        for part, colour in zip(PARTS, parts, strict=True):
            if colour not in self.colours:
                names = ", ".join(self.colours)
                raise InvalidRobot(
                    f"{text!r} is not a robot: the {part} colour {colour!r} is not one of {names}"
                )
        return Robot(parts[0], parts[1], parts[2])

    def cards_by_text(self) -> dict[str, Robot]:
        """Every valid spelling of a robot, mapped to it (a shared dict: do not modify)."""
        return _cards_by_text(self.colours)

    def all_cards(self) -> list[Robot]:
        """The 64 robot cards: every colour combination exactly once."""
        return [Robot(h, t, legs) for h, t, legs in itertools.product(self.colours, repeat=3)]


@functools.lru_cache(maxsize=16)
def _cards_by_text(colours: tuple[str, ...]) -> dict[str, Robot]:
    # Parsing is on the hot path of replay: the 64 valid spellings are looked up, not split.
    cards = (Robot(h, t, legs) for h, t, legs in itertools.product(colours, repeat=3))
    return {str(card): card for card in cards}
