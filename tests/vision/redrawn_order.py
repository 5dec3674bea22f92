"""A third-art set's tile and order calibration pictures and one of its order pictures, drawn
again from the set's seed (``thirdart.build``): the order tests that pin a case from a generated
set read it as the set's own evaluation did, without the set on disk (as ``redrawn_grid`` does
for grids)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from companion.config import Config
from vision.dataset import Example, load_labelled


def redrawn_order(folder: Path, seed: int, name: str) -> tuple[list[Example], np.ndarray, str]:
    """Set ``seed``'s tile and order calibration pictures written to ``folder``, its order
    picture ``name`` as the camera sent it, and that picture's labelled robot."""
    from tests.vision.thirdart.build import as_sent, redrawn

    shot = redrawn(folder, seed, name)
    return load_labelled(folder, Config()), as_sent(shot), str(shot.label["robot"])
