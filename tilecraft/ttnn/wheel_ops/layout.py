"""ttnn 0.81.1's layout programs -- tilize, untilize and transpose_wh -- with their kernels taken
unchanged from the wheel, and the hosts that run ``ttnn.to_layout``, ``ttnn.tilize``,
``ttnn.untilize`` and ``ttnn.transpose`` of the last two dims on them at ``--level cpp``.

A layout change moves values: these programs are exact for bfloat16 and (with the fp32 DST and
UnpackToDestFp32 ttnn's tilize and untilize factories set for it) float32.
tests/emu/test_wheel_layout.py and test_wheel_kernels.py run the same kernels against torch.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from ..datatype import bfloat16, float32
from ..descriptors import ComputeConfigDescriptor, ReaderConfigDescriptor, UnpackToDestMode, WriterConfigDescriptor
from ..generic import TensorAccessorArgs
from ..layout import Layout, Shape
from ..tensor import Tensor
from .eltwise import unary_writer
from .program import cb, kernel, run, tile_rows
from .registry import Call, KernelHost, register

COPY = "data_movement/copy/device/kernels"
UNTILIZE_CODEGEN = "data_movement/untilize/codegen/kernels"
TRANSPOSE = "data_movement/transpose/device/kernels"


def layout_config(fp32: bool) -> ComputeConfigDescriptor:
    """The (un)tilize factories' compute configuration: for Float32, an fp32 DST and UnpackToDestFp32 on CB 0."""
    modes = [UnpackToDestMode.Default] * 32
    if fp32:
        modes[0] = UnpackToDestMode.UnpackToDestFp32
    return ComputeConfigDescriptor(fp32_dest_acc_en=fp32, unpack_to_dest_mode=modes)


def _as_tile_pages(x: Tensor) -> Tensor:
    """The row-major input as copy's tile reader reads it: its buffer viewed as rows of 1024 values,
    so that Wt consecutive pages hold one block's 32 rows in order (the same values and storage)."""
    storage = x.storage.reshape(-1, 1024)
    return Tensor(storage, shape=Shape(list(storage.shape)), dtype=x.dtype, layout=Layout.ROW_MAJOR,
                  memory_config=x.memory_config(), device=x.device())


def _refuse_layout(call: Call) -> Optional[str]:
    (x,) = call.operands
    if x.layout is call.layout:
        return "no layout change"
    if x.dtype not in (bfloat16, float32) or call.dtype is not x.dtype:
        return "a dtype other than bfloat16 or float32, or a dtype change"
    if x.shape.rank < 2 or x.shape[-2] % 32 or x.shape[-1] % 32:
        return "a height or width that is not a whole number of tiles"
    return None


def _tilize(ops: Path, x: Tensor, out: Tensor) -> Tensor:
    """copy's tile reader, tilize.cpp (kernel_lib's tilize helper; one block per tile row), copy's tile writer."""
    rows, wt = tile_rows(out)
    pages = _as_tile_pages(x)
    reader = kernel(ops / COPY / "reader_unary_start_id.cpp", ReaderConfigDescriptor(),
                    rt=[pages.buffer_address(), rows * wt, 0], ct=TensorAccessorArgs(pages).get_compile_time_args())
    compute = kernel(ops / "data_movement/tilize/device/kernels/compute/tilize.cpp", layout_config(x.dtype is float32),
                     ct=[0, 16, rows, wt])
    writer = kernel(ops / COPY / "writer_unary_start_id.cpp", WriterConfigDescriptor(),
                    rt=[out.buffer_address(), rows * wt, 0], ct=[16, *TensorAccessorArgs(out).get_compile_time_args()])
    return run([pages, out], [reader, compute, writer], [cb(0, x.dtype, pages=wt), cb(16, x.dtype, pages=wt)])


def _untilize(ops: Path, x: Tensor, out: Tensor) -> Tensor:
    """The untilize op's tile reader, untilize.cpp (kernel_lib's pack_untilize), the codegen's stick writer."""
    rows, wt = tile_rows(x)
    row_bytes = x.dtype.bytes_for(wt * 32)
    reader = kernel(ops / "data_movement/untilize/device/kernels/dataflow/reader_unary_start_id.cpp",
                    ReaderConfigDescriptor(), rt=[x.buffer_address(), rows * wt, 0],
                    ct=[0, *TensorAccessorArgs(x).get_compile_time_args()])
    compute = kernel(ops / "data_movement/untilize/device/kernels/compute/untilize.cpp",
                     layout_config(x.dtype is float32), ct=[rows, wt, 0, 16])
    writer = kernel(ops / UNTILIZE_CODEGEN / "writer_untilize_interleaved.cpp", WriterConfigDescriptor(),
                    rt=[out.buffer_address(), rows, 0, row_bytes, 0, 0, 0],
                    ct=[16, row_bytes, *TensorAccessorArgs(out).get_compile_time_args(), wt])
    return run([x, out], [reader, compute, writer], [cb(0, x.dtype, pages=wt), cb(16, x.dtype, pages=wt)])


def _run_layout(ops: Path, call: Call) -> Tensor:
    (x,) = call.operands
    return (_tilize if call.layout is Layout.TILE else _untilize)(ops, x, call.output())


register(KernelHost("to_layout", "tilize.cpp between copy's tile reader and writer; untilize.cpp with its tile "
                    "reader and the untilize codegen's stick writer", _refuse_layout, _run_layout))


def _refuse_transpose(call: Call) -> Optional[str]:
    (x,) = call.operands
    rank = x.shape.rank
    if rank < 2 or sorted(d % rank for d in (call.params["dim0"], call.params["dim1"])) != [rank - 2, rank - 1]:
        return "a transpose of dims other than the last two"
    if x.dtype is not bfloat16 or x.layout is not Layout.TILE or call.dtype is not bfloat16:
        return "input or result not bfloat16 in tile layout"
    if x.shape[-2] % 32 or x.shape[-1] % 32:
        return "a height or width that is not a whole number of tiles"
    return None


def _run_transpose(ops: Path, call: Call) -> Tensor:
    """transpose_wh: the reader walks each batch's tiles column by column, transpose_wh.cpp transposes
    each tile in DST, the unary writer stores them in order."""
    (x,) = call.operands
    out = call.output()
    padded = x.padded_shape
    ht, wt = padded[-2] // 32, padded[-1] // 32
    n = padded.volume() // (ht * wt * 1024)
    tiles = n * ht * wt
    reader = kernel(ops / TRANSPOSE / "dataflow/reader_unary_transpose_wh_interleaved.cpp", ReaderConfigDescriptor(),
                    rt=[x.buffer_address(), n, ht, wt, ht * wt], ct=TensorAccessorArgs(x).get_compile_time_args())
    compute = kernel(ops / TRANSPOSE / "compute/transpose_wh.cpp", ComputeConfigDescriptor(), rt=[tiles])
    return run([x, out], [reader, compute, unary_writer(ops, out, 16, tiles)], [cb(0), cb(16)])


register(KernelHost("transpose", "transpose_wh.cpp with its column-order reader and the unary writer",
                    _refuse_transpose, _run_transpose))
