"""Tuning results on disk: one small JSON file per tuning question, inspectable and clearable.

A question is (program source hash, candidate set, key values, architecture, grid, fidelity,
fp32 accumulation, tilecraft version); its file is named by the hash of that record and holds
the record itself, so ``tilecraft tune --cache list`` can say what each entry answers. Any change
to one of those fields is a different file: an edited kernel, another board or a new tilecraft
tunes again rather than reusing a stale winner.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SUFFIX = ".json"


@dataclass(frozen=True)
class CacheEntry:
    path: Path
    question: dict[str, Any]
    winner: dict[str, Any]
    predicted_s: float
    bound: str
    created: float


class TuneCache:
    def __init__(self, root: Path):
        self.root = Path(root)

    def file_for(self, question: dict[str, Any]) -> Path:
        digest = hashlib.sha256(json.dumps(question, sort_keys=True).encode()).hexdigest()[:24]
        return self.root / f"{question.get('program', 'program')}-{digest}{SUFFIX}"

    def get(self, question: dict[str, Any]) -> CacheEntry | None:
        """The stored answer to ``question``, or None (also for an unreadable file)."""
        path = self.file_for(question)
        entry = _read(path)
        return entry if entry is not None and entry.question == question else None

    def put(self, question: dict[str, Any], winner: dict[str, Any], predicted_s: float, bound: str) -> Path | None:
        """Store the winner; None when its values do not survive a round trip through text."""
        text = repr(winner)
        try:
            if ast.literal_eval(text) != winner:
                return None
        except (ValueError, SyntaxError):
            return None
        path = self.file_for(question)
        self.root.mkdir(parents=True, exist_ok=True)
        record = {"question": question, "winner": text, "predicted_s": predicted_s, "bound": bound,
                  "created": time.time()}
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(record, indent=1, sort_keys=True))
        partial.replace(path)  # atomic: a concurrent reader sees the old file or the new one
        return path

    def entries(self) -> list[CacheEntry]:
        if not self.root.is_dir():
            return []
        found = (_read(p) for p in sorted(self.root.glob(f"*{SUFFIX}")))
        return [e for e in found if e is not None]

    def clear(self) -> int:
        """Delete every entry; returns how many."""
        entries = self.entries()
        for entry in entries:
            entry.path.unlink(missing_ok=True)
        return len(entries)


def _read(path: Path) -> CacheEntry | None:
    try:
        record = json.loads(path.read_text())
        return CacheEntry(path, record["question"], ast.literal_eval(record["winner"]), float(record["predicted_s"]),
                          str(record["bound"]), float(record["created"]))
    except (OSError, ValueError, KeyError, TypeError, SyntaxError):
        return None
