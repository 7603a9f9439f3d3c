"""ttnn 0.81.1's own layout kernels -- tilize, untilize and concat -- taken unchanged from the ttnn
wheel, run on the emulator with hosts written on the 0.81.1 ``generic_op`` API as the op's program
factory writes them (args, CBs, compute configuration), against torch.

A layout change moves values: the result must equal the input bit for bit wherever the device's
path is lossless (bfloat16; Float32 through UnpackToDestFp32 with an fp32 DST), and show the
device's loss where it is not (Float32 through SrcA keeps TF32). The wheel is fetched at test time
(the ``ops`` fixture, tests/emu/conftest.py). The default run takes one case of each family; the
other formats, splits and kernels are marked slow (``-m slow``).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
import torch

import tilecraft.ttnn as ttnn
from tilecraft.diagnostics import KernelError
from tests.emu.harness import ONE, cb, cores, dram, kernel, output, run

UNTILIZE_CODEGEN = "data_movement/untilize/codegen/kernels"
#: the many-kernel sweep; the default run keeps one case per family (cold, each case compiles its kernels)
SLOW = pytest.mark.slow
TORCH_DTYPE = {ttnn.bfloat16: torch.bfloat16, ttnn.float32: torch.float32, ttnn.bfloat8_b: torch.bfloat16}


def values(shape: tuple[int, ...], seed: int) -> torch.Tensor:
    torch.manual_seed(seed)
    return torch.randn(*shape) * 4


def compute_config(fp32: bool, unpack_to_dest: tuple[int, ...] = ()) -> ttnn.ComputeConfigDescriptor:
    modes = [ttnn.UnpackToDestMode.Default] * 32
    for index in unpack_to_dest:
        modes[index] = ttnn.UnpackToDestMode.UnpackToDestFp32
    return ttnn.ComputeConfigDescriptor(fp32_dest_acc_en=fp32, unpack_to_dest_mode=modes)


def tf32(x: torch.Tensor) -> torch.Tensor:
    """Float32 values as SrcA holds them with an fp32 DST: the low 13 mantissa bits dropped."""
    return (x.float().view(torch.int32) & ~0x1FFF).view(torch.float32)


def tile_reader(ops: Path, tensor: ttnn.Tensor, core_ranges: ttnn.CoreRangeSet = ONE,
                rt: dict | list | None = None) -> ttnn.KernelDescriptor:
    """The untilize op's tile reader (CB 0; runtime args address, pages, first page)."""
    return kernel(ops / "data_movement/untilize/device/kernels/dataflow/reader_unary_start_id.cpp",
                  ttnn.ReaderConfigDescriptor(), core_ranges, rt=rt,
                  ct=[0, *ttnn.TensorAccessorArgs(tensor).get_compile_time_args()])


def rows_writer(ops: Path, tensor: ttnn.Tensor, wt: int, row_bytes: int, core_ranges: ttnn.CoreRangeSet = ONE,
                rt: dict | list | None = None) -> ttnn.KernelDescriptor:
    """The untilize codegen's interleaved stick writer: CB 16's tile-rows as 32 sticks each
    (compile-time args CB, row bytes, the accessor, Wt; runtime args address, tile-rows, first
    stick, padded row bytes, then 0, 0, 0: no unpadding)."""
    return kernel(ops / UNTILIZE_CODEGEN / "writer_untilize_interleaved.cpp", ttnn.WriterConfigDescriptor(),
                  core_ranges, rt=rt, ct=[16, row_bytes, *ttnn.TensorAccessorArgs(tensor).get_compile_time_args(), wt])


@pytest.mark.parametrize("dtype,shape,cores_used", [(ttnn.bfloat16, (64, 192), 1),
                                                    pytest.param(ttnn.bfloat16, (128, 384), 2, marks=SLOW),
                                                    pytest.param(ttnn.bfloat8_b, (64, 128), 1, marks=SLOW),
                                                    pytest.param(ttnn.float32, (64, 192), 1, marks=SLOW)])
def test_untilize_codegen_program_runs_unchanged(device, ops, dtype, shape, cores_used) -> None:
    """UntilizeCodegenProgramFactory's per-tile-row split (build_main_split): its reader
    (reader_tile_interleaved_unified.cpp, named args seq_id/cb_id/batch/src_page_pitch),
    compute_untilize.cpp (pack_untilize in blocks of at most 8 tiles, 4 with the fp32 DST the
    factory turns on for Float32; 12 tiles a row: two blocks) and writer_untilize_interleaved.cpp,
    over one or two cores. A bfloat8_b input untilizes into bfloat16, as the factory repacks it.
    The factory does not set UnpackToDestFp32, so a Float32 input passes SrcA: TF32 on the device."""
    h, w = shape
    wt, rows = w // 32, h // 32
    fp32 = dtype == ttnn.float32
    out_dtype = ttnn.bfloat16 if dtype == ttnn.bfloat8_b else dtype
    tx = dram(device, values(shape, 31), dtype=dtype)
    out = output(device, shape, dtype=out_dtype, layout=ttnn.ROW_MAJOR_LAYOUT)
    max_bct = 4 if fp32 else 8
    block = next(b for b in range(max_bct, 0, -1) if wt % b == 0)
    row_bytes = w * (4 if fp32 else 2)
    grid = cores(0, 0, cores_used - 1, 0)
    per_core = rows // cores_used
    reader_rt = {(i, 0): [tx.buffer_address(), per_core * wt, i * per_core * wt] for i in range(cores_used)}
    writer_rt = {(i, 0): [out.buffer_address(), per_core, i * per_core * 32, row_bytes, 0, 0, 0]
                 for i in range(cores_used)}
    reader = kernel(ops / UNTILIZE_CODEGEN / "reader_tile_interleaved_unified.cpp", ttnn.ReaderConfigDescriptor(),
                    grid, rt=reader_rt, ct=ttnn.TensorAccessorArgs(tx).get_compile_time_args(),
                    named=[("seq_id", 0), ("cb_id", 0), ("batch", block), ("src_page_pitch", 0)])
    compute = kernel(ops / UNTILIZE_CODEGEN / "compute_untilize.cpp", compute_config(fp32), grid,
                     ct=[per_core, wt, 0, 16, max_bct])
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        run([tx, out], [reader, rows_writer(ops, out, wt, row_bytes, grid, writer_rt), compute],
            [cb(0, dtype, pages=2 * block, core_ranges=grid), cb(16, out_dtype, pages=wt, core_ranges=grid)])
    # the loss is announced where the kernel unpacks (E5411, a warning), and only then
    assert any("E5411" in str(w.message) and "compute_untilize.cpp:55:" in str(w.message) for w in seen) == fp32
    moved = ttnn.to_torch(tx)
    want = tf32(moved).to(TORCH_DTYPE[out_dtype]) if fp32 else moved.to(TORCH_DTYPE[out_dtype])
    assert torch.equal(ttnn.to_torch(out), want)


def test_untilize_column_parallel_program_runs_unchanged(device, ops) -> None:
    """The codegen factory's column-parallel split (build_column_parallel: one tile-row, Wt > 1):
    each of four cores untilizes two tile columns and writer_untilize_col_parallel.cpp writes its
    chunk of every stick at its byte offset."""
    w, per_core, n_cores = 256, 2, 4
    tx = dram(device, values((32, w), 32))
    out = output(device, (32, w), layout=ttnn.ROW_MAJOR_LAYOUT)
    grid = cores(0, 0, n_cores - 1, 0)
    chunk = per_core * 32 * 2
    reader = kernel(ops / UNTILIZE_CODEGEN / "reader_tile_interleaved_unified.cpp", ttnn.ReaderConfigDescriptor(),
                    grid, rt={(i, 0): [tx.buffer_address(), per_core, i * per_core] for i in range(n_cores)},
                    ct=ttnn.TensorAccessorArgs(tx).get_compile_time_args(),
                    named=[("seq_id", 0), ("cb_id", 0), ("batch", per_core), ("src_page_pitch", 0)])
    writer = kernel(ops / UNTILIZE_CODEGEN / "writer_untilize_col_parallel.cpp", ttnn.WriterConfigDescriptor(), grid,
                    rt={(i, 0): [out.buffer_address(), 32, i * chunk, chunk, per_core, 0] for i in range(n_cores)},
                    ct=[16, w * 2, *ttnn.TensorAccessorArgs(out).get_compile_time_args()])
    compute = kernel(ops / UNTILIZE_CODEGEN / "compute_untilize.cpp", compute_config(False), grid,
                     ct=[1, per_core, 0, 16, 8])
    run([tx, out], [reader, writer, compute], [cb(0, pages=per_core, core_ranges=grid),
                                               cb(16, pages=per_core, core_ranges=grid)])
    assert torch.equal(ttnn.to_torch(out), ttnn.to_torch(tx))


@pytest.mark.parametrize("compute_file,dtype", [pytest.param("untilize.cpp", ttnn.bfloat16, marks=SLOW),
                                                ("untilize.cpp", ttnn.float32),
                                                pytest.param("untilize_variable_num_blocks.cpp", ttnn.bfloat16,
                                                             marks=SLOW)])
def test_ttnn_untilize_kernels_run_unchanged(device, ops, compute_file, dtype) -> None:
    """The untilize op's compute kernels (kernel_lib's untilize helper: pack_untilize, split into
    blocks that fit DST when a row is wider) between its tile reader and the stick writer; Float32
    with an fp32 DST and UnpackToDestFp32 on the input CB, as ttnn's untilize factories configure
    it: exact. untilize_variable_num_blocks.cpp takes the block count as a runtime arg and returns
    at once on a core given none (the second core here)."""
    h, w = 96, 320
    wt, rows = w // 32, h // 32
    fp32 = dtype == ttnn.float32
    tx = dram(device, values((h, w), 33), dtype=dtype)
    out = output(device, (h, w), dtype=dtype, layout=ttnn.ROW_MAJOR_LAYOUT)
    row_bytes = w * (4 if fp32 else 2)
    config = compute_config(fp32, (0,) if fp32 else ())
    path = ops / "data_movement/untilize/device/kernels/compute" / compute_file
    if compute_file == "untilize.cpp":
        grid = ONE
        compute = kernel(path, config, ct=[rows, wt, 0, 16])
        reader_rt, writer_rt = [tx.buffer_address(), rows * wt, 0], [out.buffer_address(), rows, 0, row_bytes, 0, 0, 0]
    else:
        grid = cores(0, 0, 1, 0)
        compute = kernel(path, config, grid, rt={(0, 0): [rows], (1, 0): [0]}, ct=[wt, 0, 16])
        reader_rt = {(0, 0): [tx.buffer_address(), rows * wt, 0], (1, 0): [tx.buffer_address(), 0, 0]}
        writer_rt = {(0, 0): [out.buffer_address(), rows, 0, row_bytes, 0, 0, 0],
                     (1, 0): [out.buffer_address(), 0, 0, row_bytes, 0, 0, 0]}
    run([tx, out], [tile_reader(ops, tx, grid, reader_rt), compute, rows_writer(ops, out, wt, row_bytes, grid, writer_rt)],
        [cb(0, dtype, pages=wt, core_ranges=grid), cb(16, dtype, pages=wt, core_ranges=grid)])
    assert torch.equal(ttnn.to_torch(out), ttnn.to_torch(tx))


@SLOW
def test_ttnn_untilize_w_runs_unchanged(device, ops) -> None:
    """untilize_w.cpp (one tile per block, fixed CBs c_0 and c_16): each of three cores untilizes
    one tile of a one-tile-row tensor and the column-parallel writer puts its 32 x 32 block at its
    column of every stick."""
    n_cores = 3
    tx = dram(device, values((32, 32 * n_cores), 34))
    out = output(device, (32, 32 * n_cores), layout=ttnn.ROW_MAJOR_LAYOUT)
    grid = cores(0, 0, n_cores - 1, 0)
    compute = kernel(ops / "data_movement/untilize/device/kernels/compute/untilize_w.cpp", compute_config(False), grid,
                     ct=[1, 1, 1])
    writer = kernel(ops / UNTILIZE_CODEGEN / "writer_untilize_col_parallel.cpp", ttnn.WriterConfigDescriptor(), grid,
                    rt={(i, 0): [out.buffer_address(), 32, i * 64, 64, 1, 0] for i in range(n_cores)},
                    ct=[16, 32 * n_cores * 2, *ttnn.TensorAccessorArgs(out).get_compile_time_args()])
    reader = tile_reader(ops, tx, grid, {(i, 0): [tx.buffer_address(), 1, i] for i in range(n_cores)})
    run([tx, out], [reader, compute, writer], [cb(0, core_ranges=grid), cb(16, core_ranges=grid)])
    assert torch.equal(ttnn.to_torch(out), ttnn.to_torch(tx))


@pytest.mark.parametrize("dtype,shape", [(ttnn.bfloat16, (64, 192)), pytest.param(ttnn.float32, (96, 128), marks=SLOW)])
def test_ttnn_tilize_kernel_runs_unchanged(device, ops, dtype, shape) -> None:
    """tilize.cpp (kernel_lib's tilize helper: the fast tilize for bfloat16, the lossless one for a
    Float32 input, with the fp32 DST and UnpackToDestFp32 ttnn's tilize factories set for it): each
    block is one tile-row, Wt tiles wide. The row-major input is read as tile-sized pages -- its
    buffer viewed as rows of 1024 values, so Wt consecutive pages hold a block's 32 rows in order --
    by copy's tile reader; copy's tile writer stores the tiles. Exact for both formats."""
    h, w = shape
    wt, rows = w // 32, h // 32
    fp32 = dtype == ttnn.float32
    x = values(shape, 35)
    tx = dram(device, x.reshape(h * w // 1024, 1024), dtype=dtype, layout=ttnn.ROW_MAJOR_LAYOUT)
    out = output(device, shape, dtype=dtype)
    copy = ops / "data_movement/copy/device/kernels"
    reader = kernel(copy / "reader_unary_start_id.cpp", ttnn.ReaderConfigDescriptor(),
                    rt=[tx.buffer_address(), rows * wt, 0], ct=ttnn.TensorAccessorArgs(tx).get_compile_time_args())
    compute = kernel(ops / "data_movement/tilize/device/kernels/compute/tilize.cpp",
                     compute_config(fp32, (0,) if fp32 else ()), ct=[0, 16, rows, wt])
    writer = kernel(copy / "writer_unary_start_id.cpp", ttnn.WriterConfigDescriptor(),
                    rt=[out.buffer_address(), rows * wt, 0], ct=[16, *ttnn.TensorAccessorArgs(out).get_compile_time_args()])
    run([tx, out], [reader, compute, writer], [cb(0, dtype, pages=wt), cb(16, dtype, pages=wt)])
    assert torch.equal(ttnn.to_torch(out), ttnn.to_torch(tx).reshape(shape))


@pytest.mark.parametrize("dtype,widths", [(ttnn.bfloat16, (40, 50)),
                                          pytest.param(ttnn.float32, (20, 64, 33), marks=SLOW)])
def test_ttnn_concat_tiled_unaligned_program_runs_unchanged(device, ops, dtype, widths) -> None:
    """ConcatTiledUnalignedProgramFactory (concat of tiled tensors along the last dim, widths not
    multiples of 32): reader_concat_tiled_unaligned.cpp reads each input's band of tiles,
    concat_untilize_retilize.cpp untilizes them, writer_concat_tiled_unaligned.cpp assembles the
    logical rows (zeroing the width padding) and the compute kernel tilizes the band again, which
    the writer stores. Float32 runs lossless (fp32 DST, UnpackToDestFp32 on the input and assembly
    CBs), as the factory configures it. Two bands over two cores."""
    h = 64
    fp32 = dtype == ttnn.float32
    esize = 4 if fp32 else 2
    parts = [values((h, w), 36 + i) for i, w in enumerate(widths)]
    tensors = [dram(device, p, dtype=dtype) for p in parts]
    out_w = sum(widths)
    out = output(device, (h, out_w), dtype=dtype)
    in_wt = [(w + 31) // 32 for w in widths]
    total_in_wt, out_wt = sum(in_wt), (out_w + 31) // 32
    w_bytes = [w * esize for w in widths]
    cb_in, cb_rm, cb_asm, cb_out = 0, 1, 2, 16
    grid = cores(0, 0, 1, 0)
    accessor_args = [a for t in tensors for a in ttnn.TensorAccessorArgs(t).get_compile_time_args()]
    concat = ops / "data_movement/concat/device/kernels"
    reader = kernel(concat / "dataflow/reader_concat_tiled_unaligned.cpp", ttnn.ReaderConfigDescriptor(), grid,
                    rt={(i, 0): [1, i, *(t.buffer_address() for t in tensors), *in_wt] for i in range(2)},
                    ct=[cb_in, len(tensors), *accessor_args])
    writer = kernel(concat / "dataflow/writer_concat_tiled_unaligned.cpp", ttnn.WriterConfigDescriptor(), grid,
                    rt={(i, 0): [out.buffer_address(), 1, i, *in_wt, *w_bytes] for i in range(2)},
                    ct=[cb_rm, cb_asm, cb_out, len(tensors), out_wt, total_in_wt, 32 * esize, out_wt * 32 * esize,
                        out_wt * 32 * esize - sum(w_bytes), *ttnn.TensorAccessorArgs(out).get_compile_time_args()])
    compute = kernel(concat / "compute/concat_untilize_retilize.cpp",
                     compute_config(fp32, (cb_in, cb_asm) if fp32 else ()), grid, rt=[1],
                     ct=[cb_in, cb_rm, cb_asm, cb_out, total_in_wt, out_wt, int(fp32)])
    run([*tensors, out], [reader, writer, compute],
        [cb(cb_in, dtype, pages=2 * total_in_wt, core_ranges=grid), cb(cb_rm, dtype, pages=total_in_wt, core_ranges=grid),
         cb(cb_asm, dtype, pages=out_wt, core_ranges=grid), cb(cb_out, dtype, pages=2 * out_wt, core_ranges=grid)])
    want = torch.cat([ttnn.to_torch(t) for t in tensors], dim=-1)
    assert torch.equal(ttnn.to_torch(out), want)


def test_ttnn_strided_slice_kernels_run_unchanged(device, ops) -> None:
    """The row-major strided slice (slice_program_factory_rm_stride's legacy kernels):
    strided_slice_reader_rm_interleaved_nd.cpp reads each selected input stick into CB 0 and
    gathers every stride-th element into an output stick of CB 24 (compile-time args: -, dims,
    element size, the accessor; runtime args: address, then shape, starts, ends and strides);
    strided_slice_writer_rm_interleaved.cpp stores the sticks."""
    x = values((3, 10, 64), 40)
    tx = dram(device, x, layout=ttnn.ROW_MAJOR_LAYOUT)
    starts, ends, strides = (1, 1, 2), (3, 9, 64), (1, 3, 4)
    want_shape = tuple(len(range(s, e, st)) for s, e, st in zip(starts, ends, strides))
    out = output(device, want_shape, layout=ttnn.ROW_MAJOR_LAYOUT)
    out_stick = want_shape[-1] * 2
    n_sticks = want_shape[0] * want_shape[1]
    slice_kernels = ops / "data_movement/slice/device/kernels/dataflow"
    reader = kernel(slice_kernels / "strided_slice_reader_rm_interleaved_nd.cpp", ttnn.ReaderConfigDescriptor(),
                    rt=[tx.buffer_address(), *x.shape, *starts, *ends, *strides],
                    ct=[0, 3, 2, *ttnn.TensorAccessorArgs(tx).get_compile_time_args()])
    writer = kernel(slice_kernels / "strided_slice_writer_rm_interleaved.cpp", ttnn.WriterConfigDescriptor(),
                    rt=[out.buffer_address(), n_sticks], ct=[out_stick, *ttnn.TensorAccessorArgs(out).get_compile_time_args()])
    run([tx, out], [reader, writer], [cb(0, pages=1, page_size=64 * 2), cb(24, pages=2, page_size=out_stick)])
    want = ttnn.to_torch(tx)[starts[0]:ends[0]:strides[0], starts[1]:ends[1]:strides[1], starts[2]:ends[2]:strides[2]]
    assert torch.equal(ttnn.to_torch(out), want)


@pytest.mark.parametrize("dtype", [ttnn.bfloat16, pytest.param(ttnn.float32, marks=SLOW)])
def test_ttnn_reshape_stick_kernels_run_unchanged(device, ops, dtype) -> None:
    """reshape_on_device's row-major kernels (reshape_rm_program_factory): the reader packs each
    128-value input stick into two 64-value pages of CB 0, the writer stores them as two output
    sticks (runtime args: address, iterations, transfers per barrier, pages per push, first
    stick), over two cores."""
    x = values((16, 128), 41)
    esize = 4 if dtype == ttnn.float32 else 2
    tx = dram(device, x, dtype=dtype, layout=ttnn.ROW_MAJOR_LAYOUT)
    out = output(device, (32, 64), dtype=dtype, layout=ttnn.ROW_MAJOR_LAYOUT)
    grid = cores(0, 0, 1, 0)
    reshape = ops / "data_movement/reshape_on_device/device/kernels/dataflow"
    reader = kernel(reshape / "reader_unary_reshape_stick_layout_interleaved_multi_core.cpp",
                    ttnn.ReaderConfigDescriptor(), grid,
                    rt={(i, 0): [tx.buffer_address(), 8, 1, 2, 8 * i] for i in range(2)},
                    ct=[128 * esize, *ttnn.TensorAccessorArgs(tx).get_compile_time_args()])
    writer = kernel(reshape / "writer_unary_reshape_stick_layout_interleaved_multi_core.cpp",
                    ttnn.WriterConfigDescriptor(), grid,
                    rt={(i, 0): [out.buffer_address(), 8, 2, 2, 16 * i] for i in range(2)},
                    ct=[0, 64 * esize, *ttnn.TensorAccessorArgs(out).get_compile_time_args()])
    run([tx, out], [reader, writer], [cb(0, dtype, pages=4, core_ranges=grid, page_size=64 * esize)])
    assert torch.equal(ttnn.to_torch(out), ttnn.to_torch(tx).reshape(32, 64))


SHARDED = "data_movement/sharded/device/kernels/dataflow"


def sharded_config(grid: ttnn.CoreRangeSet, shard: tuple[int, int], layout: ttnn.TensorMemoryLayout) -> ttnn.MemoryConfig:
    return ttnn.MemoryConfig(layout, ttnn.BufferType.L1, ttnn.ShardSpec(grid, shard, ttnn.ShardOrientation.ROW_MAJOR))


#: also run by default in tests/emu/test_wheel_matmul.py (the sharded converters): slow here
@SLOW
@pytest.mark.parametrize("writer_file", ["writer_unary_sharded_blocks_interleaved_start_id.cpp",
                                         "writer_unary_sharded_blocks_start_id.cpp"])
def test_ttnn_sharded_tile_kernels_run_unchanged(device, ops, writer_file) -> None:
    """Interleaved to sharded and back, tiles, block-sharded over 2 x 2 cores (2 x 2 tiles a shard):
    reader_unary_sharded_blocks_interleaved_start_id.cpp reads each core's block of tiles into the
    CB that is its shard (compile-time args CB, readers, the accessor; runtime args address, block
    height and width in tiles, padding, the input's width in tiles, tiles, first tile); then
    reader_unary_sharded.cpp publishes each shard in its CB and a sharded-blocks writer stores the
    tiles to DRAM."""
    x = values((128, 128), 42)
    grid = cores(0, 0, 1, 1)
    config = sharded_config(grid, (64, 64), ttnn.TensorMemoryLayout.BLOCK_SHARDED)
    src, sharded, back = dram(device, x), output(device, (128, 128), memory_config=config), output(device, (128, 128))
    first = {(cx, cy): cy * 2 * 4 + cx * 2 for cx in range(2) for cy in range(2)}
    to_shards = kernel(ops / SHARDED / "reader_unary_sharded_blocks_interleaved_start_id.cpp",
                       ttnn.ReaderConfigDescriptor(), grid,
                       rt={core: [src.buffer_address(), 2, 2, 0, 4, 4, 0, start] for core, start in first.items()},
                       ct=[0, 1, *ttnn.TensorAccessorArgs(src).get_compile_time_args()])
    run([src, sharded], [to_shards], [ttnn.cb_descriptor_from_sharded_tensor(0, sharded)])
    assert torch.equal(ttnn.to_torch(sharded), ttnn.to_torch(src))
    publish = kernel(ops / SHARDED / "reader_unary_sharded.cpp", ttnn.ReaderConfigDescriptor(), grid, rt=[4], ct=[0])
    if writer_file == "writer_unary_sharded_blocks_interleaved_start_id.cpp":
        args = {core: [back.buffer_address(), 2, 2, 2, 2, 4, 4, 0, start] for core, start in first.items()}
    else:
        args = {core: [back.buffer_address(), 2, 2, 0, 4, 4, 0, start] for core, start in first.items()}
    writer = kernel(ops / SHARDED / writer_file, ttnn.WriterConfigDescriptor(), grid, rt=args,
                    ct=[0, *ttnn.TensorAccessorArgs(back).get_compile_time_args()])
    run([sharded, back], [publish, writer], [ttnn.cb_descriptor_from_sharded_tensor(0, sharded)])
    assert torch.equal(ttnn.to_torch(back), ttnn.to_torch(src))


#: also run by default in tests/emu/test_wheel_matmul.py (the sharded converters): slow here
@SLOW
@pytest.mark.parametrize("writer_file", ["writer_unary_stick_layout_sharded_blocks_interleaved_start_id.cpp",
                                         "writer_unary_sharded_stick_layout_start_id.cpp"])
def test_ttnn_sharded_stick_writers_run_unchanged(device, ops, writer_file) -> None:
    """Sharded to interleaved, row-major: a height-sharded tensor (32 sticks a core, 2 cores) is
    published by reader_unary_sharded.cpp and its sticks written to DRAM by a stick writer."""
    x = values((64, 64), 43)
    grid = cores(0, 0, 1, 0)
    config = sharded_config(grid, (32, 64), ttnn.TensorMemoryLayout.HEIGHT_SHARDED)
    sharded = dram(device, x, layout=ttnn.ROW_MAJOR_LAYOUT, memory_config=config)
    back = output(device, (64, 64), layout=ttnn.ROW_MAJOR_LAYOUT)
    publish = kernel(ops / SHARDED / "reader_unary_sharded.cpp", ttnn.ReaderConfigDescriptor(), grid, rt=[32], ct=[0])
    if writer_file == "writer_unary_stick_layout_sharded_blocks_interleaved_start_id.cpp":
        args = {(i, 0): [back.buffer_address(), 0, 32, 128, 128, 0, 32 * i] for i in range(2)}
    else:
        args = {(i, 0): [back.buffer_address(), 32, 128, 128, 32 * i, 1] for i in range(2)}
    writer = kernel(ops / SHARDED / writer_file, ttnn.WriterConfigDescriptor(), grid, rt=args,
                    ct=[0, *ttnn.TensorAccessorArgs(back).get_compile_time_args()])
    run([sharded, back], [publish, writer], [ttnn.cb_descriptor_from_sharded_tensor(0, sharded)])
    assert torch.equal(ttnn.to_torch(back), ttnn.to_torch(sharded))


@pytest.mark.parametrize("layout,config", [(ttnn.TILE_LAYOUT, "factory"),
                                           pytest.param(ttnn.ROW_MAJOR_LAYOUT, "factory", marks=SLOW),
                                           pytest.param(ttnn.TILE_LAYOUT, "reader", marks=SLOW)])
def test_ttnn_move_with_overlap_runs_unchanged(device, ops, layout, config) -> None:
    """MoveOverlapProgramFactory (a ProgramDescriptor factory; 4 cores): every core reads its pages
    into L1 (move_interleaved_with_overlap.cpp for tiles, move_stick_layout_interleaved_with_overlap.cpp
    for sticks), then the controller core (0, 0) waits on the semaphore for the other three, which
    raise it, and multicasts the release to its two regions (the rest of its row range, the rest of
    its column) before anyone writes -- so a destination overlapping the source is safe. On NOC 1
    (a ReaderConfigDescriptor instead of the factory's DataMovementConfigDescriptor) the same
    multicast corners wrap round the torus, since NOC 1 wants the larger corner first: E5305 at the
    kernel's multicast line."""
    tiled = layout == ttnn.TILE_LAYOUT
    x = values((128, 64), 44)
    src, dst = dram(device, x, layout=layout), output(device, (128, 64), layout=layout)
    pages, page_bytes = (8, ttnn.bfloat16.tile_bytes) if tiled else (128, 64 * 2)
    grid, per_core = cores(0, 0, 1, 1), pages // 4
    noc = lambda cx, cy: device.worker_core_from_logical_core(ttnn.CoreCoord(cx, cy))  # noqa: E731
    regions = [(noc(1, 0), noc(1, 1), 2), (noc(0, 1), noc(0, 1), 1), None]
    region_args = [a for r in regions for a in ((r[0].x, r[0].y, r[1].x, r[1].y, r[2]) if r else (0,) * 5)]
    controller = noc(0, 0)
    order = [(0, 0), (0, 1), (1, 0), (1, 1)]
    rt = {core: [src.buffer_address(), dst.buffer_address(), i * per_core, per_core, 0, controller.x, controller.y, 3,
                 int(core == (0, 0)), *region_args, 2, *(() if tiled else (page_bytes,))]
          for i, core in enumerate(order)}
    name = "move_interleaved_with_overlap.cpp" if tiled else "move_stick_layout_interleaved_with_overlap.cpp"
    # DataMovementConfigDescriptor{} as the factory has it: RISCV_0 on NOC 0
    dm_config = ttnn.DataMovementConfigDescriptor() if config == "factory" else ttnn.ReaderConfigDescriptor()
    mover = kernel(ops / "data_movement/move/device/kernels/dataflow" / name, dm_config, grid, rt=rt,
                   ct=[0, *(() if tiled else (page_bytes,)), *ttnn.TensorAccessorArgs(src).get_compile_time_args(),
                       *ttnn.TensorAccessorArgs(dst).get_compile_time_args()])
    program = ([src, dst], [mover], [cb(0, pages=per_core, core_ranges=grid, page_size=page_bytes)],
               [ttnn.SemaphoreDescriptor(id=0, core_ranges=grid, initial_value=0)])
    if config == "reader":
        with pytest.raises(KernelError) as info:
            run(*program)
        d = info.value.diagnostic
        assert d.code == "E5305" and d.span.file.endswith(name) and d.span.line == 75 and "wraps" in d.message, d
        return
    run(*program)
    assert torch.equal(ttnn.to_torch(dst), ttnn.to_torch(src))


@pytest.mark.parametrize("dtype,shapes", [(ttnn.bfloat16, ((1, 2, 64, 128), (1, 2, 128, 64))),
                                          pytest.param(ttnn.float32, ((1, 1, 96, 64), (1, 2, 32, 96)), marks=SLOW)])
def test_ttnn_reshape_tile_program_runs_unchanged(device, ops, dtype, shapes) -> None:
    """ReshapeTileProgramFactory (a ProgramDescriptor factory): reader_unary_reshape_interleaved.cpp
    assembles each output tile from 16-value face lines of the input's tiles (compile-time args:
    the buffer's alignment, element size, the accessor; runtime args: address, input Wt, output N,
    C, Ht, Wt) and the unary writer stores the tiles. On Wormhole a face line is at least the
    32-byte DRAM alignment, so no scratch CB."""
    in_shape, out_shape = shapes
    x = values(in_shape, 45)
    src, dst = dram(device, x, dtype=dtype), output(device, out_shape, dtype=dtype)
    tiles = out_shape[0] * out_shape[1] * out_shape[2] * out_shape[3] // 1024
    esize = 4 if dtype == ttnn.float32 else 2
    reader = kernel(ops / "data_movement/reshape_on_device/device/kernels/dataflow/reader_unary_reshape_interleaved.cpp",
                    ttnn.ReaderConfigDescriptor(),
                    rt=[src.buffer_address(), in_shape[3] // 32, out_shape[0], out_shape[1], out_shape[2] // 32,
                        out_shape[3] // 32],
                    ct=[32, esize, *ttnn.TensorAccessorArgs(src).get_compile_time_args()])
    writer = kernel(ops / "eltwise/unary/device/kernels/dataflow/writer_unary_interleaved_start_id.cpp",
                    ttnn.WriterConfigDescriptor(), rt=[dst.buffer_address(), tiles, 0],
                    ct=[0, *ttnn.TensorAccessorArgs(dst).get_compile_time_args()])
    run([src, dst], [reader, writer], [cb(0, dtype)])
    assert torch.equal(ttnn.to_torch(dst), ttnn.to_torch(src).reshape(out_shape))


@pytest.mark.parametrize("variant,index_dtype", [("single_core", ttnn.uint32),
                                                pytest.param("single_core", ttnn.uint16, marks=SLOW),
                                                pytest.param("multi_core", ttnn.uint32, marks=SLOW)])
def test_ttnn_gather_single_row_kernels_run_unchanged(device, ops, variant, index_dtype) -> None:
    """GatherDeviceOperation's SingleRowSingleCore and SingleRowMultiCore descriptor factories on two
    cores: gather_reader_single_row_*.cpp reads the index tiles and picks each value out of the
    input tiles the writer, gather_writer_single_row_*.cpp, read into L1 (face-ordered addressing),
    and the writer stores the output tiles. SingleCore gives each core a tile row (the whole input
    row in L1), MultiCore a tile column of the index (input tiles streamed through two pages).
    torch.gather along the last dim, bit for bit."""
    torch.manual_seed(46)
    x = values((64, 128), 46)
    index = torch.randint(0, 128, (64, 64))
    src, idx = dram(device, x), dram(device, index.to(torch.int32), dtype=index_dtype)
    out = output(device, (64, 64))
    grid, ht, wt_in, wt_idx = cores(0, 0, 1, 0), 2, 4, 2
    gx, gy = 8, 8  # the device's compute grid (compute_with_storage_grid_size)
    gather = ops / "data_movement/gather/device/kernels/dataflow"
    shared = [ht, wt_in, wt_idx, 2, gx, gy]
    work = 1  # per core: a tile row (single core) or a tile column (multi core) of the index
    reader = kernel(gather / f"gather_reader_single_row_{variant}.cpp", ttnn.ReaderConfigDescriptor(), grid,
                    rt={(i, 0): [idx.buffer_address(), work, 32, 32, i] for i in range(2)},
                    ct=[0, 1, 2, 1, *shared, *ttnn.TensorAccessorArgs(idx).get_compile_time_args()])
    writer = kernel(gather / f"gather_writer_single_row_{variant}.cpp", ttnn.WriterConfigDescriptor(), grid,
                    rt={(i, 0): [src.buffer_address(), out.buffer_address(), work, i] for i in range(2)},
                    ct=[0, 2, 1, 1, *shared, *ttnn.TensorAccessorArgs(src).get_compile_time_args(),
                        *ttnn.TensorAccessorArgs(out).get_compile_time_args()])
    run([src, idx, out], [reader, writer],
        [cb(0, pages=wt_in if variant == "single_core" else 2, core_ranges=grid),
         cb(1, index_dtype, pages=1, core_ranges=grid),
         cb(2, pages=1, core_ranges=grid)])
    assert torch.equal(ttnn.to_torch(out), torch.gather(ttnn.to_torch(src), -1, index))


@pytest.mark.parametrize("dtype,shape,n_cores", [(ttnn.bfloat16, (2, 1, 64, 96), 2),
                                                 pytest.param(ttnn.float32, (2, 1, 64, 96), 2, marks=SLOW),
                                                 pytest.param(ttnn.bfloat16, (1, 1, 288, 32), 1, marks=SLOW)])
def test_ttnn_transpose_wh_sharded_rm_program_runs_unchanged(device, ops, dtype, shape, n_cores) -> None:
    """TransposeWHShardedRMProgramFactory (a ProgramDescriptor factory; height-sharded row-major,
    one H x W block a core): reader_unary_transpose_wh_sharded_rm.cpp copies the shard's sticks
    into tile-row blocks, transpose_wh_rm.cpp tilizes them (kernel_lib, lossless), transposes each
    tile into DST and packs the transposed tiles as rows with pack_untilize_dest straight into the
    output shard; with more than 8 tile rows (Ht = 9) it packs in blocks of 3 into CB 27 and
    writer_unary_transpose_wh_sharded_rm.cpp copies the sticks into the shard. Float32 with an fp32
    DST and UnpackToDestFp32 on the tilize CBs, as the factory sets them: exact."""
    n, c, h, w = shape
    fp32 = dtype == ttnn.float32
    esize = 4 if fp32 else 2
    ht, wt = h // 32, w // 32
    tile = dtype.tile_bytes
    grid = cores(0, 0, n_cores - 1, 0)
    blocks = n * c // n_cores
    layout = ttnn.TensorMemoryLayout.HEIGHT_SHARDED
    src = dram(device, values(shape, 47), dtype=dtype, layout=ttnn.ROW_MAJOR_LAYOUT,
               memory_config=sharded_config(grid, (blocks * h, w), layout))
    dst = output(device, (n, c, w, h), dtype=dtype, layout=ttnn.ROW_MAJOR_LAYOUT,
                 memory_config=sharded_config(grid, (blocks * w, h), layout))
    out_shard = ttnn.CBDescriptor(total_size=blocks * h * w * esize, core_ranges=grid, buffer=dst,
                                  format_descriptors=[ttnn.CBFormatDescriptor(buffer_index=16, data_format=dtype,
                                                                              page_size=tile)])
    cbs = [ttnn.cb_descriptor_from_sharded_tensor(0, src), out_shard, cb(24, dtype, pages=2 * wt, core_ranges=grid),
           cb(25, dtype, pages=ht * wt, core_ranges=grid)]
    if ht > 8:
        cbs += [cb(26, dtype, pages=ht, core_ranges=grid), cb(27, dtype, pages=2 * ht, core_ranges=grid)]
    kernels = ops / "data_movement/transpose/device/kernels"
    rows = 32 if h > 32 else h % 32
    reader = kernel(kernels / "dataflow/reader_unary_transpose_wh_sharded_rm.cpp", ttnn.ReaderConfigDescriptor(), grid,
                    ct=[blocks, ht, rows, 32, wt, w * esize, wt * esize * 32, rows, 32])
    writer = kernel(kernels / "dataflow/writer_unary_transpose_wh_sharded_rm.cpp", ttnn.WriterConfigDescriptor(), grid,
                    ct=[blocks, ht, wt, 32 if w > 32 else w, 32, h * esize, ht * esize * 32])
    compute = kernel(kernels / "compute/transpose_wh_rm.cpp", compute_config(fp32, (24, 25) if fp32 else ()), grid,
                     ct=[ht, wt, ht * wt, blocks, 32, 1, 1, 1, 1], defines=[("SHARDED", "1")])
    run([src, dst], [reader, writer, compute], cbs)
    assert torch.equal(ttnn.to_torch(dst), ttnn.to_torch(src).transpose(-1, -2))


def shard_cb(index: int, tensor: ttnn.Tensor, page_size: int, pages: int, grid: ttnn.CoreRangeSet,
             dtype=ttnn.bfloat16) -> ttnn.CBDescriptor:
    """A CB over a sharded tensor's shard with the given page size (the factory's, not the tensor's)."""
    return ttnn.CBDescriptor(total_size=page_size * pages, core_ranges=grid, buffer=tensor,
                             format_descriptors=[ttnn.CBFormatDescriptor(buffer_index=index, data_format=dtype,
                                                                          page_size=page_size)])


@pytest.mark.parametrize("layout", [ttnn.TILE_LAYOUT, pytest.param(ttnn.ROW_MAJOR_LAYOUT, marks=SLOW)])
def test_ttnn_sharded_concat_program_runs_unchanged(device, ops, layout) -> None:
    """ConcatS2SMultiProgramFactory (a ProgramDescriptor factory), width concat of two height-sharded
    tensors into a height-sharded output on 2 cores: reader_s2s_tensor_concat.cpp runs on both
    RISCs, each copying its half of every shard's sticks (tile rows, or row-major sticks cut into
    pages of a common divisor of the stick sizes) into the output shard at the input's column
    offset."""
    tiled = layout == ttnn.TILE_LAYOUT
    widths, h, grid = (32, 64), 128, cores(0, 0, 1, 0)
    shard_h = h // 2
    hs = ttnn.TensorMemoryLayout.HEIGHT_SHARDED
    parts = [dram(device, values((h, w), 48 + i), layout=layout,
                  memory_config=sharded_config(grid, (shard_h, w), hs)) for i, w in enumerate(widths)]
    out = output(device, (h, sum(widths)), layout=layout, memory_config=sharded_config(grid, (shard_h, sum(widths)), hs))
    page = ttnn.bfloat16.tile_bytes if tiled else 32  # a tile; 32 bytes divides every stick here
    page_w, page_h = (32, 32) if tiled else (page // 2, 1)
    pages_per_stick = [w // page_w for w in widths]
    sticks = shard_h // page_h
    out_stride = page * sum(widths) // page_w
    offsets = [page * sum(pages_per_stick[:i]) for i in range(len(widths))]
    reader_sticks = (sticks + 1) // 2
    reader_rt, writer_rt = [], []
    for i, per_stick in enumerate(pages_per_stick):
        block_stride = page * per_stick * sticks
        reader_rt += [per_stick, reader_sticks, offsets[i], 0, block_stride]
        writer_rt += [per_stick, sticks - reader_sticks, offsets[i] + out_stride * reader_sticks,
                      page * per_stick * reader_sticks, block_stride]
    ct = [16, page, out_stride, len(widths), out_stride * sticks]
    path = ops / "data_movement/concat/device/kernels/dataflow/reader_s2s_tensor_concat.cpp"
    reader = kernel(path, ttnn.ReaderConfigDescriptor(), grid, rt=reader_rt, ct=[*ct, 0, 1])
    writer = kernel(path, ttnn.WriterConfigDescriptor(), grid, rt=writer_rt, ct=[*ct, 0, 1])
    cbs = [shard_cb(i, t, page, per_stick * sticks, grid) for i, (t, per_stick) in enumerate(zip(parts, pages_per_stick))]
    run([*parts, out], [reader, writer], [*cbs, shard_cb(16, out, page, sticks * out_stride // page, grid)])
    assert torch.equal(ttnn.to_torch(out), torch.cat([ttnn.to_torch(t) for t in parts], dim=-1))


@SLOW
def test_ttnn_halo_pack_untilize_runs_unchanged(device, ops) -> None:
    """The halo op's untilize compute kernel (sliding_window/halo/.../pack_untilize.cpp: kernel_lib's
    untilize with init and uninit hoisted out of the block loop, blocks alternating between two
    output CBs), here with both output CBs the same CB 16 so one writer drains them: 4 blocks of one
    3-tile row each, between the untilize op's tile reader and the codegen stick writer."""
    h, w = 128, 96
    wt, rows = w // 32, h // 32
    tx = dram(device, values((h, w), 50))
    out = output(device, (h, w), layout=ttnn.ROW_MAJOR_LAYOUT)
    compute = kernel(ops / "sliding_window/halo/device/kernels/compute/pack_untilize.cpp", compute_config(False),
                     rt=[rows], ct=[0, 16, 16, wt, 1])
    run([tx, out], [tile_reader(ops, tx, rt=[tx.buffer_address(), rows * wt, 0]), compute,
                    rows_writer(ops, out, wt, w * 2, rt=[out.buffer_address(), rows, 0, w * 2, 0, 0, 0])],
        [cb(0, pages=wt), cb(16, pages=wt)])
    assert torch.equal(ttnn.to_torch(out), ttnn.to_torch(tx))


#: the row-major case also runs by default in tests/emu/test_wheel_matmul.py: slow here
@SLOW
@pytest.mark.parametrize("layout", [ttnn.ROW_MAJOR_LAYOUT, ttnn.TILE_LAYOUT])
def test_ttnn_block_sharded_concat_kernel_runs_unchanged(device, ops, layout) -> None:
    """ConcatBlockShardedProgramFactory's kernel, reader_writer_block_sharded_concat.cpp: each output
    core pulls its transfers -- (source core, source CB, offset, stride, destination offset,
    stride, bytes, rows) -- over the NoC from the cores holding the input shards. Width concat of two
    tensors block-sharded over 2 x 1 cores: output core c takes input c's two shards side by side,
    one from itself and one from the other core."""
    tiled = layout == ttnn.TILE_LAYOUT
    h, w, grid = 32, 64, cores(0, 0, 1, 0)
    bs = ttnn.TensorMemoryLayout.BLOCK_SHARDED
    parts = [dram(device, values((h, w), 51 + i), layout=layout, memory_config=sharded_config(grid, (h, w // 2), bs))
             for i in range(2)]
    out = output(device, (h, 2 * w), layout=layout, memory_config=sharded_config(grid, (h, w), bs))
    # a shard row: one row of 32 values, or one tile (a row of tiles one tile tall)
    unit, rows = (ttnn.bfloat16.tile_bytes, 1) if tiled else (w // 2 * 2, h)
    noc = [device.worker_core_from_logical_core(ttnn.CoreCoord(x, 0)) for x in range(2)]
    rt = {}
    for c in range(2):  # output core c: input c, its shard on core j goes to column block j
        args = [2]
        for j in range(2):
            args += [noc[j].x, noc[j].y, c, 0, unit, j * unit, 2 * unit, unit, rows]
        rt[(c, 0)] = args
    mover = kernel(ops / "data_movement/concat/device/kernels/dataflow/reader_writer_block_sharded_concat.cpp",
                   ttnn.ReaderConfigDescriptor(), grid, rt=rt, ct=[16])
    cbs = [shard_cb(i, t, unit, rows, grid) for i, t in enumerate(parts)] + [shard_cb(16, out, 2 * unit, rows, grid)]
    run([*parts, out], [mover], cbs)
    assert torch.equal(ttnn.to_torch(out), torch.cat([ttnn.to_torch(t) for t in parts], dim=-1))


@pytest.mark.parametrize("sequence", ["repeat", pytest.param("concat", marks=SLOW)])
def test_ttnn_unified_tile_reader_runs_unchanged(device, ops, sequence) -> None:
    """The data-movement codegen's unified tile reader (common/kernels/codegen/
    reader_tile_interleaved_unified.cpp: one reader, a page sequencer chosen by the named arg seq_id)
    with its interleaved tile writer (writer_interleaved.cpp, batched), as the repeat codegen
    factory pairs them: SEQ_REPEAT (runtime args: address, pages, first page, repeats, pages below
    the repeated dim, pages in it) repeats a (2, 64, 64) tensor 3 times along H; SEQ_CONCAT
    interleaves two tensors' tile rows (pages per block of each) into a last-dim concat."""
    torch.manual_seed(52)
    codegen = ops / "data_movement/common/kernels/codegen"
    x = values((2, 64, 64), 52)
    src = dram(device, x)
    tile, batch = ttnn.bfloat16.tile_bytes, 4
    if sequence == "repeat":
        out = output(device, (2, 192, 64))
        pages = 24
        rt, tensors, seq_id = [src.buffer_address(), pages, 0, 3, 2, 2], [src, out], 1
        want = lambda: ttnn.to_torch(src).repeat(1, 3, 1)  # noqa: E731
    else:
        other = dram(device, values((2, 64, 96), 53))
        out = output(device, (2, 64, 160))
        pages = 2 * 2 * 5
        rt, tensors, seq_id = [src.buffer_address(), pages, 0, other.buffer_address(), 0, 0, 0, 0, 2, 3], \
            [src, other, out], 6
        want = lambda: torch.cat([ttnn.to_torch(src), ttnn.to_torch(other)], dim=-1)  # noqa: E731
    reader = kernel(codegen / "reader_tile_interleaved_unified.cpp", ttnn.ReaderConfigDescriptor(), rt=rt,
                    ct=ttnn.TensorAccessorArgs(src).get_compile_time_args(),
                    named=[("seq_id", seq_id), ("cb_id", 0), ("batch", batch), ("src_page_pitch", 0)])
    writer = kernel(codegen / "writer_interleaved.cpp", ttnn.WriterConfigDescriptor(), rt=[out.buffer_address(), pages, 0],
                    ct=[0, tile, batch, *ttnn.TensorAccessorArgs(out).get_compile_time_args()])
    run(tensors, [reader, writer], [cb(0, pages=2 * batch)])
    assert torch.equal(ttnn.to_torch(out), want())
