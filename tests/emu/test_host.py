"""The host side: generic_op with the 0.81.1 descriptors, the host helpers, and the descriptor
mistakes that are clear errors before anything compiles or runs."""

from __future__ import annotations

import pytest
import torch

import tilecraft.ttnn as ttnn
from tests.emu.harness import KERNELS, ONE, cb, compute, cores, dram, kernel, output, reader, run, writer
from tilecraft.diagnostics import KernelError
from tilecraft.ttnn import generic


def copy_kernels(a, out, tiles, grid=ONE):
    return [reader(a, 0, tiles, core_ranges=grid), writer(out, 0, tiles, core_ranges=grid)]


def host_error(fn) -> "object":
    with pytest.raises(KernelError) as info:
        fn()
    diag = info.value.diagnostic
    # at the line outside tilecraft that made the generic_op call (the helpers' run is tilecraft's own)
    assert diag.span is not None and diag.span.file.endswith("test_host.py"), diag.render()
    return diag


# ----------------------------------------------------------------------------- mistakes caught before running

def test_wrong_cb_index(device) -> None:
    a, out = dram(device, torch.randn(32, 32)), output(device, (32, 32))
    diag = host_error(lambda: run([a, out], copy_kernels(a, out, 1), [cb(32)]))
    assert diag.code == "E5101"
    assert diag.message == "CB index 32 is out of range: wormhole_b0 has CB indices 0..31"


@pytest.mark.parametrize("arch", ["wormhole_b0", "blackhole"])
def test_cb_index_limit_is_the_archs(arch: str) -> None:
    """The first index beyond the architecture's count of circular buffers (tilecraft/arch, the
    count the language's E0410 checks too) is E5101; every index below it is accepted."""
    from tilecraft import session
    from tilecraft.arch import get as get_arch
    count = get_arch(arch).circular_buffers
    with session.using(arch=arch):
        device = ttnn.open_device(0)
        try:
            a, out = dram(device, torch.randn(32, 32)), output(device, (32, 32))
            diag = host_error(lambda: run([a, out], copy_kernels(a, out, 1), [cb(0), cb(count)]))
            assert diag.code == "E5101" and diag.message == (f"CB index {count} is out of range: {arch} has CB "
                                                             f"indices 0..{count - 1}")
            run([a, out], copy_kernels(a, out, 1), [cb(0), cb(count - 1)])
            assert torch.equal(ttnn.to_torch(out), ttnn.to_torch(a))
        finally:
            ttnn.close_device(device)


def test_core_range_outside_the_grid(device) -> None:
    a, out = dram(device, torch.randn(32, 32)), output(device, (32, 32))
    far = cores(0, 0, 8, 0)
    diag = host_error(lambda: run([a, out], copy_kernels(a, out, 1, far), [cb(0, core_ranges=far)]))
    assert diag.code == "E5102"
    assert diag.message.endswith("runs on core (8, 0), outside the 8x8 compute grid of wormhole_b0")


def test_cb_outside_the_grid(device) -> None:
    a, out = dram(device, torch.randn(32, 32)), output(device, (32, 32))
    diag = host_error(lambda: run([a, out], copy_kernels(a, out, 1), [cb(0), cb(1, core_ranges=cores(0, 8, 0, 8))]))
    assert diag.code == "E5102" and diag.message == "a CBDescriptor covers core (0, 8), outside the 8x8 compute grid"


def test_missing_runtime_args(device) -> None:
    a, out = dram(device, torch.randn(64, 32)), output(device, (64, 32))
    grid = cores(0, 0, 1, 0)
    k = kernel(KERNELS / "reader_tiles.cpp", ttnn.ReaderConfigDescriptor(), grid,
               rt={(0, 0): [a.buffer_address(), 1, 0]}, ct=[0, *ttnn.TensorAccessorArgs(a).get_compile_time_args()])
    diag = host_error(lambda: run([a, out], [k], [cb(0, core_ranges=grid)]))
    assert diag.code == "E5103"
    assert diag.message == ("kernel tests/emu/kernels/reader_tiles.cpp: no runtime args for core (1, 0) (1 of its 2 "
                            "cores have none; core (0, 0) has 3)")


def test_runtime_args_for_a_core_the_kernel_does_not_run_on(device) -> None:
    a, out = dram(device, torch.randn(32, 32)), output(device, (32, 32))
    k = kernel(KERNELS / "reader_tiles.cpp", ttnn.ReaderConfigDescriptor(), ONE,
               rt={(0, 0): [a.buffer_address(), 1, 0], (3, 3): [0, 0, 0]})
    diag = host_error(lambda: run([a, out], [k], [cb(0)]))
    assert diag.code == "E5113" and "runtime args are set for core (3, 3)" in diag.message


def test_runtime_arg_that_is_not_a_word(device) -> None:
    a, out = dram(device, torch.randn(32, 32)), output(device, (32, 32))
    k = kernel(KERNELS / "reader_tiles.cpp", ttnn.ReaderConfigDescriptor(), ONE, rt=[a.buffer_address(), 1.5, 0])
    diag = host_error(lambda: run([a, out], [k], [cb(0)]))
    assert diag.code == "E5114" and "hold 1.5, not a 32-bit integer" in diag.message


def test_two_kernels_on_one_risc(device) -> None:
    a, out = dram(device, torch.randn(32, 32)), output(device, (32, 32))
    diag = host_error(lambda: run([a, out], [reader(a, 0, 1), reader(a, 0, 1)], [cb(0)]))
    assert diag.code == "E5105" and diag.message.endswith("both run on RISCV_1 (NCRISC) of core (0, 0)"), diag.message


def test_cb_configured_twice(device) -> None:
    a, out = dram(device, torch.randn(32, 32)), output(device, (32, 32))
    diag = host_error(lambda: run([a, out], copy_kernels(a, out, 1), [cb(0), cb(0)]))
    assert diag.code == "E5111" and diag.message == "CB index 0 is configured twice on core (0, 0)"


def test_one_kernel_may_span_cores_with_different_cb_sets(device) -> None:
    """As in ttnn: core (1, 0) has a CB the kernel's other core lacks; the kernel's tables are the
    union (the core that lacks it never touches it)."""
    values = torch.randn(64, 32)
    a, out = dram(device, values), output(device, (64, 32))
    grid = cores(0, 0, 1, 0)
    ks = [reader(a, 0, 1, 0, grid), writer(out, 0, 1, 0, grid)]
    ks[0].runtime_args[1][0] = [a.buffer_address(), 1, 1]
    ks[1].runtime_args[1][0] = [out.buffer_address(), 1, 1]
    run([a, out], ks, [cb(0, core_ranges=grid), cb(5, core_ranges=cores(1, 0, 1, 0))])
    assert torch.equal(ttnn.to_torch(out), values.bfloat16())


def test_one_cb_index_with_two_meanings_under_one_kernel(device) -> None:
    a, out = dram(device, torch.randn(64, 32)), output(device, (64, 32))
    grid = cores(0, 0, 1, 0)
    diag = host_error(lambda: run([a, out], copy_kernels(a, out, 1, grid),
                                  [cb(0, core_ranges=cores(0, 0, 0, 0)),
                                   cb(0, ttnn.float32, core_ranges=cores(1, 0, 1, 0))]))
    assert diag.code == "E5107"
    assert diag.message.endswith("CB 0 is configured differently on cores (0, 0) and (1, 0) (Float16_b, 2048-byte "
                                 "tiles against Float32, 4096-byte tiles); one kernel binary serves all its cores")


def test_cb_size_not_whole_pages(device) -> None:
    a, out = dram(device, torch.randn(32, 32)), output(device, (32, 32))
    fmt = ttnn.CBFormatDescriptor(buffer_index=0, data_format=ttnn.bfloat16, page_size=2048)
    bad = ttnn.CBDescriptor(total_size=3000, core_ranges=ONE, format_descriptors=[fmt])
    diag = host_error(lambda: run([a, out], copy_kernels(a, out, 1), [bad]))
    assert diag.code == "E5110" and "total_size 3000 is not a whole number of 2048-byte pages" in diag.message


def test_cbs_that_do_not_fit_l1(device) -> None:
    a, out = dram(device, torch.randn(32, 32)), output(device, (32, 32))
    diag = host_error(lambda: run([a, out], copy_kernels(a, out, 1), [cb(0, pages=1000)]))
    assert diag.code == "E5106" and "circular buffers need L1 up to" in diag.message


def test_semaphore_id_out_of_range(device) -> None:
    a, out = dram(device, torch.randn(32, 32)), output(device, (32, 32))
    diag = host_error(lambda: run([a, out], copy_kernels(a, out, 1), [cb(0)],
                                  [ttnn.SemaphoreDescriptor(id=16, core_ranges=ONE)]))
    assert diag.code == "E5112" and diag.message == "semaphore id 16 is out of range 0..15"


def test_kernel_file_that_does_not_exist(device) -> None:
    a, out = dram(device, torch.randn(32, 32)), output(device, (32, 32))
    k = kernel(KERNELS / "no_such_kernel.cpp", ttnn.ReaderConfigDescriptor())
    diag = host_error(lambda: run([a, out], [k], [cb(0)]))
    assert diag.code == "E5108" and "no_such_kernel.cpp' does not exist" in diag.message


def test_kernel_without_config(device) -> None:
    a, out = dram(device, torch.randn(32, 32)), output(device, (32, 32))
    k = kernel(KERNELS / "reader_tiles.cpp", None)
    diag = host_error(lambda: run([a, out], [k], [cb(0)]))
    assert diag.code == "E5115"


def test_io_tensor_on_the_host(device) -> None:
    a, out = dram(device, torch.randn(32, 32)), output(device, (32, 32))
    host = ttnn.from_torch(torch.randn(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
    diag = host_error(lambda: run([host, out], copy_kernels(a, out, 1), [cb(0)]))
    assert diag.code == "E5109" and diag.message == "io_tensors[0] is on the host: generic_op needs device tensors"


def test_io_tensors_on_two_devices(device) -> None:
    """Each open_device allocates on its own: a second device's buffer sits at the same address."""
    a, out = dram(device, torch.randn(32, 32)), output(device, (32, 32))
    again = ttnn.open_device(0)
    other = ttnn.from_torch(torch.randn(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=again)
    assert other.buffer_address() == a.buffer_address()
    diag = host_error(lambda: run([a, other, out], copy_kernels(a, out, 1), [cb(0)]))
    assert diag.code == "E5109"
    assert diag.message == ("io_tensors[1] is on a device of another ttnn.open_device(0) call than io_tensors[0]: "
                            "generic_op runs on one device and needs every io tensor there")
    third = ttnn.from_torch(torch.randn(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT,
                            device=ttnn.open_device(1))
    diag = host_error(lambda: run([a, out, third], copy_kernels(a, out, 1), [cb(0)]))
    assert diag.message.startswith("io_tensors[2] is on Device(id=1, arch=wormhole_b0), io_tensors[0] on "
                                   "Device(id=0, arch=wormhole_b0)")


def test_nothing_compiles_when_the_descriptor_is_wrong(device, monkeypatch) -> None:
    from tilecraft.emu import build
    monkeypatch.setattr(build, "compile_all", lambda builds: pytest.fail("compiled a bad program"))
    a, out = dram(device, torch.randn(32, 32)), output(device, (32, 32))
    with pytest.raises(KernelError):
        run([a, out], copy_kernels(a, out, 1), [cb(40)])


# ----------------------------------------------------------------------------- descriptors and helpers

def test_runtime_args_as_a_list_of_core_and_args(device) -> None:
    values = torch.randn(64, 32)
    a, out = dram(device, values), output(device, (64, 32))
    grid = cores(0, 0, 1, 0)
    specs = []
    for path, t, config in ((KERNELS / "reader_tiles.cpp", a, ttnn.ReaderConfigDescriptor()),
                            (KERNELS / "writer_tiles.cpp", out, ttnn.WriterConfigDescriptor())):
        rt = [(ttnn.CoreCoord(x, 0), [t.buffer_address(), 1, x]) for x in (0, 1)]
        specs.append(ttnn.KernelDescriptor(kernel_source=str(path), core_ranges=grid,
                                           compile_time_args=[0, *ttnn.TensorAccessorArgs(t).get_compile_time_args()],
                                           runtime_args=rt, config=config))
    run([a, out], specs, [cb(0, core_ranges=grid)])
    assert torch.equal(ttnn.to_torch(out), values.bfloat16())


def test_source_code_kernels(device) -> None:
    values = torch.randn(32, 64)
    a, out = dram(device, values), output(device, (32, 64))
    ks = copy_kernels(a, out, 2)
    for k in ks:
        k.kernel_source = open(k.kernel_source).read()
        k.source_type = ttnn.KernelDescriptor.SourceType.SOURCE_CODE
    run([a, out], ks, [cb(0)])
    assert torch.equal(ttnn.to_torch(out), values.bfloat16())


def test_data_movement_config_with_processor_and_noc(device) -> None:
    values = torch.randn(32, 32)
    a, out = dram(device, values), output(device, (32, 32))
    r, w = copy_kernels(a, out, 1)
    r.config = ttnn.DataMovementConfigDescriptor(processor=ttnn.DataMovementProcessor.RISCV_0, noc=ttnn.NOC.RISCV_0_default)
    w.config = ttnn.DataMovementConfigDescriptor(processor=ttnn.DataMovementProcessor.RISCV_1, noc=ttnn.NOC.RISCV_1_default)
    run([a, out], [r, w], [cb(0)])
    assert torch.equal(ttnn.to_torch(out), values.bfloat16())


@pytest.mark.parametrize("units,row_wise,expected", [
    (64, False, (64, [((0, 0), (7, 7))], [((0, 0), (7, 7))], [], 1, 0)),
    (10, False, (10, [((0, 0), (0, 7)), ((1, 0), (1, 1))], [((0, 0), (0, 7)), ((1, 0), (1, 1))], [], 1, 0)),
    (10, True, (10, [((0, 0), (7, 0)), ((0, 1), (1, 1))], [((0, 0), (7, 0)), ((0, 1), (1, 1))], [], 1, 0)),
    (70, True, (64, [((0, 0), (7, 7))], [((0, 0), (5, 0))], [((6, 0), (7, 0)), ((0, 1), (7, 7))], 2, 1)),
])
def test_split_work_to_cores(units, row_wise, expected) -> None:
    got = ttnn.split_work_to_cores(ttnn.CoreCoord(8, 8), units, row_wise)
    n, all_cores, g1, g2, u1, u2 = got
    as_pairs = lambda s: sorted(((r.start.x, r.start.y), (r.end.x, r.end.y)) for r in s.ranges())
    cover = lambda s: sorted((c.x, c.y) for c in ttnn.corerange_to_cores(s))
    want_n, want_all, want_g1, want_g2, want_u1, want_u2 = expected
    assert (n, u1, u2) == (want_n, want_u1, want_u2)
    expand = lambda pairs: sorted((x, y) for (x0, y0), (x1, y1) in pairs for x in range(x0, x1 + 1)
                                  for y in range(y0, y1 + 1))
    assert cover(all_cores) == expand(want_all)
    assert cover(g1) == expand(want_g1) and cover(g2) == expand(want_g2)
    assert sum(len(ttnn.corerange_to_cores(g)) * u for g, u in ((g1, u1), (g2, u2))) == units
    assert as_pairs(all_cores)  # merged into rectangles


def test_num_cores_to_corerangeset() -> None:
    s = ttnn.num_cores_to_corerangeset(11, ttnn.CoreCoord(4, 4), row_wise=True)
    assert sorted((c.x, c.y) for c in ttnn.corerange_to_cores(s)) == sorted(
        [(x, y) for y in range(2) for x in range(4)] + [(0, 2), (1, 2), (2, 2)])
    s = ttnn.num_cores_to_corerangeset(5, ttnn.CoreCoord(4, 4))
    assert sorted((c.x, c.y) for c in ttnn.corerange_to_cores(s)) == [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0)]


def test_tensor_accessor_args(device) -> None:
    a = dram(device, torch.randn(32, 32))
    assert ttnn.TensorAccessorArgs(a).get_compile_time_args() == [2, 2048]
    b = dram(device, torch.randn(32, 32), memory_config=ttnn.L1_MEMORY_CONFIG)
    assert ttnn.TensorAccessorArgs(b).get_compile_time_args() == [0, 2048]
    rows = dram(device, torch.randn(4, 40), layout=ttnn.ROW_MAJOR_LAYOUT)
    assert ttnn.TensorAccessorArgs(rows).get_compile_time_args() == [2, 96]  # 80 bytes, DRAM-aligned to 32 (Wormhole)


def test_sharded_cb_aliases_the_shard(device) -> None:
    values = torch.randn(64, 32)
    grid = cores(0, 0, 1, 0)
    spec = ttnn.ShardSpec(grid, (32, 32), ttnn.ShardOrientation.ROW_MAJOR)
    config = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1, spec)
    a = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device, memory_config=config)
    out = output(device, (64, 32))
    shard = ttnn.cb_descriptor_from_sharded_tensor(0, a)
    assert shard.total_size == 2048 and shard.buffer is a
    write = kernel(KERNELS / "writer_tiles.cpp", ttnn.WriterConfigDescriptor(), grid,
                   rt={(x, 0): [out.buffer_address(), 1, x] for x in (0, 1)},
                   ct=[0, *ttnn.TensorAccessorArgs(out).get_compile_time_args()])
    push = ttnn.KernelDescriptor(kernel_source='#include "api/dataflow/dataflow_api.h"\n'
                                 "void kernel_main() { cb_reserve_back(0, 1); cb_push_back(0, 1); }\n",
                                 source_type=ttnn.KernelDescriptor.SourceType.SOURCE_CODE, core_ranges=grid,
                                 config=ttnn.ReaderConfigDescriptor())
    run([a, out], [push, write], [shard])
    assert torch.equal(ttnn.to_torch(out), values.bfloat16())
