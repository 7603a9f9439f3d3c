"""``ttl.fuse``: a function of torch tensor operations as one fused kernel (docs/language.md section 16).

``@ttl.fuse`` (or ``@ttl.fuse(grid=..., block=..., schedule=...)``) wraps a Python function of
torch-like tensor operations. Each call traces it with ``torch.fx`` for the argument shapes and
formats (``trace.py``), writes one single-threaded ``@ttl.operation`` that computes the whole
function block by block (``lower.py``) and launches it once: one reader, one compute and one
writer per core instead of one pass over memory per operation. Arguments may be ttnn tensors (the
result is a ttnn tensor) or torch tensors (moved to the simulated device in their format and the
result moved back); other arguments are constants of the trace. Why "fuse": the operations of the
function are fused into one kernel, the word torch users know from ``torch.compile``'s fusion and
TT-NN's fused ops; "compile" would promise more than a single-kernel rewrite.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable

import torch

from .. import ttnn
from ..diagnostics import Span, UsageTypeError, error
from ..lang.buffers import is_tile_layout, is_ttnn_tensor
from ..lang.kernel import KernelDef, operation
from .lower import Writer, plan_roles
from .trace import DTYPE, FORMATS, Traced, rank2, trace

__all__ = ["fuse"]


class Fused:
    """A fused function: traced and compiled once per argument signature, one launch per call."""

    def __init__(self, fn: Callable[..., Any], grid: Any, block: tuple[int | None, int | None] | None,
                 schedule: str, block_count: Any):
        self.fn = fn
        self.grid = grid
        self.block = block
        self.schedule = schedule
        self.block_count = block_count
        self.compiled: dict[tuple, tuple[KernelDef, Traced]] = {}
        functools.update_wrapper(self, fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            bound = inspect.signature(self.fn).bind(*args, **kwargs)
        except TypeError as exc:  # reported at the user's call, as a kernel's wrong call is
            raise UsageTypeError(f"fused function {self.fn.__name__}() called with the wrong arguments: {exc}",
                                 hint=f"pass {self.fn.__name__}{inspect.signature(self.fn)}") from None
        bound.apply_defaults()
        tensors = {k: v for k, v in bound.arguments.items() if isinstance(v, torch.Tensor) or is_ttnn_tensor(v)}
        constants = {k: v for k, v in bound.arguments.items() if k not in tensors}
        as_torch = all(isinstance(v, torch.Tensor) for v in tensors.values())
        device = {k: self._on_device(k, v) for k, v in tensors.items()}
        signature = tuple((k, tuple(v.shape), v.dtype.name) for k, v in device.items())
        key = (signature, tuple((k, repr(v)) for k, v in constants.items()))
        if key not in self.compiled:
            shapes = {k: (tuple(tensors[k].shape), v.dtype.torch_dtype) for k, v in device.items()}
            self.compiled[key] = self._compile(shapes, list(device), constants)
        kdef, traced = self.compiled[key]
        out_format = ttnn.float32 if traced.out_dtype == torch.float32 else ttnn.bfloat16
        shape = tuple(traced.output.shape)
        out = ttnn.zeros(shape, dtype=out_format, layout=ttnn.TILE_LAYOUT)
        kdef(*device.values(), out)
        if not as_torch:
            return out if tuple(traced.out_shape) == shape else ttnn.reshape(out, traced.out_shape)
        result = ttnn.to_torch(out).reshape(traced.out_shape)
        return result != 0 if traced.out_dtype == torch.bool else result.to(traced.out_dtype)

    def _on_device(self, name: str, value: Any) -> Any:
        if isinstance(value, torch.Tensor):
            if value.dtype not in FORMATS:
                raise error(DTYPE, f"argument '{name}' of {self.fn.__name__}() is a {value.dtype} tensor; fused "
                            "functions take float32 and bfloat16 tensors", self._span(),
                            hint="convert it first: t.float() or t.bfloat16()")
            value = ttnn.from_torch(value.reshape(rank2(tuple(value.shape))) if value.dim() < 2 else value,
                                    dtype=ttnn.float32 if value.dtype == torch.float32 else ttnn.bfloat16,
                                    layout=ttnn.TILE_LAYOUT)
        if not is_tile_layout(value):  # the fused kernel's slices are in tiles
            value = ttnn.to_layout(value, ttnn.TILE_LAYOUT)
        if len(value.shape) < 2:
            value = ttnn.reshape(value, rank2(tuple(value.shape)))
        return value

    def _span(self) -> Span:
        code = self.fn.__code__
        return Span(code.co_filename, code.co_firstlineno, 1)

    def _compile(self, shapes: dict[str, tuple[tuple[int, ...], torch.dtype]], params: list[str],
                 constants: dict[str, Any]) -> tuple[KernelDef, Traced]:
        traced = trace(self.fn, shapes, constants)
        block = self.block or (1, 1)
        needs, full = plan_roles(traced, block, self.block is not None)
        writer = Writer(traced, params, tuple(1 if b is None else b for b in block), needs, full)
        writer.write()
        span = self._span()
        if self.fn.__name__.isidentifier():
            name, last = self.fn.__name__, span.line + len(inspect.getsourcelines(self.fn)[0]) - 1
        else:  # a lambda
            name, last = "fused", span.line
        fn = writer.function(name, span, last)
        kdef = operation(grid=self.grid, block=writer.block, schedule=self.schedule, block_count=self.block_count)(fn)
        return kdef, traced


def fuse(fn: Callable[..., Any] | None = None, *, grid: Any = "full", block: tuple[int | None, int | None] | None = None,
         schedule: str = "contiguous", block_count: Any = 2) -> Any:
    """``@ttl.fuse`` or ``@ttl.fuse(grid=..., block=(rows, cols) in tiles, schedule=..., block_count=...)``."""
    if fn is None:
        return lambda f: Fused(f, grid, block, schedule, block_count)
    return Fused(fn, grid, block, schedule, block_count)

