"""The profiling trace of data-movement kernels on the real 0.81.1 dataflow API (docs/emulator.md
section 12), which the kernel-level cost model replays.

The events come from the API-call checks and the NIU model: one barrier event per barrier call (not
one per status counter its loop reads), one transfer event per call (not one per NoC packet), the
semaphore writes that go out as plain NoC writes recorded as semaphore writes. Each test checks a
program's events against what its kernels call, as the kernel source counts them.
"""

from __future__ import annotations

import collections
import runpy
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable

import pytest
import torch

import tilecraft.ttnn as ttnn
from benchmarks.perf_kernels import eltwise_stream
from tests.emu.harness import cb, cores, dram, kernel, output, run, write_kernel
from tests.paths import EXAMPLES
from tilecraft import session
from tilecraft.emu.codes import Ev
from tilecraft.emu.trace import KernelTrace
from tilecraft.perf import estimate_kernels
from tilecraft.perf.result import Estimate
from tilecraft.scripts import install_modules

TILE = 32

Event = tuple[Any, ...]


def calls(trace: KernelTrace) -> dict[tuple[int, int], list[tuple[Ev, int]]]:
    """Each (core, RISC)'s events in order, as (kind, kernel line)."""
    rows: dict[tuple[int, int], list[tuple[Ev, int]]] = defaultdict(list)
    for e in trace.events:
        rows[(int(e["core"]), int(e["slot"]))].append((Ev(int(e["kind"])), int(e["line"])))
    return dict(rows)


def traced(run: Callable[[], Any]) -> list[tuple[KernelTrace, Estimate]]:
    """Each launch of ``run``: its trace and its kernel-level estimate."""
    seen: list[tuple[KernelTrace, Estimate]] = []

    def hook(program: Any, result: Any) -> None:
        seen.append((result.trace, estimate_kernels(program, result.trace)))

    with session.using(emulator_hooks=[hook]):
        run()
    assert seen
    return seen


@pytest.mark.slow  # the gather and the relay below are the default sample
def test_a_reader_compute_writer_eltwise_trace():
    torch.manual_seed(0)
    a, b, y = (ttnn.from_torch(torch.randn(2 * TILE, 256), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
               for _ in range(3))
    add = eltwise_stream((2, 1))
    ((trace, _),) = traced(lambda: session_cpp(lambda: add(a, b, y)))
    kinds = {Ev(int(k)) for k in trace.events["kind"]}
    assert {Ev.NOC_READ, Ev.NOC_WRITE, Ev.NOC_BARRIER, Ev.CB_RESERVE, Ev.CB_PUSH, Ev.CB_WAIT, Ev.CB_POP,
            Ev.BINARY} <= kinds
    count = collections.Counter(Ev(int(k)) for k in trace.events["kind"])
    tiles = 2 * 256 // TILE  # of each tensor: one read per tile of a and of b, one add and one write per tile of y
    assert (count[Ev.NOC_READ], count[Ev.BINARY], count[Ev.NOC_WRITE]) == (2 * tiles, tiles, tiles), count


def session_cpp(run: Callable[[], Any]) -> Any:
    """``run`` with its TT-Lang launches run as their emitted C++ (--level cpp)."""
    with session.using(level="cpp", simulate=True):
        return run()


def run_script(script: str, *args: str) -> Callable[[], None]:
    """A host script of examples/ run as ``tilecraft run`` runs it (it exits 0 on its golden)."""
    def run() -> None:
        install_modules()
        saved = sys.argv
        sys.argv = [script, *args]
        try:
            runpy.run_path(str(EXAMPLES / script), run_name="__main__")
        except SystemExit as done:
            assert not done.code, done.code
        finally:
            sys.argv = saved
    return run


@pytest.mark.slow
def test_a_multicast_matmul_with_semaphores_trace():
    """The reuse-multicast matmul: semaphore sets, waits, increments and a VALID flag multicast
    (noc_semaphore_set_multicast: a 4-byte NoC multicast on the real API) release each other."""
    ((trace, _),) = traced(run_script("metal/matmul_multicore_mcast/matmul_multicore_mcast.py",
                                                   "--cores", "2x2", "--size", "128x64x128"))
    kinds = [Ev(int(k)) for k in trace.events["kind"]]
    assert {Ev.SEM_WAIT, Ev.SEM_SET, Ev.SEM_REMOTE, Ev.SEM_MCAST, Ev.NOC_MCAST} <= set(kinds)
    waits = trace.events[trace.events["kind"] == Ev.SEM_WAIT]
    assert (waits["ref"] >= 0).all()  # every wait was released by a recorded write


def test_a_gather_of_large_shards_traces_one_event_per_call():
    """The gather micro-op: 8 senders write 64 KiB each (eight NoC packets on the real API, one call)
    into one core and increment its semaphore."""
    sys.path.insert(0, str(EXAMPLES / "microops"))
    try:
        install_modules()
        from gather.op import GatherSingleCore
        from shards import core_grid, sharded
    finally:
        sys.path.pop(0)

    def run() -> None:
        device = ttnn.open_device(device_id=0)
        try:
            x = ttnn.from_torch(torch.randn(8 * 128, 256), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT,
                                device=device, memory_config=sharded("height", core_grid(0, 0, 3, 1), (128, 256)))
            out = ttnn.from_torch(torch.zeros(8 * 128, 256), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT,
                                  device=device,
                                  memory_config=sharded("height", core_grid(5, 4, 5, 4), (8 * 128, 256)))
            GatherSingleCore.op(x, out)
        finally:
            ttnn.close_device(device)

    ((trace, est),) = traced(run)
    events = trace.events
    writes = events[events["kind"] == Ev.NOC_WRITE]
    assert writes["a"].tolist() == [128 * 256 * 2] * 8
    (wait,) = events[events["kind"] == Ev.SEM_WAIT]
    assert events[wait["ref"]]["kind"] == Ev.SEM_REMOTE
    assert est.bound == "NoC"


RELAY = """
#include <cstdint>
#include "api/dataflow/dataflow_api.h"

// Core (0, 0) reads a tile, writes it into core (1, 0)'s CB slot and sets that core's semaphore
// with noc_semaphore_set_remote (a 4-byte NoC write on the real API); core (1, 0) waits for it and
// writes the tile out.
void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t dst_addr = get_arg_val<uint32_t>(1);
    const uint32_t peer_x = get_arg_val<uint32_t>(2), peer_y = get_arg_val<uint32_t>(3);
    const auto src = TensorAccessor(TensorAccessorArgs<0>(), src_addr);
    const auto dst = TensorAccessor(TensorAccessorArgs<2>(), dst_addr);
    const uint32_t sem = get_semaphore(0);
    auto* sem_ptr = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(sem);
    cb_reserve_back(0, 1);
    const uint32_t slot = get_write_ptr(0);
    if (get_absolute_logical_x() == 0) {
        noc_async_read_page(0, src, slot);
        noc_async_read_barrier();
        noc_async_write(slot, get_noc_addr(peer_x, peer_y, slot), 2048);
        noc_async_write_barrier();
        noc_semaphore_set(sem_ptr, 1);
        noc_semaphore_set_remote(sem, get_noc_addr(peer_x, peer_y, sem));
        noc_async_write_barrier();
    } else {
        noc_semaphore_wait(sem_ptr, 1);
        noc_async_write_page(0, dst, slot);
        noc_async_write_barrier();
    }
}
"""


def test_a_remote_semaphore_set_releases_the_wait(tmp_path: Path):
    """noc_semaphore_set_remote is the trace's remote semaphore write (it goes out as a plain 4-byte
    NoC write): the receiver's wait names it, and the tile arrives. Each RISC's events are its
    kernel's calls in order, one per call: a barrier is one event however often its loop polls."""
    torch.manual_seed(0)
    values = torch.randn(32, 32)
    path = write_kernel(tmp_path, "relay.cpp", RELAY)

    def relay() -> None:
        device = ttnn.open_device(device_id=0)
        try:
            src, dst = dram(device, values), output(device, (32, 32))
            peer = device.worker_core_from_logical_core(ttnn.CoreCoord(1, 0))
            grid = cores(0, 0, 1, 0)
            k = kernel(path, ttnn.WriterConfigDescriptor(), grid,
                       rt=[src.buffer_address(), dst.buffer_address(), peer.x, peer.y],
                       ct=[*ttnn.TensorAccessorArgs(src).get_compile_time_args(),
                           *ttnn.TensorAccessorArgs(dst).get_compile_time_args()])
            run([src, dst], [k], [cb(0, ttnn.bfloat16, 1, grid)],
                [ttnn.SemaphoreDescriptor(id=0, core_ranges=grid, initial_value=0)])
            assert torch.equal(ttnn.to_torch(dst), ttnn.to_torch(src))
        finally:
            ttnn.close_device(device)

    ((trace, _),) = traced(relay)
    events = trace.events
    (wait,) = events[events["kind"] == Ev.SEM_WAIT]
    released = events[wait["ref"]]
    assert released["kind"] == Ev.SEM_REMOTE and released["line"] == line("noc_semaphore_set_remote(sem")
    assert len(events[events["kind"] == Ev.SEM_SET]) == 1
    assert len(events[events["kind"] == Ev.NOC_WRITE]) == 2  # the tile to the peer and to DRAM, not the semaphore
    sender, receiver = sorted(calls(trace).items())
    assert sender[1] == [(Ev.CB_RESERVE, line("cb_reserve_back")), (Ev.NOC_READ, line("noc_async_read_page")),
                         (Ev.NOC_BARRIER, line("noc_async_read_barrier")), (Ev.NOC_WRITE, line("noc_async_write(")),
                         (Ev.NOC_BARRIER, line("noc_async_write_barrier")), (Ev.SEM_SET, line("noc_semaphore_set(")),
                         (Ev.SEM_REMOTE, line("noc_semaphore_set_remote(sem")),
                         (Ev.NOC_BARRIER, line("noc_async_write_barrier", 2))], sender
    assert receiver[1] == [(Ev.CB_RESERVE, line("cb_reserve_back")), (Ev.SEM_WAIT, line("noc_semaphore_wait")),
                           (Ev.NOC_WRITE, line("noc_async_write_page")),
                           (Ev.NOC_BARRIER, line("noc_async_write_barrier", 3))], receiver


def line(call: str, nth: int = 1) -> int:
    """The line of RELAY holding the ``nth`` occurrence of ``call``."""
    at = -1
    for _ in range(nth):
        at = RELAY.index(call, at + 1)
    return RELAY.count("\n", 0, at) + 1
