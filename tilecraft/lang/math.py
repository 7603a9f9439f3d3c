"""``ttl.math``: block math functions, compiled inside compute threads.

Every name of :mod:`tilecraft.ir.mathops` gets a stub here; the stubs only exist so that
``ttl.math.exp`` resolves and so that calling one as host Python gives a clear error.
"""

from __future__ import annotations

from typing import Any, Callable

from .intrinsic import intrinsic
from ..ir import mathops


def _stub(name: str) -> Callable[..., Any]:
    def fn(*args: Any, **kwargs: Any) -> Any:
        """Block math function (compiled in compute threads; see docs/language.md)."""

    fn.__name__ = fn.__qualname__ = name
    return intrinsic(f"math.{name}", where="a compute thread")(fn)


#: the functions of ``ttl.math`` (a misspelt one is matched against these)
__all__ = [*mathops.UNARY, *mathops.UNARY_ALIASES, *mathops.UNARY_PARAM, *mathops.BINARY,
           "where", "mask", "mask_posinf", "squeeze", "unsqueeze", "matmul", "transpose", "reduce_sum",
           "reduce_max", "fill", "broadcast"]
for _name in __all__:
    globals()[_name] = _stub(_name)
del _name
