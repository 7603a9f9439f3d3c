"""The data-movement API on the emulator: arguments, circular buffers, NoC reads/writes
(interleaved DRAM and L1, core to core, multicast), semaphores, debug prints.

Data movement is exact: every copy must give back the input bit for bit, in every format."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

import tilecraft.ttnn as ttnn
from tilecraft.cli import main
from tilecraft.diagnostics import DiagnosticWarning, KernelError
from tests.emu.harness import (KERNELS, ONE, cb, compute, cores, dram, kernel, output, reader, run, write_kernel,
                               writer)


def copy_program(device, values: torch.Tensor, dtype, layout=ttnn.TILE_LAYOUT, memory=ttnn.DRAM_MEMORY_CONFIG):
    src = dram(device, values, dtype, layout, memory)
    dst = output(device, values.shape, dtype, layout, memory)
    tiled = layout is ttnn.TILE_LAYOUT
    pages = values.numel() // 1024 if tiled else values.numel() // values.shape[-1]
    page = dtype.tile_bytes if tiled else values.shape[-1] * dtype.element_bits // 8
    run([src, dst], [reader(src, 0, pages), writer(dst, 0, pages)], [cb(0, dtype, 2, page_size=page)])
    return src, dst


@pytest.mark.parametrize("dtype", [ttnn.bfloat16, ttnn.float32, ttnn.bfloat8_b, ttnn.bfloat4_b, ttnn.int32,
                                   ttnn.uint32, ttnn.uint16], ids=lambda d: d.name)
def test_tile_copy_through_l1_is_exact(device, dtype) -> None:
    torch.manual_seed(0)
    values = torch.randint(-1000, 1000, (2, 64, 96)) if dtype.is_integer else torch.randn(2, 64, 96) * 100
    if dtype is ttnn.uint32 or dtype is ttnn.uint16:
        values = values.abs()
    src, dst = copy_program(device, values, dtype)
    assert torch.equal(src.storage, dst.storage)


@pytest.mark.parametrize("dtype", [ttnn.bfloat16, ttnn.float32, ttnn.int32], ids=lambda d: d.name)
def test_row_major_pages_copy_exactly(device, dtype) -> None:
    values = torch.arange(6 * 48).reshape(6, 48).to(torch.float32) * 1.5
    src, dst = copy_program(device, values, dtype, ttnn.ROW_MAJOR_LAYOUT)
    assert torch.equal(src.storage, dst.storage)


def test_l1_interleaved_tensors_copy_exactly(device) -> None:
    values = torch.randn(128, 160)
    src, dst = copy_program(device, values, ttnn.bfloat16, memory=ttnn.L1_MEMORY_CONFIG)
    assert torch.equal(src.storage, dst.storage)
    assert src.buffer_address() > 1024 * 1024  # L1 tensors are placed from the top down


ARGS = """
#include <cstdint>
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t addr = get_arg_val<uint32_t>(0);
    cb_reserve_back(0, 1);
    volatile tt_l1_ptr uint32_t* page = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_write_ptr(0));
    page[0] = get_arg_val<uint32_t>(1);
    page[1] = get_common_arg_val<uint32_t>(0);
    page[2] = get_compile_time_arg_val(0);
    page[3] = get_named_compile_time_arg_val("answer");
    page[4] = DEFINED_VALUE;
    page[5] = my_x[noc_index];
    page[6] = my_y[noc_index];
    page[7] = get_absolute_logical_x() * 10 + get_absolute_logical_y();
    page[8] = get_tile_size(0);
    page[9] = static_cast<uint32_t>(get_dataformat(0));
    page[10] = noc_index;
    const auto out = TensorAccessor(TensorAccessorArgs<1>(), addr);
    const uint32_t row = get_absolute_logical_x() + 2 * get_absolute_logical_y();
    noc_async_write_page(row, out, get_write_ptr(0));
    noc_async_write_barrier();
}
"""


def test_arguments_defines_and_identity(device, tmp_path: Path) -> None:
    out = output(device, (4, 16), ttnn.uint32, ttnn.ROW_MAJOR_LAYOUT)
    path = write_kernel(tmp_path, "args.cpp", ARGS)
    grid = cores(0, 0, 1, 1)
    rt = {(x, y): [out.buffer_address(), 100 + x + 2 * y] for x in range(2) for y in range(2)}
    k = kernel(path, ttnn.WriterConfigDescriptor(), grid, rt=rt, common=[7],
               ct=[42, *ttnn.TensorAccessorArgs(out).get_compile_time_args()], named=[("answer", 5)],
               defines=[("DEFINED_VALUE", "(3 * 3)")])
    run([out], [k], [cb(0, ttnn.uint32, 1, grid, page_size=64)])
    got = ttnn.to_torch(out)
    for x in range(2):
        for y in range(2):
            row = got[x + 2 * y].tolist()
            noc = device.worker_core_from_logical_core(ttnn.CoreCoord(x, y))
            assert row[:11] == [100 + x + 2 * y, 7, 42, 5, 9, noc.x, noc.y, 10 * x + y, 4096, 24, 0]


PING = """
#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// Core (0, 0) multicasts one tile to every core of the grid (itself included) and then sets
// their `arrived` semaphore; each core answers with an increment of the sender's `acks`
// semaphore and writes what it received to its own tile of the output.
void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t dst_addr = get_arg_val<uint32_t>(1);
    const uint32_t x0 = get_arg_val<uint32_t>(2), y0 = get_arg_val<uint32_t>(3);
    const uint32_t x1 = get_arg_val<uint32_t>(4), y1 = get_arg_val<uint32_t>(5);
    const uint32_t n = get_arg_val<uint32_t>(6), width = get_arg_val<uint32_t>(7);
    constexpr auto src_args = TensorAccessorArgs<0>();
    constexpr auto dst_args = TensorAccessorArgs<src_args.next_compile_time_args_offset()>();
    const auto src = TensorAccessor(src_args, src_addr);
    const auto dst = TensorAccessor(dst_args, dst_addr);
    const uint32_t arrived = get_semaphore(0), acks = get_semaphore(1);
    auto* arrived_ptr = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(arrived);
    const bool sender = get_absolute_logical_x() == 0 && get_absolute_logical_y() == 0;
    cb_reserve_back(0, 1);
    const uint32_t slot = get_write_ptr(0);
    if (sender) {
        noc_async_read_page(0, src, slot);
        noc_async_read_barrier();
        noc_async_write_multicast_loopback_src(slot, get_noc_multicast_addr(x0, y0, x1, y1, slot), 2048, n);
        noc_async_write_barrier();
        noc_semaphore_set(arrived_ptr, 1);
        noc_semaphore_set_multicast_loopback_src(arrived, get_noc_multicast_addr(x0, y0, x1, y1, arrived), n);
    }
    noc_semaphore_wait(arrived_ptr, 1);
    noc_semaphore_inc(get_noc_addr(x0, y0, acks), 1);
    const uint32_t me = get_absolute_logical_x() + width * get_absolute_logical_y();
    noc_async_write_page(me, dst, slot);
    noc_async_write_barrier();
    if (sender) {
        noc_semaphore_wait_min(reinterpret_cast<volatile tt_l1_ptr uint32_t*>(acks), n);
    }
}
"""


@pytest.mark.parametrize("width,height", [(2, 2), (8, 8)])
def test_multicast_semaphores_and_increments(device, tmp_path: Path, width: int, height: int) -> None:
    """On the full 8x8 Wormhole grid the rectangle from worker (1, 1) to (9, 10) spans the DRAM
    column x = 5 and the Ethernet row y = 6: the multicast passes them over, as on the device."""
    torch.manual_seed(1)
    n = width * height
    src = dram(device, torch.randn(32, 32))
    dst = output(device, (n * 32, 32))
    grid = cores(0, 0, width - 1, height - 1)
    a, b = (device.worker_core_from_logical_core(ttnn.CoreCoord(*c)) for c in ((0, 0), (width - 1, height - 1)))
    k = kernel(write_kernel(tmp_path, "ping.cpp", PING), ttnn.WriterConfigDescriptor(), grid,
               rt=[src.buffer_address(), dst.buffer_address(), a.x, a.y, b.x, b.y, n, width],
               ct=[*ttnn.TensorAccessorArgs(src).get_compile_time_args(),
                   *ttnn.TensorAccessorArgs(dst).get_compile_time_args()])
    sems = [ttnn.SemaphoreDescriptor(id=0, core_ranges=grid, initial_value=0),
            ttnn.SemaphoreDescriptor(id=1, core_ranges=grid, initial_value=0)]
    run([src, dst], [k], [cb(0, ttnn.bfloat16, 1, grid)], sems)
    got = ttnn.to_torch(dst)
    for i in range(n):
        assert torch.equal(got[32 * i:32 * (i + 1)], ttnn.to_torch(src))


CORE_TO_CORE = """
#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// Core (1, 0) pulls the tile core (0, 0) holds in CB 0 straight out of its L1.
void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t dst_addr = get_arg_val<uint32_t>(1);
    const uint32_t owner_x = get_arg_val<uint32_t>(2), owner_y = get_arg_val<uint32_t>(3);
    const auto src = TensorAccessor(TensorAccessorArgs<0>(), src_addr);
    const auto dst = TensorAccessor(TensorAccessorArgs<2>(), dst_addr);
    auto* ready = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore(0));
    cb_reserve_back(0, 1);
    if (get_absolute_logical_x() == 0) {
        noc_async_read_page(0, src, get_write_ptr(0));
        noc_async_read_barrier();
        noc_semaphore_inc(get_noc_addr(owner_x + 1, owner_y, get_semaphore(0)), 1);
    } else {
        noc_semaphore_wait(ready, 1);
        noc_async_read(get_noc_addr(owner_x, owner_y, get_write_ptr(0)), get_write_ptr(0), 2048);
        noc_async_read_barrier();
        noc_async_write_page(0, dst, get_write_ptr(0));
        noc_async_write_barrier();
    }
}
"""


def test_read_from_another_cores_l1(device, tmp_path: Path) -> None:
    src = dram(device, torch.randn(32, 32))
    dst = output(device, (32, 32))
    grid = cores(0, 0, 1, 0)
    owner = device.worker_core_from_logical_core(ttnn.CoreCoord(0, 0))
    k = kernel(write_kernel(tmp_path, "pull.cpp", CORE_TO_CORE), ttnn.ReaderConfigDescriptor(), grid,
               rt=[src.buffer_address(), dst.buffer_address(), owner.x, owner.y],
               ct=[*ttnn.TensorAccessorArgs(src).get_compile_time_args(),
                   *ttnn.TensorAccessorArgs(dst).get_compile_time_args()])
    run([src, dst], [k], [cb(0, ttnn.bfloat16, 1, grid)], [ttnn.SemaphoreDescriptor(id=0, core_ranges=grid)])
    assert torch.equal(ttnn.to_torch(dst), ttnn.to_torch(src))


ADDRGENS = """
#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// Tile i of the input to tile i of the output through the older address generators.
void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0), dst_addr = get_arg_val<uint32_t>(1);
    const uint32_t tiles = get_arg_val<uint32_t>(2);
    const InterleavedAddrGenFast<true> src = {.bank_base_address = src_addr, .page_size = 2048,
                                              .data_format = DataFormat::Float16_b};
    const InterleavedAddrGen<true> dst = {.bank_base_address = dst_addr, .page_size = 2048};
    for (uint32_t i = 0; i < tiles; ++i) {
        cb_reserve_back(0, 1);
        noc_async_read(src.get_noc_addr(i), get_write_ptr(0), 2048);
        noc_async_read_barrier();
        noc_async_write(get_write_ptr(0), get_noc_addr(i, dst), 2048);
        noc_async_writes_flushed();
        cb_push_back(0, 1);
        cb_wait_front(0, 1);
        cb_pop_front(0, 1);
    }
    noc_async_write_barrier();
}
"""


def test_interleaved_address_generators_agree_with_the_host(device, tmp_path: Path) -> None:
    src = dram(device, torch.randn(96, 160))  # 15 pages over 12 banks: the last banks hold one
    dst = output(device, (96, 160))
    k = kernel(write_kernel(tmp_path, "addrgen.cpp", ADDRGENS), ttnn.ReaderConfigDescriptor(),
               rt=[src.buffer_address(), dst.buffer_address(), 15])
    with pytest.warns(DiagnosticWarning, match=r"E5007.*'get_noc_addr' is deprecated"):  # as in 0.81.1
        run([src, dst], [k], [cb(0, ttnn.bfloat16, 1)])
    assert torch.equal(ttnn.to_torch(dst), ttnn.to_torch(src))


DPRINT = """
#include <cstdint>
#include "api/debug/dprint.h"

void kernel_main() {
    DPRINT("tiles {} scale {} of {:.2f}, {:#06x}|{:>5}|{:<4}|{:^7}|{:+d}|{:e}\\n", get_arg_val<uint32_t>(0), 0.5f,
           2.0 / 3.0, 0xbeefu, -3, "ab", true, 7, 1e20f);
    DPRINT("{1}-{0} {{literal}}\\n", 1.0f, 123456790.0f);
    DPRINT("no newline yet, ");
    DPRINT("done\\n");
}
"""


def test_dprint_formats_like_fmt_and_tags_lines_with_core_and_risc(device, tmp_path: Path, capsys) -> None:
    """0.81.1's DPRINT is fmt-style; the kernel does not include the dataflow API (the firmware does)."""
    out = output(device, (32, 32))
    k = kernel(write_kernel(tmp_path, "print.cpp", DPRINT), ttnn.ReaderConfigDescriptor(), rt=[12])
    run([out], [k], [])
    printed = capsys.readouterr().out
    assert "core (0, 0) NCRISC: tiles 12 scale 0.5 of 0.67, 0xbeef|   -3|ab  | true  |+7|1.000000e+20\n" in printed
    assert "core (0, 0) NCRISC: 123456790-1 {literal}\n" in printed
    assert "core (0, 0) NCRISC: no newline yet, done\n" in printed


def test_a_tt_lang_print_runs_through_the_emitted_dprint(tmp_path: Path, capsys) -> None:
    """The emitter writes 0.81.1's fmt-style DPRINT; at --level cpp it prints what the language level prints."""
    script = write_kernel(tmp_path, "print_cpp.py", "import torch, ttl, ttnn\n"
                          "@ttl.operation(grid=(1, 1))\n"
                          "def op(a):\n"
                          "    @ttl.datamovement()\n"
                          "    def talk():\n"
                          "        n = ttl.node(dims=1)\n"
                          "        print('node', n, sep=':')\n"
                          "        print('x', n + 1, 0.25)\n"
                          "op(ttnn.from_torch(torch.zeros(32, 32), layout=ttnn.TILE_LAYOUT))\n")
    assert main(["run", str(script), "--level", "cpp"]) == 0
    assert capsys.readouterr().out.splitlines() == ["core (0, 0) NCRISC: node:0", "core (0, 0) NCRISC: x 1 0.25"]


def test_the_stream_form_of_dprint_was_removed(device, tmp_path: Path) -> None:
    path = write_kernel(tmp_path, "old_print.cpp", '#include "api/debug/dprint.h"\n'
                        "void kernel_main() {\n    DPRINT << 1 << ENDL();\n}\n")
    with pytest.raises(KernelError) as info:
        run([output(device, (32, 32))], [kernel(path, ttnn.ReaderConfigDescriptor())], [])
    d = info.value.diagnostic
    assert d.code == "E5003" and d.span.line == 3 and "stream form of DPRINT" in d.message, d


def test_sharded_tensor_aliased_by_a_cb(device, tmp_path: Path) -> None:
    """cb_descriptor_from_sharded_tensor: each core's shard is the CB's memory (the micro-op pattern)."""
    grid = cores(0, 0, 1, 0)
    spec = ttnn.ShardSpec(grid, (64, 32), ttnn.ShardOrientation.ROW_MAJOR)
    config = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1, spec)
    values = torch.randn(128, 32)
    src = dram(device, values, memory_config=config)
    dst = output(device, (128, 32), memory_config=config)
    push = write_kernel(tmp_path, "push.cpp", """
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
void kernel_main() { cb_reserve_back(0, 2); cb_push_back(0, 2); }
""")
    drain = write_kernel(tmp_path, "drain.cpp", """
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
void kernel_main() { cb_wait_front(16, 2); }
""")
    negate = write_kernel(tmp_path, "negate.cpp", """
#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/tile_move_copy.h"
#include "api/compute/eltwise_unary/negative.h"
void kernel_main() {
    compute_kernel_hw_startup(0, 16);
    copy_init(0);
    cb_wait_front(0, 2);
    cb_reserve_back(16, 2);
    for (uint32_t i = 0; i < 2; ++i) {
        tile_regs_acquire();
        copy_tile(0, i, 0);
        negative_tile_init();
        negative_tile(0);
        tile_regs_commit();
        tile_regs_wait();
        pack_tile(0, 16);
        tile_regs_release();
    }
    cb_push_back(16, 2);
    cb_pop_front(0, 2);
}
""")
    run([src, dst], [kernel(push, ttnn.ReaderConfigDescriptor(), grid), compute(negate, grid),
                     kernel(drain, ttnn.WriterConfigDescriptor(), grid)],
        [ttnn.cb_descriptor_from_sharded_tensor(0, src), ttnn.cb_descriptor_from_sharded_tensor(16, dst)])
    assert torch.equal(ttnn.to_torch(dst), -ttnn.to_torch(src))


def test_blackhole_interleaving_and_alignment() -> None:
    """Blackhole: 8 DRAM banks, 64-byte DRAM alignment, its own worker coordinates."""
    from tilecraft import session
    with session.using(arch="blackhole"):
        blackhole_copies()


def blackhole_copies() -> None:
    device = ttnn.open_device(0)
    try:
        values = torch.randn(96, 160)
        src, dst = copy_program(device, values, ttnn.bfloat16)
        assert torch.equal(src.storage, dst.storage)
        rows = torch.arange(5 * 96, dtype=torch.float32).reshape(5, 96)  # 192-byte pages, 64-byte aligned
        src, dst = copy_program(device, rows, ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT)
        assert torch.equal(src.storage, dst.storage)
        narrow = dram(device, torch.zeros(4, 40), layout=ttnn.ROW_MAJOR_LAYOUT)  # 80-byte pages
        assert ttnn.TensorAccessorArgs(narrow).get_compile_time_args() == [2, 128]
        assert device.worker_core_from_logical_core(ttnn.CoreCoord(0, 0)) == ttnn.CoreCoord(1, 2)
    finally:
        ttnn.close_device(device)
