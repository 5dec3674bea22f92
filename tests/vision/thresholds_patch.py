"""A test's thresholds: one section of `vision/thresholds.toml` with some keys set otherwise,
as one module reads it (the module's own ``section``, patched)."""

from __future__ import annotations

from types import ModuleType

import pytest

from vision.thresholds import section


def set_thresholds(monkeypatch: pytest.MonkeyPatch, module: ModuleType, name: str,
                   **keys: object) -> None:
    """``module`` reads section ``name`` with ``keys`` set to these values; other sections
    and modules as in the file."""
    real = section

    def patched(asked: str) -> dict[str, object]:
        cfg = real(asked)
        return {**cfg, **keys} if asked == name else cfg

    monkeypatch.setattr(module, "section", patched)
