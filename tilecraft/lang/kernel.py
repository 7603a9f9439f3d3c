"""Kernel programs: ``@ttl.kernel(grid=...)`` (seed) and ``@ttl.operation(grid=...)`` (TT-Lang 1.1).

Calling a decorated function launches the program: the body runs as host Python (once per
core, see :mod:`.scope`), then the launcher (installed once by :mod:`tilecraft.driver`, which sits
above every layer; a session may override it for a block) compiles the threads and runs them on
the simulator.
"""

from __future__ import annotations

import inspect
import types
from typing import Any, Callable, NoReturn

from . import scope
from .buffers import is_tile_layout, is_ttnn_tensor
from .tensor_params import TensorUse, tensor_uses
from .threads import ThreadDef
from .. import session
from ..diagnostics import Span, UsageTypeError, UsageValueError, error, type_name
from ..session import Launcher

_launcher: Launcher | None = None


def set_launcher(launcher: Launcher) -> None:
    """Install the function that runs a kernel call, once, at import of tilecraft (dependency
    inversion: lang knows no simulator). Overrides for a block go through the session."""
    global _launcher
    _launcher = launcher


class KernelDef:
    """A kernel function and its grid; ``style`` is "seed" (returns a Program) or "operation"."""

    def __init__(self, fn: Callable[..., Any], grid: Any, style: str, options: dict[str, Any]):
        self.fn = fn
        self.grid = grid
        self.style = style
        self.options = options
        self.name = fn.__name__
        code = fn.__code__
        self.span = Span(code.co_filename, code.co_firstlineno, 1)
        self.__wrapped__ = fn
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        launcher = session.current().launcher or _launcher
        if launcher is None:
            raise RuntimeError("tilecraft launcher not installed; import tilecraft")
        try:
            bound = inspect.signature(self.fn).bind(*args, **kwargs)
        except TypeError as exc:  # reported at the user's call, not inside the launcher
            raise UsageTypeError(f"kernel {self.name}() called with the wrong arguments: {exc}",
                                 hint=f"pass one tensor per parameter of {self.name}{inspect.signature(self.fn)}") from None
        uses = tensor_uses(self.fn)
        for name, value in bound.arguments.items():
            if name in uses and not is_ttnn_tensor(value):
                _not_a_tensor(self.name, name, value, uses[name])
            _check_tile_rank(self.name, name, value)
        return launcher(self, args, kwargs)

    def body(self, grid: tuple[int, ...]) -> Callable[..., Any]:
        """The function to run as the kernel body on ``grid``. An operation's body, and the threads
        it defines, see the global name ``grid`` as the grid the program runs on, as in the
        published simulator (its own tests end with ``ttl.Program(compute, dm0, dm1, grid=grid)()``
        with no ``grid`` of their own); a body that never reads that name runs as written."""
        fn = self.fn
        if self.style != "operation" or not _reads_name(fn.__code__, "grid"):
            return fn
        namespace = {**fn.__globals__, "grid": tuple(grid)}
        body = types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__, fn.__closure__)
        body.__kwdefaults__ = fn.__kwdefaults__
        return body

    def __repr__(self) -> str:
        return f"<ttl kernel {self.name} grid={self.grid}>"


def _not_a_tensor(kernel: str, name: str, value: Any, use: TensorUse) -> NoReturn:
    """A parameter the kernel uses as a tensor was given something else: say so at the call."""
    if value is None:
        given = "None"
    elif isinstance(value, (bool, int, float, str)):
        given = f"the {type(value).__name__} {value!r}"
    else:
        given = f"a {type_name(value)}"
    raise UsageTypeError(f"argument '{name}' of kernel {kernel}() is {given}, but the kernel uses it as a tensor: "
                         f"{use.text} (line {use.line})",
                         hint="pass a ttnn tensor (ttnn.from_torch(t, layout=ttnn.TILE_LAYOUT, device=device))"
                              + (f"; a parameter that may be None is tested in the kernel before it is used "
                                 f"('if {name} is not None:')" if value is None else ""))


def _reads_name(code: types.CodeType, name: str) -> bool:
    """Whether ``code`` or a function defined in it reads ``name`` as a global."""
    return name in code.co_names or any(isinstance(c, types.CodeType) and _reads_name(c, name)
                                        for c in code.co_consts)


def _check_tile_rank(kernel: str, name: str, value: Any) -> None:
    """A tile-layout tensor argument must have rows and columns of tiles: a 1-D one has no tile grid
    (the published simulator rejects it when it is made; ttnn makes it, padded to one tile row)."""
    shape = getattr(value, "shape", None)
    if hasattr(type(value), "storage") and is_tile_layout(value) and shape is not None and len(shape) < 2:
        raise UsageValueError(f"argument '{name}' of kernel {kernel}() is a {len(shape)}-D tensor in tile layout "
                              f"(shape {list(shape)}): a kernel reads tile-layout tensors of at least 2 dimensions",
                              hint="reshape it to 2-D before making the tensor (torch's t.reshape(32, -1)), or make "
                                   "it in ttnn.ROW_MAJOR_LAYOUT")


def _check_grid(grid: Any, span: Span | None) -> None:
    if grid in ("auto", "full"):
        return
    if (isinstance(grid, (tuple, list)) and grid
            and all(isinstance(g, int) and not isinstance(g, bool) and g > 0 for g in grid)):
        return
    raise error("E0201", f"grid must be a tuple of positive ints, \"auto\" or \"full\"; got {grid!r}", span)


def kernel(grid: Any = (1, 1), **options: Any) -> Callable[[Callable[..., Any]], KernelDef]:
    """Seed spelling: the body builds buffers and threads and returns ``ttl.Program(...)(*tensors)``."""
    _check_grid(grid, scope.caller_span(2))
    return lambda fn: KernelDef(fn, grid, "seed", options)


def operation(grid: Any = "full", **options: Any) -> Callable[[Callable[..., Any]], KernelDef]:
    """TT-Lang 1.1 spelling: threads register by being defined; the arguments are the tensors."""
    _check_grid(grid, scope.caller_span(2))
    return lambda fn: KernelDef(fn, grid, "operation", options)


class Program:
    """``ttl.Program(compute, dm0, dm1)(*tensors)``: names the threads and the tensors of a launch."""

    def __init__(self, *threads: ThreadDef, grid: Any = None):
        span = scope.caller_span(2)
        if not threads or not all(isinstance(t, ThreadDef) for t in threads):
            raise error("E0204", "ttl.Program takes thread functions decorated with @ttl.compute() "
                        "or @ttl.datamovement()", span)
        if grid is not None:  # the published simulator's Program(compute, dm0, dm1, grid=grid)
            launched = scope.require_scope("ttl.Program").grid
            if tuple(grid if isinstance(grid, (tuple, list)) else (grid,)) != tuple(launched) \
                    and grid not in ("auto", "full"):
                raise error("E0201", f"ttl.Program(grid={grid!r}) differs from the grid the kernel runs on, "
                            f"{tuple(launched)}", span, hint="give the grid once, in the decorator")
        self.threads = threads
        self.span = span

    def __call__(self, *tensors: Any) -> "BoundProgram":
        sc = scope.require_scope("ttl.Program(...)(...)")
        bound = BoundProgram(self.threads, tensors, self.span)
        sc.program = bound  # type: ignore[attr-defined]
        return bound


class BoundProgram:
    def __init__(self, threads: tuple[ThreadDef, ...], tensors: tuple, span: Span | None):
        self.threads = threads
        self.tensors = tensors
        self.span = span
