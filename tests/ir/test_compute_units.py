"""Which unit computes a binary block operation (``ir/compute_units.py``): the lowering emits
the FPU's calls exactly when the cost model charges the FPU, for every binary of the language,
with operands read from buffers, broadcast, computed (rounded to bfloat16 or not), numbers,
bfloat16 or Float32."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.emit_tools import programs_of
from tilecraft.arch import get as get_arch
from tilecraft.diagnostics import KernelError
from tilecraft.dtypes import TILE_ELEMS
from tilecraft.ir import mathops
from tilecraft.ir import ops as ir
from tilecraft.ir.compute_units import Unit, unit_of
from tilecraft.ir.program_ir import COMPUTE, ProgramIR
from tilecraft.metal import kir
from tilecraft.metal.emit import emit_program
from tilecraft.metal.optable import FPU_BINARY
from tilecraft.perf.compute_cost import SFPU_BODY, store_cost

pytestmark = pytest.mark.usefixtures("fresh_process_state")

#: how a program writes each binary of ``lhs`` and ``rhs``
SPELLING = {"add": "{} + {}", "sub": "{} - {}", "mul": "{} * {}", "div": "{} / {}", "pow": "{} ** {}",
            "floordiv": "{} // {}", "remainder": "{} % {}", "max": "ttl.math.max({}, {})",
            "min": "ttl.math.min({}, {})", "eq": "ttl.math.eq({}, {})", "ne": "ttl.math.ne({}, {})", "lt": "{} < {}", "le": "{} <= {}",
            "gt": "{} > {}", "ge": "{} >= {}"}
#: the operand forms: (left, right)
FORMS = {"buffers": ("x", "z"), "broadcast": ("x", "ttl.block.broadcast(z, dims=[-2], shape=x.shape)"),
         "computed": ("ttl.math.abs(x)", "z"), "number": ("x", "2.0"),
         # computed, but rounded to bfloat16 where the program says (.to): read from bfloat16 buffers
         "rounded": ("ttl.math.abs(x).to(ttnn.bfloat16)",
                     "ttl.block.broadcast(ttl.math.abs(z).to(ttnn.bfloat16), dims=[-2], shape=x.shape)")}


def fpu_calls(fn: str) -> set[str]:
    """The FPU's calls for binary ``fn`` (none where the FPU has no such binary). Only ``fn``'s own:
    on Wormhole with an fp32 DST a row broadcast of a 16-bit block is itself an FPU add onto a zero
    tile (the LLK's unary_bcast<ROW> is broken there), which says nothing of the unit ``fn`` runs on."""
    f = FPU_BINARY.get(fn)
    return set() if f is None else {f.call, *(call for _, call in f.bcast.values())}


SCRIPT = """\
import torch
import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def kern(a, b, y):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def compute():
        with a_dfb.wait() as x, b_dfb.wait() as z, y_dfb.reserve() as out:
            out.store({expr})

    @ttl.datamovement()
    def reader():
        with a_dfb.reserve() as blk:
            ttl.copy(a[0, 0], blk).wait()
        with b_dfb.reserve() as blk:
            ttl.copy(b[0, 0], blk).wait()

    @ttl.datamovement()
    def writer():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()


def tensor():
    return ttnn.from_torch(torch.rand(32, 32) + 0.5, dtype=ttnn.{dtype}, layout=ttnn.TILE_LAYOUT)


kern(tensor(), tensor(), tensor())
"""


def program_of(tmp_path: Path, expr: str, dtype: str) -> ProgramIR:
    path = tmp_path / "binary.py"
    path.write_text(SCRIPT.format(expr=expr, dtype=dtype))
    (program,) = programs_of(path)
    return program


def the_binary(program: ProgramIR, fn: str) -> tuple[ir.TileBinary, dict[str, ir.Op], ir.BlockStore]:
    thread = next(t for t in program.threads if t.kind == COMPUTE)
    ops = list(ir.walk(thread.body))
    defs = {op.result.name: op for op in ops if isinstance(op, ir.EXPR_OPS)}
    binary = next(op for op in ops if isinstance(op, ir.TileBinary) and op.fn == fn)
    return binary, defs, next(op for op in ops if isinstance(op, ir.BlockStore))


def test_every_binary_has_a_spelling() -> None:
    assert set(SPELLING) == set(mathops.BINARY) | set(mathops.OPERATOR_ONLY_BINARY)


@pytest.mark.parametrize("dtype", ["bfloat16", "float32"])
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("fn", SPELLING)
def test_lowering_and_cost_model_route_alike(fn: str, form: str, dtype: str, tmp_path: Path) -> None:
    program = program_of(tmp_path, SPELLING[fn].format(*FORMS[form]), dtype)
    binary, defs, _ = the_binary(program, fn)
    charged = unit_of(binary, defs)
    try:
        emitted = emit_program(program)
    except KernelError as e:  # not emittable (// of two blocks): the SFPU would have to do it
        assert e.diagnostics[0].code.startswith("E3") and charged is Unit.SFPU
        return
    compute = next(k for k in emitted.program.kernels if k.processor.is_compute)
    calls = {op.fn for op in ir.walk(compute.body) if isinstance(op, kir.Call)}
    emitted_unit = Unit.FPU if calls & fpu_calls(fn) else Unit.SFPU
    assert emitted_unit is charged
    # the FPU takes two tiles from buffers, in bfloat16 (the program's, or values it rounded)
    assert (charged is Unit.FPU) == (fn in ("add", "sub", "mul") and (
        form in ("buffers", "broadcast") and dtype == "bfloat16" or form == "rounded"))


@pytest.mark.parametrize("dtype, unit", [("bfloat16", Unit.FPU), ("float32", Unit.SFPU)])
def test_the_cost_model_charges_the_unit_that_runs(dtype: str, unit: Unit, tmp_path: Path) -> None:
    """x + z of two Float32 buffers runs on the SFPU (SrcA/SrcB would truncate them to TF32), and
    the cost model charges SFPU passes for it, not the FPU's cycles."""
    binary, defs, store = the_binary(program_of(tmp_path, "x + z", dtype), "add")
    figs, phases = get_arch("wormhole_b0").costs, 4
    cost = store_cost(store, defs, figs, phases, 8)
    sfpu_pass = TILE_ELEMS / figs.sfpu_lanes
    expected = figs.eltwise_cycles_per_phase if unit is Unit.FPU else sfpu_pass * (2 + 1 + SFPU_BODY["add"])
    assert unit_of(binary, defs) is unit and cost.math == pytest.approx(expected)
