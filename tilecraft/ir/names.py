"""Identifiers for registers in printed code: the one place that turns IR names into target names.

IR register names are unique strings within a thread (``%t_1`` and ``%t.1`` are two registers), but
a target language restricts its identifiers: Python and C++ have no ``.`` in names, C++ reserves
its keywords, and a generated kernel calls API functions a register must not shadow. Mapping each
name on its own (``.`` -> ``_``) merged ``t_1`` and ``t.1`` into one variable. An
:class:`Identifiers` table instead assigns every register name of one printed unit (a generated
Python function, a C++ kernel) its own identifier, never taken twice and never a reserved word.
"""

from __future__ import annotations

import re
from typing import Iterable

_NOT_IDENTIFIER = re.compile(r"[^0-9A-Za-z_]")


def sanitize(name: str) -> str:
    """``name`` with every character an identifier cannot hold replaced by ``_``."""
    text = _NOT_IDENTIFIER.sub("_", name) or "_"
    return "_" + text if text[0].isdigit() else text


class Identifiers:
    """Register name -> identifier, injective, for one printed unit.

    Names are given out in the order :meth:`reserve_names` sees them (names a user wrote, without
    a ``.``, first, so that they keep their own spelling where they can), or on first use.
    """

    def __init__(self, *, prefix: str = "", reserved: Iterable[str] = ()):
        self.prefix = prefix
        self._of: dict[str, str] = {}
        self._taken: set[str] = set(reserved)

    def reserve_names(self, names: Iterable[str]) -> "Identifiers":
        """Assign identifiers to ``names`` now: users' names first, generated ones after."""
        ordered = list(dict.fromkeys(names))
        for name in sorted(ordered, key=lambda n: "." in n):
            self(name)
        return self

    def __call__(self, name: str) -> str:
        found = self._of.get(name)
        if found is None:
            base = self.prefix + sanitize(name)
            found, n = base, 1
            while found in self._taken:
                found, n = f"{base}_{n}", n + 1
            self._taken.add(found)
            self._of[name] = found
        return found

    def taken(self, identifier: str) -> bool:
        """Whether ``identifier`` is given out or reserved (for names derived from a register's)."""
        return identifier in self._taken

    def reserve(self, identifier: str) -> None:
        self._taken.add(identifier)
