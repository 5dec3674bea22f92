"""kill -9 at random moments: every acknowledged event survives, and resuming equals a replay."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from companion import commands as c
from companion.journal import Journal
from companion.replay import replay_record
from companion.session import TableSession, setup_from_json

sys.path.insert(0, str(Path(__file__).parent))
import crash_child

CHILD = Path(__file__).with_name("crash_child.py")
KILLS = 50
GAMES = 1000  # far more than the kills can get through, so every kill lands mid-play


def _start(db: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).parents[2]))
    return subprocess.Popen(
        [sys.executable, str(CHILD), str(db), str(GAMES)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_sigkill_loses_no_acknowledged_event(tmp_path: Path) -> None:
    db = tmp_path / "journal.sqlite3"
    rng = random.Random(2026)
    kills = 0
    acked: dict[int, int] = {}
    durable: dict[int, int] = {}  # events found in the journal by the previous check
    for _round in range(10 * KILLS):  # bounded: a child that is never killed ends the test
        if kills == KILLS:
            break
        child = _start(db)
        # Python starts in ~0.1-0.3 s here; the delays spread kills over start-up, resume and play.
        time.sleep(rng.uniform(0.05, 0.9))
        child.send_signal(signal.SIGKILL)
        out, err = child.communicate()
        assert "Traceback" not in err, err
        for line in out.splitlines():
            word, *rest = line.split()
            assert word == "ack", line  # "done" would mean the kills missed the play
            if word == "ack":
                acked[int(rest[0])] = int(rest[1])
        if child.returncode == -signal.SIGKILL:
            kills += 1
        _check(db, acked, durable)
    assert kills == KILLS


def _check(db: Path, acked: dict[int, int], durable: dict[int, int]) -> None:
    if not db.exists():
        return
    with Journal(db) as journal:
        rows = journal.games()
        for row in rows[-2:]:  # the games this round can have touched
            events = [c.from_json(e) for e in journal.events(row.id)]
            # Nothing acknowledged (or found durable before) is lost. A kill between a commit and
            # its "ack" leaves one event durable but unacknowledged: at most one per round.
            known = max(acked.get(row.id, 0), durable.get(row.id, 0))
            assert len(events) >= known
            assert len(events) <= known + 1
            durable[row.id] = len(events)
            # the journal holds exactly the start of the scripted game, in order
            setup, script = crash_child.script(row.id - 1)
            assert setup_from_json(row.setup) == setup
            assert events == script[: len(events)]
            # and resuming from it equals a clean replay of the record played so far
            resumed = TableSession(setup, events)
            assert resumed.summary() == replay_record(resumed.to_record())
            played = TableSession(setup, script[: len(events)])
            assert resumed.state.step == played.state.step
            assert resumed.to_record() == played.to_record()
