"""Languages: every string the app uses is translated to Dutch and German, keeps its
placeholders, and switches at runtime."""

from __future__ import annotations

import re

import pytest

from companion.instructions import Instruction
from ui import i18n
from ui.locale.translations import T


def test_every_message_has_a_dutch_and_german_translation() -> None:
    missing = [m for m in i18n.extract_messages() if m not in T]
    assert missing == []
    assert i18n.main(["missing"]) == 0


@pytest.mark.parametrize("msgid", sorted(T))
def test_translations_keep_the_placeholders(msgid: str) -> None:
    wanted = sorted(re.findall(r"{\w+}", msgid))
    for text in T[msgid]:
        assert sorted(re.findall(r"{\w+}", text)) == wanted, text


def test_switching_language_at_runtime() -> None:
    heard: list[str] = []
    i18n.on_change(heard.append)
    i18n.set_language("nl")
    assert i18n._("Undo") == "Ongedaan"
    i18n.set_language("de")
    assert i18n._("Undo") == "Rückgängig"
    assert heard[-2:] == ["nl", "de"]
    i18n.set_language("en")
    assert i18n._("Undo") == "Undo"
    with pytest.raises(ValueError):
        i18n.set_language("fr")


def test_the_cores_instructions_are_translated() -> None:
    i18n.set_language("de")
    text = i18n.instruction(
        Instruction("pay-player", {"player": "Cid", "amount": 1, "payee": "Ann"})
    )
    assert text == "Cid zahlt 1 an Ann"
    text = i18n.instruction(
        Instruction(
            "rm-winner",
            {"player": "Ann", "side": "rows", "detail": "line 1 from the lowest: 13 against 10"},
        )
    )
    assert text == "Ann (Reihen) gewinnt: Linie 1 von unten: 13 gegen 10"


def test_catalogs_compile_with_babel(tmp_path: object) -> None:
    written = i18n.compile_catalogs(force=True)
    assert {p.parent.parent.name for p in written} == {"nl", "de"}
