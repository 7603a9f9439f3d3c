"""ttnn 0.81.1's elementwise programs: binary_ng's add/subtract/multiply (with subtile broadcasts),
the unary op's SFPU chains and its typecast, with their kernels taken unchanged from the wheel, and
the hosts that run those ttnn ops on them at ``--level cpp``.

binary_ng (``eltwise/binary_ng/device/kernels{,_ng}``): one reader brings both operands' tiles, the
compute kernel applies the op on the FPU, a writer stores the result. A broadcast operand (one row,
one column or one element of each tile, as a ``[..., 1, W]`` bias is) is broadcast by the unpacker
(``BCAST_LLK`` 1, the kernels_ng compute kernels); a Python number as the second operand fills one
tile that the scalar compute kernel applies throughout. The runtime args, compile-time args and defines
are the binary_ng program factory's (``BinaryNgKernelConfig``, ``OpConfig::as_defines``,
``make_dataflow_defines``). tests/emu/test_wheel_bcast.py and test_wheel_kernels.py run these
pieces against the device's arithmetic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..datatype import bfloat16, float32, int32
from ..descriptors import ComputeConfigDescriptor, KernelDescriptor, ReaderConfigDescriptor, UnpackToDestMode, \
    WriterConfigDescriptor
from ..generic import TensorAccessorArgs
from ..layout import Layout
from ..tensor import Tensor
from .program import cb, kernel, packed_scalar, run_op
from .registry import Call, KernelHost, register

NG = "eltwise/binary_ng/device"
#: OpConfig::as_defines for the FPU ops: (BINARY_OP, BINARY_OP_TYPE), with device_arith's name
FPU_OPS = {"add": ("add_tiles", "EltwiseBinaryType::ELWADD"), "sub": ("sub_tiles", "EltwiseBinaryType::ELWSUB"),
           "mul": ("mul_tiles", "EltwiseBinaryType::ELWMUL")}
#: no per-operand activations: the defines binary_ng passes for a plain op
NO_ACTIVATIONS = [(f"PROCESS_{operand}_ACTIVATIONS(i)", "") for operand in ("LHS", "RHS", "POST")]


@dataclass(frozen=True)
class Dims:
    """A rank-3 tensor's dims in tiles, as binary_ng's kernels address them (D = N = 1, cND = 1)."""

    c: int
    ht: int
    wt: int

    @classmethod
    def of(cls, tensor: Tensor) -> "Dims":
        """A tile-layout tensor's padded shape with its leading dims folded into C."""
        padded = tensor.padded_shape
        return cls(math.prod(padded[:-2]), padded[-2] // 32, padded[-1] // 32)

    @property
    def tiles(self) -> int:
        return self.c * self.ht * self.wt

    def strides(self) -> list[int]:
        """nD, d, n, c strides in tiles; 0 where the dim is 1 (a broadcast dim), as the factory sets them."""
        c_stride = self.ht * self.wt if self.c > 1 else 0
        return [0, 0, 0, c_stride]


def ng_reader(ops: Path, name: str, a: Tensor, b: Tensor, out: Dims, da: Dims, db: Dims,
              defines: list[tuple[str, str]], b_fill: str = "bfloat16") -> KernelDescriptor:
    """A kernels_ng reader of both operands: runtime args (address, first tile, tiles, output tiles,
    shard width, strides, output dims D N C Ht Wt cND, then b's), compile-time args (both accessors,
    then the has-sharding flag). B_FILL names the format of b's FILL_TILE_WITH_FIRST_* functions
    (``bfloat16``, or ``bfp8`` for a bfloat8_b operand)."""
    rt = [a.buffer_address(), 0, da.tiles, out.tiles, 0, *da.strides(), 1, 1, out.c, out.ht, out.wt, 1,
          b.buffer_address(), *db.strides(), db.tiles]
    if name == "reader_interleaved_no_bcast.cpp":
        rt += [da.wt, db.wt]  # each operand's own row width in tiles
    ct = [*TensorAccessorArgs(a).get_compile_time_args(), *TensorAccessorArgs(b).get_compile_time_args(), 0]
    fill = [("FILL_TILE_WITH_FIRST_COLUMN", "fill_tile_with_first_column_bfloat16"),
            ("FILL_TILE_WITH_FIRST_ROW", "fill_tile_with_first_row_bfloat16"),
            ("FILL_TILE_WITH_FIRST_ELEMENT", "fill_tile_with_first_element_bfloat16"),
            ("FILL_WITH_VALUE", "fill_with_val_bfloat16")]
    fill += [(f"{k}_B", v.replace("bfloat16", b_fill) if "FIRST" in k else v) for k, v in fill]
    return kernel(ops / NG / "kernels_ng/dataflow" / name, ReaderConfigDescriptor(), rt=rt, ct=ct,
                  defines=[("SRC_SHARDED", "0"), ("SRC_SHARDED_B", "0"), *fill, *defines])


def ng_writer(ops: Path, out_tensor: Tensor, out: Dims) -> KernelDescriptor:
    """kernels_ng/dataflow/writer_interleaved_no_bcast.cpp: runtime args (address, first tile, tiles,
    shard width, D N C Ht Wt cND), compile-time args (the accessor, then has-sharding)."""
    return kernel(ops / NG / "kernels_ng/dataflow/writer_interleaved_no_bcast.cpp", WriterConfigDescriptor(),
                  rt=[out_tensor.buffer_address(), 0, out.tiles, 0, 1, 1, out.c, out.ht, out.wt, 1],
                  ct=[*TensorAccessorArgs(out_tensor).get_compile_time_args(), 0], defines=[("DST_SHARDED", "0")])


def with_activations(defines: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``defines`` with an empty PROCESS_*_ACTIVATIONS(i) for each operand it gives no activation."""
    given = {name for name, _ in defines}
    return [*(d for d in NO_ACTIVATIONS if d[0] not in given), *defines]


def ng_compute(ops: Path, path: str, rt: list[int], op: str, defines: list[tuple[str, str]] = ()) -> KernelDescriptor:
    """A binary_ng FPU compute kernel (``path`` under the op's device directory) for ``op`` (add, sub, mul)."""
    binary_op, op_type = FPU_OPS[op]
    return kernel(ops / NG / path, ComputeConfigDescriptor(), rt=rt, ct=[1],
                  defines=[("BINARY_OP", binary_op), ("BINARY_OP_TYPE", op_type), *with_activations(defines)])


def scalar_reader(ops: Path, a: Tensor, dims: Dims) -> KernelDescriptor:
    """kernels/dataflow/reader_interleaved_no_bcast.cpp reading ``a`` alone (a tensor-scalar op)."""
    return kernel(ops / NG / "kernels/dataflow/reader_interleaved_no_bcast.cpp", ReaderConfigDescriptor(),
                  rt=[a.buffer_address(), 0, dims.tiles, dims.tiles, 0, *dims.strides(), 1, 1, dims.c, dims.ht,
                      dims.wt, 1],
                  ct=[*TensorAccessorArgs(a).get_compile_time_args(), 0], defines=[("SRC_SHARDED", "0")])


def scalar_writer(ops: Path, out: Tensor, dims: Dims, packed: int) -> KernelDescriptor:
    """kernels/dataflow/writer_interleaved_scalar.cpp: fills one tile of CB 1 with the packed scalar
    (FILL_WITH_VALUE) before writing the output."""
    return kernel(ops / NG / "kernels/dataflow/writer_interleaved_scalar.cpp", WriterConfigDescriptor(),
                  rt=[packed, out.buffer_address(), 0, dims.tiles, 0, 1, 1, dims.c, dims.ht, dims.wt, 1],
                  ct=[*TensorAccessorArgs(out).get_compile_time_args(), 0],
                  defines=[("DST_SHARDED", "0"), ("FILL_WITH_VALUE", "fill_with_val_bfloat16")])


#: per broadcast kind: the operand's dims (given the output's), the kernels_ng reader, the compute
#: kernel's runtime args after the tile count, and the compute kernels when the reader has expanded
#: the tile (BCAST_LLK 0; ``{}`` is ``_sfpu`` for an SFPU op), as BinaryNgKernelConfig picks them;
#: with BCAST_LLK 1 it is kernels_ng/compute/eltwise_binary{}_<kind>_bcast.cpp
BCAST = {
    "row": (lambda d: Dims(d.c, 1, d.wt), "reader_interleaved_row_bcast.cpp", lambda d: [],
            "kernels/compute/eltwise_binary{}_no_bcast.cpp"),
    "col": (lambda d: Dims(d.c, d.ht, 1), "reader_interleaved_col_bcast.cpp", lambda d: [d.wt, 0],
            "kernels/compute/eltwise_binary{}.cpp"),
    "scalar": (lambda d: Dims(d.c, 1, 1), "reader_interleaved_scalar_bcast.cpp", lambda d: [d.ht * d.wt, 0],
               "kernels/compute/eltwise_binary{}.cpp"),
}

#: the primitive -> binary_ng's FPU op
_BINARY = {"add": "add", "subtract": "sub", "multiply": "mul"}


def _bf16_tiles(*tensors: Tensor) -> bool:
    return all(t.dtype is bfloat16 and t.layout is Layout.TILE and t.shape.rank >= 2 for t in tensors)


def _broadcast_kind(call: Call, operand: Tensor) -> Optional[str]:
    """How ``operand`` meets the result: "none" (its shape, or its last two dims with leading dims of
    1), "row"/"col"/"scalar" (a subtile broadcast), or None (a broadcast binary_ng's host does not write)."""
    out = call.shape
    lead, out_lead = operand.shape[:-2], out[:-2]
    if any(d != 1 for d in lead) and tuple(lead) != tuple(out_lead[len(out_lead) - len(lead):]):
        return None
    if any(d != 1 for d in lead) and math.prod(lead) != math.prod(out_lead):
        return None
    h, w = operand.shape[-2], operand.shape[-1]
    kinds = {(out[-2], out[-1]): "none", (1, out[-1]): "row", (out[-2], 1): "col", (1, 1): "scalar"}
    return kinds.get((h, w))


def _refuse_binary(call: Call) -> Optional[str]:
    if any(call.params[k] for k in ("pre_a", "pre_b", "post")):
        return "fused activations"
    a, b = call.operands
    if not isinstance(a, Tensor):
        return "a Python number as the first operand"
    if not isinstance(b, Tensor):
        return None if _bf16_tiles(a) and call.dtype is bfloat16 else "operands or result not bfloat16 in tile layout"
    if not _bf16_tiles(a, b) or call.dtype is not bfloat16:
        return "operands or result not bfloat16 in tile layout"
    if call.shape[-2] % 32 or call.shape[-1] % 32:
        return "a result that is not a whole number of tiles"
    kinds = (_broadcast_kind(call, a), _broadcast_kind(call, b))
    if None in kinds or "none" not in kinds:
        return "a broadcast of both operands, or of leading dims that do not fold"
    return None


def _run_binary(ops: Path, call: Call) -> Tensor:
    a, b = call.operands
    out = call.output()
    dims = Dims.of(out)
    op = _BINARY[call.op]
    if not isinstance(b, Tensor):  # the scalar, truncated to bfloat16, fills one tile of CB 1
        compute = ng_compute(ops, "kernels/compute/eltwise_binary_scalar.cpp", [dims.tiles], op)
        return run_op([a, out], [scalar_reader(ops, a, dims), compute, scalar_writer(ops, out, dims, packed_scalar(b))],
                      [cb(0), cb(1), cb(2)])
    kind_a, kind_b = _broadcast_kind(call, a), _broadcast_kind(call, b)
    da, db = Dims.of(a), Dims.of(b)
    if kind_a == kind_b == "none":
        reader = ng_reader(ops, "reader_interleaved_no_bcast.cpp", a, b, dims, da, db, [])
        compute = ng_compute(ops, "kernels/compute/eltwise_binary_no_bcast.cpp", [dims.tiles], op)
        cbs = [cb(i) for i in (0, 1, 2, 3)]
    else:
        kind, side = (kind_b, "b") if kind_a == "none" else (kind_a, "a")
        _, reader_name, extra, _ = BCAST[kind]
        flags = [("SRC_BCAST", "1" if side == "a" else "0"), ("SRC_BCAST_B", "1" if side == "b" else "0")]
        reader = ng_reader(ops, reader_name, a, b, dims, da, db, [*flags, ("BCAST_LLK", "1")])
        compute = ng_compute(ops, f"kernels_ng/compute/eltwise_binary_{kind}_bcast.cpp", [dims.tiles, *extra(dims)],
                             op, [*flags, ("BCAST_INPUT", "1" if side == "b" else "0")])
        cbs = [cb(i) for i in (0, 1, 2, 5, 6)]
    return run_op([a, b, out], [reader, compute, ng_writer(ops, out, dims)], cbs)


for _name in _BINARY:
    register(KernelHost(_name, "binary_ng's kernels_ng reader and writer with eltwise_binary_no_bcast.cpp or the "
                        "row/col/scalar broadcast compute kernels, or the tensor-scalar program (FPU)", _refuse_binary,
                        _run_binary))


UNARY = "eltwise/unary/device/kernels"


def unary_reader(ops: Path, tensor: Tensor, pages: int) -> KernelDescriptor:
    """ttnn's unary reader: runtime args (address, pages, first page), the accessor's compile-time args."""
    return kernel(ops / UNARY / "dataflow/reader_unary_interleaved_start_id.cpp", ReaderConfigDescriptor(),
                  rt=[tensor.buffer_address(), pages, 0], ct=TensorAccessorArgs(tensor).get_compile_time_args())


def unary_writer(ops: Path, tensor: Tensor, cb_index: int, pages: int) -> KernelDescriptor:
    """ttnn's unary writer of CB ``cb_index``: runtime args (address, pages, first page), then CB and accessor."""
    return kernel(ops / UNARY / "dataflow/writer_unary_interleaved_start_id.cpp", WriterConfigDescriptor(),
                  rt=[tensor.buffer_address(), pages, 0],
                  ct=[cb_index, *TensorAccessorArgs(tensor).get_compile_time_args()])


#: the unary program factory's SFPU_OP_CHAIN_0 per op (unary_op_utils): the split include it
#: defines and the chain, ``{a}`` the approximation flag (true or false)
SFPU_CHAINS: dict[str, tuple[str, str]] = {
    "exp": ("SFPU_OP_EXP_INCLUDE", "exp_tile_init<{a}>(); exp_tile<{a}>(0);"),
    "gelu": ("SFPU_OP_GELU_INCLUDE", "gelu_tile_init<{a}>(); gelu_tile<{a}>(0);"),
    "relu": ("SFPU_OP_RELU_FAMILY_INCLUDE", "relu_tile_init(); relu_tile(0);"),
    "silu": ("SFPU_OP_COMPUTE_KERNEL_API_INCLUDE", "silu_tile_init(); silu_tile(0);"),
    "sigmoid": ("SFPU_OP_COMPUTE_KERNEL_API_INCLUDE", "sigmoid_tile_init(); sigmoid_tile(0);"),
    "tanh": ("SFPU_OP_COMPUTE_KERNEL_API_INCLUDE", "tanh_tile_init(); tanh_tile(0);"),
    "sqrt": ("SFPU_OP_SQRT_INCLUDE", "sqrt_tile_init(); sqrt_tile(0);"),
    "rsqrt": ("SFPU_OP_RSQRT_INCLUDE", "rsqrt_tile_init(); rsqrt_tile(0);"),
    "reciprocal": ("SFPU_OP_RECIP_INCLUDE", "recip_tile_init(); recip_tile(0);"),
    "neg": ("SFPU_OP_NEG_INCLUDE", "negative_tile_init(); negative_tile(0);"),
    "log": ("SFPU_OP_COMPUTE_KERNEL_API_INCLUDE", "log_tile_init(); log_tile(0);"),
    "abs": ("SFPU_OP_COMPUTE_KERNEL_API_INCLUDE", "abs_tile_init(); abs_tile(0);"),
    "square": ("SFPU_OP_COMPUTE_KERNEL_API_INCLUDE", "square_tile_init(); square_tile(0);"),
    "sin": ("SFPU_OP_TRIG_FAMILY_INCLUDE", "sin_tile_init(); sin_tile(0);"),
    "cos": ("SFPU_OP_TRIG_FAMILY_INCLUDE", "cos_tile_init(); cos_tile(0);"),
}


def _refuse_unary(call: Call) -> Optional[str]:
    (x,) = call.operands
    if x.dtype is not bfloat16 or x.layout is not Layout.TILE or call.dtype is not bfloat16:
        return "input or result not bfloat16 in tile layout"
    return None


def sfpu_defines(op: str, approximate: bool = False) -> list[tuple[str, str]]:
    """The defines of ``op``'s SFPU chain in eltwise_sfpu.cpp."""
    include, chain = SFPU_CHAINS[op]
    return [(include, "1"), ("SFPU_OP_CHAIN_0", chain.format(a=str(approximate).lower()))]


def _run_unary(ops: Path, call: Call) -> Tensor:
    (x,) = call.operands
    out = call.output()
    tiles = x.padded_shape.volume() // 1024
    defines = sfpu_defines(call.op, bool(call.params.get("fast_and_approximate_mode", False)))
    compute = kernel(ops / UNARY / "compute/eltwise_sfpu.cpp", ComputeConfigDescriptor(), rt=[tiles], defines=defines)
    return run_op([x, out], [unary_reader(ops, x, tiles), compute, unary_writer(ops, out, 2, tiles)], [cb(0), cb(2)])


for _name in SFPU_CHAINS:
    register(KernelHost(_name, "the unary op's reader, eltwise_sfpu.cpp with its SFPU_OP_CHAIN_0, its writer",
                        _refuse_unary, _run_unary))

#: DataFormat codes (tt::DataFormat) of the typecast chain's template arguments
FORMAT = {float32: 0, bfloat16: 5, int32: 8}


def typecast_compute(ops: Path, src, dst, tiles: int) -> KernelDescriptor:
    """eltwise_sfpu.cpp with the chain the unary factory writes for UnaryOpType::TYPECAST, an fp32 DST
    and UnpackToDestFp32 for a 32-bit input, as the factory configures them."""
    chain = f"typecast_tile_init<{FORMAT[src]}u, {FORMAT[dst]}u>(); typecast_tile<{FORMAT[src]}u, {FORMAT[dst]}u>(0);"
    modes = [UnpackToDestMode.Default] * 32
    modes[0] = UnpackToDestMode.UnpackToDestFp32 if src in (int32, float32) else modes[0]
    return kernel(ops / UNARY / "compute/eltwise_sfpu.cpp",
                  ComputeConfigDescriptor(fp32_dest_acc_en=True, unpack_to_dest_mode=modes), rt=[tiles],
                  defines=[("SFPU_OP_TYPECAST_INCLUDE", "1"), ("SFPU_OP_CHAIN_0", chain)])


def _refuse_typecast(call: Call) -> Optional[str]:
    (x,) = call.operands
    if x.layout is not Layout.TILE or x.dtype not in FORMAT or call.dtype not in FORMAT or x.dtype is call.dtype:
        return "a conversion between two of bfloat16, float32 and int32 in tile layout"
    return None


def _run_typecast(ops: Path, call: Call) -> Tensor:
    (x,) = call.operands
    out = call.output()
    tiles = x.padded_shape.volume() // 1024
    return run_op([x, out], [unary_reader(ops, x, tiles), typecast_compute(ops, x.dtype, call.dtype, tiles),
                          unary_writer(ops, out, 2, tiles)], [cb(0, x.dtype), cb(2, call.dtype)])


register(KernelHost("typecast", "the unary op's reader, eltwise_sfpu.cpp with the typecast chain, its writer",
                    _refuse_typecast, _run_typecast))
