"""What both kernel lowerings share: emission into nested bodies, registers, scalar ops, errors.

Scalar arithmetic and structured control flow are the same at both IR levels, so they are
copied through; block, buffer and copy operations are what each lowering rewrites.
"""

from __future__ import annotations


from contextlib import contextmanager
from typing import Any, Iterator, NoReturn

from ..diagnostics import error
from ..ir import ops as ir
from ..ir import scalarops
from ..ir.scalarops import BinaryOp
from ..ir.program_ir import ProgramIR, ThreadIR
from ..ir.grid import all_cores, reshape_coords
from . import kir
from .optable import unsupported

class KernelLowering:
    """Base: walks a thread's IR and appends kernel-level ops to the kernel being built."""

    def __init__(self, program: ProgramIR, thread: ThreadIR, kernel: kir.Kernel, ctx: Any):
        self.program = program
        self.thread = thread
        self.kernel = kernel
        self.ctx = ctx  # the ProgramLowering: buffers, semaphores, shared tables
        self._stack: list[list[ir.Op]] = [kernel.body]
        self._names: dict[str, int] = {}
        #: register names already taken by the thread's own registers (a new register must not
        #: be one of them; the C++ printer then gives every name its own identifier)
        self._taken: set[str] = {r.name for op in ir.walk(thread.body)
                                 for r in [*op.results(), *op.operands()] if isinstance(r, ir.Reg)}
        self.loc: Any = None
        #: the C++ counter of each IR loop while its body is lowered
        self.loop_counters: dict[ir.For, ir.Reg] = {}
        #: the IR op being lowered (innermost); the program lowering's record of which IR op each
        #: kernel op was emitted for (:mod:`.store_plan` reads a store's calls from it)
        self.lowering: ir.Op | None = None

    # ---------------------------------------------------------------- emission
    def emit(self, op: ir.Op) -> ir.Op:
        if op.loc is None:
            op.loc = self.loc
        self._stack[-1].append(op)
        if self.lowering is not None:
            self.ctx.emitted_for[id(op)] = (op, self.lowering)
        return op

    def call(self, fn: str, *args: Any, result: ir.Reg | None = None, template: tuple = ()) -> ir.Reg | None:
        self.emit(kir.Call(result=result, fn=fn, args=list(args), template=template))
        return result

    def last_call(self) -> str | None:
        body = self._stack[-1]
        return body[-1].fn if body and isinstance(body[-1], kir.Call) else None

    @contextmanager
    def into(self, body: list[ir.Op]) -> Iterator[None]:
        self._stack.append(body)
        try:
            yield
        finally:
            self._stack.pop()

    def reg(self, hint: str, type_: Any = kir.U32) -> ir.Reg:
        """A new register whose name is no other register's."""
        while True:
            n = self._names.get(hint, 0)
            self._names[hint] = n + 1
            name = hint if n == 0 else f"{hint}_{n}"
            if name not in self._taken:
                self._taken.add(name)
                return ir.Reg(name, type_)

    def loop(self, hint: str, extent: int) -> tuple[ir.Reg, list[ir.Op]]:
        var = self.reg(hint, kir.I32)
        op = ir.For(var=var, lo=ir.Const(0), hi=ir.Const(extent), step=ir.Const(1))
        self.emit(op)
        return var, op.body

    def arith(self, op: BinaryOp, lhs: Any, rhs: Any, hint: str = "t") -> Any:
        """Integer arithmetic, folded when both sides are constants (by the operator's one record,
        ``ir/scalarops.py``, so a folded value is the one the emitted C++ would compute)."""
        if isinstance(lhs, ir.Const) and isinstance(rhs, ir.Const):
            return ir.Const(scalarops.BINARY[op].evaluate(lhs.value, rhs.value))
        if op is BinaryOp.MUL and (rhs == ir.Const(1) or lhs == ir.Const(0)):
            return lhs if rhs == ir.Const(1) else ir.Const(0)
        if op is BinaryOp.ADD and rhs == ir.Const(0):
            return lhs
        if op is BinaryOp.ADD and lhs == ir.Const(0):
            return rhs
        result = self.reg(hint, kir.U32)
        self.emit(ir.Binary(result=result, op=op, lhs=lhs, rhs=rhs))
        return result

    def fail(self, message: str, code: str = "E3001", hint: str | None = None) -> NoReturn:
        raise error(code, unsupported(message), self.loc, hint=hint)

    # ---------------------------------------------------------------- walking
    def lower_body(self, ops: list[ir.Op]) -> None:
        for op in ops:
            self.loc = op.loc
            handler = getattr(self, f"lower_{type(op).__name__}", None)
            if handler is None:
                self.fail(f"'{op.name}' in a {self.thread.kind} thread")
            outer, self.lowering = self.lowering, op
            try:
                handler(op)
            finally:
                self.lowering = outer

    def lower_scalar(self, op: ir.Op) -> None:
        self.emit(op.__class__(**{k: v for k, v in op.__dict__.items()}))

    lower_Assign = lower_Binary = lower_Unary = lower_Compare = lower_Select = lower_scalar
    lower_Break = lower_Continue = lower_Return = lower_scalar

    def lower_For(self, op: ir.For) -> None:
        """C++ loops need their own counter: a Python name reused by nested loops (``for _ in``)
        or assigned elsewhere gets a fresh counter copied into it at the top of the body."""
        shared = self.shared_loop_vars().get(op.var.name, 0) > 1
        counter = self.reg("i" if op.var.name == "_" else f"{op.var.name}_i", op.var.type) if shared else op.var
        new = ir.For(var=counter, lo=op.lo, hi=op.hi, step=op.step, loc=op.loc)
        self.emit(new)
        self.loop_counters[op] = counter
        with self.into(new.body):
            if shared and op.var.name in self.read_names():
                self.emit(ir.Assign(result=op.var, value=counter, loc=op.loc))
            self.lower_body(op.body)
        del self.loop_counters[op]

    def read_names(self) -> set[str]:
        if not hasattr(self, "_read_names"):
            self._read_names = {r.name for op in ir.walk(self.thread.body) for r in op.operands()
                                if isinstance(r, ir.Reg)}
        return self._read_names

    def shared_loop_vars(self) -> dict[str, int]:
        if not hasattr(self, "_loop_var_sites"):
            sites: dict[str, int] = {}
            for op in ir.walk(self.thread.body):
                for r in op.results():
                    sites[r.name] = sites.get(r.name, 0) + 1
            self._loop_var_sites = sites
        return self._loop_var_sites

    def lower_If(self, op: ir.If) -> None:
        new = ir.If(cond=op.cond, loc=op.loc)
        self.emit(new)
        with self.into(new.then_body):
            self.lower_body(op.then_body)
        with self.into(new.else_body):
            self.lower_body(op.else_body)

    def lower_While(self, op: ir.While) -> None:
        new = ir.While(cond=op.cond, loc=op.loc)
        self.emit(new)
        with self.into(new.cond_body):
            self.lower_body(op.cond_body)
        with self.into(new.body):
            self.lower_body(op.body)

    def lower_KernelParam(self, op: ir.KernelParam) -> None:
        param = self.program.params[op.index]
        index = self.kernel.rt(param.label, _per_core(param.values, self.program))
        self.emit(kir.Arg(result=op.result, source="rt", index=index, label=param.label))

    def lower_CoreCoord(self, op: ir.CoreCoord) -> None:
        cores = all_cores(self.program.grid)
        for d, out in enumerate(op.outs):
            values = tuple(reshape_coords(c, self.program.grid, op.dims)[d] for c in cores)
            index = self.kernel.rt(f"core_{'xyzw'[d] if d < 4 else d}_of_{op.dims}", values)
            self.emit(kir.Arg(result=out, source="rt", index=index, label=out.name))

    def lower_Print(self, op: ir.Print) -> None:
        """``print(...)`` -> ``DPRINT("fmt", ...)``, 0.81.1's fmt-style device print (the compute
        kernel prints from its math RISC-V only, so a line appears once)."""
        fmt, values = print_format(op.args)
        self.kernel.includes.add(DPRINT_HEADER)
        fn = "DEVICE_PRINT_MATH" if self.kernel.processor.is_compute else "DPRINT"
        self.call(fn, ir.Const(fmt), *values)

    def lower_PrintBlock(self, op: ir.PrintBlock) -> None:
        self.fail("print() of a block", hint="the simulator prints its values; on the device, copy the block to a "
                  "tensor and look at it on the host")

    def lower_PrintBuffer(self, op: ir.PrintBuffer) -> None:
        self.fail("print() of a dataflow buffer", hint="the simulator prints its state; on the device, print the "
                  "counts your own code keeps")

    def lower_Signpost(self, op: ir.Signpost) -> None:
        self.emit(kir.Comment(text=f"signpost: {op.label}"))


DPRINT_HEADER = "api/debug/dprint.h"


def print_format(args: list) -> tuple[str, list[ir.Reg]]:
    """A C++ string literal in fmt syntax for ``print``'s arguments (space-separated, a newline at
    the end, as Python prints them) and the registers it formats."""
    parts: list[str] = []
    values: list[ir.Reg] = []
    for arg in args:
        text = ""
        for piece in (arg if isinstance(arg, tuple) else (arg,)):  # an f-string is several pieces
            if isinstance(piece, str):
                text += piece.replace("{", "{{").replace("}", "}}")
            else:
                text += "{}"
                values.append(piece)
        parts.append(text)
    literal = " ".join(parts).replace("\\", "\\\\").replace('"', '\\"') + "\\n"
    return f'"{literal}"', values


def _per_core(values: tuple, program: ProgramIR) -> tuple:
    return values if len(values) > 1 else values * program.num_cores
