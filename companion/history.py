"""``robo-companion history`` and ``robo-companion export GAME``: the games in the journal."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from companion import commands as c
from companion import config as config_module
from companion.errors import CompanionError, JournalError
from companion.journal import Journal
from companion.session import TableSession, setup_from_json


def record_of(journal: Journal, game_id: int) -> dict[str, Any]:
    """The record of one game in the journal (finished or not)."""
    row = journal.game(game_id)
    try:
        setup = setup_from_json(row.setup)
        events = [c.from_json(e) for e in journal.events(game_id)]
        return TableSession(setup, events).to_record()
    except (CompanionError, KeyError, TypeError, ValueError) as exc:
        raise JournalError(f"game {game_id} in the journal cannot be read ({exc})") from None


def _open() -> Journal:
    cfg = config_module.load()
    path = cfg.journal_path
    if not path.exists():
        raise JournalError(f"no games yet: there is no journal at {path}")
    return Journal(path)


def cli_history() -> int:
    with _open() as journal:
        rows = journal.games()
        if not rows:
            print("no games yet")
            return 0
        for row in rows:
            players = row.setup.get("players") or [row.setup.get("rows"), row.setup.get("columns")]
            print(
                f"{row.id:>4}  {row.started[:16].replace('T', ' ')}  {row.kind:<12}  "
                f"{row.status:<9}  {', '.join(str(p) for p in players)}"
            )
    return 0


def cli_export(game: str, out: str | None) -> int:
    try:
        game_id = int(game)
    except ValueError:
        raise JournalError(
            f"{game!r} is not a game id: 'robo-companion history' lists them"
        ) from None
    with _open() as journal:
        record = record_of(journal, game_id)
    text = json.dumps(record, indent=2, ensure_ascii=False) + "\n"
    if out:
        try:
            Path(out).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise JournalError(f"cannot write {out} ({exc})") from None
    else:
        sys.stdout.write(text)
    return 0
