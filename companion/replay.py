"""``robo-companion replay RECORD.json``: validate a record, replay it, print the outcome.

Exit 0 with one JSON object on stdout; or exit 2 with one line on stderr naming the turn (or move)
and the field, and nothing on stdout.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion import config as config_module
from companion.errors import CompanionError, RecordError
from companion.records import robo_factory, robot_master
from companion.records.json_object import pairs as _pairs
from companion.robots import Palette


def replay_record(record: Any, palette: Palette | None = None) -> dict[str, Any]:
    """Replay a parsed record of either game and return DESIGN.md's replay object."""
    if not isinstance(record, Mapping):
        raise RecordError("", "record", "expected a JSON object")
    # (the readers are imported with this module: an import statement here would run the import
    # machinery on every call, and the benchmark replays thousands of records a second)
    game = record.get("game")
    if game == "robo-factory":
        return robo_factory.replay(record, palette or Palette.default())
    if game == "robot-master":
        return robot_master.replay(record)
    raise RecordError("", "game", f"expected 'robo-factory' or 'robot-master', got {game!r}")


def read_record(source: str) -> Any:
    """Read JSON from a file path or '-' (stdin); RecordError on unreadable or invalid JSON."""
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError("", "", f"{source}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError("", "", f"{source}: cannot read ({exc})") from None
    try:
        return json.loads(text, object_pairs_hook=_pairs)
    except json.JSONDecodeError as exc:
        raise RecordError(
            "", "", f"{source}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None


def cli(source: str) -> int:
    try:
        palette = config_module.load().palette
        result = replay_record(read_record(source), palette)
    except CompanionError as exc:
        print(_one_line(str(exc)), file=sys.stderr)
        return 2
    except RecursionError:
        print("the record is nested too deeply to be a game record", file=sys.stderr)
        return 2
    print(json.dumps(result, ensure_ascii=False))
    return 0


def _one_line(text: str) -> str:
    return " ".join(text.split())
