"""ttnn 0.81.1's layout programs -- tilize, untilize, transpose_wh and concat -- with their kernels
taken unchanged from the wheel, and the hosts that run ``ttnn.to_layout``, ``ttnn.transpose`` of the
last two dims and ``ttnn.concat`` along the last dim on them at ``--level cpp``.

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
from .program import cb, kernel, run_op, tile_rows
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
    return run_op([pages, out], [reader, compute, writer], [cb(0, x.dtype, pages=wt), cb(16, x.dtype, pages=wt)])


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
    return run_op([x, out], [reader, compute, writer], [cb(0, x.dtype, pages=wt), cb(16, x.dtype, pages=wt)])


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
    return run_op([x, out], [reader, compute, unary_writer(ops, out, 16, tiles)], [cb(0), cb(16)])


register(KernelHost("transpose", "transpose_wh.cpp with its column-order reader and the unary writer",
                    _refuse_transpose, _run_transpose))


CONCAT = "data_movement/concat/device/kernels"
#: the concat program's CBs: input tiles, their rows, the assembled rows, output tiles
CONCAT_IN, CONCAT_ROWS, CONCAT_ASSEMBLED, CONCAT_OUT = 0, 1, 2, 16


def _refuse_concat(call: Call) -> Optional[str]:
    tensors = call.tensors
    rank = tensors[0].shape.rank
    if rank < 2 or call.params["dim"] % rank != rank - 1:
        return "a concat along a dim other than the last"
    if any(t.layout is not Layout.TILE or t.dtype is not tensors[0].dtype for t in tensors) \
            or tensors[0].dtype not in (bfloat16, float32) or call.dtype is not tensors[0].dtype:
        return "inputs not all bfloat16 (or all float32) in tile layout"
    return None


def _run_concat(ops: Path, call: Call) -> Tensor:
    """ConcatTiledUnalignedProgramFactory on one core: reader_concat_tiled_unaligned.cpp reads each
    input's tile row, concat_untilize_retilize.cpp untilizes it, writer_concat_tiled_unaligned.cpp
    assembles the logical rows (zeroing the width padding), the compute kernel tilizes them again and
    the writer stores the band."""
    tensors, out = call.tensors, call.output()
    dtype = out.dtype
    fp32 = dtype is float32
    esize = dtype.bytes_for(1)
    rows = tile_rows(out)[0]
    in_wt = [tile_rows(t)[1] for t in tensors]
    total_in_wt, out_wt = sum(in_wt), tile_rows(out)[1]
    w_bytes = [t.shape[-1] * esize for t in tensors]
    accessors = [a for t in tensors for a in TensorAccessorArgs(t).get_compile_time_args()]
    reader = kernel(ops / CONCAT / "dataflow/reader_concat_tiled_unaligned.cpp", ReaderConfigDescriptor(),
                    rt=[rows, 0, *(t.buffer_address() for t in tensors), *in_wt],
                    ct=[CONCAT_IN, len(tensors), *accessors])
    writer = kernel(ops / CONCAT / "dataflow/writer_concat_tiled_unaligned.cpp", WriterConfigDescriptor(),
                    rt=[out.buffer_address(), rows, 0, *in_wt, *w_bytes],
                    ct=[CONCAT_ROWS, CONCAT_ASSEMBLED, CONCAT_OUT, len(tensors), out_wt, total_in_wt, 32 * esize,
                        out_wt * 32 * esize, out_wt * 32 * esize - sum(w_bytes),
                        *TensorAccessorArgs(out).get_compile_time_args()])
    config = layout_config(False)
    if fp32:  # the factory's lossless path: fp32 DST, UnpackToDestFp32 on the input and assembly CBs
        config = layout_config(True)
        config.unpack_to_dest_mode[CONCAT_ASSEMBLED] = UnpackToDestMode.UnpackToDestFp32
    compute = kernel(ops / CONCAT / "compute/concat_untilize_retilize.cpp", config, rt=[rows],
                     ct=[CONCAT_IN, CONCAT_ROWS, CONCAT_ASSEMBLED, CONCAT_OUT, total_in_wt, out_wt, int(fp32)])
    cbs = [cb(CONCAT_IN, dtype, pages=2 * total_in_wt), cb(CONCAT_ROWS, dtype, pages=total_in_wt),
           cb(CONCAT_ASSEMBLED, dtype, pages=out_wt), cb(CONCAT_OUT, dtype, pages=2 * out_wt)]
    return run_op([*tensors, out], [reader, writer, compute], cbs)


register(KernelHost("concat", "concat's tiled-unaligned program: its reader and writer with "
                    "concat_untilize_retilize.cpp (one core)", _refuse_concat, _run_concat))
