"""Random valid Robot Master games, for property tests and the rules benchmark.

Deals as the box does: the 36 cards (six each of 0..5) are shuffled, one starts face up, each
player gets 12 and 11 stay unused. A random side starts; each turn the player lays a random card
of its hand on a random legal cell. Same ``rng`` state, same game.

>>> import random
>>> from companion.records.robot_master import replay
>>> result = replay(random_record(random.Random(7)))
>>> result["finished"], len(result["legal_cells"])
(True, 0)
"""

from __future__ import annotations

import random
from typing import Any

from companion.records.robot_master import to_record
from companion.rules.robot_master import COPIES, VALUES, Frame, RobotMasterGame, Side

HAND = 12
FULL_GAME_MOVES = 24  # 25 cells, the start card among them

DEFAULT_NAMES = ("Ann", "Bob")


def random_game(
    rng: random.Random,
    frame: Frame = Frame.FIXED,
    moves: int | None = None,
    names: tuple[str, str] = DEFAULT_NAMES,
) -> RobotMasterGame:
    """A game of ``moves`` random legal moves after the start card (a full game when None)."""
    count = FULL_GAME_MOVES if moves is None else moves
    if not 0 <= count <= FULL_GAME_MOVES:
        raise ValueError(f"a game has 0 to {FULL_GAME_MOVES} moves after the start card")
    deck = [value for value in VALUES for _ in range(COPIES)]
    rng.shuffle(deck)
    hands = {Side.ROWS: deck[1 : 1 + HAND], Side.COLUMNS: deck[1 + HAND : 1 + 2 * HAND]}
    side = rng.choice((Side.ROWS, Side.COLUMNS))
    game = RobotMasterGame(names[0], names[1], deck[0], frame, first=side)
    for _ in range(count):
        hand = hands[side]
        card = hand.pop(rng.randrange(len(hand)))
        cell = rng.choice(game.legal_cells())
        game.place(side, cell, card)
        side = side.other
    return game


def random_record(
    rng: random.Random, frame: Frame = Frame.FIXED, moves: int | None = None
) -> dict[str, Any]:
    """A valid record in the moves form (see :func:`random_game`)."""
    return to_record(random_game(rng, frame, moves))


def random_records(
    count: int, seed: int = 0, frame: Frame | None = Frame.FIXED
) -> list[dict[str, Any]]:
    """``count`` full-game records from one seed (for the benchmark); ``frame=None`` alternates
    fixed and floating."""
    rng = random.Random(seed)
    frames = (Frame.FIXED, Frame.FLOATING)
    return [random_record(rng, frames[i % 2] if frame is None else frame) for i in range(count)]
