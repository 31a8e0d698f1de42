"""Foreign record formats, turned into tableref's JSON-lines record before replay.

A game that reads another format registers a converter here by file suffix (lower case):
``converter(text) -> jsonl_text``. Twixt registers ``.t1`` (T1j), ``.lg`` (Little Golem) and
``.sgf``. Anything else is read as a JSON-lines record.
"""

from __future__ import annotations

import importlib
from pathlib import PurePath

# suffix -> "module:function" taking the file's text and returning JSON-lines record text.
_CONVERTERS: dict[str, str] = {
    ".t1": "referee.twixt.records:t1_to_jsonl",
    ".lg": "referee.twixt.records:littlegolem_to_jsonl",
    ".sgf": "referee.twixt.records:sgf_to_jsonl",
}


def load_record_text(filename: str, text: str) -> str:
    """``text`` as a tableref JSON-lines record, converted from its format by ``filename``."""
    suffix = PurePath(filename).suffix.lower()
    target = _CONVERTERS.get(suffix)
    if target is None:
        return text
    module_name, _, func_name = target.partition(":")
    return getattr(importlib.import_module(module_name), func_name)(text)
