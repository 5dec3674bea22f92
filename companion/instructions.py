"""What the table must do next, as structured messages the UI can translate.

The core never builds UI sentences itself: it emits an :class:`Instruction` with a ``code`` and
arguments; :meth:`Instruction.text` gives the English wording, and the UI's gettext catalogs key
their translations by the same English template.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

TEMPLATES: dict[str, str] = {
    "scan-order": "{customer}: show the order card to the camera, privately",
    "lay-board": "{customer}: lay board card {slot} of 3 face-up",
    "lay-tile": "{customer}: put data tile {tile} beside board card {slot}",
    "may-buy": "Manufacturers may buy one data tile each (1 cube to {customer})",
    "build": "Manufacturers: build your robots. Press your siren to call Eureka",
    "build-again": "Manufacturers: build again (second attempt). Press your siren to call Eureka",
    "turn-over": "Everyone: turn your part tiles over",
    "roll-for": "{player}: roll the die for Eureka",
    "feedback-for": "{player}: hold to see your feedback tile, privately",
    "take": "{player} takes {amount} cubes from the bank",
    "pay-bank": "{player} pays {amount} to the bank",
    "pay-player": "{player} pays {amount} to {payee}",
    "next-customer": "Next Customer: {customer}",
    "winner": "{names} wins with {cubes} cubes",
    "winners": "{names} share the win with {cubes} cubes each",
    "extra-round": "The lead is tied: an extra round begins",
    "place-start": "Lay the start card face-up and read it",
    "place-card": "{player} ({side}): place a card",
    "rm-winner": "{player} ({side}) wins: {detail}",
    "rm-draw": "A draw: every line score is equal",
    "confirm-reading": "Is this right? {what}",
}


@dataclass(frozen=True)
class Instruction:
    code: str
    args: dict[str, Any] = field(default_factory=dict)

    @property
    def template(self) -> str:
        return TEMPLATES[self.code]

    def text(self) -> str:
        return self.template.format(**self.args)

    def __str__(self) -> str:
        return self.text()
