"""``@T.prim_func`` and ``@tilelang.jit``: a TileLang kernel as a tilecraft operation.

``prim_func`` reads the function's source (never runs it), translates it (:mod:`.translate`) into a
single-threaded operation whose AST carries the TileLang lines' positions, compiles that, registers
its source with the front end, and wraps it in ``ttl.operation`` with the metadata the translation
worked out (the output blocks, the block count). Called with ttnn tensors it launches like any
operation; called with torch tensors it moves them to the simulated device and the results back,
as TileLang's kernels take torch tensors. ``jit(out_idx=...)`` allocates the outputs, as TileLang's
does.
"""

from __future__ import annotations

import ast
import sys
from typing import Any, Callable

import torch

from ..diagnostics import Span, UsageValueError, error
from ..frontend.source import FunctionSource, absolute, function_source, register_source
from ..lang.kernel import KernelDef
from .. import ttnn
from .graduate import record_launch
from .translate import TENSOR_PARAM, TensorParam, Translator

_TORCH = {"bfloat16": torch.bfloat16, "float32": torch.float32}


class Tensor:
    """``T.Tensor((M, N), dtype)``: a parameter annotation (read from the source; this only lets the
    annotation evaluate when Python defines the function)."""

    def __init__(self, shape: Any, dtype: str = "float32"):
        self.shape = shape
        self.dtype = dtype


class PrimFunc:
    """A translated TileLang kernel: call it with ttnn tensors or torch tensors (one per parameter)."""

    def __init__(self, operation: KernelDef, params: list[TensorParam], stores: list[str], source: FunctionSource):
        self.operation = operation
        self.params = params
        self.stores = stores
        self.source = source
        self.file = source.file
        self.__name__ = operation.name
        #: the ``@jit`` factory that made it (its source) and the outputs its kernel allocates
        #: (what ``tilecraft show-threads`` replaces, tilelang/graduate.py)
        self.factory_node: ast.FunctionDef | None = None
        self.out_idx: list[int] | None = None

    def __call__(self, *args: Any) -> None:
        if len(args) != len(self.params):
            raise UsageValueError(f"{self.__name__}() takes {len(self.params)} tensors "
                                  f"({', '.join(p.name for p in self.params)}); {len(args)} were given")
        for value, param in zip(args, self.params):
            shape = tuple(value.shape)
            if shape != param.shape:
                raise error(TENSOR_PARAM, f"'{param.name}' is declared T.Tensor({param.shape}) but the launch passes "
                            f"a tensor of shape {shape}", self.span(param),
                            hint="pass tensors of the declared shapes (a TileLang kernel is specialised to them)")
        record_launch(self)
        if all(isinstance(a, torch.Tensor) for a in args):
            device = [ttnn.from_torch(a.to(_TORCH[p.dtype]), dtype=getattr(ttnn, p.dtype), layout=ttnn.TILE_LAYOUT)
                      for a, p in zip(args, self.params)]
            self.operation(*device)
            for a, d, p in zip(args, device, self.params):
                if p.name in self.stores:
                    a.copy_(ttnn.to_torch(d).to(a.dtype))
            return
        self.operation(*args)

    def span(self, param: TensorParam) -> Span:
        return Span(self.file, getattr(param.node, "lineno", 1), getattr(param.node, "col_offset", 0) + 1)


def prim_func(fn: Callable[..., Any]) -> PrimFunc:
    """``@T.prim_func``: translate a TileLang kernel's source into a single-threaded operation."""
    source = absolute(function_source(fn))
    namespace = dict(fn.__globals__)
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        namespace[name] = cell.cell_contents
    annotations = {k: v for k, v in getattr(fn, "__annotations__", {}).items() if isinstance(v, Tensor)}
    translation = Translator(source, namespace, sys.modules[__package__], annotations).translate(source.node)
    module = ast.fix_missing_locations(ast.Module(body=[translation.function], type_ignores=[]))
    code = compile(module, source.file, "exec")
    exec(code, namespace)
    generated = namespace.pop(translation.function.name)
    register_source(generated.__code__, FunctionSource(translation.function, source.file, 0, 0))
    operation = KernelDef(generated, translation.grid, "operation", translation.options)
    return PrimFunc(operation, translation.params, translation.stores, source)


class JitKernel:
    """What ``@jit(out_idx=...)`` gives: called with the inputs, it allocates and returns the outputs."""

    def __init__(self, func: PrimFunc, out_idx: list[int]):
        self.func = func
        count = len(func.params)
        self.out_idx = sorted(i % count for i in out_idx)

    def __call__(self, *inputs: torch.Tensor) -> torch.Tensor | list[torch.Tensor]:
        params = self.func.params
        outputs = {i: torch.zeros(params[i].shape, dtype=_TORCH[params[i].dtype]) for i in self.out_idx}
        feed = iter(inputs)
        self.func(*[outputs[i] if i in outputs else next(feed) for i in range(len(params))])
        got = [outputs[i] for i in self.out_idx]
        return got[0] if len(got) == 1 else got


def jit(fn: Callable[..., Any] | None = None, *, out_idx: list[int] | int | None = None,
        **_options: Any) -> Any:
    """``@tilelang.jit(out_idx=[-1])`` on a function returning a ``@T.prim_func``: calling it builds
    the kernel (with ``out_idx``, one that allocates and returns those tensors). TileLang's other
    options (target, pass configs) have no meaning here and are ignored."""
    def wrap(factory: Callable[..., Any]) -> Callable[..., Any]:
        def build(*args: Any, **kwargs: Any) -> Any:
            func = factory(*args, **kwargs)
            if isinstance(func, PrimFunc):
                func.factory_node = absolute(function_source(factory)).node
            if out_idx is None:
                return func
            kernel = JitKernel(func, [out_idx] if isinstance(out_idx, int) else list(out_idx))
            if isinstance(func, PrimFunc):
                func.out_idx = kernel.out_idx
            return kernel

        build.__name__ = factory.__name__
        build.__doc__ = factory.__doc__
        return build

    return wrap(fn) if fn is not None else wrap
