"""Checks of a record's JSON shape shared by both games' readers.

Each raises :class:`~companion.errors.RecordError` naming where (turn, move) and which field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import RecordError
from companion.records.json_object import JsonObject


def show(value: Any) -> str:
    """A short rendering of a wrong value for an error message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def duplicates(value: Mapping[str, Any]) -> tuple[str, ...]:
    """Keys the JSON gave twice (a plain dict built in Python has none)."""
    return value.duplicates if isinstance(value, JsonObject) else ()


def json_object(value: Any, where: str, field: str) -> dict[str, Any]:
    """``value`` if it is a JSON object with no key given twice."""
    if not isinstance(value, dict):
        raise RecordError(where, field, f"expected an object, got {show(value)}")
    repeated = duplicates(value)
    if repeated:  # JSON allows a key twice; a record must not
        raise RecordError(where, f"{field}.{repeated[0]}" if field else repeated[0], "given twice")
    return value


def json_list(value: Any, where: str, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(where, field, f"expected a list, got {show(value)}")
    return value


def no_unknown(obj: Mapping[str, Any], known: set[str], where: str, prefix: str = "") -> None:
    """Refuse a field the format does not have (a typo must not drop part of a game)."""
    for key in obj:
        if key not in known:
            raise RecordError(
                where,
                f"{prefix}{key}",
                f"unknown field (expected one of {', '.join(sorted(known))})",
            )
