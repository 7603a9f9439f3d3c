"""The open items the properties trip over, in one place: issues 7 and 8, and our own findings.

While an item is listed in :data:`OPEN`:

- the main properties leave out the check it breaks, for the programs it breaks (:data:`TRIPS`:
  e.g. the metal-level comparison of programs that broadcast a computed bf16 operand), or the
  generators leave out the construct (``strategies.py`` asks :func:`is_open`);
- the test dedicated to it (a fixed reproducer in ``reproducers/``, or the mistakes and host
  inputs that carry the item) is an expected failure, ``strict``: once the item is fixed the
  test passes, pytest reports XPASS as a failure, and the entry must be deleted here, which
  puts the construct or check back into the main properties.

"N1", "N2", ... are failures these properties found that no issue lists yet (the property
campaign's report describes each, with its reproducer).
"""

from __future__ import annotations

from typing import Iterable

import pytest

OPEN: dict[str, str] = {}

#: (item, feature words a program has, the check it breaks there): while the item is open the
#: main property does not make that check on such programs
TRIPS: tuple[tuple[str, frozenset[str], str], ...] = (
    # the metal level stores a computed operand of a broadcast, reduction or transpose in an
    # intermediate buffer, bfloat16 unless the program has a float32 buffer (metal/lower.py)
    ("7.13", frozenset({"computed_broadcast", "no_float32"}), "metal"),
    ("N1", frozenset({"computed_reduce", "no_float32"}), "metal"),
    ("N2", frozenset({"computed_transpose", "no_float32", "out_bfloat8_b"}), "metal"),
    # a last-bit difference shows only where the result is stored as float32
    ("7.16", frozenset({"row_major", "inexact_functions", "out_float32"}), "exact"),
)


def is_open(item: str) -> bool:
    return item in OPEN


def unchecked(features: Iterable[str]) -> dict[str, str]:
    """Check -> the open item that keeps it from being made on a program with ``features``."""
    have = set(features)
    return {check: item for item, needs, check in TRIPS if is_open(item) and needs <= have}


def xfail(item: str | None, strict: bool = True) -> pytest.MarkDecorator:
    """The expected failure of a test that trips over ``item`` (a no-op once it is closed)."""
    return pytest.mark.xfail(item is not None and is_open(item),
                             reason=f"issue {item}: {OPEN.get(item or '', 'closed')}", strict=strict)
