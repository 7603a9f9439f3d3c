"""What a candidate evaluation needs, as data: the operation's source and the call's argument specs.

Why not pickle the operation: a kernel function is a closure over its module (helpers, constants,
``ttl`` itself) and its thread functions are compiled from their source text, so a pickled
function is either impossible or wrong on a machine that does not hold the same file. Instead a
job carries the text of the module that defines the operation, its qualified name and the
arguments' shapes and formats; a worker runs that text once (registering it with ``linecache``
under the original path, so thread sources and diagnostics read it) and builds zero tensors of the
same shapes. The program depends only on shapes and formats, never on values.

A worker also serves the module names the script imports as the sweep's process served them
(``import ttl`` / ``import ttnn``, the published spelling): the source carries the functions that
installed them here (:func:`prepare_scripts_with`, called by ``tilecraft.scripts``, a layer above)
and the worker runs them before the text, so a Dask worker runs the script as ``--serial`` does.

Running a script's text must not run the script: the text runs with ``__name__`` set to
``__tilecraft_worker__`` (so an ``if __name__ == "__main__":`` body is skipped), and the first
kernel launch or tuned call it makes ends it (:class:`DefinitionsOnly`): everything a kernel
uses is defined before the script first calls it.
"""

from __future__ import annotations

import hashlib
import inspect
import linecache
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import torch

from .. import dtypes, session
from ..diagnostics import Span, error
from ..lang.kernel import KernelDef
from ..ttnn.layout import ROW_MAJOR_LAYOUT, TILE_LAYOUT, Shape, padded_shape
from ..ttnn.tensor import Tensor

#: ``__name__`` of a script run for its definitions
WORKER_MODULE_NAME = "__tilecraft_worker__"
#: what this process did so that scripts import as they do here (module-level functions: a job
#: carries them by name)
_script_setups: list[Callable[[], None]] = []


def prepare_scripts_with(setup: Callable[[], None]) -> None:
    """Have every process that runs a tuned operation's module text call ``setup`` first (once
    per operation it loads): ``tilecraft.scripts.install_modules`` registers itself here."""
    if setup not in _script_setups:
        _script_setups.append(setup)


class DefinitionsOnly(BaseException):
    """Raised by the first kernel launch while a script runs for its definitions (a BaseException,
    so that a script's ``except Exception`` does not swallow it)."""


@dataclass(frozen=True)
class OperationSource:
    """The module text that defines a tuned operation, where it lives, and its name there."""

    path: str
    text: str
    qualname: str
    #: run before the text, so that its imports resolve as they did where the sweep started
    setup: tuple[Callable[[], None], ...] = field(default=(), compare=False)

    @property
    def ident(self) -> str:
        return hashlib.sha256(f"{self.path}\0{self.qualname}\0{self.text}".encode()).hexdigest()

    @classmethod
    def of(cls, kdef: KernelDef, span: Span | None) -> "OperationSource":
        fn = kdef.fn
        if "<locals>" in fn.__qualname__:
            raise error("E0604", f"the tuned operation {kdef.name}() is defined inside a function, so workers "
                        "cannot rebuild it from the module's source", span,
                        hint="define the operation at module level (its hyper-parameters are keyword arguments)")
        path = inspect.getsourcefile(fn) or fn.__code__.co_filename
        lines = linecache.getlines(path, fn.__globals__)
        if not lines:
            raise error("E0103", f"the source of {kdef.name}() cannot be read ({path})", span)
        return cls(path, "".join(lines), fn.__qualname__, tuple(_script_setups))


#: operations already at hand, by :attr:`OperationSource.ident` (in the process that launched the
#: sweep: the live object; on a worker: the one its text defined)
_loaded: dict[str, KernelDef] = {}
#: the ident each path was last loaded from (a newer text of the same file replaces the older)
_path_ident: dict[str, str] = {}


def register(source: OperationSource, kdef: KernelDef) -> None:
    """The operation of ``source`` is ``kdef`` in this process (no need to run the text again)."""
    _loaded[source.ident] = kdef


def load_operation(source: OperationSource) -> KernelDef:
    """The operation ``source`` defines, running its module text once per process for its definitions."""
    found = _loaded.get(source.ident)
    if found is not None:
        return found
    stale = _path_ident.pop(source.path, None)
    if stale is not None:
        _loaded.pop(stale, None)
    for setup in source.setup:
        setup()
    lines = source.text.splitlines(keepends=True)
    linecache.cache[source.path] = (len(source.text), None, lines, source.path)
    namespace: dict[str, Any] = {"__name__": WORKER_MODULE_NAME, "__file__": source.path, "__builtins__": __builtins__}
    with definitions_only():
        try:
            exec(compile(source.text, source.path, "exec"), namespace)
        except (DefinitionsOnly, SystemExit):
            pass
    obj: Any = namespace
    for part in source.qualname.split("."):
        obj = obj.get(part) if isinstance(obj, dict) else getattr(obj, part, None)
        if obj is None:
            raise LookupError(f"{source.path} defines no {source.qualname} before its first kernel launch")
    kdef = getattr(obj, "kernel", obj)  # a tuned operation wraps its KernelDef
    if not isinstance(kdef, KernelDef):
        raise LookupError(f"{source.qualname} in {source.path} is not a kernel operation")
    _loaded[source.ident] = kdef
    _path_ident[source.path] = source.ident
    return kdef


def _stop_at_launch(kdef: KernelDef, args: tuple, kwargs: dict) -> None:
    """The launcher while a script runs for its definitions: its first kernel launch ends it."""
    raise DefinitionsOnly()


def loading_definitions() -> bool:
    """Whether a script is running for its definitions (tuned calls must stop it, not tune)."""
    return session.current().launcher is _stop_at_launch


@contextmanager
def definitions_only() -> Iterator[None]:
    """While a script runs for its definitions, its first kernel launch ends it."""
    saved_argv = sys.argv
    sys.argv = [sys.argv[0] if sys.argv else ""]
    try:
        with session.using(launcher=_stop_at_launch):
            yield
    finally:
        sys.argv = saved_argv


@dataclass(frozen=True)
class TensorSpec:
    """What the program sees of a tensor argument: shape, data format, layout."""

    shape: tuple[int, ...]
    fmt: str
    tiled: bool

    @classmethod
    def of(cls, tensor: Any) -> "TensorSpec":
        return cls(tuple(tensor.shape), tensor.dtype.name, tensor.layout == TILE_LAYOUT)

    def make(self) -> Tensor:
        """A zero tensor of this spec (cached: the program never reads its values)."""
        found = _zeros.get(self)
        if found is None:
            fmt = getattr(dtypes, self.fmt)
            layout = TILE_LAYOUT if self.tiled else ROW_MAJOR_LAYOUT
            shape = Shape(self.shape)
            storage = torch.zeros(padded_shape(shape, layout), dtype=fmt.torch_dtype)
            found = _zeros[self] = Tensor(storage, shape=shape, dtype=fmt, layout=layout)
        return found

    def __str__(self) -> str:
        return f"{self.fmt}[{'x'.join(map(str, self.shape))}]{'' if self.tiled else ' row-major'}"


_zeros: dict[TensorSpec, Tensor] = {}
#: argument values a job may carry as they are (everything else must be a tensor)
PLAIN = (int, float, str, bool, type(None))


@dataclass(frozen=True)
class CallSpec:
    """The arguments of one call, by name: tensors as :class:`TensorSpec`, plain values as they are."""

    arguments: tuple[tuple[str, Any], ...]
    #: names the operation takes as ``*args`` (passed positionally, in order)
    variadic: tuple[str, ...] = ()

    @classmethod
    def of(cls, kdef: KernelDef, args: tuple, kwargs: dict, span: Span | None) -> "CallSpec":
        signature = inspect.signature(kdef.fn)
        bound = signature.bind_partial(*args, **kwargs)
        out = []
        variadic = []
        for name, value in bound.arguments.items():
            kind = signature.parameters[name].kind
            values = value if kind == inspect.Parameter.VAR_POSITIONAL else (value,)
            specs = tuple(_spec(kdef, name, v, span) for v in values)
            if kind == inspect.Parameter.VAR_POSITIONAL:
                variadic.append(name)
                out.append((name, specs))
            elif kind == inspect.Parameter.VAR_KEYWORD:
                out += [(k, _spec(kdef, k, v, span)) for k, v in value.items()]
            else:
                out.append((name, specs[0]))
        return cls(tuple(out), tuple(variadic))

    def materialise(self) -> tuple[tuple, dict]:
        """Positional arguments and keyword arguments with zero tensors in place of the specs."""
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        for name, spec in self.arguments:
            if name in self.variadic:
                args += [_value(s) for s in spec]
            else:
                kwargs[name] = _value(spec)
        return tuple(args), kwargs

    def named(self, name: str) -> Any:
        for arg, spec in self.arguments:
            if arg == name:
                return spec
        raise KeyError(name)


def _spec(kdef: KernelDef, name: str, value: Any, span: Span | None) -> Any:
    if getattr(value, "is_mesh", False):
        raise error("E0604", f"argument '{name}' of {kdef.name}() is a mesh tensor; the tuner takes "
                    "single-device tensors", span, hint="tune on one device's shard")
    if hasattr(value, "storage") and hasattr(value, "dtype"):
        return TensorSpec.of(value)
    if isinstance(value, PLAIN):
        return value
    raise error("E0604", f"argument '{name}' of {kdef.name}() is a {type(value).__name__}; a tuned operation "
                "takes tensors and plain values (int, float, str, bool, None)", span,
                hint="compute other values inside the operation from its arguments")


def _value(spec: Any) -> Any:
    return spec.make() if isinstance(spec, TensorSpec) else spec
