"""Languages: English, Dutch and German through gettext catalogs, switchable at runtime.

The catalogs are ``ui/locale/<lang>/LC_MESSAGES/robo_companion.po`` (committed). Their ``.mo``
files are compiled with Babel when missing or older than the ``.po`` (at import, or by
``python -m ui.i18n compile``), so a fresh checkout works without a build step. English is the
msgid itself. The core's :class:`~companion.instructions.Instruction` templates are msgids too,
so the table's instructions are translated with the same catalogs.

No Kivy here: view models and tests use this module directly.
"""

from __future__ import annotations

import gettext
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.instructions import Instruction

log = logging.getLogger(__name__)

DOMAIN = "robo_companion"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES: dict[str, str] = {"en": "English", "nl": "Nederlands", "de": "Deutsch"}

_current = "en"
_catalogs: dict[str, gettext.NullTranslations] = {}
_listeners: list[Callable[[str], None]] = []


def N_(message: str) -> str:
    return message


def compile_catalogs(force: bool = False) -> list[Path]:
    """Compile every .po beside this module to .mo with Babel; returns the files written."""
    written: list[Path] = []
    for po_path in sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        mo_path = po_path.with_suffix(".mo")
        if not force and mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        try:
            from babel.messages.mofile import write_mo
            from babel.messages.pofile import read_po
        except ImportError:  # pragma: no cover - babel is in the ui extra
            log.warning("Babel is not installed: the app speaks English only")
            return written
        with po_path.open("rb") as src:
            catalog = read_po(src)
        try:
            with mo_path.open("wb") as out:
                write_mo(out, catalog)
        except OSError as exc:  # a read-only install: fall back to English rather than fail
            log.warning("cannot write %s (%s)", mo_path, exc)
            continue
        written.append(mo_path)
    return written


def _catalog(lang: str) -> gettext.NullTranslations:
    if lang not in _catalogs:
        if lang == "en":
            _catalogs[lang] = gettext.NullTranslations()
        else:
            compile_catalogs()
            _catalogs[lang] = gettext.translation(
                DOMAIN, str(LOCALE_DIR), languages=[lang], fallback=True
            )
    return _catalogs[lang]


def set_language(lang: str) -> None:
    """Switch every string from now on; listeners (the app) redraw."""
    global _current
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    _current = lang
    _catalog(lang)
    for listener in list(_listeners):
        listener(lang)


def language() -> str:
    return _current


def on_change(listener: Callable[[str], None]) -> None:
    _listeners.append(listener)


def _(message: str) -> str:
    return _catalog(_current).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _catalog(_current).ngettext(singular, plural, n)


def tr(message: str, **args: Any) -> str:
    """Translate, then fill in ``{placeholders}``."""
    text = _(message)
    try:
        return text.format(**args)
    except (KeyError, IndexError, ValueError):  # a broken translation must not crash the table
        return message.format(**args)


#: words that appear inside instruction arguments and need translating too
SIDE_WORDS = {"rows": N_("rows"), "columns": N_("columns")}


def instruction(item: Instruction) -> str:
    """An instruction from the core, in the current language."""
    args = dict(item.args)
    if "side" in args:
        args["side"] = _(SIDE_WORDS.get(str(args["side"]), str(args["side"])))
    if item.code == "rm-winner" and "detail" in args:
        args["detail"] = _rm_detail(str(args["detail"]))
    return tr(item.template, **args)


def _rm_detail(detail: str) -> str:
    # The core words the deciding comparison as "line K from the lowest: A against B".
    import re

    m = re.fullmatch(r"line (\d+) from the lowest: (\d+) against (\d+)", detail)
    if m is None:
        return detail
    return tr(
        "line {k} from the lowest: {mine} against {theirs}",
        k=m.group(1),
        mine=m.group(2),
        theirs=m.group(3),
    )


def colour_name(colour: str) -> str:
    return _(colour)


N_("red")
N_("green")
N_("blue")
N_("yellow")


def extract_messages() -> list[str]:
    """Every msgid the app uses (code, .kv files and the core's instruction templates)."""
    import ast
    import re

    from companion.instructions import TEMPLATES

    found: dict[str, None] = {}
    root = Path(__file__).parent
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = (
                func.id
                if isinstance(func, ast.Name)
                else (func.attr if isinstance(func, ast.Attribute) else "")
            )
            first = node.args[0]
            if (
                name in ("_", "N_", "tr")
                and isinstance(first, ast.Constant)
                and isinstance(first.value, str)
            ):
                found[first.value] = None
    # kv rules call app.tr("...", app.lang) with one literal on one line
    pattern = re.compile(r'\bapp\.tr\(\s*"((?:[^"\\]|\\.)*)"')
    for path in sorted(root.rglob("*.kv")):
        for m in pattern.finditer(path.read_text(encoding="utf-8")):
            found[m.group(1)] = None
    for template in TEMPLATES.values():
        found[template] = None
    return list(found)


def main(argv: list[str]) -> int:
    """``python -m ui.i18n compile|missing``."""
    if argv[:1] == ["compile"]:
        for path in compile_catalogs(force=True):
            print(path)
        return 0
    if argv[:1] == ["missing"]:
        from babel.messages.pofile import read_po

        status = 0
        for lang in LANGUAGES:
            if lang == "en":
                continue
            with (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as f:
                catalog = read_po(f)
            for msgid in extract_messages():
                message = catalog.get(msgid)
                if message is None or not message.string:
                    print(f"{lang}: {msgid}")
                    status = 1
        return status
    print("usage: python -m ui.i18n compile|missing")
    return 2


if __name__ == "__main__":  # pragma: no cover
    import sys

    raise SystemExit(main(sys.argv[1:]))
