"""UI tests: view models and the controller run without Kivy; app tests need an X display."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.fakes import FakeCamera, FakeSirenBoard, ScriptedDice
from companion.journal import Journal
from companion.service import TableService
from ui import i18n


@pytest.fixture(autouse=True)
def _english_and_private_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("ROBO_COMPANION_STATE", str(tmp_path / "state"))
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TableService]:
    svc = TableService(Journal(tmp_path / "journal.sqlite3"), dice=ScriptedDice([4] * 50))
    yield svc
    svc.close()


@pytest.fixture
def wired_service(tmp_path: Path) -> Iterator[tuple[TableService, FakeCamera, FakeSirenBoard]]:
    camera, board = FakeCamera(), FakeSirenBoard()
    svc = TableService(
        Journal(tmp_path / "journal.sqlite3"),
        board=board,
        camera=camera,
        dice=ScriptedDice([3] * 50),
    )
    yield svc, camera, board
    svc.close()
