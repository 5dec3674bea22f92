"""JSON objects that remember a key given twice.

``json.loads`` keeps the last of two equal keys without a word; a game record must not (two
purchases by one player would silently become one), so records are read with :func:`pairs`.
"""

from __future__ import annotations

from typing import Any


class JsonObject(dict[str, Any]):
    """A JSON object; ``duplicates`` names the keys it was given more than once."""

    duplicates: tuple[str, ...] = ()


def pairs(items: list[tuple[str, Any]]) -> JsonObject:
    """``object_pairs_hook`` for :func:`json.loads`."""
    obj = JsonObject(items)
    if len(obj) != len(items):
        seen: set[str] = set()
        repeated: list[str] = []
        for key, _ in items:
            if key in seen:
                repeated.append(key)
            seen.add(key)
        obj.duplicates = tuple(repeated)
    return obj
