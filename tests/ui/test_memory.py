"""What the app keeps out of its memory (see docs/ui.md, "Memory"). Each check runs in a fresh
interpreter: pytest itself may already have imported what the app keeps out."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest


def _python(code: str, tmp_path: Path, display: bool = False) -> dict[str, object]:
    command = [sys.executable, "-c", textwrap.dedent(code)]
    if display and not os.environ.get("DISPLAY"):
        xvfb = shutil.which("xvfb-run")
        if xvfb is None:
            pytest.skip("no X display and no xvfb-run: install xvfb to run the app tests")
        command = [xvfb, "-a", "-s", "-screen 0 800x480x24", *command]
    env = {**os.environ, "ROBO_COMPANION_STATE": str(tmp_path / "state")}
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def test_openssl_and_pil_are_kept_out(tmp_path: Path) -> None:
    found = _python(
        """
        import json, sys
        from ui.launch import prepare_kivy
        prepare_kivy(False)
        import kivy.clock, kivy.core.image  # asyncio (ssl) and the image providers (PIL)
        import numpy.random  # secrets -> hmac -> _hashlib
        import hashlib, hmac
        digest = hmac.new(b"k", b"m", hashlib.sha256).hexdigest()
        loaded = [m for m in ("ssl", "_ssl", "_hashlib", "PIL") if sys.modules.get(m) is not None]
        print(json.dumps({"loaded": loaded, "digest": digest[:8]}))
        """,
        tmp_path,
    )
    assert found["loaded"] == []
    assert found["digest"] == "b60090e3"  # Python's own sha256 stands in for OpenSSL's


@pytest.mark.xvfb
def test_a_drawn_label_keeps_its_texture_but_not_its_surface(tmp_path: Path) -> None:
    found = _python(
        """
        import json
        from ui.launch import prepare_kivy
        prepare_kivy(False)
        import ui.app
        from kivy.uix.label import Label
        label = Label(text="Bob takes 4 cubes", font_size=30)
        label.texture_update()
        label.texture.bind()  # the texture is filled (the text drawn) when first used
        print(json.dumps({
            "patched": ui.app.drop_label_surfaces(),
            "texture": list(label.texture.size),
            "surface": getattr(label._label, "_surface", None) is not None,
        }))
        """,
        tmp_path,
        display=True,
    )
    assert found["patched"] is True
    assert found["texture"][0] > 100 and found["texture"][1] > 20
    assert found["surface"] is False
