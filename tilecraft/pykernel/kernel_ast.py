"""Kernel decorators (``pykernel.kernel_ast``): ``@compute_thread()``, ``@reader_thread()``,
``@writer_thread()``, ``@ttkernel_compile()`` and the older ``@ttkernel_tensix_compile()`` /
``@ttkernel_noc_compile()``.

A decorated function is a :class:`KernelFunction`. Its source is read once (file, first line and
AST, so diagnostics point into the user's file), and it is compiled per launch interface (the
kinds and indices of its arguments, its compile-time constants) into tilecraft's kernel-level IR
and C++ (:mod:`.compiler`). Calling it as the published PyKernel does
(``kernel(CircularBuffer(0), ..., CompileTimeValue("n", 4))``) returns the C++ text.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from typing import Any, Callable

from .. import session
from ..diagnostics import Span, error
from ..frontend.source import FunctionSource, function_source
from ..ir.printer import print_op
from ..ir.verify import verify_body
from ..metal import kir
from ..metal.cpp import print_kernel_mapped
from .compiler import KernelCompiler
from .interface import CB, CT, RT, THREADS, KernelInterface, ParamBinding
from .kernel_types import CircularBuffer, CompileTimeValue

#: parameter annotations of the published binding rules
_CB_NAMES = {"CircularBuffer"}
_CT_NAMES = {"CompileTimeValue", "CompiledValue"}


@dataclass(frozen=True)
class KernelParam:
    name: str
    role: str  # CB, CT or RT (a runtime argument: common or per core, decided by what the host passes)
    span: Span


@dataclass
class CompiledKernel:
    """A kernel compiled for one interface: its kernel-level IR, its C++ and the C++ -> Python line map."""

    kernel: kir.Kernel
    text: str
    origin: dict[int, Span]
    interface: KernelInterface


class KernelFunction:
    """A kernel written in Python (the decorated function) and the thread it runs as."""

    def __init__(self, fn: Callable[..., Any], thread: str | None, verbose: bool = False, optimize: bool = False):
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.thread = thread
        #: the published PyKernelOp reads this to pick the kernel's config descriptor
        self._decorator_name = thread
        self.verbose = verbose
        #: accepted for the published API; tilecraft has no separate optimisation pipeline (the
        #: emulator and the device compile the C++ with -O2 either way)
        self.optimize = optimize
        self._compiled: dict[tuple[KernelInterface, str], CompiledKernel] = {}

    @property
    def name(self) -> str:
        return self.fn.__name__

    @property
    def program_name(self) -> str:
        """The class a kernel is defined in (its PyKernelOp), else the function's own name."""
        parts = self.fn.__qualname__.split(".")
        return parts[-2] if len(parts) > 1 and parts[-2] != "<locals>" else self.fn.__name__

    @property
    def source(self) -> FunctionSource:
        return function_source(self.fn)

    def parameters(self) -> list[KernelParam]:
        """The kernel's parameters in order, each with its role from its annotation."""
        source = self.source
        args = source.node.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
            raise error("E0620", f"kernel {self.name}() takes plain positional parameters only",
                        source.span(source.node))
        params = []
        for arg in args.args:
            annotation = arg.annotation
            label = annotation.id if isinstance(annotation, ast.Name) else \
                annotation.attr if isinstance(annotation, ast.Attribute) else None
            if annotation is None:
                role = RT
            elif label in _CB_NAMES:
                role = CB
            elif label in _CT_NAMES:
                role = CT
            else:
                raise error("E0620", f"parameter '{arg.arg}' of kernel {self.name}() is annotated "
                            f"{ast.unparse(annotation)}: a kernel parameter is a CircularBuffer, a CompileTimeValue "
                            "or unannotated (a runtime argument)", source.span(annotation))
            params.append(KernelParam(arg.arg, role, source.span(arg)))
        return params

    def compile(self, interface: KernelInterface) -> CompiledKernel:
        """The kernel for ``interface`` (compiled once per interface and architecture)."""
        arch = session.options().arch
        key = (interface, arch)
        found = self._compiled.get(key)
        if found is None:
            kernel = KernelCompiler(self.name, self.source, self.fn.__globals__, interface).compile()
            program = kir.MetalProgram(self.program_name, (1, 1), arch, [kernel], [], [], [])
            verify_body(program, kernel.name, kernel.body, "the PyKernel front end")
            text, origin = print_kernel_mapped(program, kernel)
            found = self._compiled[key] = CompiledKernel(kernel, text, origin, interface)
            if self.verbose:
                print(f"// ---- kernel-level IR of {self.name} ----")
                for op in kernel.body:
                    print("\n".join(print_op(op, 1)))
                print(text)
        return found

    def __call__(self, *args: Any) -> str:
        """The published direct call: CircularBuffers, runtime values and CompileTimeValues, in the
        parameters' order; returns the kernel's C++."""
        params = self.parameters()
        constants = {a.key: a.value for a in args if isinstance(a, CompileTimeValue)}
        positional = [a for a in args if not isinstance(a, CompileTimeValue)]
        bindings, counts = [], {CB: 0, RT: 0}
        for param in params:
            if param.role == CT:
                if param.name not in constants:
                    raise error("E0622", f"argument {param.name} not provided into kernel call", param.span)
                bindings.append(ParamBinding(param.name, CT, value=constants[param.name]))
                continue
            if not positional:
                raise error("E0621", f"kernel {self.name}() is missing a value for parameter '{param.name}'",
                            param.span)
            value = positional.pop(0)
            if param.role == CB and not isinstance(value, CircularBuffer):
                raise error("E0621", f"parameter '{param.name}' of {self.name}() is a CircularBuffer, got "
                            f"{type(value).__name__}", param.span)
            bindings.append(ParamBinding(param.name, param.role, counts[param.role]))
            counts[param.role] += 1
        kind, processor = THREADS.get(self.thread or "", THREADS["ttkernel_noc_compile"])
        return self.compile(KernelInterface(kind, processor, tuple(bindings), counts[CB])).text

    def __repr__(self) -> str:
        return f"<PyKernel {self.thread or 'kernel'} {self.fn.__qualname__}>"


def _decorator(thread: str) -> Callable[..., Callable[[Callable[..., Any]], KernelFunction]]:
    def make(verbose: bool = False, optimize: bool = False) -> Callable[[Callable[..., Any]], KernelFunction]:
        def wrap(fn: Callable[..., Any]) -> KernelFunction:
            return KernelFunction(fn, thread, verbose, optimize)
        return wrap
    make.__name__ = thread
    make.__doc__ = f"Decorate a PyKernel kernel that runs as a {thread.replace('_', ' ')}."
    return make


compute_thread = _decorator("compute_thread")
reader_thread = _decorator("reader_thread")
writer_thread = _decorator("writer_thread")
ttkernel_tensix_compile = _decorator("ttkernel_tensix_compile")
ttkernel_noc_compile = _decorator("ttkernel_noc_compile")

_KERNEL_TYPES = {None: "ttkernel_noc_compile", "noc": "ttkernel_noc_compile", "datamovement": "ttkernel_noc_compile",
                 "compute": "ttkernel_tensix_compile"}


def ttkernel_compile(kernel_type: str | None = None, verbose: bool = False,
                     optimize: bool = False) -> Callable[[Callable[..., Any]], KernelFunction]:
    """The published generic decorator: ``kernel_type`` is ``"compute"`` or ``"noc"``/``"datamovement"``."""
    if kernel_type not in _KERNEL_TYPES:
        raise ValueError(f"kernel_type must be one of {sorted(k for k in _KERNEL_TYPES if k)}, not {kernel_type!r}")
    return _decorator(_KERNEL_TYPES[kernel_type])(verbose, optimize)


__all__ = ["compute_thread", "reader_thread", "writer_thread", "ttkernel_compile", "ttkernel_tensix_compile",
           "ttkernel_noc_compile", "KernelFunction", "CircularBuffer", "CompileTimeValue"]
