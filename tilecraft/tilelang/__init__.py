"""TileLang's tile language on tilecraft: ``import tilecraft.tilelang as T`` (docs/tilelang.md).

A ``@T.prim_func`` written in the subset that the TileLang-Tenstorrent backend maps (``T.Kernel``,
``T.alloc_shared``, ``T.alloc_fragment``, ``T.clear``, ``T.fill``, ``T.copy``, ``T.gemm``,
``T.Pipelined``, ``T.Parallel``, ``T.reduce_max``/``T.reduce_sum``, ``T.exp`` and friends,
``T.ceildiv``) is not executed: its AST is translated (:mod:`.translate`) into a single-threaded
TT-Lang operation (docs/language.md section 15), which the compiler splits into a reader, a compute
and a writer thread. The names below other than :func:`ceildiv`, :class:`Tensor`, :func:`prim_func`
and :func:`jit` only mark constructs in a prim_func's source: called as Python they say so.
"""

from __future__ import annotations

from typing import Any, Callable

from ..diagnostics import UsageTypeError
from .kernel import JitKernel, PrimFunc, Tensor, jit, prim_func

#: dtype names TileLang scripts use as strings or as ``T.<name>``
bfloat16 = "bfloat16"
float16 = "float16"
float32 = "float32"


def ceildiv(a: int, b: int) -> int:
    """``T.ceildiv(a, b)``: the number of ``b``-sized blocks that cover ``a``."""
    return -(-a // b)


def infinity(dtype: str = "float32") -> float:
    """``T.infinity(dtype)``: positive infinity (every float format tilecraft maps has one)."""
    return float("inf")


def _marker(name: str) -> Callable[..., Any]:
    def fn(*args: Any, **kwargs: Any) -> Any:
        raise UsageTypeError(f"T.{name}() only has a meaning inside a @T.prim_func body, which tilecraft "
                             "translates rather than runs", hint="call it inside a function decorated with @T.prim_func")

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``T.{name}``: a construct of a @T.prim_func body (translated, never called)."
    return fn


#: the constructs of a prim_func body (docs/tilelang.md)
CONSTRUCTS = ("Kernel", "alloc_shared", "alloc_fragment", "clear", "fill", "copy", "gemm", "Pipelined", "Parallel",
              "serial", "reduce_max", "reduce_sum", "exp", "exp2", "log", "log2", "sqrt", "rsqrt", "abs", "tanh",
              "sigmoid", "max", "min")
for _name in CONSTRUCTS:
    globals()[_name] = _marker(_name)
del _name

__all__ = ["JitKernel", "PrimFunc", "Tensor", "bfloat16", "ceildiv", "float16", "float32", "infinity", "jit", "prim_func",
           *CONSTRUCTS]
