"""The journal file: created, reopened, and refused (untouched) when it is not ours."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion import commands as c
from companion.errors import JournalError
from companion.journal import Journal
from companion.session import TableSession
from companion.tables.robo_factory import RoboFactorySetup

SETUP = RoboFactorySetup(("Ann", "Bob"), "Ann")


def test_events_round_trip_in_order(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        game = journal.new_game(SETUP.to_json())
        for i in range(5):
            assert journal.append(game, {"type": "undo", "n": i}) == i + 1
    with Journal(path) as journal:
        assert [e["n"] for e in journal.events(game)] == [0, 1, 2, 3, 4]
        assert journal.unfinished() is not None
        journal.set_status(game, "finished")
        assert journal.unfinished() is None
        assert journal.game(game).status == "finished"


def test_wal_and_full_sync_are_in_force(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


@pytest.mark.parametrize(
    "content",
    [b"this is a text file, not a journal\n", b"SQLite format 3\x00" + b"\xff" * 4000],
    ids=["foreign-file", "damaged-sqlite"],
)
def test_a_foreign_or_damaged_file_is_refused_and_left_untouched(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "j.sqlite3"
    path.write_bytes(content)
    with pytest.raises(JournalError) as err:
        Journal(path)
    assert "untouched" in str(err.value) or "damaged" in str(err.value)
    assert path.read_bytes() == content


def test_another_programs_database_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes(text TEXT)")
    db.execute("INSERT INTO notes VALUES ('keep me')")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(JournalError, match="another program"):
        Journal(path)
    assert path.read_bytes() == before


def test_a_newer_journal_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    Journal(path).close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=99")
    db.close()
    with pytest.raises(JournalError, match="newer"):
        Journal(path)


def test_history_and_export_commands(tmp_path: Path) -> None:
    state = tmp_path / "state"
    path = state / "journal.sqlite3"
    with Journal(path) as journal:
        game = journal.new_game(SETUP.to_json())
        session = TableSession(SETUP, (), lambda cmd: journal.append(game, cmd.to_json()) and None)
        for cmd in (
            c.ScanOrder("red-green-blue"),
            c.LayBoardCard("red-red-red"),
            c.LayBoardCard("green-green-green"),
            c.LayBoardCard("blue-blue-blue"),
            c.StartProduction(),
            c.SetRobot("Bob", "red-green-blue"),
            c.StartReveal(),
            c.CommitReveal(),
        ):
            assert session.submit(cmd).accepted
    env = dict(os.environ, ROBO_COMPANION_STATE=str(state))
    run = [sys.executable, "-m", "companion.cli"]
    listing = subprocess.run([*run, "history"], capture_output=True, text=True, env=env, check=True)
    assert "robo-factory" in listing.stdout and "Ann, Bob" in listing.stdout
    exported = subprocess.run(
        [*run, "export", str(game)], capture_output=True, text=True, env=env, check=True
    )
    record = json.loads(exported.stdout)
    assert record["turns"][0]["attempts"] == [{"robots": {"Bob": "red-green-blue"}}]
    out = tmp_path / "game.json"
    subprocess.run([*run, "export", str(game), "--out", str(out)], env=env, check=True)
    replayed = subprocess.run(
        [*run, "replay", str(out)], capture_output=True, text=True, check=True
    )
    assert json.loads(replayed.stdout)["cubes"] == {"Ann": 4, "Bob": 8}
    missing = subprocess.run([*run, "export", "99"], capture_output=True, text=True, env=env)
    assert missing.returncode == 2 and "no game 99" in missing.stderr
    assert "Traceback" not in missing.stderr


def test_history_on_a_foreign_file_is_a_clear_error(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "journal.sqlite3").write_text("not a journal")
    env = dict(os.environ, ROBO_COMPANION_STATE=str(state))
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "history"], capture_output=True, text=True, env=env
    )
    assert done.returncode == 2
    assert "not a robo-companion journal" in done.stderr
    assert (state / "journal.sqlite3").read_text() == "not a journal"
