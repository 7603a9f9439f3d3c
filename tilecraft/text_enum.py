"""``TextEnum``: an enum whose members are their text, on every Python tilecraft supports.

Python 3.11's ``enum.StrEnum`` is this; tilecraft also runs on 3.10 (pyproject's
requires-python), so the records that are compared with, printed as and parsed from text
(scalar operators, kernel processors) derive from this instead.
"""

from __future__ import annotations

import enum


class TextEnum(str, enum.Enum):
    """A member equals, prints and formats as its value (``str(m) == f"{m}" == m.value``)."""

    __str__ = str.__str__
    __format__ = str.__format__
