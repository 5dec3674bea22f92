from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# tests/ has no packages (tests/hardware would shadow the real `hardware`), so the helpers
# module beside this file is put on the path by hand.
sys.path.insert(0, str(Path(__file__).parent))
from siren_helpers import Table

from hardware.simulator import SimulatedBoard


@pytest.fixture
def simulator() -> Iterator[SimulatedBoard]:
    sim = SimulatedBoard(6)
    yield sim
    sim.close()


@pytest.fixture
def table(simulator: SimulatedBoard) -> Iterator[Table]:
    t = Table(simulator)
    t.start()
    yield t
    t.driver.close()
