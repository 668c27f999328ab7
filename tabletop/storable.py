"""Text the database can store: one rule for the websocket protocol and every form.

PostgreSQL refuses the NUL character in `text` and `\\u0000` in `jsonb`, and UTF-8 has
no encoding for a lone surrogate (U+D800-U+DFFF), which JSON's `\\ud800` escape and
Python strings can still carry. Such text reached the database as a `server_error`,
for ever on resend; it is refused where it comes in instead.
"""

import re
from typing import Any

UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
MESSAGE = "contains a character that cannot be stored (NUL or a lone surrogate)"


def storable(text: str) -> bool:
    return UNSTORABLE.search(text) is None


def unstorable_at(value: Any, where: str = "") -> str | None:
    """The path of the first string (or object key) in a JSON value that cannot be
    stored, or None when all can."""
    if isinstance(value, str):
        return None if storable(value) else where
    if isinstance(value, dict):
        for key, item in value.items():
            at = f"{where}.{key}" if where else str(key)
            if isinstance(key, str) and not storable(key):
                return where or "(key)"
            found = unstorable_at(item, at)
            if found is not None:
                return found
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = unstorable_at(item, f"{where}[{i}]")
            if found is not None:
                return found
    return None
