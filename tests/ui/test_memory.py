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


def _python(code: str, tmp_path: Path, display: bool = False, head: str = "") -> dict[str, object]:
    command = [sys.executable, "-c", textwrap.dedent(head) + textwrap.dedent(code)]
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


def test_asyncio_waits_until_something_uses_it(tmp_path: Path) -> None:
    found = _python(
        """
        import json, sys
        from ui.launch import LazyAsyncio, prepare_kivy
        prepare_kivy(False)
        from kivy.clock import Clock  # made by prepare_kivy, which imported asyncio for it
        lazy = isinstance(Clock._async_lib, LazyAsyncio)
        standing_in = "asyncio" in sys.modules
        loaded = sorted(m for m in sys.modules if m.startswith(("asyncio.", "concurrent.")))
        import asyncio.events as events  # a submodule first: one copy, the package's own
        import asyncio  # a real use: the real module, and the clock's async mode still works
        waited = asyncio.run(Clock._async_wait_for(asyncio.sleep(0, "slept"), 1))
        print(json.dumps({"lazy": lazy, "standing_in": standing_in, "loaded": loaded,
                          "waited": waited, "real": not isinstance(asyncio, LazyAsyncio),
                          "one_copy": asyncio.base_events.events is events}))
        """,
        tmp_path,
    )
    assert found["lazy"] is True
    assert found["standing_in"] is False
    assert found["loaded"] == []
    assert found["waited"] == "slept"
    assert found["real"] is True
    assert found["one_copy"] is True


#: a Kivy app made (not run) for screens built alone: the kv rules ask the running app for
#: ``tr``, ``lang`` and ``demo``, and the screens ask it for ``controller``, ``note`` and ``act``
_SCREENS = """
    import json
    from ui.launch import prepare_kivy
    prepare_kivy(False)
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.lang import Builder
    from kivy.properties import BooleanProperty, StringProperty
    import ui.app
    from ui import viewmodels as vm
    for name in ui.app.KV_FILES:
        Builder.load_file(str(ui.app.HERE / name))

    class Views:
        view = None
        def view(self):
            return self.shown

    class Bare(App):
        demo = BooleanProperty(False)
        lang = StringProperty("en")
        controller = Views()
        def tr(self, message, _lang=""):
            return message
        def note(self, default):
            return default, False
        def act(self, key):
            pass

    app = Bare()

    def master(cells, prompts=(), actions=()):
        rows = len(cells)
        grid = tuple(
            tuple(vm.GridCell(f"{'abcde'[c]}{rows - r}", value, legal, selected)
                  for c, (value, legal, selected) in enumerate(row))
            for r, row in enumerate(cells))
        cols = len(cells[0])
        return vm.MasterView(
            step="place", title="Robot Master", subtitle="Ann (rows) against Bob (columns)",
            lines=("Ann to play",), grid=grid,
            row_labels=tuple(str(rows - r) for r in range(rows)),
            column_labels=tuple("abcde"[:cols]),
            row_scores=tuple(range(rows)), column_scores=tuple(range(cols, 0, -1)),
            to_move="Ann", cards_left=(3,) * 6, warning="", actions=tuple(actions),
            prompts=tuple(prompts))

    def looks(widget):
        # what a widget shows: every property a refresh sets
        return [getattr(widget, name, None) if not hasattr(getattr(widget, name, None), "__len__")
                or isinstance(getattr(widget, name, None), str)
                else list(getattr(widget, name))
                for name in ("text", "action_key", "kind", "disabled", "background_color",
                             "color", "font_size", "bold")]
"""


@pytest.mark.xvfb
def test_the_master_screen_updates_its_widgets_in_place(tmp_path: Path) -> None:
    found = _python(
        """
        from ui.screens.master import MasterScreen
        empty, legal, card = (None, False, False), (None, True, False), (4, False, False)
        chosen, zero = (None, True, True), (0, False, False)
        first = master([[empty, legal, empty], [legal, card, legal], [empty, legal, empty]],
                       actions=[vm.Action("undo-move", "Take back")])
        later = master([[empty, card, legal], [legal, card, chosen], [empty, legal, zero]],
                       prompts=[vm.Prompt("The camera reads a 2 at c2", "", False,
                                          (vm.Action("accept", "Yes", kind="primary"),
                                           vm.Action("fix", "Correct it")))],
                       actions=[vm.Action("undo-move", "Take back", enabled=False)])
        wider = master([[empty] * 5 for _ in range(5)])
        screen = MasterScreen(name="master")
        app.controller.shown = first
        screen.refresh()
        made = [id(w) for w in screen.ids.grid.children]
        action = screen.ids.actions.children[0]
        app.controller.shown = later
        screen.refresh()
        screen.refresh()
        kept = [id(w) for w in screen.ids.grid.children]
        action_kept = screen.ids.actions.children[0] is action
        fresh = MasterScreen(name="fresh")  # the later view on a screen that never showed another
        fresh.refresh()
        same_look = [looks(a) == looks(b) for a, b in zip(screen.ids.grid.children,
                                                          fresh.ids.grid.children)]
        prompt_look = [looks(a) == looks(b) for a, b in zip(screen.ids.prompts.children[0].children,
                                                            fresh.ids.prompts.children[0].children)]
        prompt_texts = [w.text for w in screen.ids.prompts.children[0].children][::-1]
        app.controller.shown = wider
        screen.refresh()
        print(json.dumps({
            "made": len(made), "kept": kept == made,
            "action_kept": action_kept,
            "same_look": same_look, "children": len(fresh.ids.grid.children),
            "prompt_look": prompt_look,
            "prompt_texts": prompt_texts, "prompts_after": len(screen.ids.prompts.children),
            "wider": len(screen.ids.grid.children), "cols": screen.ids.grid.cols,
        }))
        """,
        tmp_path,
        display=True,
        head=_SCREENS,
    )
    # 3x3 cells, their line labels and scores and the four corners: made once, then updated
    assert found["made"] == 25
    assert found["kept"] is True
    assert found["action_kept"] is True  # one action before and after: the button is updated
    # an updated screen looks exactly like one that only ever showed the later view
    assert found["children"] == 25 and all(found["same_look"])
    assert len(found["prompt_look"]) == 2 and all(found["prompt_look"])
    assert found["prompt_texts"] == ["Yes", "Correct it"]
    assert found["prompts_after"] == 0
    # a floating grid that grows is made anew at its new shape
    assert found["wider"] == 49 and found["cols"] == 7


@pytest.mark.xvfb
def test_drawn_charts_reuse_their_labels(tmp_path: Path) -> None:
    found = _python(
        """
        from ui.widgets import CubesChart, HeatMap
        heat = HeatMap(size=(300, 300))
        heat.row_scores, heat.column_scores, heat.max_score = [1] * 5, [2] * 5, 9
        heat.grid = [[1, None, 3, 4, 5]] * 5
        Clock.tick()
        made = [id(label) for label in heat.children]
        heat.size = (320, 320)
        heat.pos = (5, 5)
        heat.grid = [[0] * 5] * 5
        heat.row_scores = [0] * 5
        Clock.tick()
        chart = CubesChart(size=(400, 300))
        chart.series = [("Ann", [0, 2, 5], True), ("Bob", [0, 1, 1], False)]
        Clock.tick()
        chart_made = [id(label) for label in chart.children]
        chart.pos = (3, 3)
        Clock.tick()
        drawn = [label.canvas in heat.canvas.children for label in heat.children]
        chart_drawn = [label.canvas in chart.canvas.children for label in chart.children]
        print(json.dumps({
            "labels": len(made), "kept": [id(label) for label in heat.children] == made,
            "drawn": drawn, "chart_drawn": chart_drawn,
            "texts": sorted({label.text for label in heat.children}),
            "chart_kept": [id(label) for label in chart.children] == chart_made,
            "chart_labels": len(chart_made),
        }))
        """,
        tmp_path,
        display=True,
        head=_SCREENS,
    )
    assert found["labels"] == 35  # 25 cells and 10 line scores
    assert found["kept"] is True
    assert len(found["drawn"]) == 35 and all(found["drawn"])  # still on the widget's canvas
    assert all(found["chart_drawn"])
    assert found["texts"] == ["0", "2"]  # the new cells and row scores, the columns' as before
    assert found["chart_labels"] > 5 and found["chart_kept"] is True


@pytest.mark.xvfb
def test_a_screen_out_of_sight_lets_go_of_what_its_refresh_makes(tmp_path: Path) -> None:
    found = _python(
        """
        from kivy.uix.label import Label
        from ui.app import Screens
        from ui.screens.end import EndScreen
        from ui.screens.factory import FactoryScreen
        from ui.screens.master import MasterScreen
        from ui.screens.number import NumberScreen
        from ui.screens.picker import PickerScreen
        screens = Screens()
        made = {}
        for cls, name in ((FactoryScreen, "factory"), (PickerScreen, "picker"),
                          (NumberScreen, "number"), (EndScreen, "end"), (MasterScreen, "master")):
            screen = cls(name=name)
            screens.add_screen(screen)
            made[name] = screen
            for box in screen.filled:
                screen.ids[box].add_widget(Label(text="made by a refresh"))
        screens.current = "factory"
        screens.current = "picker"  # the factory is left
        factory = made["factory"]
        left_factory = {box: len(factory.ids[box].children) for box in factory.filled}
        kept_picker = sum(len(made["picker"].ids[box].children) for box in made["picker"].filled)
        screens.current = "number"
        screens.current = "end"
        screens.current = "master"
        print(json.dumps({
            "filled": {name: list(s.filled) for name, s in made.items()},
            "left_factory": left_factory, "kept_picker": kept_picker,
            "emptied": {name: sum(len(s.ids[b].children) for b in s.filled)
                        for name, s in made.items()},
        }))
        """,
        tmp_path,
        display=True,
        head=_SCREENS,
    )
    assert found["filled"]["factory"] == ["players", "lines", "board", "prompts", "actions"]
    assert found["filled"]["master"] == []  # the game screen keeps its widgets to update them
    assert set(found["left_factory"].values()) == {0}
    assert found["kept_picker"] == 2  # the screen in sight keeps its own
    assert found["emptied"] == {"factory": 0, "picker": 0, "number": 0, "end": 0, "master": 0}
