"""ttnn 0.81.1's own eltwise binary kernels with broadcast, taken unchanged from the ttnn wheel, run on
the emulator with hosts written on the 0.81.1 ``generic_op`` API, against goldens.

binary_ng (``eltwise/binary_ng/device/kernels{,_ng}``): one reader brings both operands' tiles, the
compute kernel applies the op (FPU ``add_tiles``/``mul_tiles``/``sub_tiles`` or an SFPU binary), a
writer stores the result. A broadcast operand is either expanded by the reader (``BCAST_LLK`` 0: the
reader's ``FILL_TILE_WITH_FIRST_{ROW,COLUMN,ELEMENT}`` replicates it in L1, and the compute kernel
reuses one tile ``tile_freq`` times) or by the unpacker (``BCAST_LLK`` 1: the kernels_ng compute
kernels' ``unary_bcast`` into DST). The hosts pass the runtime args, compile-time args and defines of
0.81.1's binary_ng program factory (``BinaryNgKernelConfig``, ``OpConfig::as_defines``,
``make_dataflow_defines``). The arithmetic is the device's: bit-exact against tilecraft/device_arith.py
(FPU), against the SFPU's rounding, or the moved values (where).

The bcast op (``data_movement/bcast``): its legacy readers with ``bcast_hw.cpp``, which runs
kernel_lib's ``eltwise_chain`` (a BinaryFpu with an unpacker-broadcast srcB). Its other kernels
are Metal 2.0 (``experimental/kernel_args.h``), not run here.

The wheel is fetched at test time (the ``ops`` fixture, tests/emu/conftest.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

import tilecraft.ttnn as ttnn
from tilecraft import device_arith
from tests.emu.harness import cb, compute, dram, kernel, output, run
from tilecraft.ttnn.wheel_ops.eltwise import (BCAST, NG, NO_ACTIVATIONS, Dims, ng_compute, ng_reader, ng_writer,
                                              scalar_reader, scalar_writer, with_activations)
from tilecraft.ttnn.wheel_ops.program import packed_scalar


def sample(default, cases: list) -> list:
    """``cases`` for parametrize with all but ``default`` (None: all) marked slow: the default run keeps
    a representative case or none (each case compiles its own kernels, seconds apiece cold), ``-m slow``
    runs the rest."""
    return [case if case == default else pytest.param(*(case if isinstance(case, tuple) else (case,)),
                                                      marks=pytest.mark.slow) for case in cases]


def _shape(d: Dims) -> tuple[int, int, int]:
    return (d.c, d.ht * 32, d.wt * 32)


def fpu_golden(op: str, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """The device's result for bfloat16 inputs (already broadcast to the output's shape): HiFi4 (the
    default ComputeConfigDescriptor), a bfloat16 DST, packed to bfloat16."""
    return device_arith.pack_bf16(device_arith.eltwise(op, a.float(), b.float(), 4, fp32_dst=False))


#: binary_ng's RSUB on the FPU (OpConfig: process_lhs NEG, then ADD): the LHS activation define and
#: the include define update_macro_defines adds for NEG
RSUB_LHS = [("PROCESS_LHS_ACTIVATIONS(i)", "negative_tile_init(); negative_tile(i);"), ("SFPU_OP_NEG_INCLUDE", "1")]


@pytest.mark.parametrize("op,a_dtype,negate_a,relu", sample(("sub", ttnn.bfloat16, False, True), [
    ("add", ttnn.bfloat16, False, False), ("mul", ttnn.bfloat8_b, False, False), ("add", ttnn.bfloat16, True, False),
    ("sfpu add", ttnn.bfloat16, True, False), ("sub", ttnn.bfloat16, False, True)]))
def test_binary_ng_no_bcast_runs_unchanged(device, ops, op, a_dtype, negate_a, relu) -> None:
    """SubtileBroadcastType::NONE: kernels_ng's reader_interleaved_no_bcast.cpp, the FPU
    eltwise_binary_no_bcast.cpp (or the SFPU eltwise_binary_sfpu_no_bcast.cpp), kernels_ng's
    writer_interleaved_no_bcast.cpp; a in bfloat16 or bfloat8_b (its CB in the tensor's format, as
    the factory makes it). NEGATE_A gives a the LHS activation of binary_ng's FPU RSUB (b - a is
    ``-a + b``): copy_tile, negative_tile, pack into CB 3, then the op. RELU: PACK_RELU, which the
    factory defines for a fused RELU, has the packer write negative results as zero
    (pack_relu_config(ReluConfig::zero()))."""
    torch.manual_seed(31)
    dims = Dims(2, 2, 3)
    a, b = torch.randn(_shape(dims)), torch.randn(_shape(dims))
    ta, tb, out = dram(device, a, dtype=a_dtype), dram(device, b), output(device, _shape(dims))
    sfpu = op.startswith("sfpu ")
    activations = RSUB_LHS if negate_a else []
    name = op.removeprefix("sfpu ")
    path = f"kernels/compute/eltwise_binary{'_sfpu' if sfpu else ''}_no_bcast.cpp"
    compute = (ng_sfpu_compute if sfpu else ng_compute)(ops, path, [dims.tiles], name,
                                                        [*activations, *([("PACK_RELU", "1")] if relu else [])])
    run([ta, tb, out], [ng_reader(ops, "reader_interleaved_no_bcast.cpp", ta, tb, dims, dims, dims, []),
                        compute, ng_writer(ops, out, dims)], [cb(0, a_dtype), cb(1), cb(2), cb(3)])
    x, y = ttnn.to_torch(ta).float(), ttnn.to_torch(tb).float()
    want = (sfpu_golden if sfpu else fpu_golden)(name, -x if negate_a else x, y)
    want = want.clamp(min=0) if relu else want
    assert torch.equal(ttnn.to_torch(out), want)


#: SFPU binaries (OpConfig::as_defines: BINARY_SFPU_INIT, BINARY_SFPU_OP) -> their value in fp32
SFPU_OPS = {"add": ("add_binary_tile_init();", "add_binary_tile", torch.add),
            "mul": ("mul_binary_tile_init();", "mul_binary_tile", torch.mul),
            "max": ("binary_max_tile_init();", "binary_max_tile", torch.maximum)}


def ng_sfpu_compute(ops: Path, path: str, rt: list[int], op: str, defines: list[tuple[str, str]] = ()
                    ) -> ttnn.KernelDescriptor:
    init, call, _ = SFPU_OPS[op]
    return kernel(ops / NG / path, ttnn.ComputeConfigDescriptor(), rt=rt, ct=[1],
                  defines=[("BINARY_SFPU_INIT", init), ("BINARY_SFPU_OP", call), *with_activations(defines)])


def sfpu_golden(op: str, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """An SFPU binary on bfloat16 tiles copied to a bfloat16 DST: fp32 arithmetic on the lanes, the
    result stored to DST by truncation to bfloat16 (SFPSTORE's default rounding), except mul, whose
    LLK rounds to nearest even first and makes 0 * x exactly +0; packing is then exact."""
    result = SFPU_OPS[op][2](a.float(), b.float())
    if op == "mul":
        return torch.where((a == 0) | (b == 0), 0.0, result).to(torch.bfloat16)
    return (result.view(torch.int32) & ~0xFFFF).view(torch.float32).to(torch.bfloat16)


def broadcast(x: torch.Tensor, kind: str, like: torch.Tensor) -> torch.Tensor:
    """What a broadcast operand means: row 0 of each tile row (``row``), column 0 of each tile column
    (``col``) or element [0, 0] (``scalar``) of each channel, expanded to ``like``'s shape."""
    part = {"row": x[:, :1, :], "col": x[:, :, :1], "scalar": x[:, :1, :1]}[kind]
    return part.expand_as(like)


@pytest.mark.slow
def test_binary_ng_bfloat8_b_row_bcast_runs_unchanged(device, ops) -> None:
    """A bfloat8_b b broadcast by rows: the row reader expands b's row 0 in its bfloat8_b page
    (fill_tile_with_first_row_bfp8: the row's shared exponents and mantissas copied to every row),
    eltwise_binary_no_bcast.cpp unpacks the page from bfloat8_b."""
    torch.manual_seed(39)
    dims = Dims(2, 2, 3)
    db = Dims(dims.c, 1, dims.wt)
    ta = dram(device, torch.randn(_shape(dims)))
    tb = dram(device, torch.randn(_shape(db)), dtype=ttnn.bfloat8_b)
    out = output(device, _shape(dims))
    flags = [("SRC_BCAST", "0"), ("SRC_BCAST_B", "1")]
    reader = ng_reader(ops, "reader_interleaved_row_bcast.cpp", ta, tb, dims, dims, db, [*flags, ("BCAST_LLK", "0")],
                       b_fill="bfp8")
    compute = ng_compute(ops, "kernels/compute/eltwise_binary_no_bcast.cpp", [dims.tiles], "add")
    run([ta, tb, out], [reader, compute, ng_writer(ops, out, dims)], [cb(0), cb(1, ttnn.bfloat8_b), cb(2)])
    x = ttnn.to_torch(ta).float()
    y = broadcast(ttnn.to_torch(tb).float(), "row", x)
    assert torch.equal(ttnn.to_torch(out), fpu_golden("add", x, y))


@pytest.mark.parametrize("kind,llk,side,op", sample(("scalar", True, "b", "sfpu mul"), [
    ("row", True, "b", "add"), ("col", True, "b", "mul"), ("scalar", True, "b", "sub"),
    ("row", False, "b", "mul"), ("col", False, "b", "sub"), ("scalar", False, "b", "add"),
    ("col", True, "a", "sub"), ("scalar", False, "a", "sub"),
    ("row", True, "b", "sfpu add"), ("col", True, "a", "sfpu max"), ("scalar", True, "b", "sfpu mul"),
    ("col", False, "b", "sfpu add"), ("row", False, "a", "sfpu max"),
]))
def test_binary_ng_bcast_runs_unchanged(device, ops, kind, llk, side, op) -> None:
    """Subtile broadcasts ROW/COL/SCALAR of b (or a): the kernels_ng reader for the kind with
    SRC_BCAST(_B) and BCAST_LLK, the compute kernel BinaryNgKernelConfig pairs with it (BCAST_INPUT
    names the broadcast operand; FPU or SFPU), kernels_ng's writer. ``sub`` checks the operands keep
    their order."""
    torch.manual_seed(32)
    dims = Dims(2, 2, 3)
    bdims_of, reader_name, extra, fill_compute = BCAST[kind]
    da, db = (dims, bdims_of(dims)) if side == "b" else (bdims_of(dims), dims)
    a, b = torch.randn(_shape(da)), torch.randn(_shape(db))
    ta, tb, out = dram(device, a), dram(device, b), output(device, _shape(dims))
    flags = [("SRC_BCAST", "1" if side == "a" else "0"), ("SRC_BCAST_B", "1" if side == "b" else "0")]
    sfpu = op.startswith("sfpu ")
    name = op.removeprefix("sfpu ")
    infix = "_sfpu" if sfpu else ""
    path = f"kernels_ng/compute/eltwise_binary{infix}_{kind}_bcast.cpp" if llk else fill_compute.format(infix)
    make = ng_sfpu_compute if sfpu else ng_compute
    compute = make(ops, path, [dims.tiles, *extra(dims)], name, [*flags, ("BCAST_INPUT", "1" if side == "b" else "0")])
    run([ta, tb, out], [ng_reader(ops, reader_name, ta, tb, dims, da, db, [*flags, ("BCAST_LLK", str(int(llk)))]),
                        compute, ng_writer(ops, out, dims)], [cb(i) for i in (0, 1, 2, 5, 6)])
    x, y = ttnn.to_torch(ta).float(), ttnn.to_torch(tb).float()
    full = torch.empty(_shape(dims))
    x, y = (x, broadcast(y, kind, full)) if side == "b" else (broadcast(x, kind, full), y)
    assert torch.equal(ttnn.to_torch(out), (sfpu_golden if sfpu else fpu_golden)(name, x, y))


@pytest.mark.parametrize("op", sample(None, ["sub", "sfpu mul"]))
def test_binary_ng_row_col_bcast_runs_unchanged(device, ops, op) -> None:
    """ROW_B_COL_A: a's column 0 against b's row 0. kernels_ng's reader_interleaved_row_col_mixed_bcast.cpp
    expands a's column in L1 (SRC_BCAST_COL) and passes b's tiles raw (SRC_BCAST_ROW_B, BCAST_LLK), the
    row-col compute kernel holds a's tile for a tile row (tile_freq Wt) and broadcasts b's row 0 with
    the unpacker before each op."""
    torch.manual_seed(33)
    dims = Dims(2, 2, 3)
    da, db = Dims(dims.c, dims.ht, 1), Dims(dims.c, 1, dims.wt)
    a, b = torch.randn(_shape(da)), torch.randn(_shape(db))
    ta, tb, out = dram(device, a), dram(device, b), output(device, _shape(dims))
    sfpu = op.startswith("sfpu ")
    name = op.removeprefix("sfpu ")
    path = f"kernels_ng/compute/eltwise_binary{'_sfpu' if sfpu else ''}_row_col_bcast.cpp"
    compute = (ng_sfpu_compute if sfpu else ng_compute)(ops, path, [dims.tiles, dims.wt, 0], name,
                                                        [("BCAST_INPUT", "0")])
    reader = ng_reader(ops, "reader_interleaved_row_col_mixed_bcast.cpp", ta, tb, dims, da, db,
                       [("SRC_BCAST_COL", "1"), ("SRC_BCAST_ROW_B", "1"), ("BCAST_LLK", "1")])
    run([ta, tb, out], [reader, compute, ng_writer(ops, out, dims)], [cb(i) for i in (0, 1, 2, 5, 6)])
    full = torch.empty(_shape(dims))
    x = broadcast(ttnn.to_torch(ta).float(), "col", full)
    y = broadcast(ttnn.to_torch(tb).float(), "row", full)
    assert torch.equal(ttnn.to_torch(out), (sfpu_golden if sfpu else fpu_golden)(name, x, y))


@pytest.mark.parametrize("op", sample(None, ["mul", "sfpu add"]))
def test_binary_ng_tensor_scalar_runs_unchanged(device, ops, op) -> None:
    """A tensor and a Python scalar: kernels/dataflow/reader_interleaved_no_bcast.cpp reads a alone,
    writer_interleaved_scalar.cpp fills one tile of CB 1 with the scalar (FILL_WITH_VALUE, the bfloat16
    pair ``pack_scalar_runtime_arg`` makes of the truncated scalar) before writing the output, and
    eltwise_binary_scalar.cpp (or its SFPU twin) applies the op against that one tile."""
    torch.manual_seed(34)
    dims = Dims(2, 2, 3)
    a = torch.randn(_shape(dims))
    ta, out = dram(device, a), output(device, _shape(dims))
    scalar = torch.tensor(-1.7).to(torch.bfloat16)  # exactly a bfloat16, so truncation keeps it
    reader = scalar_reader(ops, ta, dims)
    writer = scalar_writer(ops, out, dims, packed_scalar(scalar.item()))
    sfpu = op.startswith("sfpu ")
    name = op.removeprefix("sfpu ")
    path = f"kernels/compute/eltwise_binary{'_sfpu' if sfpu else ''}_scalar.cpp"
    compute = (ng_sfpu_compute if sfpu else ng_compute)(ops, path, [dims.tiles], name)
    run([ta, out], [reader, compute, writer], [cb(0), cb(1), cb(2)])
    x = ttnn.to_torch(ta).float()
    y = torch.full_like(x, scalar.float().item())
    assert torch.equal(ttnn.to_torch(out), (sfpu_golden if sfpu else fpu_golden)(name, x, y))


BCAST_KERNELS = "data_movement/bcast/device/kernels"
#: bcast_op_utils::get_defines per BcastOpMath: the LLK op, and the kernel_lib chain's op
BCAST_MATH = {"add": ("ELWADD", "Add"), "sub": ("ELWSUB", "Sub"), "mul": ("ELWMUL", "Mul")}
#: per BcastOpDim: the LLK broadcast and the kernel_lib chain's
BCAST_DIM = {"H": ("ROW", "Row"), "W": ("COL", "Col"), "HW": ("SCALAR", "Scalar")}


def bcast_defines(dim: str, math: str) -> list[tuple[str, str]]:
    llk_op, chain_op = BCAST_MATH[math]
    llk_dim, chain_dim = BCAST_DIM[dim]
    return [("BCAST_OP", f"{math}_tiles_bcast"), ("BCAST_LLKOP", llk_op), ("BCAST_DIM", f"BroadcastType::{llk_dim}"),
            ("CHAIN_BCAST_OP", f"compute_kernel_lib::BinaryFpuOp::{chain_op}"),
            ("CHAIN_BCAST_DIM", f"compute_kernel_lib::BroadcastDim::{chain_dim}")]


def bcast_reader(ops: Path, name: str, ta: ttnn.Tensor, tb: ttnn.Tensor | None, nc: int, ht: int, wt: int,
                 nc1: int, defines: list[tuple[str, str]], scalar_bits: int = 0) -> ttnn.KernelDescriptor:
    """The bcast op's readers: the interleaved ones take (a's address, -, -, a's tiles, b's address, -, -,
    -, NCHtWt, NC, Ht, Wt, nc1: b has one batch) and both accessors; the scalar one (a's address, the
    scalar in the high half, tiles, HtWt, first batch's tile, tile within it, -) and a's accessor."""
    tiles = nc * ht * wt
    path = ops / BCAST_KERNELS / "dataflow" / name
    if tb is None:
        return kernel(path, ttnn.ReaderConfigDescriptor(), rt=[ta.buffer_address(), scalar_bits << 16, tiles,
                                                               ht * wt, 0, 0, 0],
                      ct=ttnn.TensorAccessorArgs(ta).get_compile_time_args(), defines=defines)
    return kernel(path, ttnn.ReaderConfigDescriptor(),
                  rt=[ta.buffer_address(), 0, 0, tiles, tb.buffer_address(), 0, 0, 0, tiles, nc, ht, wt, nc1],
                  ct=[*ttnn.TensorAccessorArgs(ta).get_compile_time_args(),
                      *ttnn.TensorAccessorArgs(tb).get_compile_time_args()], defines=defines)


#: variant -> (reader, the bcast dim, b's shape given a's (nc, ht, wt), whether b is one scalar tile)
BCAST_VARIANTS = {
    "HW": ("reader_bcast_hw_interleaved.cpp", "HW", lambda nc, ht, wt: (1, 32, 32), True),
    "HW per batch": ("reader_bcast_hw_interleaved.cpp", "HW", lambda nc, ht, wt: (nc, 32, 32), False),
    "H": ("reader_bcast_h_interleaved.cpp", "H", lambda nc, ht, wt: (nc, 32, wt * 32), False),
    "scalar": ("reader_bcast_scalar_interleaved_partitioned.cpp", "HW", None, True),
}


@pytest.mark.parametrize("variant,math", sample(("HW", "add"), [("HW", "add"), ("HW per batch", "sub"), ("H", "mul"),
                                                         ("scalar", "sub")]))
def test_bcast_hw_runs_unchanged(device, ops, variant, math) -> None:
    """ttnn.bcast's legacy kernels: a reader, bcast_hw.cpp (kernel_lib's eltwise_chain: a BinaryFpu
    whose srcB the unpacker broadcasts by CHAIN_BCAST_DIM, then PackTile; BCAST_SCALAR holds b's one
    tile for the whole walk) and the unary writer. ``HW``: reader_bcast_hw_interleaved.cpp reads b's
    one tile (BCAST_SCALAR), ``HW per batch`` b's tile of each batch for every tile of a (nc1 = 0);
    ``scalar``: reader_bcast_scalar_interleaved_partitioned.cpp writes a host scalar into b's tile
    (generate_bcast_unary_scalar). ``H``: reader_bcast_h_interleaved.cpp streams one tile of b (its
    row 0 is broadcast) per tile of a; the bcast factory's own H compute kernel, bcast_h.cpp, is
    Metal 2.0 (not run here), so bcast_hw.cpp consumes that stream with CHAIN_BCAST_DIM Row."""
    torch.manual_seed(35)
    nc, ht, wt = 2, 2, 2
    reader_name, dim, b_shape, one_tile = BCAST_VARIANTS[variant]
    a = torch.randn(nc, ht * 32, wt * 32)
    ta, out = dram(device, a), output(device, (nc, ht * 32, wt * 32))
    defines = [*bcast_defines(dim, math), *([("BCAST_SCALAR", "1")] if one_tile else [])]
    x = ttnn.to_torch(ta).float()
    if b_shape is None:
        scalar = torch.tensor(0.8125).to(torch.bfloat16)
        tensors = [ta, out]
        reader = bcast_reader(ops, reader_name, ta, None, nc, ht, wt, 0, defines,
                              scalar_bits=int(scalar.view(torch.int16).item()) & 0xFFFF)
        y = torch.full_like(x, scalar.float().item())
    else:
        tb = dram(device, torch.randn(b_shape(nc, ht, wt)))
        tensors = [ta, tb, out]
        reader = bcast_reader(ops, reader_name, ta, tb, nc, ht, wt, int(b_shape(nc, ht, wt)[0] == 1), defines)
        y = ttnn.to_torch(tb).float()
        y = (y[:, :1, :] if dim == "H" else y[:, :1, :1]).expand_as(x)
    compute = kernel(ops / BCAST_KERNELS / "compute/bcast_hw.cpp", ttnn.ComputeConfigDescriptor(), rt=[nc, ht, wt],
                     defines=defines)
    writer = kernel(ops / "eltwise/unary/device/kernels/dataflow/writer_unary_interleaved_start_id.cpp",
                    ttnn.WriterConfigDescriptor(), rt=[out.buffer_address(), nc * ht * wt, 0],
                    ct=[16, *ttnn.TensorAccessorArgs(out).get_compile_time_args()])
    run(tensors, [reader, compute, writer], [cb(0), cb(1), cb(16)])
    assert torch.equal(ttnn.to_torch(out), fpu_golden(math, x, y))


@pytest.mark.slow
def test_bcast_w_reader_runs_unchanged(device, ops) -> None:
    """ttnn.bcast over W: reader_bcast_w_interleaved.cpp pushes b's tile of a tile row (its column 0 is
    broadcast) once, then the row's Wt tiles of a. The bcast factory's W compute kernel, bcast_w.cpp,
    is Metal 2.0 (not run here); binary_ng's kernels_ng/compute/eltwise_binary_col_bcast.cpp consumes
    the same stream (one broadcast tile held for tile_freq = Wt tiles of a) and writes CB 2, which the
    unary writer stores."""
    torch.manual_seed(36)
    nc, ht, wt = 2, 2, 3
    a, b = torch.randn(nc, ht * 32, wt * 32), torch.randn(nc, ht * 32, 32)
    ta, tb, out = dram(device, a), dram(device, b), output(device, (nc, ht * 32, wt * 32))
    tiles = nc * ht * wt
    reader = bcast_reader(ops, "reader_bcast_w_interleaved.cpp", ta, tb, nc, ht, wt, 0, [])
    compute = ng_compute(ops, "kernels_ng/compute/eltwise_binary_col_bcast.cpp", [tiles, wt, 0], "mul",
                         [("SRC_BCAST", "0"), ("SRC_BCAST_B", "1"), ("BCAST_INPUT", "1")])
    writer = kernel(ops / "eltwise/unary/device/kernels/dataflow/writer_unary_interleaved_start_id.cpp",
                    ttnn.WriterConfigDescriptor(), rt=[out.buffer_address(), tiles, 0],
                    ct=[2, *ttnn.TensorAccessorArgs(out).get_compile_time_args()])
    run([ta, tb, out], [reader, compute, writer], [cb(i) for i in (0, 1, 2, 6)])
    x = ttnn.to_torch(ta).float()
    y = ttnn.to_torch(tb).float()[:, :, :1].expand_as(x)
    assert torch.equal(ttnn.to_torch(out), fpu_golden("mul", x, y))


#: binary_ng's WHERE_TTS on bfloat16: the SFPU where with the scalar filled into DST (FILL_LLK)
WHERE_DEFINES = [("WHERE_TTS", "1"), ("WHERE_TST", "0"), ("BINARY_SFPU_INIT", "where_tile_init();"),
                 ("BINARY_SFPU_OP", "where_tile<DataFormat::Float16_b>"), ("FILL_LLK", "fill_tile"),
                 ("FILL_WITH_VALUE_FLOAT", "1"), ("WHERE_DATA_FORMAT", "Float16_b"), *NO_ACTIVATIONS]


#: where variants: (the condition's and the true tensor's dims given the output's, the reader, its
#: broadcast defines, the compute kernel, its runtime args after the tile count)
WHERE_KINDS = {
    "none": (lambda d: (d, d), "reader_interleaved_no_bcast.cpp", [], "kernels/compute/eltwise_where_no_bcast.cpp",
             lambda d: [0, 0]),
    "col": (lambda d: (d, Dims(d.c, d.ht, 1)), "reader_interleaved_col_bcast.cpp",
            [("SRC_BCAST", "0"), ("SRC_BCAST_B", "1"), ("BCAST_LLK", "0")], "kernels/compute/eltwise_where_sfpu.cpp",
            lambda d: [d.wt, 0]),
    "scalar": (lambda d: (d, Dims(d.c, 1, 1)), "reader_interleaved_scalar_bcast.cpp",
               [("SRC_BCAST", "0"), ("SRC_BCAST_B", "1"), ("BCAST_LLK", "0")],
               "kernels/compute/eltwise_where_sfpu_scalar.cpp", lambda d: [0, 0]),
    "row": (lambda d: (d, Dims(d.c, 1, d.wt)), "reader_interleaved_row_bcast.cpp",
            [("SRC_BCAST", "0"), ("SRC_BCAST_B", "1"), ("BCAST_LLK", "1")],
            "kernels_ng/compute/eltwise_where_sfpu_row_bcast.cpp", lambda d: [0, 0]),
    "col cond, row true": (lambda d: (Dims(d.c, d.ht, 1), Dims(d.c, 1, d.wt)),
                           "reader_interleaved_row_col_mixed_bcast.cpp",
                           [("SRC_BCAST_COL", "1"), ("SRC_BCAST_ROW_B", "1"), ("BCAST_LLK", "1")],
                           "kernels_ng/compute/eltwise_where_sfpu_row_col_bcast.cpp", lambda d: [d.wt, 0]),
}


@pytest.mark.parametrize("kind", sample(None, list(WHERE_KINDS)))
def test_binary_ng_where_runs_unchanged(device, ops, kind) -> None:
    """where(cond, t, s) (WHERE_TTS): the condition in CB 0, the true tensor in CB 1, the false scalar
    a compute runtime arg (pack_scalar_runtime_arg: the bfloat16 twice). ``none``:
    eltwise_where_no_bcast.cpp (kernel_lib's chain: CopyTile, FillBitcast, Where); ``col``: the true
    tensor's column 0 (the reader expands it), eltwise_where_sfpu.cpp holding it for a tile row;
    ``scalar``: the true tensor's element [0, 0], eltwise_where_sfpu_scalar.cpp holding it throughout;
    ``row``: its row 0 broadcast by the unpacker (kernels_ng's where_sfpu_row_bcast.cpp); ``col cond,
    row true``: the condition's column 0 expanded by the reader and held for a tile row, the true
    tensor's row 0 broadcast by the unpacker (where_sfpu_row_col_bcast.cpp)."""
    torch.manual_seed(37)
    dims = Dims(1, 2, 3) if kind == "scalar" else Dims(2, 2, 3)
    dims_of, reader_name, flags, path, extra = WHERE_KINDS[kind]
    dc, dt = dims_of(dims)
    cond = (torch.rand(_shape(dc)) > 0.5).float() * torch.randn(_shape(dc)).sign()
    tc, tt, out = dram(device, cond), dram(device, torch.randn(_shape(dt))), output(device, _shape(dims))
    scalar = torch.tensor(2.5).to(torch.bfloat16)  # positive: both halves of the packed arg round down to it
    half = int(scalar.view(torch.int16).item()) & 0xFFFF
    bcast_input = "0" if kind == "col cond, row true" else "1"
    compute = kernel(ops / NG / path, ttnn.ComputeConfigDescriptor(), rt=[dims.tiles, *extra(dims), half << 16 | half],
                     ct=[1, 0], defines=[*WHERE_DEFINES, *flags, ("BCAST_INPUT", bcast_input)])
    run([tc, tt, out], [ng_reader(ops, reader_name, tc, tt, dims, dc, dt, flags), compute, ng_writer(ops, out, dims)],
        [cb(i) for i in (0, 1, 2, 5, 6)])
    full = torch.empty(_shape(dims))
    c, t = ttnn.to_torch(tc).float(), ttnn.to_torch(tt).float()
    c = broadcast(c, "col", full) if dc != dims else c
    t = t if dt == dims else broadcast(t, {"col": "col", "scalar": "scalar"}.get(kind, "row"), full)
    want = torch.where(c != 0, t, scalar.float()).to(torch.bfloat16)
    assert torch.equal(ttnn.to_torch(out), want)


#: row-major broadcasts: the kernels_ng reader, a's and b's shapes given the output's (c, h, w), its defines
RM_BCAST = {
    "none": ("reader_interleaved_rm_no_bcast.cpp", lambda c, h, w: ((c, h, w), (c, h, w)), []),
    "col": ("reader_interleaved_rm_col_bcast.cpp", lambda c, h, w: ((c, h, w), (c, h, 1)),
            [("SRC_BCAST", "0"), ("SRC_BCAST_B", "1")]),
    "row": ("reader_interleaved_rm_row_bcast.cpp", lambda c, h, w: ((c, h, w), (c, 1, w)),
            [("SRC_BCAST", "0"), ("SRC_BCAST_B", "1")]),
    "scalar": ("reader_interleaved_rm_scalar_bcast.cpp", lambda c, h, w: ((c, 1, 1), (c, h, w)),
               [("SRC_BCAST", "1"), ("SRC_BCAST_B", "0")]),
    "col a, row b": ("reader_interleaved_rm_row_col_mixed_bcast.cpp", lambda c, h, w: ((c, h, 1), (c, 1, w)),
                     [("SRC_BCAST_ROW_B", "1")]),
    "tensor-scalar": ("reader_interleaved_rm_scalar_op.cpp", lambda c, h, w: ((c, h, w), None),
                      [("FILL_WITH_VALUE_B", "fill_with_val_bfloat16")]),
}
RM_FILL = [(f"FILL_TILE_WITH_FIRST_{what}_RM{side}", f"fill_tile_with_first_{what.lower()}_rm_bfloat16")
           for what in ("COLUMN", "ROW") for side in ("", "_B")]


@pytest.mark.parametrize("kind", sample(None, list(RM_BCAST)))
def test_binary_ng_row_major_runs_unchanged(device, ops, kind) -> None:
    """Row-major operands: kernels_ng's reader_interleaved_rm_*.cpp gathers 32 rows of a 64-byte
    stride of each operand into one CB page (rows_per_tile, stride_size_bytes, tiles_per_row); a
    broadcast operand's element or row is read once and expanded in the page
    (FILL_TILE_WITH_FIRST_{COLUMN,ROW}_RM). eltwise_binary_no_bcast.cpp combines the pages element by
    element (the layout inside a page does not matter to an element-wise op);
    writer_interleaved_rm_no_bcast.cpp scatters the rows back. The result is torch's broadcast.
    ``tensor-scalar``: reader_interleaved_rm_scalar_op.cpp fills CB 1 once with a host scalar (the
    bfloat16 pair of pack_scalar_runtime_arg) for eltwise_binary_scalar.cpp."""
    torch.manual_seed(38)
    c, h, w = 2, 64, 64
    reader_name, shapes, defines = RM_BCAST[kind]
    a_shape, b_shape = shapes(c, h, w)
    rm = ttnn.ROW_MAJOR_LAYOUT
    ta, out = dram(device, torch.randn(a_shape), layout=rm), output(device, (c, h, w), layout=rm)
    scalar = torch.tensor(-0.375).to(torch.bfloat16)
    half = int(scalar.view(torch.int16).item()) & 0xFFFF
    tb = None if b_shape is None else dram(device, torch.randn(b_shape), layout=rm)
    b_args = [0, 1, 1, 1, 1, 1] if tb is None else [tb.buffer_address(), 1, 1, b_shape[0], b_shape[1], 1]
    row_bytes, stride, rows = w * 2, 64, 32
    blocks, per_row, align = c * (h // rows), row_bytes // stride, 32
    reader = kernel(ops / NG / "kernels_ng/dataflow" / reader_name, ttnn.ReaderConfigDescriptor(),
                    rt=[ta.buffer_address(), blocks, 1, 1, a_shape[0], a_shape[1], 1, *b_args, h, c, 1, 0,
                        rows, w, a_shape[2] * 2, (b_shape or a_shape)[2] * 2, align, align, per_row, stride,
                        *([half << 16 | half] if tb is None else [])],
                    ct=[*ttnn.TensorAccessorArgs(ta).get_compile_time_args(),
                        *(ttnn.TensorAccessorArgs(tb).get_compile_time_args() if tb is not None else [])],
                    defines=[*defines, *RM_FILL])
    writer = kernel(ops / NG / "kernels_ng/dataflow/writer_interleaved_rm_no_bcast.cpp", ttnn.WriterConfigDescriptor(),
                    rt=[out.buffer_address(), w, blocks, 1, 1, c, h, 1, 0, rows, row_bytes, align, per_row, stride],
                    ct=ttnn.TensorAccessorArgs(out).get_compile_time_args())
    compute_file = "eltwise_binary_scalar.cpp" if tb is None else "eltwise_binary_no_bcast.cpp"
    compute = ng_compute(ops, f"kernels/compute/{compute_file}", [blocks * per_row], "sub")
    run([t for t in (ta, tb, out) if t is not None], [reader, compute, writer], [cb(0), cb(1), cb(2)])
    y = ttnn.to_torch(tb).float() if tb is not None else scalar.float()
    x, y = torch.broadcast_tensors(ttnn.to_torch(ta).float(), y)
    assert torch.equal(ttnn.to_torch(out), fpu_golden("sub", x, y))
