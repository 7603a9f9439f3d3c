"""The IR's invariants, checked after the front end, after every pass and after lowering.

Every field of every operation is checked against its kind (:mod:`.fieldkinds`: a register, a
constant or register, a declaration of this program, ...); every register an operation reads
must be defined earlier in program order; and each operation has its own rules in :data:`RULES`
(operand types, shapes, names of functions). A violation is a bug in tilecraft, not in the
user's program: :class:`IRVerificationError` names the stage, the thread and the offending
operation as printed.
"""

from __future__ import annotations

import math
from dataclasses import fields
from typing import Any, Callable, Iterable

from ..ir import mathops, scalarops
from . import ops as ir
from .fieldkinds import (BOOL, CALL_ARGS, CB, CORE, INDEX, INT, INTS, NET, NUMBERS, OPERAND, OPT_REG, PRINT_ARGS,
                         RANGE, REG, SEM, STR, TEMPLATE, TENSOR, kind_of)
from .printer import op_text
from .program_ir import COMPUTE, DATAMOVEMENT, ProgramIR
from .types import BOOL as BOOL_T, GROUP, XFER, BlockType, PipeType, Type


class IRVerificationError(RuntimeError):
    """The IR broke an invariant: a bug in the stage that produced it."""


class _Problem(Exception):
    """One broken rule (turned into an :class:`IRVerificationError` with its context)."""


def verify_program(program: ProgramIR, stage: str) -> ProgramIR:
    """Check ``program`` (language-level IR); ``stage`` says what produced it, for the message."""
    _check_declarations(program, stage)
    for thread in program.threads:
        if thread.kind not in (COMPUTE, DATAMOVEMENT):
            raise IRVerificationError(f"IR verification failed after {stage}: thread '{thread.name}' has kind "
                                      f"{thread.kind!r}")
        verify_body(program, thread.name, thread.body, stage)
    return program


def verify_body(program: ProgramIR, owner: str, body: list[ir.Op], stage: str) -> None:
    """Check one thread's (or one kernel's) operations in program order."""
    _Checker(program, owner, stage).region(body, loop=False)


def _check_declarations(program: ProgramIR, stage: str) -> None:
    for what, decls in (("tensor", program.tensors), ("buffer", program.cbs), ("semaphore", program.semaphores),
                        ("pipe net", program.pipenets), ("param", program.params)):
        indices = [d.index for d in decls]
        if len(set(indices)) != len(indices):
            raise IRVerificationError(f"IR verification failed after {stage}: two {what} declarations share an "
                                      f"index in {indices}")
    for p in program.params:
        if len(p.values) not in (1, program.num_cores):
            raise IRVerificationError(f"IR verification failed after {stage}: param #{p.index} has "
                                      f"{len(p.values)} values for {program.num_cores} cores")


class _Checker:
    def __init__(self, program: ProgramIR, owner: str, stage: str):
        self.program = program
        self.owner = owner
        self.stage = stage
        self.defined: set[str] = set()

    def region(self, body: list[ir.Op], loop: bool) -> None:
        for op in body:
            try:
                self.op(op, loop)
            except _Problem as problem:
                raise IRVerificationError(f"IR verification failed after {self.stage}: {problem}\n"
                                          f"  in '{self.owner}': {op_text(op)}  ({op.loc})") from None

    def op(self, op: ir.Op, loop: bool) -> None:
        for name, value in _fields(op):
            self.field(type(op), name, value)
        for operand in op.operands():
            if isinstance(op, ir.While) and operand is op.cond:
                continue  # computed by cond_body: checked below, once that region is
            self.require_defined(operand)
        if isinstance(op, (ir.Break, ir.Continue)) and not loop:
            raise _Problem(f"{op.name} outside a loop")
        rule = RULES.get(type(op))
        if rule is not None:
            rule(self, op)
        for reg in op.results():
            self.defined.add(reg.name)
        if isinstance(op, ir.While):  # the condition is computed by cond_body, then tested
            self.region(op.cond_body, loop=False)
            self.require_defined(op.cond)
            self.region(op.body, loop=True)
        else:
            for sub in op.regions():
                self.region(sub, loop=loop or isinstance(op, (ir.For, ir.PipeForEach)))

    def require_defined(self, operand: Any) -> None:
        if isinstance(operand, ir.Reg) and operand.name not in self.defined:
            raise _Problem(f"register %{operand.name} is read before it is defined")

    # ---------------------------------------------------------------- fields by kind
    def field(self, cls: type, name: str, value: Any) -> None:
        kind = kind_of(cls, name)
        check = _FIELD_CHECKS.get(kind)
        if check is not None and not check(self, value):
            raise _Problem(f"field '{name}' holds {value!r}, not a valid {kind}")

    def declared(self, value: Any, decls: Iterable[Any]) -> bool:
        return any(value is d for d in decls)

    def tensor_index(self, value: Any) -> bool:
        if not isinstance(value, ir.TensorIndex) or not self.declared(value.tensor, self.program.tensors):
            return False
        rank = len(value.tensor.unit_shape)
        if len(value.bounds) != rank or len(value.static_extents) != rank:
            return False
        return all(_operand(lo) and (hi is None) == (n is not None) and (hi is None or _operand(hi))
                   for (lo, hi), n in zip(value.bounds, value.static_extents))

    def core_range(self, value: Any) -> bool:
        grid = self.program.grid
        return (hasattr(value, "starts") and len(value.starts) == len(value.stops) == len(grid)
                and all(0 <= a < b <= g for a, b, g in zip(value.starts, value.stops, grid)))


def _fields(op: ir.Op) -> Iterable[tuple[str, Any]]:
    for f in fields(op):
        yield f.name, getattr(op, f.name)


def _operand(value: Any) -> bool:
    return isinstance(value, (ir.Reg, ir.Const))


def _print_item(value: Any) -> bool:
    if isinstance(value, tuple):
        return all(isinstance(v, (str, ir.Reg)) for v in value)
    return isinstance(value, (str, ir.Reg))


_FIELD_CHECKS: dict[str | None, Callable[[_Checker, Any], bool]] = {
    REG: lambda c, v: isinstance(v, ir.Reg),
    OPT_REG: lambda c, v: v is None or isinstance(v, ir.Reg),
    OPERAND: lambda c, v: _operand(v),
    CB: lambda c, v: c.declared(v, c.program.cbs),
    SEM: lambda c, v: c.declared(v, c.program.semaphores),
    NET: lambda c, v: c.declared(v, c.program.pipenets),
    INDEX: _Checker.tensor_index,
    RANGE: _Checker.core_range,
    STR: lambda c, v: isinstance(v, str),
    INT: lambda c, v: isinstance(v, int) and not isinstance(v, bool),
    BOOL: lambda c, v: isinstance(v, bool),
    INTS: lambda c, v: isinstance(v, tuple) and all(isinstance(d, int) for d in v),
    NUMBERS: lambda c, v: isinstance(v, tuple) and all(isinstance(d, (int, float)) for d in v),
    CORE: lambda c, v: isinstance(v, tuple) and len(v) == len(c.program.grid) and all(_operand(x) for x in v),
    PRINT_ARGS: lambda c, v: isinstance(v, list) and all(_print_item(x) for x in v),
    TENSOR: lambda c, v: c.declared(v, c.program.tensors),
    CALL_ARGS: lambda c, v: isinstance(v, list) and all(_operand(x) for x in v),
    TEMPLATE: lambda c, v: isinstance(v, tuple) and all(isinstance(x, str) for x in v),
}


# ---------------------------------------------------------------- per-operation rules
def _scalar(value: Any, what: str) -> None:
    type_ = value.type if isinstance(value, (ir.Reg, ir.Const)) else None
    if not getattr(type_, "scalar", False):
        raise _Problem(f"{what} must be a scalar, not {type_}")


def _block(value: Any, what: str) -> BlockType:
    if not (isinstance(value, ir.Reg) and isinstance(value.type, BlockType)):
        raise _Problem(f"{what} must be a block, not {getattr(value, 'type', value)}")
    return value.type


def _typed(reg: ir.Reg, want: Type, what: str) -> None:
    if reg.type != want:
        raise _Problem(f"{what} must have type {want}, not {reg.type}")


def _same_shape(a: BlockType, b: BlockType, what: str) -> None:
    if a.shape != b.shape or a.unit != b.unit:
        raise _Problem(f"{what}: shapes {a} and {b} differ")


def _choice(value: str, allowed: Iterable[str], what: str) -> None:
    if value not in allowed:
        raise _Problem(f"{what} {value!r} is not one of {sorted(allowed)}")


_BINARY_OPS = {str(op) for op in scalarops.BinaryOp}
_COMPARISONS = {str(op) for op in scalarops.CompareOp}
_UNARY_OPS = {str(op) for op in scalarops.UnaryOp}


def _arith(c: _Checker, op: Any) -> None:
    for operand in op.operands():
        _scalar(operand, "an arithmetic operand")
    if isinstance(op, ir.Binary):
        _choice(op.op, _BINARY_OPS, "binary op")
    elif isinstance(op, ir.Compare):
        _choice(op.op, _COMPARISONS, "comparison")
        _typed(op.result, BOOL_T, "a comparison's result")
    elif isinstance(op, ir.Unary):
        _choice(op.op, _UNARY_OPS, "unary op")


def _loop(c: _Checker, op: ir.For) -> None:
    for bound in (op.lo, op.hi, op.step):
        _scalar(bound, "a loop bound")
    if not getattr(op.var.type, "scalar", False):
        raise _Problem(f"loop variable %{op.var.name} has type {op.var.type}")


def _acquire(c: _Checker, op: Any) -> None:
    _typed(op.result, op.cb.block_type, "an acquired block")


def _release(c: _Checker, op: Any) -> None:
    if op.block is not None:
        _block(op.block, "a released block")


def _tile_unary(c: _Checker, op: ir.TileUnary) -> None:
    names = {*mathops.UNARY, *mathops.UNARY_PARAM}
    _choice(op.fn, names, "math function")
    _same_shape(_block(op.x, "the operand"), _block(op.result, "the result"), "tile.unary")


def _tile_binary(c: _Checker, op: ir.TileBinary) -> None:
    _choice(op.fn, (*mathops.BINARY, *mathops.OPERATOR_ONLY_BINARY), "binary function")
    blocks = [o.type for o in (op.lhs, op.rhs) if isinstance(o, ir.Reg) and isinstance(o.type, BlockType)]
    if not blocks:
        raise _Problem("tile.binary needs a block operand")
    for other in (*blocks[1:], _block(op.result, "the result")):
        _same_shape(blocks[0], other, "tile.binary")


def _matmul(c: _Checker, op: ir.TileMatmul) -> None:
    a, b, out = _block(op.lhs, "lhs"), _block(op.rhs, "rhs"), _block(op.result, "the result")
    if ir.TileMatmul.result_shape(a.shape, b.shape) != out.shape:
        raise _Problem(f"matmul shapes {a.shape} @ {b.shape} -> {out.shape}")


def _reduce(c: _Checker, op: ir.TileReduce) -> None:
    _choice(op.kind, ("sum", "max"), "reduction")
    x, out = _block(op.x, "the operand"), _block(op.result, "the result")
    rank = len(x.shape)
    if not op.dims or any(not -rank <= d < 0 for d in op.dims):
        raise _Problem(f"reduce dims {op.dims} for a rank-{rank} block")
    want = tuple(1 if d - rank in op.dims else e for d, e in enumerate(x.shape))
    if out.shape != want:
        raise _Problem(f"reduce of {x.shape} over {op.dims} has shape {want}, not {out.shape}")


def _reshape(c: _Checker, op: ir.TileReshape) -> None:
    x, out = _block(op.x, "the operand"), _block(op.result, "the result")
    if x.unit != out.unit or math.prod(x.shape) != math.prod(out.shape) or \
            [e for e in x.shape if e != 1] != [e for e in out.shape if e != 1]:
        raise _Problem(f"tile.reshape of {x} to {out} does not only add or remove size-1 dims")


def _round(c: _Checker, op: ir.TileRound) -> None:
    _choice(op.fmt, mathops.ROUNDING_FORMATS, "rounding format")
    x, out = _block(op.x, "the operand"), _block(op.result, "the result")
    _same_shape(x, out, "tile.round")
    if out.fmt.name != op.fmt:
        raise _Problem(f"tile.round to {op.fmt} has a result of {out.fmt.name}")


def _store(c: _Checker, op: Any) -> None:
    target = _block(op.block, "the stored block")
    if isinstance(op, ir.BlockStore) and (target.expr or target.local):
        raise _Problem("block.store must write a block of a buffer")
    if isinstance(op, ir.LocalStore) and not target.local:
        raise _Problem("block.local_set must write a local block")
    _same_shape(target, _block(op.value, "the stored value"), op.name)


def _xfer_result(c: _Checker, op: Any) -> None:
    _typed(op.result, XFER, "a transfer handle")
    for name in ("src", "dst"):
        value = getattr(op, name, None)
        if isinstance(value, ir.Reg):
            _block(value, f"the copy's {name}")
    pipe = getattr(op, "pipe", None)
    if pipe is not None and not isinstance(pipe.type, PipeType):
        raise _Problem(f"%{pipe.name} is not a pipe")


def _pipe_loop(c: _Checker, op: ir.PipeForEach) -> None:
    _choice(op.role, ("src", "dst"), "pipe role")
    _typed(op.var, PipeType(op.net.index), "the pipe variable")


def _pipe_end(c: _Checker, op: ir.PipeEnd) -> None:
    _choice(op.end, ("src", "dst"), "pipe end")
    if not isinstance(op.pipe.type, PipeType):
        raise _Problem(f"%{op.pipe.name} is not a pipe")
    if len(op.outs) != op.dims or op.dims < 1:
        raise _Problem(f"pipe.end dims={op.dims} with {len(op.outs)} results")


def _sem_wait(c: _Checker, op: ir.SemWait) -> None:
    _choice(op.cond, ("eq", "ge"), "semaphore condition")
    _scalar(op.value, "the value waited for")


def _sem_remote(c: _Checker, op: ir.SemRemote) -> None:
    _choice(op.op, ("inc", "set"), "remote semaphore change")


def _param(c: _Checker, op: ir.KernelParam) -> None:
    if not any(p.index == op.index for p in c.program.params):
        raise _Problem(f"kernel.param #{op.index} is not declared")


def _core(c: _Checker, op: ir.CoreCoord) -> None:
    if len(op.outs) != op.dims or op.dims < 1:
        raise _Problem(f"ttl.core dims={op.dims} with {len(op.outs)} results")


RULES: dict[type, Callable[[_Checker, Any], None]] = {
    ir.Binary: _arith, ir.Compare: _arith, ir.Unary: _arith, ir.Select: lambda c, op: _scalar(op.cond, "a condition"),
    ir.For: _loop, ir.If: lambda c, op: _scalar(op.cond, "a condition"),
    ir.CBReserve: _acquire, ir.CBWait: _acquire, ir.CBPush: _release, ir.CBPop: _release,
    ir.TileUnary: _tile_unary, ir.TileBinary: _tile_binary, ir.TileMatmul: _matmul, ir.TileReduce: _reduce,
    ir.TileReshape: _reshape, ir.TileRound: _round,
    ir.BlockStore: _store, ir.LocalStore: _store,
    ir.CopyTensorToBlock: _xfer_result, ir.CopyBlockToTensor: _xfer_result, ir.CopyBlockToPipe: _xfer_result,
    ir.CopyPipeToBlock: _xfer_result, ir.CopyBlockToBlock: _xfer_result,
    ir.XferWait: lambda c, op: _typed(op.xfer, XFER, "the waited handle"),
    ir.GroupNew: lambda c, op: _typed(op.result, GROUP, "a transfer group"),
    ir.GroupAdd: lambda c, op: (_typed(op.group, GROUP, "the group"), _typed(op.xfer, XFER, "the handle")),
    ir.GroupWait: lambda c, op: _typed(op.group, GROUP, "the group"),
    ir.PipeForEach: _pipe_loop, ir.PipeEnd: _pipe_end, ir.SemWait: _sem_wait, ir.SemRemote: _sem_remote,
    ir.KernelParam: _param, ir.CoreCoord: _core,
}

