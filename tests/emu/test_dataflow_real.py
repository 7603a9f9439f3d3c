"""Data-movement kernels on the real 0.81.1 dataflow API (tilecraft/emu/tensix_dataflow.py): Tenstorrent's dataflow_api.h, Noc/DataflowBuffer/Semaphore and
TensorAccessor compiled unchanged over the emulator's model of each core's NIU registers
(runtime/noc_niu.cpp), against torch goldens; and an NIU register the model does not keep is a hard
error naming it (docs/emulator.md section 12)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import torch

import tilecraft.ttnn as ttnn
from tilecraft.diagnostics import KernelError
from tilecraft.emu import tensix_dataflow, tensix_prefix, tensix_tree
from tilecraft.emu.build import KernelBuild
from tests.emu import test_object_api, test_sanitizer, test_wheel_layout
from tests.emu.harness import KERNELS, SANITIZER, cb, dram, kernel, line_of, output, run


def test_noc_async_read_tile_through_a_tensor_accessor(device, ops) -> None:
    """A reader on the classic API (noc_async_read_tile, TensorAccessor, cb_reserve_back/push_back,
    noc_async_read_barrier: NOC_CMD_CTRL reads and NIU_MST_RD_RESP_RECEIVED) on two cores hands
    its tiles through CB 0 to ttnn's unary writer (Noc, DataflowBuffer: non-posted writes and their
    acknowledgements, the stream registers holding the CB counters)."""
    torch.manual_seed(61)
    x = torch.randn(64, 128)
    src, dst = dram(device, x), output(device, (64, 128))
    grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(1, 0))])
    per_core = 4
    reader = kernel(KERNELS / "reader_tiles.cpp", ttnn.ReaderConfigDescriptor(), grid,
                    rt={(i, 0): [src.buffer_address(), per_core, i * per_core] for i in range(2)},
                    ct=[0, *ttnn.TensorAccessorArgs(src).get_compile_time_args()], defines=[("READ_TILE", "1")])
    writer = kernel(ops / "eltwise/unary/device/kernels/dataflow/writer_unary_interleaved_start_id.cpp",
                    ttnn.WriterConfigDescriptor(), grid,
                    rt={(i, 0): [dst.buffer_address(), per_core, i * per_core] for i in range(2)},
                    ct=[0, *ttnn.TensorAccessorArgs(dst).get_compile_time_args()])
    run([src, dst], [reader, writer], [cb(0, core_ranges=grid)])
    assert torch.equal(ttnn.to_torch(dst), ttnn.to_torch(src))


def test_multicast_of_a_page_and_a_semaphore(device) -> None:
    """The object API's Noc::async_write_multicast and Semaphore::set_multicast (sender included) on
    a row of three cores: multicast writes acknowledged once per destination, a multicast inline
    write of the semaphore, and the receivers' noc_semaphore_wait polling L1."""
    test_object_api.test_object_api_multicast_of_a_page_and_a_semaphore(device)


@pytest.mark.slow
def test_ttnn_move_with_overlap_semaphores_and_multicast(device, ops) -> None:
    """ttnn's move_interleaved_with_overlap.cpp on four cores: NoC atomic increments of the
    controller's semaphore, its noc_semaphore_wait, and the multicast release to two regions."""
    test_wheel_layout.test_ttnn_move_with_overlap_runs_unchanged(device, ops, ttnn.TILE_LAYOUT, "factory")


def test_an_unmodelled_niu_register_is_a_hard_error_naming_it(device) -> None:
    """A status counter the NIU model does not keep (NIU_SLV_RD_RESP_SENT, 0x32) stops the run with
    E5861 naming the counter, the NoC and the kernel: never a made-up value."""
    k = kernel(KERNELS / "dataflow_unmodelled_register.cpp", ttnn.ReaderConfigDescriptor(), rt=[])
    with pytest.raises(KernelError) as info:
        run([output(device, (32, 32))], [k], [])
    d = info.value.diagnostic
    assert d.code == "E5861", d
    assert "status counter 0x32" in d.message and "NoC 1" in d.message, d.message
    assert "kernel dataflow_unmodelled_register on the real dataflow API" in d.message, d.message


def test_a_wait_nothing_satisfies_is_a_deadlock_naming_the_call(device, ops) -> None:
    """ttnn's unary writer with no producer polls CB 0's tiles_received for ever in its
    DataflowBuffer's wait_front: the run stops with the deadlock report (E5501), whose note names the
    kernel's call (the object API's member, as the kernel writes it) and what it waits for."""
    dst = output(device, (32, 32))
    writer = kernel(ops / "eltwise/unary/device/kernels/dataflow/writer_unary_interleaved_start_id.cpp",
                    ttnn.WriterConfigDescriptor(), rt=[dst.buffer_address(), 1, 0],
                    ct=[0, *ttnn.TensorAccessorArgs(dst).get_compile_time_args()])
    with pytest.raises(KernelError) as info:
        run([dst], [writer], [cb(0)])
    d = info.value.diagnostic
    assert d.code == "E5501", d
    assert any(note.message == "core (0, 0) BRISC blocked in DataflowBuffer::wait_front: it waits for 1 pages in CB 0; 0 have "
               "been pushed and not popped" for note in d.notes), d.render()


def test_a_kernel_compiles_over_the_shared_precompiled_prefix(tmp_path: Path) -> None:
    """The firmware headers every data-movement kernel of a RISC and NoC reads come precompiled
    (tensix_prefix.py): g++ uses the prefix ('!' in -H's list) for a kernel with compile-time args
    and a define of its own, because the headers' parts that read them are left to the kernel's
    unit (tensix_tree.Deferral)."""
    source = KERNELS / "reader_tiles.cpp"
    build = KernelBuild(source=source, text=source.read_text(), display=source.name, compute=False,
                        compile_args=(0, 2, 2, 2, 2), defines=(("READ_TILE", "1"),), noc=1,
                        arch_defines=(("KERNEL_BUILD", "1"), ("COMPILE_FOR_NCRISC", "1"), ("ARCH_WORMHOLE", "1"),
                                      ("NUM_DRAM_BANKS", "12"), ("NUM_L1_BANKS", "64")))
    unit = tmp_path / "unit.cpp"
    unit.write_text(tensix_dataflow.translation_unit(build))
    command = tensix_dataflow.compile_command(build, tmp_path, tensix_tree.machine_tree("wormhole"), "wormhole")
    done = subprocess.run([*command, "-fsyntax-only", "-H", str(unit)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    marks = [line for line in done.stderr.splitlines() if tensix_prefix.HEADER in line]
    assert marks and marks[0].startswith("! ") and marks[0].endswith(".gch"), marks


#: the sanitizer's NoC cases (tests/emu/test_sanitizer.py), the real API making the same mistake; three
#: in the default run (NCRISC and BRISC, a read, a multicast, a write). Not here: multicast_count,
#: whose wrong num_dests only the API's own ack counter sees: the barrier waits for ever (E5501 at
#: the barrier's line), as on the device.
NOC_CASES = [case if case.name in ("misaligned_dram_read", "multicast_noc1_corners", "write_into_firmware_region")
             else pytest.param(case, marks=pytest.mark.slow)
             for case in test_sanitizer.CASES
             if case.name in ("misaligned_dram_read", "multicast_noc1_corners", "read_outside_dram_buffer",
                              "bad_noc_coordinate", "write_into_firmware_region", "read_past_end_of_l1",
                              "multicast_corner_not_tensix")]


@pytest.mark.parametrize("case", NOC_CASES, ids=lambda c: getattr(c, "name", None))
def test_a_noc_finding_names_the_kernel_line(device, case: test_sanitizer.Case) -> None:
    """A NoC finding on the real API names the kernel's line: the API's functions take the call site (tilecraft/emu/call_sites.py) and the outermost call records it."""
    path = SANITIZER / f"{case.name}.cpp"
    with pytest.raises(KernelError) as info:
        test_sanitizer.run_case(device, case)
    d = info.value.diagnostic
    assert d.code == case.code and case.message in d.message, d.render()
    assert d.span is not None and d.span.file.endswith(path.name) and d.span.line == line_of(path), d.render()
