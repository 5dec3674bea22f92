"""A value read next to a cell the reader could not read, and that looks like no card either (a
hand over the cards), is asked, not given (:func:`vision.grid.groups._beside_hand`).

Hard own art h45021 g002: a hand over the cards leaves four cells unread; a finger reaching past
it lies across a 5's middle pip, and the rest of the print was read as 4 (the case itself is
pinned in ``test_grid_hown45021``).
"""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

from tests.vision.grid_area import board
from vision.grid import groups
from vision.thresholds import section


def _asked(rows: list[str], cards: str = "") -> set[tuple[int, int]]:
    """The cells asked on the board ``rows`` (see :func:`board`), where the unread cells at the
    positions "r,c" listed in ``cards`` look like cards and the others do not."""
    values, confs = board(rows, read=0.9)
    card_like = [v is not None for v in values]
    for rc in filter(None, cards.split()):
        r, c = (int(x) for x in rc.split(","))
        card_like[r * 5 + c] = True
    return {divmod(i, 5) for i in groups._beside_hand(values, confs, card_like, 1)}


def test_h45021_g002_the_card_beside_the_hand_is_asked() -> None:
    # as main read it: (2, 3), (2, 4), (3, 3) unread under the hand, (3, 2) unread but a card;
    # (1, 3), the 5 under a finger, read as 4
    asked = _asked(["..34.",
                    "..04.",
                    ".04??",
                    ".3??.",
                    "....."], cards="3,2")
    assert (1, 3) in asked
    assert {(1, 2), (2, 2), (0, 3), (0, 2)} & asked == {(1, 2), (2, 2)}
    assert (3, 1) not in asked  # beside only the unread card, which looks like one


def test_a_declined_card_alone_asks_nothing_more() -> None:
    """A card the reader declined looks like a card: its neighbours read stay read."""
    assert _asked(["12345",
                   "1?345",
                   "12345",
                   "12345",
                   "12345"], cards="1,1") == set()


def test_empty_readings_are_left_to_beside_unread() -> None:
    assert _asked(["?....",
                   ".....",
                   ".....",
                   ".....",
                   "....."]) == set()


def test_it_is_on_in_the_thresholds_file() -> None:
    assert bool(section("grid")["hand_asks_beside"])
