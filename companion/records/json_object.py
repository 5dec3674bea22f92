"""JSON objects that remember a key given twice.

``json.loads`` keeps the last of two equal keys without a word; a game record must not (two
purchases by one player would silently become one), so records are read with :func:`pairs`.
"""

from __future__ import annotations

from typing import Any


class JsonObject(dict[str, Any]):
    """A JSON object; ``duplicates`` names the keys it was given more than once."""

    duplicates: tuple[str, ...] = ()


def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` for :func:`json.loads`.

    An object with a key given twice becomes a :class:`JsonObject` naming the repeated keys; any
    other object is a plain dict, so readers can tell a clean object by its type alone
    (``type(value) is dict``), as cheaply as for a record built in Python.
    """
    obj = dict(items)
    if len(obj) == len(items):
        return obj
    seen: set[str] = set()
    repeated: list[str] = []
    for key, _ in items:
        if key in seen:
            repeated.append(key)
        seen.add(key)
    flagged = JsonObject(items)
    flagged.duplicates = tuple(repeated)
    return flagged
