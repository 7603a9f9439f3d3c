"""ttnn 0.81.1's multicore matmul and sharded kernels, taken unchanged from the ttnn wheel, run on the
emulator with hosts written on the 0.81.1 ``generic_op`` API, against the device arithmetic's golden
or the moved values.

The hosts pass what the program factories pass (compile-time args by index, named CB args,
semaphores, per-core runtime args), on small grids: the 2D multicast matmul's readers/writers (in0
sent along each row, in1 down each column, by NoC multicast with semaphore handshakes; in0
interleaved or block-sharded, the output interleaved or sharded) with the fused-bias compute kernel
(plain, FUSE_BIAS, PACKER_L1_ACC), the multicore reuse matmul; interleaved_to_sharded and
sharded_to_interleaved (tiles and sticks), the binary op on sharded tensors, the sharded transposes
and the block-sharded concat, whose CBs are the tensors' shards (globally allocated CBs). The wheel
comes from the ``ops`` fixture (tests/emu/conftest.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
import torch

import tilecraft.ttnn as ttnn
from tilecraft import device_arith
from tilecraft.emu import tensor_bytes
from tests.emu.harness import cb, cores, dram, kernel, output, run

TILE = ttnn.bfloat16.tile_bytes
MATMUL = "matmul/device/kernels"
#: CB indices as the matmul factories name them (named compile-time args)
CB_IN0, CB_IN1, CB_IN0_SHARDED, CB_BIAS, CB_OUT, CB_INTERMED0, CB_SPARSITY = 0, 1, 2, 3, 4, 5, 7
NAMES = [("cb_in0", CB_IN0), ("cb_in1", CB_IN1), ("cb_in0_sharded", CB_IN0_SHARDED), ("cb_bias", CB_BIAS),
         ("cb_out", CB_OUT), ("cb_intermed0", CB_INTERMED0), ("cb_sparsity", CB_SPARSITY), ("num_active", 0)]
#: the accessor args of the factories' unused sparsity tensor (a default TensorAccessorArgs())
NO_TENSOR = [0, 0]


GRID = cores(0, 0, 1, 1)


#: the 2x2 grid's cores in row-major order: the order of height shards and of 1D matmul cores
ORDER = [(x, y) for y in range(2) for x in range(2)]
#: all of ORDER but core 0
AFTER_FIRST = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(1, 0), ttnn.CoreCoord(1, 0)),
                                 ttnn.CoreRange(ttnn.CoreCoord(0, 1), ttnn.CoreCoord(1, 1))])


def sharded(layout: ttnn.TensorMemoryLayout, shard: tuple[int, int]) -> ttnn.MemoryConfig:
    """An L1 sharded memory config over the 2x2 grid, row-major shard order."""
    return ttnn.MemoryConfig(layout, ttnn.BufferType.L1, ttnn.ShardSpec(GRID, shard, ttnn.ShardOrientation.ROW_MAJOR))


def block_sharded(shard: tuple[int, int]) -> ttnn.MemoryConfig:
    return sharded(ttnn.TensorMemoryLayout.BLOCK_SHARDED, shard)


def height_sharded(shard: tuple[int, int]) -> ttnn.MemoryConfig:
    return sharded(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, shard)


def matmul_semaphores(grid: ttnn.CoreRangeSet) -> list[ttnn.SemaphoreDescriptor]:
    """The multicast factories' four semaphores (in0 sender/receiver, in1 sender/receiver), 0."""
    return [ttnn.SemaphoreDescriptor(id=i, core_ranges=grid, initial_value=0) for i in range(4)]


@dataclass(frozen=True)
class Blocking:
    """A matmul's tiling over a grid of gx x gy cores: each core computes per_core_m x per_core_n
    output tiles, walking K in blocks of ``block_k`` tiles, in sub-blocks of sub_h x sub_w."""

    mt: int
    kt: int
    nt: int
    gx: int
    gy: int
    block_k: int
    sub_h: int
    sub_w: int

    @property
    def per_core_m(self) -> int:
        return self.mt // self.gy

    @property
    def per_core_n(self) -> int:
        return self.nt // self.gx

    @property
    def blocks(self) -> int:
        return self.kt // self.block_k

    @property
    def in0_block_tiles(self) -> int:
        return self.per_core_m * self.block_k

    @property
    def in1_block_tiles(self) -> int:
        return self.per_core_n * self.block_k

    @property
    def out_block_tiles(self) -> int:
        return self.per_core_m * self.per_core_n


def compute_args(b: Blocking, untilize_out: bool = False) -> list[int]:
    """bmm_large_block_zm_fused_bias_activation.cpp's compile-time args: one output block per core,
    no batch, no transpose; arg 15 untilizes the output; arg 18 asks for the row-broadcast bias."""
    return [b.block_k, b.per_core_m // b.sub_h, b.in0_block_tiles, b.sub_h * b.block_k, b.per_core_n // b.sub_w,
            b.in1_block_tiles, b.per_core_n, b.blocks, 1, 1, b.sub_h, b.sub_w, b.sub_h * b.sub_w, 1,
            b.out_block_tiles, int(untilize_out), 0, 0, 1]


def sender_writer_padding(b: Blocking) -> list[int]:
    """in1_sender_writer_padding's output padding args when nothing is padded: sub-blocks along
    h, the last one's height, tiles to skip below, sub-blocks along w (all, the last block's),
    the last one's width, tiles to skip right of it and past the block."""
    return [b.per_core_m // b.sub_h, b.sub_h, 0, b.per_core_n // b.sub_w, b.per_core_n // b.sub_w, b.sub_w, 0, 0]


def receiver_writer_padding(b: Blocking) -> list[int]:
    """in1_receiver_writer_padding's: as the sender's, with the last block's sub-block count along
    h, and the output blocks along h and w at the end."""
    return [b.per_core_m // b.sub_h, b.per_core_m // b.sub_h, b.sub_h, 0, b.per_core_n // b.sub_w,
            b.per_core_n // b.sub_w, b.sub_w, 0, 0, 1, 1]


def writer_compile_args(b: Blocking) -> list[int]:
    """The output writer's strides (in tiles) and sub-block shape, as the factories pass them."""
    return [1, b.nt, b.sub_w, b.sub_h * b.nt, b.per_core_n, b.per_core_m * b.nt, b.sub_w, b.sub_h,
            b.sub_w * b.sub_h, b.mt * b.nt]


def worker_noc(device, b: Blocking) -> dict[tuple[int, int], ttnn.CoreCoord]:
    """The NoC coordinates of each core (x, y) of the grid."""
    return {(x, y): device.worker_core_from_logical_core(ttnn.CoreCoord(x, y))
            for x in range(b.gx) for y in range(b.gy)}


def in0_sender_compile_args(b: Blocking, ta, dests: int) -> list[int]:
    """in0_sender_padding's compile-time args: strides and block shape in tiles, no padding, shard
    extraction for a sharded in0 wider than a block (its shard's width and height in tiles), K
    blocks, one output block, semaphores 0/1, the multicast's destinations, batch args, no sparsity
    (bcast_A), no fused op, the accessors (sparsity: a placeholder), the batches to compute."""
    shard = ta.memory_config().shard_spec.shape if ta.memory_config().is_sharded() else None
    extract = [int(shard[1] // 32 > b.block_k), shard[1] // 32, shard[0] // 32] if shard else [0, 0, 0]
    return [1, b.kt, b.block_k, b.per_core_m * b.kt, b.block_k, b.per_core_m, b.in0_block_tiles, 0, 0, *extract,
            b.blocks, 1, 1, 0, 1, dests, dests, b.mt * b.kt, 1, 1, 0, 0, 0, 1, 0, 0, *accessor_args(ta), *NO_TENSOR, 1]


def accessor_args(tensor) -> list[int]:
    """A tensor's accessor args as the factories append them; a sharded tensor's are not modelled
    (TensorAccessorArgs is interleaved only) and the kernels do not use them when the tensor is
    sharded (IN0_SHARDED, OUT_SHARDED): a placeholder."""
    return NO_TENSOR if tensor.memory_config().is_sharded() else ttnn.TensorAccessorArgs(tensor).get_compile_time_args()


def in1_receiver_compile_args(b: Blocking, out, bias=None) -> list[int]:
    """in1_receiver_writer_padding's compile-time args: in1's block tiles, K blocks, one output
    block, semaphores 2/3, the batch, the output writer's args, the bias block width, no fused op,
    the output's accessor."""
    return [b.in1_block_tiles, b.blocks, 1, 1, 2, 3, 1, *writer_compile_args(b),
            b.per_core_n if bias is not None else 0, 0, *accessor_args(out)]


def in1_sender_compile_args(b: Blocking, tb, out, bias, dests: int) -> list[int]:
    """in1_sender_writer_padding's compile-time args: in1 strides and block shape, K blocks, one
    output block, semaphores 2/3, the multicast's destinations, batch args, no sparsity, the output
    writer's args, the bias stride, no fused ops, not compact, the accessors (sparsity: a
    placeholder), the output's."""
    return [1, b.nt, b.block_k * b.nt, b.per_core_n, b.per_core_n, b.block_k, b.in1_block_tiles, b.blocks, 1, 1,
            2, 3, dests, dests, b.kt * b.nt, 1, 0, 0, 0, *writer_compile_args(b), int(bias is not None),
            0, 0, 0, *accessor_args(tb), *NO_TENSOR, *accessor_args(out),
            *(ttnn.TensorAccessorArgs(bias).get_compile_time_args() if bias is not None else [])]


def in1_sender_runtime_args(b: Blocking, tb, out, column: int, rect: list[int], out_start: int, bias=None) -> list[int]:
    """in1_sender_writer_padding's runtime args for the core reading in1's output-column block
    ``column``: in1's address and first tile, the multicast rectangle, no sparsity, the output's
    address and the core's first output tile, the writer's padding args, the bias (address, first
    tile) and, for an interleaved output, the output blocks along w."""
    bias_address = bias.buffer_address() if bias is not None else 0
    blocks_w = [] if out.memory_config().is_sharded() else [1]
    return [tb.buffer_address(), column * b.per_core_n, *rect, 0, out.buffer_address(), out_start, b.per_core_n,
            *sender_writer_padding(b), bias_address, column * b.per_core_n, *blocks_w]


def in0_mcast_kernels(device, ops: Path, b: Blocking, ta) -> list[ttnn.KernelDescriptor]:
    """in0's side of the 2D multicast factory (matmul_multicore_reuse_mcast_2d), in0 interleaved:
    the left column reads in0 blocks and multicasts them along its row (in0_sender_padding, RISCV_1
    on NOC 1, so the rectangle's corners are given end first), the other cores receive them
    (in0_receiver). Semaphores 0/1 are in0's sender and receiver flags."""
    kernels, noc = ops / MATMUL / "dataflow", worker_noc(device, b)
    in0_ct = in0_sender_compile_args(b, ta, b.gx - 1)
    sender = kernel(kernels / "reader_bmm_tile_layout_in0_sender_padding.cpp",
                    ttnn.ReaderConfigDescriptor(), cores(0, 0, 0, b.gy - 1),
                    rt={(0, y): [ta.buffer_address(), y * b.per_core_m * b.kt, noc[b.gx - 1, y].x,
                                 noc[b.gx - 1, y].y, noc[1, y].x, noc[1, y].y, b.per_core_m, 0]
                        for y in range(b.gy)},
                    ct=in0_ct, named=NAMES)
    receiver = kernel(kernels / "reader_bmm_tile_layout_in0_receiver.cpp",
                      ttnn.ReaderConfigDescriptor(), cores(1, 0, b.gx - 1, b.gy - 1),
                      rt={(x, y): [noc[0, y].x, noc[0, y].y] for x in range(1, b.gx) for y in range(b.gy)},
                      ct=[b.in0_block_tiles, b.blocks, 1, 1, 0, 1, 1, 0], named=NAMES)
    return [sender, receiver]


def in0_block_sharded_kernel(device, ops: Path, b: Blocking) -> ttnn.KernelDescriptor:
    """in0's side when in0 is block-sharded (one K block per core of a row): every core runs
    in0_sender_receiver_padding_block_sharded, and for K block i the row's core i multicasts its
    shard (the CB cb_in0_sharded) to the whole row including itself (MCAST_INCL_SRC) while the
    others signal they are ready. Runtime args: the core's sender id, the row's rectangle (NOC 1:
    end first), the NoC x of each column and the row's NoC y."""
    noc = worker_noc(device, b)
    ct = [1, 1, b.in0_block_tiles, b.in0_block_tiles * TILE, 0, 0, b.blocks, 1, 1, 0, 1, b.gx, b.gx, b.gx, 1, 0,
          b.block_k, b.per_core_m, b.block_k, b.per_core_m, 1, 0]
    rt = {(x, y): [x, noc[b.gx - 1, y].x, noc[b.gx - 1, y].y, noc[0, y].x, noc[0, y].y,
                   *(noc[i, y].x for i in range(b.gx)), noc[0, y].y]
          for x in range(b.gx) for y in range(b.gy)}
    return kernel(ops / MATMUL / "dataflow/reader_bmm_tile_layout_in0_sender_receiver_padding_block_sharded.cpp",
                  ttnn.ReaderConfigDescriptor(), cores(0, 0, b.gx - 1, b.gy - 1), rt=rt, ct=ct, named=NAMES)


def in1_mcast_kernels(device, ops: Path, b: Blocking, tb, out, bias=None) -> list[ttnn.KernelDescriptor]:
    """in1's side of the 2D multicast factory: the top row reads in1 blocks (and the bias) and
    multicasts them down its column, then writes its output (in1_sender_writer_padding, RISCV_0 on
    NOC 0), the other rows receive in1 and write theirs (in1_receiver_writer_padding); with a
    sharded output (OUT_SHARDED) the output CB is the output's shard and the writers only wait for
    it. Semaphores 2/3 are in1's sender and receiver flags."""
    kernels, noc = ops / MATMUL / "dataflow", worker_noc(device, b)
    out_sharded = out.memory_config().is_sharded()
    defines = [("FUSE_BIAS", "1")] * (bias is not None) + [("OUT_SHARDED", "1")] * out_sharded
    start = {(x, y): y * b.per_core_m * b.nt + x * b.per_core_n for x in range(b.gx) for y in range(b.gy)}
    sender = kernel(kernels / "reader_bmm_tile_layout_in1_sender_writer_padding.cpp",
                    ttnn.WriterConfigDescriptor(), cores(0, 0, b.gx - 1, 0),
                    rt={(x, 0): in1_sender_runtime_args(b, tb, out, x, [noc[x, 1].x, noc[x, 1].y, noc[x, b.gy - 1].x,
                                                                        noc[x, b.gy - 1].y], start[x, 0], bias)
                        for x in range(b.gx)},
                    ct=in1_sender_compile_args(b, tb, out, bias, b.gy - 1), named=NAMES, defines=defines)
    padding = receiver_writer_padding(b)[:-2] if out_sharded else receiver_writer_padding(b)
    receiver = kernel(kernels / "reader_bmm_tile_layout_in1_receiver_writer_padding.cpp",
                      ttnn.WriterConfigDescriptor(), cores(0, 1, b.gx - 1, b.gy - 1),
                      rt={(x, y): [noc[x, 0].x, noc[x, 0].y, out.buffer_address(), start[x, y], *padding]
                          for x in range(b.gx) for y in range(1, b.gy)},
                      ct=in1_receiver_compile_args(b, out, bias), named=NAMES, defines=defines)
    return [sender, receiver]


def fused_compute(ops: Path, b: Blocking, grid: ttnn.CoreRangeSet, defines: list[tuple[str, str]],
                  untilize_out: bool = False):
    """bmm_large_block_zm_fused_bias_activation.cpp on every core (HiFi4, bfloat16 DST)."""
    return kernel(ops / MATMUL / "compute/bmm_large_block_zm_fused_bias_activation.cpp",
                  ttnn.ComputeConfigDescriptor(), grid, ct=compute_args(b, untilize_out),
                  named=[*NAMES, ("bias_ntiles", b.per_core_n)], defines=defines)


def matmul_cbs(b: Blocking, grid: ttnn.CoreRangeSet, bias: bool = False, in0=None, in1=None, out=None) -> list:
    """The factory's CBs: in0 and in1 double-buffered blocks (a sharded in1's CB is its shard);
    the output block with the partials CB sharing its memory (the output's shard when the output
    is sharded); the bias row; a sharded in0's shard as cb_in0_sharded."""
    in1_sharded = in1 is not None and in1.memory_config().is_sharded()
    cbs = [cb(CB_IN0, pages=2 * b.in0_block_tiles, core_ranges=grid),
           ttnn.cb_descriptor_from_sharded_tensor(CB_IN1, in1) if in1_sharded
           else cb(CB_IN1, pages=2 * b.in1_block_tiles, core_ranges=grid),
           ttnn.CBDescriptor(total_size=b.out_block_tiles * TILE, core_ranges=grid, format_descriptors=[
               ttnn.CBFormatDescriptor(buffer_index=i, data_format=ttnn.bfloat16, page_size=TILE)
               for i in (CB_OUT, CB_INTERMED0)], buffer=out if out is not None and out.memory_config().is_sharded()
               else None)]
    if bias:
        cbs.append(cb(CB_BIAS, pages=b.per_core_n, core_ranges=grid))
    if in0 is not None and in0.memory_config().is_sharded():
        cbs.append(ttnn.cb_descriptor_from_sharded_tensor(CB_IN0_SHARDED, in0))
    return cbs


def l1_acc_matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """The fused kernel's PACKER_L1_ACC arithmetic over three K blocks of 64 (HiFi4, bfloat16 DST):
    block 0 packed, block 1 packed onto it with L1 accumulation (fp32 sum of the page and DST, then
    the packer's rounding), the sum reloaded into DST for block 2, packed to the output."""
    def block(k: int, held: torch.Tensor | None = None) -> torch.Tensor:
        rows, cols = a.shape[0], b.shape[1]
        dst = torch.zeros(rows, cols) if held is None else held.float()
        return device_arith.blocked_matmul_onto(a[:, k:k + 64], b[k:k + 64], dst)

    first = device_arith.pack_bf16(block(0))
    accumulated = device_arith.pack_bf16(first.float() + block(64))
    return device_arith.pack_bf16(block(128, accumulated))


# the fused-bias and L1-accumulation variants recompile all five kernels: a slow sweep
@pytest.mark.parametrize("variant", ["plain", "pack_relu", pytest.param("bias", marks=pytest.mark.slow),
                                     pytest.param("packer_l1_acc", marks=pytest.mark.slow)])
def test_ttnn_2d_multicast_matmul_kernels_run_unchanged(device, ops, variant) -> None:
    """The 2D multicast matmul on a 2x2 grid, each core computing 2x2 output tiles over K in
    blocks of two tiles (the partials spill to the intermediate CB and reload), bit for bit
    against the device arithmetic of the blocked product. With FUSE_BIAS the top row also reads
    the bias row and multicasts it down, and the compute kernel adds it to the last partials with
    add_tiles_bcast_rows (row 0 of the bias tile, whatever the other rows hold). With
    PACKER_L1_ACC (three K blocks, as the factory enables it) the packer adds the second block's
    partials to the first's in L1 (in fp32, then rounded as a pack: docs/numerics.md section 8), and
    the sum is reloaded for the last block. With PACK_RELU (the factory's fused ReLU) the packer's
    ReLU stage is on for the last block's packs."""
    torch.manual_seed(31)
    b = Blocking(mt=4, kt=6 if variant == "packer_l1_acc" else 4, nt=4, gx=2, gy=2, block_k=2, sub_h=1, sub_w=2)
    a, w = torch.randn(b.mt * 32, b.kt * 32), torch.randn(b.kt * 32, b.nt * 32)
    ta, tb, out = dram(device, a), dram(device, w), output(device, (b.mt * 32, b.nt * 32))
    bias = dram(device, torch.randn(32, b.nt * 32)) if variant == "bias" else None
    grid = cores(0, 0, b.gx - 1, b.gy - 1)
    defines = {"plain": [], "pack_relu": [("PACK_RELU", "1")], "bias": [("FUSE_BIAS", "1")],
               "packer_l1_acc": [("PACKER_L1_ACC", "1")]}[variant]
    semaphores = matmul_semaphores(grid)
    run([ta, tb, out, *([bias] if bias is not None else [])],
        [*in0_mcast_kernels(device, ops, b, ta), *in1_mcast_kernels(device, ops, b, tb, out, bias),
         fused_compute(ops, b, grid, defines)],
        matmul_cbs(b, grid, bias=bias is not None), semaphores)
    x, y = ttnn.to_torch(ta), ttnn.to_torch(tb)
    want = (l1_acc_matmul(x, y) if variant == "packer_l1_acc"
            else device_arith.blocked_matmul(x, y, b.block_k * 32))
    if variant == "pack_relu":  # the packer's ReLU on the last block's DST, before its rounding
        want = want.clamp(min=0)
    if bias is not None:
        row = ttnn.to_torch(bias).float()[:1].expand(b.mt * 32, -1)
        want = device_arith.pack_bf16(device_arith.eltwise("add", want.float(), row, 4, fp32_dst=False))
    assert torch.equal(ttnn.to_torch(out), want)


def reuse_kernels(ops: Path, b: Blocking, ta, tb, out, grid, untilize_out: bool = False) -> list:
    """The multicore reuse factory's kernels (matmul_multicore_reuse_optimized) over a row of cores:
    each core reads its own in0 and in1 blocks (reader_bmm_tile_layout.cpp: start tiles, strides,
    block shapes as runtime args), the fused-bias compute kernel multiplies them in sub-blocks,
    writer_bmm_tile_layout.cpp writes its output tiles."""
    kernels = ops / MATMUL / "dataflow"
    reader = kernel(kernels / "reader_bmm_tile_layout.cpp", ttnn.ReaderConfigDescriptor(), grid,
                    rt={(x, 0): [ta.buffer_address(), 0, 1, b.kt, b.block_k, b.block_k, b.per_core_m, b.in0_block_tiles,
                                 tb.buffer_address(), x * b.per_core_n, 1, b.nt, b.block_k * b.nt, b.per_core_n,
                                 b.block_k, b.in1_block_tiles, b.blocks, b.mt * b.kt, b.kt * b.nt, 1, 0]
                        for x in range(b.gx)},
                    ct=[*ttnn.TensorAccessorArgs(ta).get_compile_time_args(),
                        *ttnn.TensorAccessorArgs(tb).get_compile_time_args()], named=NAMES)
    writer = kernel(kernels / "writer_bmm_tile_layout.cpp", ttnn.WriterConfigDescriptor(), grid,
                    rt={(x, 0): [out.buffer_address(), x * b.per_core_n, 1, b.nt, b.sub_w, b.sub_h * b.nt, b.sub_w,
                                 b.sub_h, b.sub_h * b.sub_w, b.per_core_n // b.sub_w, b.per_core_m // b.sub_h,
                                 b.mt * b.nt, 1]
                        for x in range(b.gx)},
                    ct=ttnn.TensorAccessorArgs(out).get_compile_time_args(), named=NAMES)
    return [reader, fused_compute(ops, b, grid, [], untilize_out), writer]


def test_ttnn_multicore_reuse_matmul_kernels_run_unchanged(device, ops) -> None:
    """The multicore reuse matmul on a 2x1 grid, each core computing 2x2 output tiles, bit for bit
    against the device arithmetic."""
    torch.manual_seed(33)
    b = Blocking(mt=2, kt=4, nt=4, gx=2, gy=1, block_k=2, sub_h=1, sub_w=2)
    a, w = torch.randn(b.mt * 32, b.kt * 32), torch.randn(b.kt * 32, b.nt * 32)
    ta, tb, out = dram(device, a), dram(device, w), output(device, (b.mt * 32, b.nt * 32))
    grid = cores(0, 0, b.gx - 1, 0)
    run([ta, tb, out], reuse_kernels(ops, b, ta, tb, out, grid), matmul_cbs(b, grid))
    want = device_arith.blocked_matmul(ttnn.to_torch(ta), ttnn.to_torch(tb), b.block_k * 32)
    assert torch.equal(ttnn.to_torch(out), want)


def test_an_untilized_matmul_output_is_row_major_per_subblock(device, ops) -> None:
    """The fused kernel's untilize_out (compile-time arg 15) packs each output sub-block through
    pack_untilize_dest: the sub-block's 1x2 tiles land in their two pages as one 32x64 row-major
    block, which the tile writer stores page by page. Read back in page order, every sub-block is
    the device matmul's result, row-major, bit for bit."""
    torch.manual_seed(35)
    b = Blocking(mt=2, kt=4, nt=4, gx=2, gy=1, block_k=2, sub_h=1, sub_w=2)
    ta, tb = dram(device, torch.randn(b.mt * 32, b.kt * 32)), dram(device, torch.randn(b.kt * 32, b.nt * 32))
    out = output(device, (b.mt * 32, b.nt * 32))
    run([ta, tb, out], reuse_kernels(ops, b, ta, tb, out, cores(0, 0, b.gx - 1, 0), untilize_out=True),
        matmul_cbs(b, cores(0, 0, b.gx - 1, 0)))
    want = device_arith.blocked_matmul(ttnn.to_torch(ta), ttnn.to_torch(tb), b.block_k * 32)
    got = ttnn.to_torch(out).float()
    # the output's values in page order (tiles of faces), one 1024-value page a row
    pages = torch.from_numpy(tensor_bytes.tilize(got.numpy().reshape(-1), tuple(got.shape))).reshape(-1, 1024)
    for r in range(b.mt):
        for c in range(0, b.nt, b.sub_w):
            block = pages[r * b.nt + c:r * b.nt + c + b.sub_w].reshape(32, 32 * b.sub_w)
            assert torch.equal(block, want[r * 32:(r + 1) * 32, c * 32:(c + b.sub_w) * 32].float()), (r, c)


@pytest.mark.parametrize("in1_sharded", [False, True])
def test_ttnn_1d_multicast_matmul_kernels_run_unchanged(device, ops, in1_sharded) -> None:
    """The 1D multicast matmul (matmul_multicore_reuse_mcast_1d, in0 multicast) on the four cores of
    the 2x2 grid, in row-major order, each computing all of M for its 2-tile slice of N: core 0
    reads in0 and multicasts it to the grid's rectangle, itself excluded (three destinations), the
    others receive it; every core reads its own in1 slice and writes its output with
    in1_sender_writer_padding under SKIP_MCAST. With in1 width-sharded (IN1_SHARDED) each core's
    slice is its shard, which is its in1 CB: the reader only pushes it."""
    torch.manual_seed(34)
    b = Blocking(mt=2, kt=4, nt=8, gx=4, gy=1, block_k=2, sub_h=1, sub_w=2)
    a, w = torch.randn(b.mt * 32, b.kt * 32), torch.randn(b.kt * 32, b.nt * 32)
    in1_config = (sharded(ttnn.TensorMemoryLayout.WIDTH_SHARDED, (b.kt * 32, b.per_core_n * 32)) if in1_sharded
                  else ttnn.DRAM_MEMORY_CONFIG)
    ta, tb = dram(device, a), dram(device, w, memory_config=in1_config)
    out = output(device, (b.mt * 32, b.nt * 32))
    kernels = ops / MATMUL / "dataflow"
    noc = {core: device.worker_core_from_logical_core(ttnn.CoreCoord(*core)) for core in ORDER}
    sender = kernel(kernels / "reader_bmm_tile_layout_in0_sender_padding.cpp", ttnn.ReaderConfigDescriptor(),
                    cores(0, 0, 0, 0),
                    rt=[ta.buffer_address(), 0, noc[1, 1].x, noc[1, 1].y, noc[0, 0].x, noc[0, 0].y, b.per_core_m, 0],
                    ct=in0_sender_compile_args(b, ta, len(ORDER) - 1), named=NAMES)
    receiver = kernel(kernels / "reader_bmm_tile_layout_in0_receiver.cpp", ttnn.ReaderConfigDescriptor(),
                      AFTER_FIRST,
                      rt={core: [noc[0, 0].x, noc[0, 0].y] for core in ORDER[1:]},
                      ct=[b.in0_block_tiles, b.blocks, 1, 1, 0, 1, 1, 0], named=NAMES)
    in1 = kernel(kernels / "reader_bmm_tile_layout_in1_sender_writer_padding.cpp", ttnn.WriterConfigDescriptor(),
                 GRID, rt={core: in1_sender_runtime_args(b, tb, out, k, [0, 0, 0, 0], k * b.per_core_n)
                           for k, core in enumerate(ORDER)},
                 ct=in1_sender_compile_args(b, tb, out, None, 0), named=NAMES,
                 defines=[("SKIP_MCAST", "1"), *[("IN1_SHARDED", "1")] * in1_sharded])
    run([ta, tb, out], [sender, receiver, in1, fused_compute(ops, b, GRID, [])], matmul_cbs(b, GRID, in1=tb),
        matmul_semaphores(GRID))
    want = device_arith.blocked_matmul(ttnn.to_torch(ta), ttnn.to_torch(tb), b.block_k * 32)
    assert torch.equal(ttnn.to_torch(out), want)


def test_ttnn_1d_multicast_in1_matmul_with_height_sharded_in0_runs_unchanged(device, ops) -> None:
    """The 1D multicast matmul the other way (in1 multicast) with in0 height-sharded over the four
    cores of the 2x2 grid (a 2x4-tile band each): every core's in0_sender_padding (IN0_SHARDED,
    SKIP_MCAST) copies its K blocks out of its own shard over the NoC (the shard is wider than a
    block: sub-block extraction), core 0 reads in1 and multicasts it to the grid's rectangle without
    itself, the others receive it, and each writes its own output rows."""
    torch.manual_seed(35)
    b = Blocking(mt=8, kt=4, nt=2, gx=1, gy=4, block_k=2, sub_h=1, sub_w=2)
    a, w = torch.randn(b.mt * 32, b.kt * 32), torch.randn(b.kt * 32, b.nt * 32)
    ta, tb = dram(device, a, memory_config=height_sharded((b.per_core_m * 32, b.kt * 32))), dram(device, w)
    out = output(device, (b.mt * 32, b.nt * 32))
    kernels = ops / MATMUL / "dataflow"
    noc = {core: device.worker_core_from_logical_core(ttnn.CoreCoord(*core)) for core in ORDER}
    in0 = kernel(kernels / "reader_bmm_tile_layout_in0_sender_padding.cpp", ttnn.ReaderConfigDescriptor(), GRID,
                 rt=[ta.buffer_address(), 0, 0, 0, 0, 0, b.per_core_m, 0], ct=in0_sender_compile_args(b, ta, 0),
                 named=NAMES, defines=[("IN0_SHARDED", "1"), ("SKIP_MCAST", "1")])
    rect = [noc[0, 0].x, noc[0, 0].y, noc[1, 1].x, noc[1, 1].y]
    sender = kernel(kernels / "reader_bmm_tile_layout_in1_sender_writer_padding.cpp", ttnn.WriterConfigDescriptor(),
                    cores(0, 0, 0, 0), rt=in1_sender_runtime_args(b, tb, out, 0, rect, 0),
                    ct=in1_sender_compile_args(b, tb, out, None, len(ORDER) - 1), named=NAMES)
    receiver = kernel(kernels / "reader_bmm_tile_layout_in1_receiver_writer_padding.cpp",
                      ttnn.WriterConfigDescriptor(),
                      AFTER_FIRST,
                      rt={core: [noc[0, 0].x, noc[0, 0].y, out.buffer_address(), k * b.per_core_m * b.nt,
                                 *receiver_writer_padding(b)]
                          for k, core in enumerate(ORDER) if k},
                      ct=in1_receiver_compile_args(b, out), named=NAMES)
    semaphores = matmul_semaphores(GRID)
    run([ta, tb, out], [in0, sender, receiver, fused_compute(ops, b, GRID, [])], matmul_cbs(b, GRID, in0=ta),
        semaphores)
    want = device_arith.blocked_matmul(ttnn.to_torch(ta), ttnn.to_torch(tb), b.block_k * 32)
    assert torch.equal(ttnn.to_torch(out), want)


def test_ttnn_block_sharded_2d_multicast_matmul_kernels_run_unchanged(device, ops) -> None:
    """The 2D multicast matmul with in0 and the output block-sharded on a 2x2 grid: in0's K blocks
    are the row's shards, multicast in turn by their owners (in0_sender_receiver_padding_block_sharded);
    in1 as before; the output CB (and the partials CB sharing it) is the output's shard
    (OUT_SHARDED), bit for bit against the device arithmetic."""
    torch.manual_seed(32)
    b = Blocking(mt=4, kt=4, nt=4, gx=2, gy=2, block_k=2, sub_h=1, sub_w=2)
    a, w = torch.randn(b.mt * 32, b.kt * 32), torch.randn(b.kt * 32, b.nt * 32)
    grid = cores(0, 0, b.gx - 1, b.gy - 1)
    ta = dram(device, a, memory_config=block_sharded((b.per_core_m * 32, b.block_k * 32)))
    tb = dram(device, w)
    out = output(device, (b.mt * 32, b.nt * 32), memory_config=block_sharded((b.per_core_m * 32, b.per_core_n * 32)))
    semaphores = matmul_semaphores(grid)
    run([ta, tb, out], [in0_block_sharded_kernel(device, ops, b), *in1_mcast_kernels(device, ops, b, tb, out),
                        fused_compute(ops, b, grid, [])],
        matmul_cbs(b, grid, in0=ta, out=out), semaphores)
    want = device_arith.blocked_matmul(ttnn.to_torch(ta), ttnn.to_torch(tb), b.block_k * 32)
    assert torch.equal(ttnn.to_torch(out), want)


# ---------------------------------------------------------------- sharded tensors
SHARDED = "data_movement/sharded/device/kernels/dataflow"
def per_core(args) -> dict[tuple[int, int], list[int]]:
    """Runtime args for each core (x, y) of the 2x2 grid from ``args(x, y)``."""
    return {(x, y): list(args(x, y)) for x in range(2) for y in range(2)}


def test_ttnn_interleaved_to_sharded_kernels_run_unchanged(device, ops) -> None:
    """interleaved_to_sharded on a 2x2 grid: each core's reader_unary_sharded_blocks_interleaved_start_id.cpp
    reads its 2x2-tile block of the DRAM tensor into the CB that is its shard of the output
    (runtime args: address, block height and width in tiles, padding bytes, the tensor's width
    in tiles as the row stride, block tiles, the block's first tile; compile-time: the CB, the
    number of readers, the accessor), writer_unary_sharded.cpp hands the block over in place."""
    torch.manual_seed(41)
    x = torch.randn(128, 128)
    tx, out = dram(device, x), output(device, (128, 128), memory_config=block_sharded((64, 64)))
    reader = kernel(ops / SHARDED / "reader_unary_sharded_blocks_interleaved_start_id.cpp",
                    ttnn.ReaderConfigDescriptor(), GRID,
                    rt=per_core(lambda cx, cy: [tx.buffer_address(), 2, 2, 0, 4, 4, cy * 2 * 4 + cx * 2, 0]),
                    ct=[0, 4, *ttnn.TensorAccessorArgs(tx).get_compile_time_args()])
    writer = kernel(ops / SHARDED / "writer_unary_sharded.cpp", ttnn.WriterConfigDescriptor(), GRID, rt=[4], ct=[0])
    run([tx, out], [reader, writer], [ttnn.cb_descriptor_from_sharded_tensor(0, out)])
    assert torch.equal(ttnn.to_torch(out), ttnn.to_torch(tx))


@pytest.mark.parametrize("writer_file", ["writer_unary_sharded_blocks_interleaved_start_id.cpp",
                                         "writer_unary_sharded_blocks_start_id.cpp"])
def test_ttnn_sharded_to_interleaved_kernels_run_unchanged(device, ops, writer_file) -> None:
    """sharded_to_interleaved on a 2x2 grid: reader_unary_sharded.cpp pushes the resident shard,
    the writer stores its 2x2-tile block into the DRAM tensor (the two writers the factory
    chooses between: with the unpadded block size, or with the padding bytes per row)."""
    torch.manual_seed(42)
    x = torch.randn(128, 128)
    tx, out = dram(device, x, memory_config=block_sharded((64, 64))), output(device, (128, 128))
    if writer_file.startswith("writer_unary_sharded_blocks_interleaved"):
        args = lambda cx, cy: [out.buffer_address(), 2, 2, 2, 2, 4, 4, cy * 2 * 4 + cx * 2, 0]  # noqa: E731
    else:
        args = lambda cx, cy: [out.buffer_address(), 2, 2, 0, 4, 4, cy * 2 * 4 + cx * 2, 0]  # noqa: E731
    reader = kernel(ops / SHARDED / "reader_unary_sharded.cpp", ttnn.ReaderConfigDescriptor(), GRID, rt=[4], ct=[0])
    writer = kernel(ops / SHARDED / writer_file, ttnn.WriterConfigDescriptor(), GRID, rt=per_core(args),
                    ct=[0, *ttnn.TensorAccessorArgs(out).get_compile_time_args()])
    run([tx, out], [reader, writer], [ttnn.cb_descriptor_from_sharded_tensor(0, tx)])
    assert torch.equal(ttnn.to_torch(out), ttnn.to_torch(tx))


@pytest.mark.parametrize("writer_file", ["writer_unary_stick_layout_sharded_blocks_interleaved_start_id.cpp",
                                         "writer_unary_sharded_stick_layout_start_id.cpp"])
def test_ttnn_sharded_to_interleaved_stick_kernels_run_unchanged(device, ops, writer_file) -> None:
    """sharded_to_interleaved of a row-major tensor: reader_unary_sharded.cpp pushes the shard's
    rows; the block writer stores each 32x32 block's rows into the rows of the DRAM tensor at the
    block's byte offset (block-sharded), the stick writer whole rows (height-sharded, one page per
    row, so the row stride is one page)."""
    torch.manual_seed(43)
    x = torch.randn(64, 64)
    row_major = ttnn.ROW_MAJOR_LAYOUT
    out = output(device, (64, 64), layout=row_major)
    if writer_file.startswith("writer_unary_stick_layout_sharded_blocks"):
        tx = dram(device, x, layout=row_major, memory_config=block_sharded((32, 32)))
        rows, args = 32, lambda cx, cy: [out.buffer_address(), 0, 32, 64, 64, cx * 64, cy * 32]  # noqa: E731
    else:
        tx = dram(device, x, layout=row_major, memory_config=height_sharded((16, 64)))
        rows = 16
        args = lambda cx, cy: [out.buffer_address(), 16, 128, 128, ORDER.index((cx, cy)) * 16, 1]  # noqa: E731
    reader = kernel(ops / SHARDED / "reader_unary_sharded.cpp", ttnn.ReaderConfigDescriptor(), GRID, rt=[rows],
                    ct=[0])
    writer = kernel(ops / SHARDED / writer_file, ttnn.WriterConfigDescriptor(), GRID, rt=per_core(args),
                    ct=[0, *ttnn.TensorAccessorArgs(out).get_compile_time_args()])
    run([tx, out], [reader, writer], [ttnn.cb_descriptor_from_sharded_tensor(0, tx)])
    assert torch.equal(ttnn.to_torch(out), ttnn.to_torch(tx))


@pytest.mark.parametrize("op,kind,golden", [("add_tiles", "ELWADD", "add"),
                                            pytest.param("mul_tiles", "ELWMUL", "mul", marks=pytest.mark.slow)])
def test_ttnn_eltwise_binary_sharded_kernels_run_unchanged(device, ops, op, kind, golden) -> None:
    """The binary op with its first input and its output block-sharded on a 2x2 grid: the binary
    reader with IN0_SHARDED pushes the resident shard and reads the second input's block from DRAM
    tile by tile (compile-time arg 0: block or width sharded; runtime args: the block's first tile,
    height, width and the shards along the width), eltwise_binary_kernel.cpp packs into the
    output's shard, writer_unary_sharded.cpp hands it over."""
    torch.manual_seed(44)
    a, b = torch.randn(128, 128), torch.randn(128, 128)
    config = block_sharded((64, 64))
    ta, tb = dram(device, a, memory_config=config), dram(device, b)
    out = output(device, (128, 128), memory_config=config)
    reader = kernel(ops / "eltwise/binary/device/kernels/dataflow/reader_binary_interleaved_start_id.cpp",
                    ttnn.ReaderConfigDescriptor(), GRID,
                    rt=per_core(lambda cx, cy: [0, tb.buffer_address(), 4, cy * 2 * 4 + cx * 2, 2, 2, 2]),
                    ct=[1, *ttnn.TensorAccessorArgs(tb).get_compile_time_args()], defines=[("IN0_SHARDED", "1")])
    compute = kernel(ops / "eltwise/binary/device/kernels/compute/eltwise_binary_kernel.cpp",
                     ttnn.ComputeConfigDescriptor(), GRID, rt=[4, 1],
                     defines=[("ELTWISE_OP", op), ("ELTWISE_OP_TYPE", f"EltwiseBinaryType::{kind}")])
    writer = kernel(ops / SHARDED / "writer_unary_sharded.cpp", ttnn.WriterConfigDescriptor(), GRID, rt=[4], ct=[2])
    run([ta, tb, out], [reader, compute, writer],
        [ttnn.cb_descriptor_from_sharded_tensor(0, ta), cb(1, core_ranges=GRID),
         ttnn.cb_descriptor_from_sharded_tensor(2, out)])
    dst = device_arith.eltwise(golden, ttnn.to_torch(ta).float(), ttnn.to_torch(tb).float(), 4, fp32_dst=False)
    assert torch.equal(ttnn.to_torch(out), device_arith.pack_bf16(dst))


def test_ttnn_transpose_wh_sharded_kernels_run_unchanged(device, ops) -> None:
    """The transpose op on a height-sharded tensor: reader_unary_sharded.cpp pushes the resident
    shard (one batch of 2x3 tiles per core of the 2x2 grid), transpose_wh_sharded.cpp transposes
    its tiles in column order into the output's shard (runtime args: tiles, tiles per batch,
    batches, Ht, Wt; compile-time: the two CBs), writer_unary_sharded.cpp hands it over."""
    torch.manual_seed(45)
    n, ht, wt = 4, 2, 3
    x = torch.randn(n, ht * 32, wt * 32)
    tx = dram(device, x, memory_config=height_sharded((ht * 32, wt * 32)))
    out = output(device, (n, wt * 32, ht * 32), memory_config=height_sharded((wt * 32, ht * 32)))
    tiles = ht * wt
    reader = kernel(ops / SHARDED / "reader_unary_sharded.cpp", ttnn.ReaderConfigDescriptor(), GRID, rt=[tiles],
                    ct=[0])
    compute = kernel(ops / "data_movement/transpose/device/kernels/compute/transpose_wh_sharded.cpp",
                     ttnn.ComputeConfigDescriptor(), GRID, rt=[tiles, tiles, 1, ht, wt], ct=[0, 16])
    writer = kernel(ops / SHARDED / "writer_unary_sharded.cpp", ttnn.WriterConfigDescriptor(), GRID, rt=[tiles],
                    ct=[16])
    run([tx, out], [reader, compute, writer],
        [ttnn.cb_descriptor_from_sharded_tensor(0, tx), ttnn.cb_descriptor_from_sharded_tensor(16, out)])
    assert torch.equal(ttnn.to_torch(out), ttnn.to_torch(tx).transpose(-1, -2))


def test_ttnn_block_sharded_concat_kernel_runs_unchanged(device, ops) -> None:
    """concat along the width of two block-sharded row-major tensors into a block-sharded output
    on the 2x2 grid: on each core reader_writer_block_sharded_concat.cpp copies, row by row over
    the NoC, the shards of its output columns from the cores that hold them (runtime args per
    transfer: the source core's NoC x/y, its CB, offset and row stride, the destination offset and
    row stride, bytes per row, rows). Output column block 0 is the first input, block 1 the second."""
    torch.manual_seed(46)
    a, b = torch.randn(64, 64), torch.randn(64, 64)
    row_major = ttnn.ROW_MAJOR_LAYOUT
    ta = dram(device, a, layout=row_major, memory_config=block_sharded((32, 32)))
    tb = dram(device, b, layout=row_major, memory_config=block_sharded((32, 32)))
    out = output(device, (64, 128), layout=row_major, memory_config=block_sharded((32, 64)))
    shard_row, out_row = 32 * 2, 64 * 2

    def transfers(x: int, y: int) -> list[int]:
        args = [2]
        for column in range(2):
            src = device.worker_core_from_logical_core(ttnn.CoreCoord(column, y))
            args += [src.x, src.y, x, 0, shard_row, column * shard_row, out_row, shard_row, 32]
        return args

    concat = kernel(ops / "data_movement/concat/device/kernels/dataflow/reader_writer_block_sharded_concat.cpp",
                    ttnn.ReaderConfigDescriptor(), GRID, rt=per_core(transfers), ct=[2])
    run([ta, tb, out], [concat], [ttnn.cb_descriptor_from_sharded_tensor(0, ta),
                                  ttnn.cb_descriptor_from_sharded_tensor(1, tb),
                                  ttnn.cb_descriptor_from_sharded_tensor(2, out)])
    assert torch.equal(ttnn.to_torch(out), torch.cat([ttnn.to_torch(ta), ttnn.to_torch(tb)], dim=1))


def test_ttnn_transpose_hc_sharded_rm_kernel_runs_unchanged(device, ops) -> None:
    """The HC transpose of a height-sharded row-major [1, C, H, W] tensor on the 2x2 grid:
    reader_unary_transpose_hc_sharded_rm.cpp gathers each output stick (n, h, c) from the core whose
    shard holds input stick (n, c, h), over the NoC, into the output's shard (compile-time args:
    the CBs, N, H, C, the stick bytes, row-major shard order, the grid's size; runtime args: sticks
    per core, the first output stick's input index and its c, h, n, then the NoC x of each grid
    column and y of each grid row); writer_unary_sharded.cpp hands the shard over."""
    torch.manual_seed(47)
    n, c, h, w = 1, 4, 8, 32
    x = torch.randn(n, c, h, w)
    row_major = ttnn.ROW_MAJOR_LAYOUT
    per_core_sticks = n * c * h // 4
    height = height_sharded((per_core_sticks, w))
    tx = dram(device, x, layout=row_major, memory_config=height)
    out = output(device, (n, h, c, w), layout=row_major, memory_config=height)
    noc_x = [device.worker_core_from_logical_core(ttnn.CoreCoord(i, 0)).x for i in range(2)]
    noc_y = [device.worker_core_from_logical_core(ttnn.CoreCoord(0, j)).y for j in range(2)]

    def first_stick(cx: int, cy: int) -> list[int]:
        o = ORDER.index((cx, cy)) * per_core_sticks
        sn, sh, sc = o // (h * c), (o // c) % h, o % c
        return [per_core_sticks, sn * c * h + sc * h + sh, sc, sh, sn, *noc_x, *noc_y]

    reader = kernel(ops / "data_movement/transpose/device/kernels/dataflow/reader_unary_transpose_hc_sharded_rm.cpp",
                    ttnn.ReaderConfigDescriptor(), GRID, rt=per_core(first_stick),
                    ct=[0, 16, n, h, c, w * 2, 1, 2, 2])
    writer = kernel(ops / SHARDED / "writer_unary_sharded.cpp", ttnn.WriterConfigDescriptor(), GRID,
                    rt=[per_core_sticks], ct=[16])
    run([tx, out], [reader, writer],
        [ttnn.cb_descriptor_from_sharded_tensor(0, tx), ttnn.cb_descriptor_from_sharded_tensor(16, out)])
    assert torch.equal(ttnn.to_torch(out), ttnn.to_torch(tx).permute(0, 2, 1, 3))


def test_ttnn_roll_sharded_reader_runs_unchanged(device, ops) -> None:
    """roll along the height of a height-sharded row-major tensor on the 2x2 grid (16 rows per
    core, shift 5): on each core roll_sharded_reader.cpp (L1 mode) gathers its output rows from the
    cores that hold them, row by row over the NoC into the two halves of a scratch CB (reads padded
    to the L1 alignment), and copies each into the output's shard (runtime args per transfer: the
    source core's NoC x/y, its CB, source and destination byte offsets, bytes, strides, rows)."""
    torch.manual_seed(48)
    rows, cols, shift, shard_rows = 64, 32, 5, 16
    x = torch.randn(rows, cols)
    row_major, row_bytes = ttnn.ROW_MAJOR_LAYOUT, cols * 2
    height = height_sharded((shard_rows, cols))
    tx = dram(device, x, layout=row_major, memory_config=height)
    out = output(device, (rows, cols), layout=row_major, memory_config=height)

    def transfers(cx: int, cy: int) -> list[int]:
        first = (ORDER.index((cx, cy)) * shard_rows - shift) % rows  # input row of the core's first output row
        args, done = [0], 0
        while done < shard_rows:
            source, offset = divmod((first + done) % rows, shard_rows)
            count = min(shard_rows - offset, shard_rows - done)
            src = device.worker_core_from_logical_core(ttnn.CoreCoord(*ORDER[source]))
            args += [src.x, src.y, 0, offset * row_bytes, done * row_bytes, row_bytes, row_bytes, row_bytes, count]
            args[0] += 1
            done += count
        return args

    scratch_half = 128
    reader = kernel(ops / "data_movement/roll/device/kernels/dataflow/roll_sharded_reader.cpp",
                    ttnn.ReaderConfigDescriptor(), GRID, rt=per_core(transfers),
                    ct=[16, 1, 16, scratch_half, 0, 0, 0, 0, 0])
    run([tx, out], [reader], [ttnn.cb_descriptor_from_sharded_tensor(0, tx),
                              cb(1, pages=2, core_ranges=GRID, page_size=scratch_half),
                              ttnn.cb_descriptor_from_sharded_tensor(16, out)])
    assert torch.equal(ttnn.to_torch(out), torch.roll(ttnn.to_torch(tx), shift, dims=0))


def test_ttnn_transpose_hc_sharded_rm_special_case_kernels_run_unchanged(device, ops) -> None:
    """The HC transpose's special case (USE_SPECIAL_CASE: the input sharded one channel per core),
    its work split between reader_unary_transpose_hc_sharded_rm.cpp and writer_unary_transpose_hc_sharded_rm.cpp:
    output core k holds h = 2k and 2k+1 for every channel; the reader gathers h = 2k (one stick from
    each channel's core), the writer h = 2k+1, one stick further in the sources and four further in
    the output (runtime args: one h block per kernel, sticks per source, the sources, the source
    stride, then the writer's source and destination offsets, each source's offset and NoC x/y)."""
    torch.manual_seed(49)
    c, h, w = 4, 8, 32
    x = torch.randn(1, c, h, w)
    row_major, stick = ttnn.ROW_MAJOR_LAYOUT, w * 2
    height = height_sharded((h, w))
    tx = dram(device, x, layout=row_major, memory_config=height)
    out = output(device, (1, h, c, w), layout=row_major, memory_config=height)
    sources = [device.worker_core_from_logical_core(ttnn.CoreCoord(*core)) for core in ORDER]

    def gather(extra: list[int]):
        def args(cx: int, cy: int) -> list[int]:
            first_h = 2 * ORDER.index((cx, cy))
            return [0, 1, 1, c, stick, *extra, *[first_h * stick] * c, *(s.x for s in sources), *(s.y for s in sources)]
        return args

    transpose = ops / "data_movement/transpose/device/kernels/dataflow"
    defines = [("USE_SPECIAL_CASE", "1")]
    reader = kernel(transpose / "reader_unary_transpose_hc_sharded_rm.cpp", ttnn.ReaderConfigDescriptor(), GRID,
                    rt=per_core(gather([])), ct=[0, 16, stick], defines=defines)
    writer = kernel(transpose / "writer_unary_transpose_hc_sharded_rm.cpp", ttnn.WriterConfigDescriptor(), GRID,
                    rt=per_core(gather([stick, c * stick])), ct=[0, 16, stick], defines=defines)
    run([tx, out], [reader, writer],
        [ttnn.cb_descriptor_from_sharded_tensor(0, tx), ttnn.cb_descriptor_from_sharded_tensor(16, out)])
    assert torch.equal(ttnn.to_torch(out), ttnn.to_torch(tx).permute(0, 2, 1, 3))
