"""Replay's quick paths give exactly what its careful paths give.

Reading a Robo Factory record first tries the shape every valid record has (plain dicts and lists,
robots spelt exactly as one of the 64 cards, robots listed in seat order) and falls back to the
careful checks otherwise. A record's "careful twin" holds the same data in types the quick tests
do not accept (dict and list subclasses, robot spellings the card lookup cannot find), so it is
read entirely by the careful path: for any record, valid or damaged, both must give the same
replay object or the same error message.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError
from companion.generate_robo_factory import random_record
from companion.records import robo_factory as records
from companion.records.json_object import JsonObject, pairs
from companion.replay import replay_record
from companion.robots import Palette
from companion.rules.robo_factory import Options, Penalty, RoboFactoryGame, Tie

PALETTE = Palette.default()
seeds = st.integers(min_value=0, max_value=2**32 - 1)
options = st.builds(Options, st.sampled_from(list(Tie)), st.sampled_from(list(Penalty)))
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class _Object(dict[str, Any]):
    """A JSON object the quick path does not take (it tests for exactly ``dict``)."""


class _List(list[Any]):
    """A JSON list the quick path does not take (it tests for exactly ``list``)."""


class _Spelling(str):
    """A robot spelling the card lookup cannot find (another hash), so the careful parse runs."""

    __slots__ = ()

    def __hash__(self) -> int:
        return ~str.__hash__(self)


ROBOT_FIELDS = ("order", "board", "purchases", "robots")


def careful_twin(value: Any, robot_field: bool = False) -> Any:
    """``value`` rebuilt so that replay reads every part of it by the careful path."""
    if isinstance(value, dict):
        out = _Object()
        for key, item in value.items():
            out[key] = careful_twin(item, robot_field or key in ROBOT_FIELDS)
        if isinstance(value, JsonObject):  # keep a repeated key's report
            twin = JsonObject(out)
            twin.duplicates = value.duplicates
            return twin
        return out
    if isinstance(value, list):
        return _List(careful_twin(item, robot_field) for item in value)
    if isinstance(value, str) and robot_field:
        return _Spelling(value)
    return value


def outcome(record: Any) -> str:
    try:
        return "replay " + json.dumps(replay_record(record, PALETTE))
    except CompanionError as exc:
        return f"error {type(exc).__name__}: {exc}"


def _damage(record: dict[str, Any], rng: random.Random) -> str:
    """The record as JSON text with one random fault (or none), as a user might write it."""
    pool: list[Any] = [
        None, 0, 1, 6, 7, True, 2.5, "", "Zed", "Ann", "Cid", "red-red", "purple-red-red",
        "red-green-blue", "blue-blue-blue", [], {}, ["red-red-red"], {"Bob": "red-red-red"},
    ]  # fmt: skip
    places: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            places.extend((node, key) for key in node)
            for item in node.values():
                walk(item)
        elif isinstance(node, list):
            places.extend((node, i) for i in range(len(node)))
            for item in node:
                walk(item)

    walk(record)
    kind = rng.randrange(5)
    container, key = rng.choice(places)
    if kind == 0:
        container[key] = rng.choice(pool)
    elif kind == 1 and isinstance(container, dict):
        del container[key]
    elif kind == 2 and isinstance(container, dict):
        container[rng.choice(["Ann", "Bob", "Eve", "eureka", "zzz"])] = rng.choice(pool)
    elif kind == 3 and isinstance(container, list):
        container.insert(rng.randrange(len(container) + 1), copy.deepcopy(container[key]))
    text = json.dumps(record)
    if kind == 4:  # a key given twice: the first key of some object, repeated at its end
        text = text.replace('{"customer": ', '{"customer": "Ann", "customer": ', 1)
        text = text.replace('{"Bob": ', '{"Bob": "red-red-red", "Bob": ', 1)
    return text


@SETTINGS
@given(seeds, st.integers(min_value=2, max_value=6), options, st.integers(0, 80) | st.none())
def test_valid_records_replay_the_same_by_both_paths(
    seed: int, players: int, opts: Options, stop: int | None
) -> None:
    record = random_record(random.Random(seed), players, opts, stop_after=stop)
    quick = outcome(record)
    assert quick.startswith("replay ")
    assert outcome(careful_twin(record)) == quick


@settings(max_examples=400, deadline=None)
@given(seeds, seeds)
def test_damaged_records_give_the_same_error_by_both_paths(seed: int, damage: int) -> None:
    rng = random.Random(damage)
    record = random_record(random.Random(seed), rng.randint(2, 6), stop_after=rng.randint(0, 60))
    parsed = json.loads(_damage(record, rng), object_pairs_hook=pairs)
    assert outcome(careful_twin(parsed)) == outcome(parsed)


@SETTINGS
@given(seeds, st.integers(min_value=2, max_value=6), options, seeds)
def test_the_order_a_record_lists_robots_and_purchases_in_does_not_matter(
    seed: int, players: int, opts: Options, shuffle: int
) -> None:
    record = random_record(random.Random(seed), players, opts)
    rng = random.Random(shuffle)
    shuffled = copy.deepcopy(record)
    for turn in shuffled["turns"]:
        for attempt in turn.get("attempts", []):
            for field in ("robots", "eureka"):
                if field in attempt:
                    items = list(attempt[field].items())
                    rng.shuffle(items)
                    attempt[field] = dict(items)
        if "purchases" in turn:
            items = list(turn["purchases"].items())
            rng.shuffle(items)
            turn["purchases"] = dict(items)
    assert outcome(shuffled) == outcome(record)
    # the game reached is the same too, ledger included, and exports in seat order
    game, again = records.load(record, PALETTE), records.load(shuffled, PALETTE)
    assert again.payments == game.payments
    assert records.to_record(again) == records.to_record(game) == record


def test_an_attempt_keeps_its_own_copy_of_the_robots_and_rolls() -> None:
    p = PALETTE
    game = RoboFactoryGame(["Ann", "Bob", "Cid"])
    game.begin_turn("Ann")
    game.set_order(p.parse("red-green-blue"))
    game.set_board([p.parse(c) for c in ("blue-blue-blue", "red-green-yellow", "yellow-red-red")])
    robots = {"Bob": p.parse("red-red-red"), "Cid": p.parse("blue-red-blue")}  # seat order
    eureka = {"Bob": 3}
    result = game.attempt(robots, eureka)
    robots["Bob"] = p.parse("red-green-blue")
    eureka["Bob"] = 6
    assert result.robots == {"Bob": p.parse("red-red-red"), "Cid": p.parse("blue-red-blue")}
    assert result.eureka == {"Bob": 3}
    assert result.feedback_tiles == {"Bob": 1, "Cid": 1}
    assert game.cubes == {"Ann": 4, "Bob": 1, "Cid": 4}


def test_pairs_makes_plain_dicts_unless_a_key_repeats() -> None:
    clean = json.loads('{"a": 1, "b": {"c": 2}}', object_pairs_hook=pairs)
    assert type(clean) is dict and type(clean["b"]) is dict
    repeated = json.loads('{"a": 1, "a": 2, "b": 3, "b": 4}', object_pairs_hook=pairs)
    assert isinstance(repeated, JsonObject)
    assert repeated.duplicates == ("a", "b")
    assert repeated == {"a": 2, "b": 4}
