"""The Robo Factory engine on its own, and its docstring examples."""

from __future__ import annotations

import doctest

import pytest

import companion.generate_robo_factory
import companion.robots
import companion.rules.robo_factory
import companion.session
from companion.errors import IllegalEureka, IllegalPurchase, OutOfTurn, RuleError
from companion.robots import Palette, Robot, data_tile
from companion.rules.robo_factory import Options, Penalty, RoboFactoryGame

P = Palette.default()


@pytest.mark.parametrize(
    "module",
    [
        companion.robots,
        companion.rules.robo_factory,
        companion.generate_robo_factory,
        companion.session,
    ],
)
def test_docstring_examples(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]


def test_64_unique_cards_and_data_tiles() -> None:
    cards = P.all_cards()
    assert len(set(cards)) == 64
    order = P.parse("red-green-blue")
    assert data_tile(order, order) == 3
    assert max(data_tile(order, c) for c in cards if c != order) == 2
    assert sum(1 for c in cards if data_tile(order, c) == 0) == 27


def test_palette_comes_from_configuration() -> None:
    palette = Palette(("red", "green", "blue", "black"))
    assert palette.parse("black-black-red") == Robot("black", "black", "red")
    with pytest.raises(RuleError, match="yellow"):
        palette.parse("yellow-red-red")
    with pytest.raises(RuleError):
        Palette(("red", "red", "blue", "green"))


def start(players: int = 3, **options: object) -> RoboFactoryGame:
    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"][:players]
    game = RoboFactoryGame(names, options=Options(**options))  # type: ignore[arg-type]
    game.begin_turn("Ann")
    game.set_order(P.parse("red-green-blue"))
    game.set_board(
        [P.parse(x) for x in ("red-red-red", "green-green-green", "yellow-yellow-yellow")]
    )
    return game


def test_purchase_pays_the_customer_and_needs_a_cube() -> None:
    game = start()
    assert game.buy("Bob", P.parse("red-green-yellow")) == 2
    assert game.cubes == {"Ann": 5, "Bob": 3, "Cid": 4}
    with pytest.raises(IllegalPurchase):
        game.buy("Bob", P.parse("blue-blue-blue"))
    game.cubes["Cid"] = 0
    with pytest.raises(IllegalPurchase, match="no cubes"):
        game.buy("Cid", P.parse("blue-blue-blue"))


def test_wrong_eureka_pays_at_most_what_is_held() -> None:
    game = start()
    game.cubes["Bob"] = 2
    result = game.attempt(
        {"Bob": P.parse("red-red-blue"), "Cid": P.parse("red-green-blue")}, {"Bob": 6}
    )
    assert game.cubes["Bob"] == 2 - 2  # paid 2 of the 6 rolled
    assert game.cubes["Cid"] == 8
    assert result.correct == ["Cid"]
    with pytest.raises(OutOfTurn):
        game.attempt({"Bob": P.parse("red-red-blue"), "Cid": P.parse("red-green-blue")}, {})


def test_eureka_once_per_game() -> None:
    game = start()
    game.attempt({"Bob": P.parse("red-green-blue"), "Cid": P.parse("red-red-red")}, {"Cid": 1})
    game.begin_turn("Bob")
    game.set_order(P.parse("blue-blue-blue"))
    game.set_board(
        [P.parse(x) for x in ("red-red-red", "green-green-green", "yellow-yellow-yellow")]
    )
    game.check_eureka("Ann")  # Ann was Customer last turn: her siren is unused
    with pytest.raises(IllegalEureka, match="already used"):
        game.attempt({"Ann": P.parse("red-red-red"), "Cid": P.parse("red-red-red")}, {"Cid": 2})
    with pytest.raises(IllegalEureka, match="Customer"):
        game.check_eureka("Bob")


def test_second_attempt_penalties_rulebook_and_faq() -> None:
    for penalty, cid_after in ((Penalty.RULEBOOK, 3), (Penalty.FAQ, 4)):
        game = start(penalty=penalty)
        wrong = P.parse("yellow-yellow-yellow")
        game.attempt({"Bob": wrong, "Cid": wrong}, {})
        game.attempt({"Bob": P.parse("red-green-blue"), "Cid": wrong}, {})
        assert game.cubes["Bob"] == 6
        assert game.cubes["Cid"] == cid_after
    game = start(penalty=Penalty.FAQ)
    wrong = P.parse("yellow-yellow-yellow")
    game.attempt({"Bob": wrong, "Cid": wrong}, {})
    game.attempt({"Bob": wrong, "Cid": wrong}, {})
    assert game.cubes == {"Ann": 6, "Bob": 3, "Cid": 3}
