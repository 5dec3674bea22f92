"""The journal: every accepted event of every game, in SQLite, written before it is acknowledged.

WAL mode with ``synchronous=FULL`` makes each committed append durable across a power cut. The
file is marked with an application id so that a foreign or corrupt database is refused with a
clear error and never overwritten.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.errors import JournalError

APPLICATION_ID = 0x524F424F  # "ROBO"
SCHEMA_VERSION = 1
SQLITE_MAGIC = b"SQLite format 3\x00"

SCHEMA = """
CREATE TABLE games (
    id       INTEGER PRIMARY KEY,
    kind     TEXT NOT NULL,
    setup    TEXT NOT NULL,
    started  TEXT NOT NULL,
    ended    TEXT,
    status   TEXT NOT NULL DEFAULT 'playing'   -- playing, finished or abandoned
);
CREATE TABLE events (
    game     INTEGER NOT NULL REFERENCES games(id),
    seq      INTEGER NOT NULL,
    at       TEXT NOT NULL,
    event    TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
"""


@dataclass(frozen=True)
class GameRow:
    id: int
    kind: str
    setup: dict[str, Any]
    started: str
    ended: str | None
    status: str
    events: int


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Journal:
    """One journal file. Opening validates it; a new file is created with the schema."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._check_file()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(
                f"cannot create the folder for the journal {self.path} ({exc})"
            ) from None
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise JournalError(f"cannot open the journal {self.path} ({exc})") from None
        try:
            self._prepare()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise JournalError(
                f"the journal {self.path} is damaged ({exc}); it was left untouched. "
                "Move it aside to start a new one."
            ) from None
        except JournalError:
            self._db.close()
            raise

    def _check_file(self) -> None:
        if not self.path.exists():
            return
        if self.path.is_dir():
            raise JournalError(f"the journal path {self.path} is a folder, not a file")
        try:
            with self.path.open("rb") as fh:
                head = fh.read(len(SQLITE_MAGIC))
        except OSError as exc:
            raise JournalError(f"cannot read the journal {self.path} ({exc})") from None
        if head and head != SQLITE_MAGIC:
            raise JournalError(
                f"{self.path} is not a robo-companion journal (not an SQLite file); "
                "it was left untouched"
            )

    def _prepare(self) -> None:
        db = self._db
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if app_id == 0 and not tables:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("BEGIN IMMEDIATE")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute("COMMIT")
        elif app_id != APPLICATION_ID:
            raise JournalError(
                f"{self.path} is an SQLite database of another program; it was left untouched"
            )
        elif version > SCHEMA_VERSION:
            raise JournalError(
                f"{self.path} was written by a newer robo-companion (journal version {version}, "
                f"this one reads {SCHEMA_VERSION}); update the program"
            )
        result = db.execute("PRAGMA quick_check").fetchone()[0]
        if result != "ok":
            raise JournalError(
                f"the journal {self.path} is damaged ({result}); it was left untouched"
            )
        db.execute("PRAGMA journal_mode=WAL")
        # FULL: a commit is on disk (WAL fsynced) before append() returns, so an acknowledged
        # event survives a power cut.
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self, sql: str, params: tuple[Any, ...]) -> int:
        try:
            self._db.execute("BEGIN IMMEDIATE")
            cursor = self._db.execute(sql, params)
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise JournalError(f"the journal could not be written ({exc})") from None
        return int(cursor.lastrowid or 0)

    # ------------------------------------------------------------------ games

    def new_game(self, setup: dict[str, Any]) -> int:
        kind = str(setup.get("game", ""))
        return self._write(
            "INSERT INTO games(kind, setup, started) VALUES (?, ?, ?)",
            (kind, json.dumps(setup, sort_keys=True), _now()),
        )

    def append(self, game: int, event: dict[str, Any]) -> int:
        """Append one event durably; returns its sequence number (1-based)."""
        text = json.dumps(event, sort_keys=True)
        try:
            self._db.execute("BEGIN IMMEDIATE")
            row = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game = ?", (game,)
            ).fetchone()
            seq = int(row[0])
            self._db.execute(
                "INSERT INTO events(game, seq, at, event) VALUES (?, ?, ?, ?)",
                (game, seq, _now(), text),
            )
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise JournalError(f"the journal could not be written ({exc})") from None
        return seq

    def events(self, game: int) -> list[dict[str, Any]]:
        rows = self._db.execute("SELECT event FROM events WHERE game = ? ORDER BY seq", (game,))
        return [json.loads(r[0]) for r in rows]

    def set_status(self, game: int, status: str) -> None:
        ended = None if status == "playing" else _now()
        self._write("UPDATE games SET status = ?, ended = ? WHERE id = ?", (status, ended, game))

    def game(self, game: int) -> GameRow:
        rows = self._rows("WHERE g.id = ?", (game,))
        if not rows:
            raise JournalError(f"there is no game {game} in the journal")
        return rows[0]

    def games(self) -> list[GameRow]:
        return self._rows("", ())

    def unfinished(self) -> GameRow | None:
        """The most recent game still being played (the one to resume), if any."""
        rows = self._rows("WHERE g.status = 'playing'", ())
        return rows[-1] if rows else None

    def _rows(self, where: str, params: tuple[Any, ...]) -> list[GameRow]:
        sql = (
            "SELECT g.id, g.kind, g.setup, g.started, g.ended, g.status, "
            "(SELECT COUNT(*) FROM events e WHERE e.game = g.id) "
            f"FROM games g {where} ORDER BY g.id"
        )
        try:
            rows = self._db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise JournalError(f"the journal could not be read ({exc})") from None
        return [GameRow(r[0], r[1], json.loads(r[2]), r[3], r[4], r[5], r[6]) for r in rows]
