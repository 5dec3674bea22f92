"""Random valid Robo Factory games, for property tests and the benchmark.

>>> import random
>>> record = random_record(random.Random(1), players=4)
>>> len(record["turns"])
8
"""

from __future__ import annotations

import random
from typing import Any

from companion.robots import Palette, Robot
from companion.rules.robo_factory import Options, Penalty, RoboFactoryGame, Tie

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")


def random_record(
    rng: random.Random,
    players: int | None = None,
    options: Options | None = None,
    palette: Palette | None = None,
    stop_after: int | None = None,
) -> dict[str, Any]:
    """A valid record of a whole game (or of its first ``stop_after`` operations)."""
    palette = palette or Palette.default()
    count = players if players is not None else rng.randint(2, 6)
    names = list(NAMES[:count])
    if options is None:
        options = Options(rng.choice(list(Tie)), rng.choice(list(Penalty)))
    first = rng.choice(names)
    game = RoboFactoryGame(names, first, options)
    cards = palette.all_cards()
    turns: list[dict[str, Any]] = []
    budget = [stop_after if stop_after is not None else 1 << 30]

    def step() -> bool:
        budget[0] -= 1
        return budget[0] >= 0

    # An extra-round game may in principle tie forever; a bound keeps the generator total.
    while not game.finished and len(turns) < 12 * count:
        customer = game.next_customer
        assert customer is not None
        if not step():
            break
        game.begin_turn(customer)
        turn: dict[str, Any] = {"customer": customer}
        turns.append(turn)
        deck = rng.sample(cards, 4 + count)
        order, board, hands = deck[0], deck[1:4], deck[4:]
        if not step():
            break
        game.set_order(order)
        turn["order"] = str(order)
        if not step():
            break
        game.set_board(board)
        turn["board"] = [str(c) for c in board]
        purchases: dict[str, str] = {}
        for i, maker in enumerate(game.manufacturers(customer)):
            if game.cubes[maker] > 0 and rng.random() < 0.4:
                game.buy(maker, hands[i])
                purchases[maker] = str(hands[i])
        if purchases:
            turn["purchases"] = purchases
        attempts: list[dict[str, Any]] = []
        while game.current.next_attempt and step():
            robots: dict[str, Robot] = {}
            for maker in game.manufacturers(customer):
                right = rng.random() < (0.25 if not attempts else 0.45)
                robots[maker] = order if right else rng.choice(cards)
            eureka = {
                m: rng.randint(1, 6)
                for m in game.manufacturers(customer)
                if m not in game.sirens_used and rng.random() < 0.15
            }
            game.attempt(robots, eureka)
            entry: dict[str, Any] = {"robots": {m: str(r) for m, r in robots.items()}}
            if eureka:
                entry["eureka"] = eureka
            attempts.append(entry)
        if attempts:
            turn["attempts"] = attempts
        if game.current.next_attempt:  # stopped inside the turn
            break
    return {
        "game": "robo-factory",
        "players": names,
        "first_customer": first,
        "options": options.to_json(),
        "turns": turns,
    }
