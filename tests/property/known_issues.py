"""The open items of issues 7 and 8 that the properties trip over, in one place.

While an item is listed here, the generators leave out what triggers it from the main
properties, and the test dedicated to it is an expected failure (``strict``: once the item is
fixed the test passes, pytest reports XPASS as a failure, and the entry must be deleted here;
the generators then include the feature in the main properties again).
"""

from __future__ import annotations

import pytest

OPEN: dict[str, str] = {
    "7.1": "the 1.1.6 accumulator idiom (acc = ttl.block.fill(...); acc += a @ b; out.store(acc)) crashes",
    "7.12": "thread source is cached by code object: scripts differing in a helper's default share a result",
    "7.13": "--level metal differs from the default level on bf16 broadcasts of a computed operand",
    "7.14": "--grid 0 / 0,0 / 3,-1 end in an internal IndexError",
    "7.15": "user mistakes in host code are reported as 'tilecraft: internal error'",
    "7.16": "--exact and the default differ in the last bit on small row-major blocks (sigmoid, exp2, sinh, cosh)",
    "7.17": "documented errors never raised ('a' == 'b', elu without alpha, unused division by zero, pipes outside the grid)",
    "7.21": "E0204 (too many threads) points at the kernel decorator, not at the extra thread",
    "8.1": "user names like t_1 / c_1 collide with the front end's temporaries (%t.1) in the generated code",
}


def is_open(item: str) -> bool:
    return item in OPEN


def xfail(item: str, strict: bool = True) -> pytest.MarkDecorator:
    """The expected failure of the test dedicated to ``item`` (none once it is closed)."""
    return pytest.mark.xfail(is_open(item), reason=f"issue {item}: {OPEN.get(item, 'closed')}", strict=strict)
