"""Kernel-scope values seen from threads, classified across cores.

The kernel body ran once per core, so every captured name has one value per core. Values equal
on all cores are compile-time constants; integers that differ become per-core runtime arguments
(``kernel.param``); buffers, pipes, semaphores and tensors map to their program declarations by
creation order. Anything else that differs between cores is an error.
"""

from __future__ import annotations

import types
from typing import Any

from ..diagnostics import Span, error
from ..ir import ops as ir
from ..ir.program_ir import ParamDecl, ProgramIR
from ..dtypes import DataFormat
from ..ir.types import BOOL, FLOAT, INDEX, SCALAR_UNIT, TILE_UNIT, PipeDecl, PipeNetDecl, TensorDecl
from ..lang.buffers import is_tile_layout
from ..lang.buffers import CircularBuffer
from ..lang.intrinsic import intrinsic_name
from ..lang.pipes import Pipe, PipeNet
from ..lang.semaphores import MulticastRemoteSemaphore, Semaphore, UnicastRemoteSemaphore
from ..lang.threads import ThreadDef
from .value_kinds import CT, RV, FuncRef, PipeNetV, RemoteSemV, scalar_type


class CaptureEnv:
    MISSING = object()

    def __init__(self, program: ProgramIR, scopes: list[Any]):
        self.program = program
        self.grid = program.grid
        self.scopes = scopes
        #: the tensors of the launch, in argument order, then those made in kernel scope
        self.tensors: list[Any] = []
        self._tensor_decls: dict[int, TensorDecl] = {}
        self.pipe_uses: list[tuple[int, str, Any, Span | None]] = []
        self._nets: dict[tuple[int, ...], PipeNetDecl] = {}
        self._params: dict[tuple[str, tuple], ParamDecl] = {}
        self._compiler: Any = None
        self._pipe_decls: dict[int, PipeDecl] = {}
        #: pipes built outside the operation (module scope, a helper), in the order threads use them
        self._outside_pipes: list[Pipe] = []
        #: pipe index -> how its (src, dst) were written: the number of coordinates, None for an int
        self.pipe_spelling: dict[int, tuple[int | None, int | None]] = {}

    def bind_compiler(self, compiler: Any) -> None:
        """Per-core parameters are emitted into the thread being compiled."""
        self._compiler = compiler

    # ---------------------------------------------------------------- name resolution
    def resolve(self, variants: tuple[Any, ...], name: str) -> Any:
        values = []
        for fn in variants:
            found, value = _lookup_function_name(fn, name)
            if not found:
                return self.MISSING
            values.append(value)
        return self.classify(values, label=name)

    def classify(self, values: list[Any], label: str = "value") -> Any:
        first = values[0]
        if isinstance(first, CircularBuffer):
            decl = self.program.cbs[first.index]
            self._same(values, lambda v: isinstance(v, CircularBuffer) and v.index == first.index, label)
            return CT(decl)
        if is_tensor(first):  # an argument, or a tensor made in kernel scope (a scratch tensor)
            self._same(values, lambda v: v is first, label,
                       "a tensor made in kernel scope is made again on every core that runs the kernel body: "
                       "make it before the launch and pass it as an argument")
            return CT(self.tensor_decl(first) or self.add_tensor(first, label))
        if isinstance(first, Pipe):
            self._same(values, lambda v: isinstance(v, Pipe) and self.pipe_index(v) == self.pipe_index(first)
                       and (v.src_spec, v.dst_spec) == (first.src_spec, first.dst_spec), label,
                       "a pipe must connect the same cores whichever core builds it: build the whole list of "
                       "pipes in kernel scope, from grid sizes, not from ttl.core()")
            return CT(self.pipe_decl(first))
        if isinstance(first, Semaphore):
            self._same(values, lambda v: isinstance(v, Semaphore) and v.index == first.index
                       and v.initial == first.initial, label,
                       "a semaphore has one initial value on every core; set per-core values in a thread")
            return CT(self.program.semaphores[first.index])
        if isinstance(first, UnicastRemoteSemaphore):
            sem = self.classify([v.sem for v in values], label).value
            core = self.classify([tuple(v.core) if isinstance(v.core, (tuple, list)) else (v.core,)
                                  for v in values], label)
            return RemoteSemV(sem, core=self._core_operands(core, label))
        if isinstance(first, MulticastRemoteSemaphore):
            sem = self.classify([v.sem for v in values], label).value
            self._same(values, lambda v: v.cores == first.cores, label)
            return RemoteSemV(sem, cores=self._compiler.core_range(CT(first.cores) if first.cores is not None
                                                                   else None), multicast=True)
        if isinstance(first, PipeNet):
            return PipeNetV(self.pipenet(tuple(first.pipes)))
        if intrinsic_name(first) is not None:
            return CT(first)
        if isinstance(first, (types.FunctionType, ThreadDef)):
            fns = tuple(v.fn if isinstance(v, ThreadDef) else v for v in values)
            self._same(fns, lambda v: getattr(v, "__code__", None) is fns[0].__code__, label)
            return FuncRef(fns)
        if scalar_type(first) is not None:
            if all(type(v) is type(first) and v == first for v in values):
                return CT(first)
            if all(scalar_type(v) is not None for v in values):
                return self.param(label, tuple(values))
        if isinstance(first, (tuple, list)) and all(isinstance(v, (tuple, list)) and len(v) == len(first)
                                                    for v in values):
            items = [self.classify([v[i] for v in values], f"{label}[{i}]") for i in range(len(first))]
            if all(isinstance(i, CT) for i in items):
                return CT(type(first)(i.value for i in items))
            from .exprs import TupleV
            return TupleV(tuple(items))
        self._same(values, lambda v: v is first or _safe_eq(v, first), label)
        return CT(first)

    # ---------------------------------------------------------------- tensors
    def tensor_decl(self, tensor: Any) -> TensorDecl | None:
        return self._tensor_decls.get(id(tensor))

    def add_tensor(self, tensor: Any, name: str) -> TensorDecl:
        """The declaration of a tensor of the launch (made once per distinct tensor object)."""
        index = len(self.tensors)
        self.tensors.append(tensor)
        decl = self._tensor_decls.get(id(tensor))
        if decl is None:
            decl = TensorDecl(index, name, tuple(tensor.shape), tensor.dtype,
                              TILE_UNIT if is_tile_layout(tensor) else SCALAR_UNIT)
            self._tensor_decls[id(tensor)] = decl
            self.program.tensors.append(decl)
        return decl

    def _same(self, values: Any, pred: Any, label: str, hint: str | None = None) -> None:
        if not all(pred(v) for v in values):
            raise error("E0102", f"'{label}' differs between cores in a way a program cannot express",
                        self._compiler.span() if self._compiler else None,
                        hint=hint or "only integers may differ between cores (they become runtime arguments)")

    def param(self, label: str, values: tuple) -> RV:
        key = (label, values)
        compiler = self._compiler
        cache = compiler.__dict__.setdefault("param_values", {})
        cached = cache.get(key)
        if cached is not None:  # one kernel.param per thread: the same register every time
            return cached
        decl = self._params.get(key)
        if decl is None:
            decl = ParamDecl(len(self.program.params), label, values)
            self.program.params.append(decl)
            self._params[key] = decl
        kinds = {scalar_type(v) for v in values}
        type_ = FLOAT if FLOAT in kinds else (BOOL if kinds == {BOOL} else INDEX)
        compiler = self._compiler
        reg = compiler.reg(f"{label}", type_)
        op = ir.KernelParam(result=reg, index=decl.index, label=label)
        # parameters are defined once at thread entry, whatever region the first use is in
        op.loc = compiler.span()
        compiler.body.insert(self._param_insert_point(compiler.body), op)
        compiler.bump(reg)
        value = RV(reg)
        cache[key] = value
        return value

    @staticmethod
    def _param_insert_point(body: list[ir.Op]) -> int:
        i = 0
        while i < len(body) and isinstance(body[i], ir.KernelParam):
            i += 1
        return i

    def _core_operands(self, core: Any, label: str) -> tuple[Any, ...]:
        return self._compiler.core_operands(core)

    # ---------------------------------------------------------------- pipes
    def pipe_index(self, pipe: Pipe) -> int:
        """The pipe's number in the program: its creation order in kernel scope, or, for a pipe
        built outside the operation, its order of first use after every kernel-scope pipe."""
        if pipe.index is not None:
            return pipe.index
        for i, seen in enumerate(self._outside_pipes):
            if seen is pipe:
                return len(self.scopes[0].pipes) + i
        self._outside_pipes.append(pipe)
        return len(self.scopes[0].pipes) + len(self._outside_pipes) - 1

    def pipe_decl(self, pipe: Pipe) -> PipeDecl:
        index = self.pipe_index(pipe)
        decl = self._pipe_decls.get(index)
        if decl is None:
            decl = PipeDecl(index, pipe.source(self.grid), pipe.destinations(self.grid), pipe.multicast, pipe.span)
            self._pipe_decls[index] = decl
            # None: one linear node index, an int or a bare slice (a range of them), not a tuple
            self.pipe_spelling[index] = tuple(None if isinstance(end, (int, slice)) else len(end)
                                                   for end in (pipe.src, pipe.dst))
        return decl

    def pipenet(self, pipes: tuple[Any, ...]) -> PipeNetDecl | None:
        decls = []
        for p in pipes:
            if isinstance(p, Pipe):
                decls.append(self.pipe_decl(p))
            elif isinstance(p, PipeDecl):
                decls.append(p)
            else:
                return None
        key = tuple(d.index for d in decls)
        net = self._nets.get(key)
        if net is None:
            net = PipeNetDecl(len(self.program.pipenets), tuple(decls))
            self.program.pipenets.append(net)
            self._nets[key] = net
        return net


def is_tensor(value: Any) -> bool:
    """A ttnn tensor (duck-typed: the front end does not import the simulated ttnn)."""
    return hasattr(value, "storage") and isinstance(getattr(value, "dtype", None), DataFormat)


def _lookup_function_name(fn: Any, name: str) -> tuple[bool, Any]:
    code = fn.__code__
    if name in code.co_freevars and fn.__closure__ is not None:
        cell = fn.__closure__[code.co_freevars.index(name)]
        try:
            return True, cell.cell_contents
        except ValueError:  # a closure variable assigned after the thread was defined
            return False, None
    if name in fn.__globals__:
        return True, fn.__globals__[name]
    return False, None


def _safe_eq(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - objects whose == is not a bool (arrays): not equal
        return False
