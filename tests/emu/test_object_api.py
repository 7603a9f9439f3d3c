"""The 0.81.1 object API (Noc, DataflowBuffer, CircularBuffer, CoreLocalMem, endpoints,
Semaphore) on the emulator: data-movement kernels run on the real dataflow API (Tenstorrent's,
every member included; docs/emulator.md section 12), and what a kernel asks of it runs through the
runtime's NoC, CB and semaphore model."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

import tilecraft.ttnn as ttnn
from tilecraft.diagnostics import KernelError
from tests.emu.harness import KERNELS, cb, dram, kernel, output, run, write_kernel


def test_transaction_ids_and_l1_zeroing_on_the_real_dataflow_api(device) -> None:
    """A read tagged with a transaction id and that id's barrier, and Noc::async_write_zeros with
    write_zeros_l1_barrier (a NoC read of the core's zero region into the DataflowBuffer)."""
    x = torch.randn(32, 32)
    src, out = dram(device, x), output(device, (64, 32))
    k = kernel(KERNELS / "object_api_trid_zeros.cpp", ttnn.ReaderConfigDescriptor(),
               rt=[src.buffer_address(), out.buffer_address()],
               ct=[*ttnn.TensorAccessorArgs(src).get_compile_time_args(),
                   *ttnn.TensorAccessorArgs(out).get_compile_time_args()])
    run([src, out], [k], [cb(0)])
    assert torch.equal(ttnn.to_torch(out), torch.cat([ttnn.to_torch(src), torch.zeros(32, 32)]))


def test_object_api_semaphore_and_unicast_endpoint_between_two_cores(device) -> None:
    """Noc, DataflowBuffer, CoreLocalMem, UnicastEndpoint and Semaphore (up over the NoC, wait,
    down, value) carry a page from one core to another; needs no wheel."""
    grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(1, 0))])
    x = torch.randn(32, 32)
    src, out = dram(device, x), output(device, (32, 32))
    a, b = (device.worker_core_from_logical_core(ttnn.CoreCoord(i, 0)) for i in (0, 1))
    relay = kernel(KERNELS / "object_api_relay.cpp", ttnn.ReaderConfigDescriptor(), grid,
                   rt={(0, 0): [src.buffer_address(), b.x, b.y, 1], (1, 0): [out.buffer_address(), a.x, a.y, 0]},
                   ct=ttnn.TensorAccessorArgs(src).get_compile_time_args())
    run([src, out], [relay], [cb(0, core_ranges=grid)], [ttnn.SemaphoreDescriptor(id=0, core_ranges=grid,
                                                                                  initial_value=0)])
    want = ttnn.to_torch(src).clone()
    want[0, 0] = 3.0
    assert torch.equal(ttnn.to_torch(out), want)


def test_a_compute_semaphore_is_the_kernels_error_at_its_line(device, tmp_path: Path) -> None:
    """0.81.1's compute API has no semaphore: the real header's static assertion
    (COMPUTE_SEMAPHORE_UNSUPPORTED) is the kernel's compile error at the line that makes one."""
    source = write_kernel(tmp_path, "compute_sem.cpp", """#include "api/semaphore.h"
void kernel_main() {
    Semaphore<> ready(0);
    ready.wait(1);
}
""")
    with pytest.raises(KernelError) as info:
        run([output(device, (32, 32))], [kernel(source, ttnn.ComputeConfigDescriptor())], [])
    d = info.value.diagnostic
    assert d.code == "E5001" and d.span.line == 3 and "a compute semaphore cannot be" in d.message, d


def test_object_api_multicast_of_a_page_and_a_semaphore(device) -> None:
    """Noc::async_write_multicast into DataflowBuffers through a MulticastEndpoint and
    Semaphore::set_multicast, both including the sender: every core of the row writes the page."""
    grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(2, 0))])
    src, out = dram(device, torch.randn(32, 32)), output(device, (32, 96))
    first, last = (device.worker_core_from_logical_core(ttnn.CoreCoord(i, 0)) for i in (0, 2))
    args = {(i, 0): [src.buffer_address(), out.buffer_address(), int(i == 0), first.x, first.y, last.x, last.y, 3, i]
            for i in range(3)}
    # NOC 0 (the writer's): the rectangle runs from the smaller corner, as the kernel orders it
    k = kernel(KERNELS / "object_api_multicast.cpp", ttnn.WriterConfigDescriptor(), grid, rt=args,
               ct=[*ttnn.TensorAccessorArgs(src).get_compile_time_args(),
                   *ttnn.TensorAccessorArgs(out).get_compile_time_args()])
    run([src, out], [k], [cb(0, core_ranges=grid), cb(1, core_ranges=grid)],
        [ttnn.SemaphoreDescriptor(id=0, core_ranges=grid, initial_value=0)])
    page = ttnn.to_torch(src)
    assert torch.equal(ttnn.to_torch(out), torch.cat([page, page, page], dim=1))
