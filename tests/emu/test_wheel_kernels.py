"""ttnn 0.81.1's own kernels, taken unchanged from the ttnn wheel, run on the emulator with hosts
written on the 0.81.1 ``generic_op`` API, against torch goldens.

The wheel is downloaded at test time into the tilecraft cache (tilecraft/emu/wheel_kernels.py);
without network the tests skip with the reason, or fail with TILECRAFT_REQUIRE_HEADERCHECK=1 (CI),
as tests/metal/test_headercheck.py does. The kernels use the 0.81.1 object API (Noc, DataflowBuffer,
CircularBuffer, TensorAccessor endpoints) and the JIT build's implicit includes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

import tilecraft.ttnn as ttnn
from tilecraft import device_arith
from tests.emu.harness import ONE, cb, dram, kernel, output, run
from tilecraft.ttnn.wheel_ops.eltwise import typecast_compute, unary_reader, unary_writer
from tilecraft.ttnn.wheel_ops.matmul import bmm_compute, bmm_reader


def sfpu_compute(ops: Path, kernel_file: str, tiles: int, chain: dict[str, str]) -> ttnn.KernelDescriptor:
    """An SFPU compute kernel with the SFPU_OP_CHAIN_0 defines ttnn's unary program factory passes:
    the unary op's eltwise_sfpu.cpp (DataflowBuffer objects in a compute kernel, runtime arg: tiles)
    or the example op's (CircularBuffer objects, compile-time args: blocks and tiles per block)."""
    if kernel_file == "unary":
        return kernel(ops / "eltwise/unary/device/kernels/compute/eltwise_sfpu.cpp", ttnn.ComputeConfigDescriptor(),
                      rt=[tiles], defines=list(chain.items()))
    return kernel(ops / "examples/example/device/kernels/compute/eltwise_sfpu.cpp", ttnn.ComputeConfigDescriptor(),
                  ct=[tiles, 1], defines=list(chain.items()))


@pytest.mark.parametrize("kernel_file,chain,golden", [
    ("unary", {"SFPU_OP_EXP_INCLUDE": "1", "SFPU_OP_CHAIN_0": "exp_tile_init<false>(); exp_tile<false>(0);"},
     torch.exp),
    ("unary", {"SFPU_OP_CHAIN_0": "rdiv_tile_init(); rdiv_tile(0, 0x40400000u);"}, lambda x: 3.0 / x),
    ("example", {"SFPU_OP_TRIG_FAMILY_INCLUDE": "1", "SFPU_OP_CHAIN_0": "cosh_tile_init(); cosh_tile(0);"},
     torch.cosh),
    ("unary", {"SFPU_OP_RELU_FAMILY_INCLUDE": "1", "SFPU_OP_CHAIN_0": "relu_tile_init(); relu_tile(0);"},
     torch.relu),
])
def test_ttnn_unary_kernels_run_unchanged(device, ops, kernel_file, chain, golden) -> None:
    """The unary SFPU chains; on the Tensix machine the LLK's own SFPU algorithms run, which are not
    correctly rounded: exp, rdiv and cosh differ from torch's value rounded once in
    21-49% of the elements by one bfloat16 ulp, relu is equal bit for bit (docs/emulator.md section 10)."""
    torch.manual_seed(21)
    x = torch.randn(64, 96)
    tx, out = dram(device, x), output(device, (64, 96))
    pages = 6
    run([tx, out], [unary_reader(ops, tx, pages), sfpu_compute(ops, kernel_file, pages, chain),
                    unary_writer(ops, out, 2, pages)], [cb(0), cb(2)])
    want = golden(ttnn.to_torch(tx).float()).to(torch.bfloat16).float()
    got = ttnn.to_torch(out).float()
    assert torch.allclose(got, want, rtol=2 ** -7, atol=1e-6), (got - want).abs().max()


@pytest.mark.parametrize("src,dst", [
    (ttnn.bfloat16, ttnn.float32), (ttnn.bfloat16, ttnn.int32), (ttnn.int32, ttnn.bfloat16)])
def test_ttnn_typecast_chain_runs_unchanged(device, ops, src, dst) -> None:
    """The unary op's typecast: eltwise_sfpu.cpp with the SFPU_OP_CHAIN_0 the unary factory writes for
    UnaryOpType::TYPECAST (``typecast_tile_init<in, out>(); typecast_tile<in, out>(0);`` with DataFormat
    codes), an fp32 DST and UnpackToDestFp32 for a 32-bit input, as the factory configures them. The
    values are integers below 2^8, so every conversion is exact on the device."""
    torch.manual_seed(27)
    x = torch.randint(-200, 200, (64, 64))
    tx = dram(device, x.to(torch.int32 if src == ttnn.int32 else torch.float32), dtype=src)
    out = output(device, (64, 64), dtype=dst)
    compute = typecast_compute(ops, src, dst, 4)
    run([tx, out], [unary_reader(ops, tx, 4), compute, unary_writer(ops, out, 2, 4)], [cb(0, src), cb(2, dst)])
    got = ttnn.to_torch(out)
    assert got.dtype == {ttnn.float32: torch.float32, ttnn.bfloat16: torch.bfloat16, ttnn.int32: torch.int32}[dst]
    assert torch.equal(got.double(), x.double())


@pytest.mark.parametrize("op,kind,golden,a_dtype", [
    ("add_tiles", "ELWADD", "add", ttnn.bfloat16), ("mul_tiles", "ELWMUL", "mul", ttnn.bfloat16),
    ("add_tiles", "ELWADD", "add", ttnn.bfloat8_b), ("mul_tiles", "ELWMUL", "mul", ttnn.bfloat8_b)])
def test_ttnn_eltwise_binary_kernels_run_unchanged(device, ops, op, kind, golden, a_dtype) -> None:
    """ttnn's binary reader (two TensorAccessors into two DataflowBuffers), eltwise_binary_kernel.cpp
    with the ELTWISE_OP defines of the binary program factory, and the unary writer; the first input
    in bfloat16 or bfloat8_b (its CB in the tensor's format, as the factory makes it)."""
    torch.manual_seed(22)
    a, b = torch.randn(64, 64), torch.randn(64, 64)
    ta, tb, out = dram(device, a, dtype=a_dtype), dram(device, b), output(device, (64, 64))
    tiles = 4
    reader = kernel(ops / "eltwise/binary/device/kernels/dataflow/reader_binary_interleaved_start_id.cpp",
                    ttnn.ReaderConfigDescriptor(), rt=[ta.buffer_address(), tb.buffer_address(), tiles, 0, 0, 0, 0],
                    ct=[0, *ttnn.TensorAccessorArgs(ta).get_compile_time_args(),
                        *ttnn.TensorAccessorArgs(tb).get_compile_time_args()])
    compute = kernel(ops / "eltwise/binary/device/kernels/compute/eltwise_binary_kernel.cpp",
                     ttnn.ComputeConfigDescriptor(), rt=[tiles, 1],
                     defines=[("ELTWISE_OP", op), ("ELTWISE_OP_TYPE", f"EltwiseBinaryType::{kind}")])
    run([ta, tb, out], [reader, compute, unary_writer(ops, out, 2, tiles)], [cb(0, a_dtype), cb(1), cb(2)])
    # the device's arithmetic (tilecraft/device_arith.py, from the ISA's functional models): the
    # default ComputeConfigDescriptor is HiFi4 (four phases) with a bfloat16 DST
    dst = device_arith.eltwise(golden, ttnn.to_torch(ta).float(), ttnn.to_torch(tb).float(), 4, fp32_dst=False)
    assert torch.equal(ttnn.to_torch(out), device_arith.pack_bf16(dst))


@pytest.mark.parametrize("compute_file", ["transpose", "shared"])
def test_ttnn_transpose_wh_kernels_run_unchanged(device, ops, compute_file) -> None:
    """ttnn's transpose_wh: the reader walks each batch's tiles in column-major order (runtime args
    address, N, Ht, Wt, HtWt; the accessor's compile-time args), transpose_wh.cpp transposes each
    tile into DST, the unary writer stores them in order. The transpose op's transpose_wh.cpp takes
    the tile count as a runtime arg (DataflowBuffer objects), the shared ttnn/kernel/compute one as a
    compile-time arg (CircularBuffer objects)."""
    torch.manual_seed(23)
    n, ht, wt = 2, 2, 3
    x = torch.randn(n, ht * 32, wt * 32)
    tx, out = dram(device, x), output(device, (n, wt * 32, ht * 32))
    tiles = n * ht * wt
    reader = kernel(ops / "data_movement/transpose/device/kernels/dataflow/reader_unary_transpose_wh_interleaved.cpp",
                    ttnn.ReaderConfigDescriptor(), rt=[tx.buffer_address(), n, ht, wt, ht * wt],
                    ct=ttnn.TensorAccessorArgs(tx).get_compile_time_args())
    if compute_file == "transpose":
        compute = kernel(ops / "data_movement/transpose/device/kernels/compute/transpose_wh.cpp",
                         ttnn.ComputeConfigDescriptor(), rt=[tiles])
    else:
        compute = kernel(ops.parent / "kernel/compute/transpose_wh.cpp", ttnn.ComputeConfigDescriptor(), ct=[tiles])
    run([tx, out], [reader, compute, unary_writer(ops, out, 16, tiles)], [cb(0), cb(16)])
    # a transpose moves values: bit for bit
    assert torch.equal(ttnn.to_torch(out), ttnn.to_torch(tx).transpose(-1, -2))


@pytest.mark.parametrize("batch,mt,kt,nt,bcast_b,b_dtype", [
    (1, 2, 3, 2, 0, ttnn.bfloat16), (2, 1, 2, 2, 1, ttnn.bfloat16), (1, 1, 2, 2, 0, ttnn.bfloat8_b)])
def test_ttnn_bmm_kernels_run_unchanged(device, ops, batch, mt, kt, nt, bcast_b, b_dtype) -> None:
    """ttnn's single-core matmul: reader_bmm_8bank_output_tiles_partitioned.cpp reads in0's row and
    in1's column of tiles for each output tile (runtime args as the matmul program factory passes
    them; compile-time args: no last-k-tile padding, then both accessors; named args cb_in0/cb_in1),
    bmm.cpp (compile-time args batch, Mt, Kt, Nt; named cb_in0/cb_in1/cb_out) and the unary writer; in1
    in bfloat16 or bfloat8_b (the weights' usual format)."""
    torch.manual_seed(24)
    a = torch.randn(batch, mt * 32, kt * 32)
    b = torch.randn(1 if bcast_b else batch, kt * 32, nt * 32)
    ta, tb, out = dram(device, a), dram(device, b, dtype=b_dtype), output(device, (batch, mt * 32, nt * 32))
    tiles = batch * mt * nt
    reader = bmm_reader(ops, ta, tb, batch, mt, kt, nt, bool(bcast_b))
    compute = bmm_compute(ops, batch, mt, kt, nt)
    run([ta, tb, out], [reader, compute, unary_writer(ops, out, 16, tiles)], [cb(0), cb(1, b_dtype), cb(16)])
    x, y = ttnn.to_torch(ta).float(), ttnn.to_torch(tb).float().expand(batch, -1, -1)
    want = torch.stack([device_arith.pack_bf16(device_arith.matmul_tiles(x[i], y[i], 4, fp32_dst=False))
                        for i in range(batch)])
    assert torch.equal(ttnn.to_torch(out), want)


@pytest.mark.parametrize("kind,backwards", [("tiles", False), ("tiles", True), ("sticks", False),
                                           ("sticks", True), ("sharded sticks", False),
                                           ("untilize's tile reader", False)])
def test_ttnn_copy_kernels_run_unchanged(device, ops, kind, backwards) -> None:
    """ttnn's copy (SameMemoryConfig factory) through one CB: tiles with copy's reader/writer_unary_start_id.cpp
    (reader compile-time args: the accessor's; writer: the CB, then the accessor's; runtime args address,
    pages, first page); row-major sticks with the shared reader/writer_unary_stick_layout_interleaved_start_id.cpp
    (compile-time args CB, stick bytes, accessor; runtime args address, stick bytes, sticks, first stick),
    and copy's own reader/writer_unary_stick_start_id.cpp, which the factory picks for sharded row-major
    tensors (one more runtime arg: the pages per stick). BACKWARDS walks the pages from the last. The
    untilize op's tile reader (reader_unary_start_id.cpp: the CB as its first compile-time arg) feeds
    copy's tile writer."""
    torch.manual_seed(25)
    x = torch.randn(64, 96)
    layout = ttnn.ROW_MAJOR_LAYOUT if "sticks" in kind else ttnn.TILE_LAYOUT
    tx, out = dram(device, x, layout=layout), output(device, (64, 96), layout=layout)
    src, dst = ttnn.TensorAccessorArgs(tx).get_compile_time_args(), ttnn.TensorAccessorArgs(out).get_compile_time_args()
    defines = [("BACKWARDS", "1")] if backwards else []
    if kind == "tiles":
        pages, page_bytes, first = 6, ttnn.bfloat16.tile_bytes, 5 if backwards else 0
        files = [ops / "data_movement/copy/device/kernels" / name
                 for name in ("reader_unary_start_id.cpp", "writer_unary_start_id.cpp")]
        rt_in, rt_out = [tx.buffer_address(), pages, first], [out.buffer_address(), pages, first]
        ct_in, ct_out = src, [0, *dst]
    elif kind == "untilize's tile reader":
        pages, page_bytes = 6, ttnn.bfloat16.tile_bytes
        files = [ops / "data_movement/untilize/device/kernels/dataflow/reader_unary_start_id.cpp",
                 ops / "data_movement/copy/device/kernels/writer_unary_start_id.cpp"]
        rt_in, rt_out = [tx.buffer_address(), pages, 0], [out.buffer_address(), pages, 0]
        ct_in, ct_out = [0, *src], [0, *dst]
    else:
        pages, page_bytes, first = 64, 96 * 2, 63 if backwards else 0
        shared = ops.parent / "kernel/dataflow"
        files = ([shared / f"{role}_unary_stick_layout_interleaved_start_id.cpp" for role in ("reader", "writer")]
                 if kind == "sticks" else
                 [ops / "data_movement/copy/device/kernels" / f"{role}_unary_stick_start_id.cpp"
                  for role in ("reader", "writer")])
        shards = [1] if kind == "sharded sticks" else []
        rt_in = [tx.buffer_address(), page_bytes, pages, first, *shards]
        rt_out = [out.buffer_address(), page_bytes, pages, first, *shards]
        ct_in, ct_out = [0, page_bytes, *src], [0, page_bytes, *dst]
    reader = kernel(files[0], ttnn.ReaderConfigDescriptor(), rt=rt_in, ct=ct_in, defines=defines)
    writer = kernel(files[1], ttnn.WriterConfigDescriptor(), rt=rt_out, ct=ct_out, defines=defines)
    run([tx, out], [reader, writer], [cb(0, page_size=page_bytes)])
    assert torch.equal(ttnn.to_torch(out), ttnn.to_torch(tx))


def test_ttnn_bmm_large_block_kernels_run_unchanged(device, ops) -> None:
    """ttnn's blocked single-core matmul: reader_bmm_tile_layout.cpp reads in0/in1 blocks, bmm_large_block_zm.cpp
    multiplies them in output sub-blocks, spilling partials to the intermediate CB (which shares the
    output CB's memory, as in the factory) and reloading them for the next k block, and
    writer_bmm_tile_layout.cpp writes the sub-blocks (args as in the factory's comments: strides,
    block sizes in tiles)."""
    torch.manual_seed(26)
    mt, kt, nt, block_w, sub_h, sub_w = 2, 4, 2, 2, 1, 2
    a, b = torch.randn(mt * 32, kt * 32), torch.randn(kt * 32, nt * 32)
    ta, tb, out = dram(device, a), dram(device, b), output(device, (mt * 32, nt * 32))
    blocks, in0_subblocks, in1_subblocks = kt // block_w, mt // sub_h, nt // sub_w
    in0_block_tiles, in1_block_tiles = mt * block_w, nt * block_w
    names = [("cb_in0", 0), ("cb_in1", 1), ("cb_out", 16), ("cb_intermed0", 24)]
    ct_compute = [block_w, in0_subblocks, in0_block_tiles, sub_h * block_w, in1_subblocks, in1_block_tiles,
                  sub_w * in1_subblocks, blocks, sub_h, sub_w, sub_h * sub_w, 1]
    kernels = ops / "matmul/device/kernels"
    reader = kernel(kernels / "dataflow/reader_bmm_tile_layout.cpp", ttnn.ReaderConfigDescriptor(),
                    rt=[ta.buffer_address(), 0, 1, kt, block_w, block_w, mt, in0_block_tiles,
                        tb.buffer_address(), 0, 1, nt, block_w * nt, nt, block_w, in1_block_tiles,
                        blocks, mt * kt, kt * nt, 1, 0],
                    ct=[*ttnn.TensorAccessorArgs(ta).get_compile_time_args(),
                        *ttnn.TensorAccessorArgs(tb).get_compile_time_args()], named=names[:2])
    compute = kernel(kernels / "compute/bmm_large_block_zm.cpp", ttnn.ComputeConfigDescriptor(),
                     ct=ct_compute, named=names)
    writer = kernel(kernels / "dataflow/writer_bmm_tile_layout.cpp", ttnn.WriterConfigDescriptor(),
                    rt=[out.buffer_address(), 0, 1, nt, sub_w, sub_h * nt, sub_w, sub_h, sub_h * sub_w,
                        in1_subblocks, in0_subblocks, mt * nt, 1],
                    ct=ttnn.TensorAccessorArgs(out).get_compile_time_args(), named=names[2:3])
    tile = ttnn.bfloat16.tile_bytes
    shared = ttnn.CBDescriptor(total_size=mt * nt * tile, core_ranges=ONE, format_descriptors=[
        ttnn.CBFormatDescriptor(buffer_index=i, data_format=ttnn.bfloat16, page_size=tile) for i in (16, 24)])
    run([ta, tb, out], [reader, compute, writer],
        [cb(0, pages=2 * in0_block_tiles), cb(1, pages=2 * in1_block_tiles), shared])
    want = device_arith.blocked_matmul(ttnn.to_torch(ta), ttnn.to_torch(tb), block_w * 32)
    assert torch.equal(ttnn.to_torch(out), want)
