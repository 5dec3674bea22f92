"""Named errors of the core. All subclass ValueError so callers may catch them broadly.

Every message is written for a person at the table: it says what is wrong in plain words.
"""

from __future__ import annotations


class CompanionError(ValueError):
    """Base of every error the core raises on bad input."""


class RuleError(CompanionError):
    """A move the rules forbid (the game state is left untouched)."""


class UnknownColour(RuleError):
    """A robot part names a colour that is not configured."""


class InvalidRobot(RuleError):
    """A robot is not three known colours written head-torso-legs."""


class DuplicateCard(RuleError):
    """A card appears twice in one turn where the rules make that impossible."""


class IllegalPurchase(RuleError):
    """A data tile purchase the rules forbid."""


class IllegalAttempt(RuleError):
    """An attempt that is incomplete, names the Customer, or comes when none is allowed."""


class IllegalEureka(RuleError):
    """A Eureka call the rules forbid (Customer, used siren, roll outside 1..6)."""


class OutOfTurn(RuleError):
    """A player acts when it is not their turn (wrong Customer, Robot Master card out of turn)."""


class GameOver(RuleError):
    """A move after the game has ended."""


class IllegalPlacement(RuleError):
    """A Robot Master card placed where it may not go."""


class InvalidCard(RuleError):
    """A Robot Master card value outside 0..5, or a seventh card of one value."""


class RecordError(CompanionError):
    """An invalid game record. `where` names the turn or move, `field` the field."""

    def __init__(self, where: str, field: str, message: str) -> None:
        self.where = where
        self.field = field
        self.message = message
        location = ", ".join(part for part in (where, field) if part)
        super().__init__(f"{location}: {message}" if location else message)


class ConfigError(CompanionError):
    """An unreadable or invalid configuration file. Names the key and what was expected."""


class JournalError(CompanionError):
    """The journal database cannot be used (corrupt, foreign, or newer than this program)."""
