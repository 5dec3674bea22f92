"""Properties that hold for every valid game (hypothesis drives the random games)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import RecordError
from companion.generate_robo_factory import random_record
from companion.records import robo_factory as records
from companion.replay import _pairs, replay_record
from companion.robots import Palette
from companion.rules.robo_factory import Options, Penalty, Tie
from companion.script import script_for
from companion.session import TableSession

PALETTE = Palette.default()
seeds = st.integers(min_value=0, max_value=2**32 - 1)
player_counts = st.integers(min_value=2, max_value=6)
options = st.builds(Options, st.sampled_from(list(Tie)), st.sampled_from(list(Penalty)))
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def record_for(
    seed: int, players: int, opts: Options, stop_after: int | None = None
) -> dict[str, Any]:
    return random_record(random.Random(seed), players=players, options=opts, stop_after=stop_after)


@SETTINGS
@given(seeds, player_counts, options)
def test_cube_value_changes_only_by_bank_payments(seed: int, players: int, opts: Options) -> None:
    game = records.load(record_for(seed, players, opts), PALETTE)
    from_bank = sum(p.amount for p in game.payments if p.payer is None)
    to_bank = sum(p.amount for p in game.payments if p.payee is None)
    assert sum(game.cubes.values()) == 4 * players + from_bank - to_bank
    assert all(value >= 0 for value in game.cubes.values())
    # and each turn's snapshot obeys the same law up to that point
    assert all(sum(h.values()) >= 0 for h in game.history)


@SETTINGS
@given(seeds, player_counts, options)
def test_payments_between_players_conserve_value(seed: int, players: int, opts: Options) -> None:
    game = records.load(record_for(seed, players, opts), PALETTE)
    between = [p for p in game.payments if p.payer is not None and p.payee is not None]
    # purchases and second-attempt penalties always go to that turn's Customer
    assert all(p.reason in ("data tile", "wrong robot") for p in between)


@SETTINGS
@given(seeds, player_counts, options)
def test_replay_is_deterministic(seed: int, players: int, opts: Options) -> None:
    record = record_for(seed, players, opts)
    first = json.dumps(replay_record(record))
    assert json.dumps(replay_record(copy.deepcopy(record))) == first


@SETTINGS
@given(seeds, player_counts, options)
def test_export_then_import_gives_the_same_record(seed: int, players: int, opts: Options) -> None:
    record = record_for(seed, players, opts)
    game = records.load(record, PALETTE)
    exported = records.to_record(game)
    assert exported == record
    text = json.dumps(exported)
    assert replay_record(json.loads(text, object_pairs_hook=_pairs)) == replay_record(record)


@SETTINGS
@given(seeds, player_counts, options)
def test_full_games_end_after_the_right_number_of_turns(
    seed: int, players: int, opts: Options
) -> None:
    record = record_for(seed, players, opts)
    summary = replay_record(record)
    due = (3 if players == 2 else 2) * players
    if summary["finished"]:
        assert len(summary["turns"]) >= due
        assert summary["winners"]
        if opts.tie is Tie.SHARE:
            assert len(summary["turns"]) == due
        else:
            assert len(summary["winners"]) == 1
            assert (len(summary["turns"]) - due) % players == 0
    customers = [t["customer"] for t in summary["turns"]]
    order = record["players"]
    start = order.index(record["first_customer"])
    assert customers == [order[(start + i) % players] for i in range(len(customers))]


@SETTINGS
@given(seeds, player_counts, options, st.integers(min_value=0, max_value=80))
def test_every_prefix_of_a_game_is_a_valid_record(
    seed: int, players: int, opts: Options, stop: int
) -> None:
    summary = replay_record(record_for(seed, players, opts, stop_after=stop))
    assert summary["winners"] == [] or summary["finished"]


@SETTINGS
@given(seeds, player_counts, options)
def test_playing_through_the_session_equals_replaying(
    seed: int, players: int, opts: Options
) -> None:
    record = record_for(seed, players, opts)
    setup, commands = script_for(record)
    session = TableSession(setup)
    for command in commands:
        result = session.submit(command)
        assert result.accepted, result.reason
    assert session.summary() == replay_record(record)
    assert session.to_record() == record


def _mutate(value: Any, rng: random.Random) -> Any:
    choices: list[Any] = [None, 0, 7, -1, True, "", "red-red", "purple-red-red", [], {}, "Zed", 2.5]
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(list(value))
        if rng.random() < 0.15:
            del value[key]
        else:
            value[key] = _mutate(value[key], rng)
        return value
    if isinstance(value, list) and value and rng.random() < 0.8:
        i = rng.randrange(len(value))
        value[i] = _mutate(value[i], rng)
        return value
    return rng.choice(choices)


@settings(max_examples=300, deadline=None)
@given(seeds, seeds)
def test_a_damaged_record_is_refused_cleanly_or_still_valid(seed: int, damage: int) -> None:
    record = record_for(seed, 3, Options(), stop_after=25)
    damaged = _mutate(copy.deepcopy(record), random.Random(damage))
    try:
        replay_record(damaged)
    except RecordError as exc:
        assert str(exc) and "\n" not in str(exc)
