"""``robo-companion bench rules``: replay speed of both games and the journal's append latency.

Prints one JSON object. Records are generated first (not timed), then replayed through the same
code path as ``robo-companion replay`` (validation included). Journal appends are timed one by one,
each a durable commit (WAL, ``synchronous=FULL``: fsync before it returns).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.generate_robo_factory import random_record as robo_factory_record
from companion.generate_robot_master import random_record as robot_master_record
from companion.journal import Journal
from companion.replay import replay_record
from companion.robots import Palette


def _rate(records: list[dict[str, Any]]) -> tuple[float, float]:
    palette = Palette.default()
    wall, cpu = time.perf_counter(), time.process_time()
    for record in records:
        replay_record(record, palette)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return len(records) / wall, len(records) / cpu


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def journal_latency(directory: Path, appends: int) -> dict[str, float]:
    event = {
        "type": "set-robot",
        "player": "Bob",
        "robot": "red-green-blue",
        "source": "camera",
        "confidence": 0.97,
    }
    with Journal(directory / "bench-journal.sqlite3") as journal:
        game = journal.new_game({"game": "robo-factory", "players": ["Ann", "Bob"]})
        times = []
        for _ in range(appends):
            start = time.perf_counter()
            journal.append(game, event)
            times.append((time.perf_counter() - start) * 1000)
    return {
        "journal_appends": appends,
        "journal_median_ms": round(statistics.median(times), 3),
        "journal_p99_ms": round(_percentile(times, 0.99), 3),
        "journal_max_ms": round(max(times), 3),
    }


def run(games: int, appends: int, seed: int, directory: Path | None) -> dict[str, Any]:
    rng = random.Random(seed)
    factory = [robo_factory_record(rng, players=6) for _ in range(games)]
    master = [robot_master_record(rng) for _ in range(games)]
    assert all(replay_record(r)["finished"] for r in factory[:50] + master[:50])
    # The 20,000 input records are millions of live objects; without this every full collection
    # would walk them all and the figure would measure the size of the input, not the replay.
    gc.collect()
    gc.freeze()
    rf_wall, rf_cpu = _rate(factory)
    rm_wall, rm_cpu = _rate(master)
    result: dict[str, Any] = {
        "robo_factory_records": games,
        "robo_factory_records_per_s": round(rf_wall),
        "robo_factory_records_per_cpu_s": round(rf_cpu),
        "robot_master_records": games,
        "robot_master_records_per_s": round(rm_wall),
        "robot_master_records_per_cpu_s": round(rm_cpu),
    }
    if directory is None:
        with tempfile.TemporaryDirectory(dir=Path.home()) as tmp:
            result.update(journal_latency(Path(tmp), appends))
    else:
        directory.mkdir(parents=True, exist_ok=True)
        result.update(journal_latency(directory, appends))
    return result


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="robo-companion bench rules")
    parser.add_argument("--games", type=int, default=10_000, help="records per game (10000)")
    parser.add_argument("--appends", type=int, default=1000, help="journal appends to time")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--dir", type=Path, help="where to put the journal (default: a temp dir in $HOME)"
    )
    args = parser.parse_args(argv)
    print(json.dumps(run(args.games, args.appends, args.seed, args.dir)))
    return 0
