"""Shared test set-up: no test may touch the user's real config or journal."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    monkeypatch.delenv("ROBO_COMPANION_CONFIG", raising=False)
    monkeypatch.delenv("ROBO_COMPANION_STATE", raising=False)
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    yield
