"""Deadlock reports: when every kernel is parked in a blocking call (or spins on a poll that nothing
can change), the run stops with one diagnostic whose notes list each blocked call at its kernel
line, with core, RISC and what it waits for."""

from __future__ import annotations

import pytest

import tilecraft.ttnn as ttnn
from tests.emu.harness import cb, compute, cores, kernel, line_of, output, write_kernel
from tests.emu.harness import run as run_io
from tilecraft.diagnostics import KernelError

HERE = __import__("pathlib").Path(__file__).parent / "deadlock"
TWO = cores(0, 0, 1, 0)


def run(_unused, kernels, cbs, semaphores=()):
    device = ttnn.open_device(0)
    return run_io([output(device, (32, 32))], kernels, cbs, semaphores)


def _error(run_program) -> "object":
    """The diagnostic of a run that must fail (generic_op needs at least one io tensor, so each run
    gets an unused output)."""
    with pytest.raises(KernelError) as info:
        run_program()
    return info.value.diagnostic


def _note(diag, path, marker) -> str:
    line = line_of(path, marker)
    hits = [n for n in diag.notes if n.span is not None and n.span.file.endswith(path.name) and n.span.line == line]
    assert hits, diag.render()
    return hits[0].message


def test_producer_and_consumer_both_blocked(device) -> None:
    reader = HERE / "missing_push.cpp"
    writer = HERE / "wait_front.cpp"
    diag = _error(lambda: run([], [kernel(reader, ttnn.ReaderConfigDescriptor()),
                                   kernel(writer, ttnn.WriterConfigDescriptor())], [cb(0, pages=2)]))
    assert diag.code == "E5501" and "deadlock: no kernel can make progress (2 blocked)" in diag.message
    assert _note(diag, reader, "BLOCKED-READER") == (
        "core (0, 0) NCRISC blocked in cb_reserve_back: it waits for 2 free pages of CB 0; 1 of its 2 pages are free")
    assert _note(diag, writer, "BLOCKED-WRITER") == (
        "core (0, 0) BRISC blocked in cb_wait_front: it waits for 2 pages in CB 0; 1 have been pushed and not popped")
    assert "missing push/pop" in diag.hint


def test_circular_semaphore_wait_names_both_cores(device) -> None:
    path = HERE / "semaphore_cycle.cpp"
    a, b = (device.worker_core_from_logical_core(ttnn.CoreCoord(x, 0)) for x in (0, 1))
    rt = {(0, 0): [b.x, b.y], (1, 0): [a.x, a.y]}
    diag = _error(lambda: run([], [kernel(path, ttnn.ReaderConfigDescriptor(), TWO, rt=rt)], [],
                              [ttnn.SemaphoreDescriptor(id=0, core_ranges=TWO)]))
    assert diag.code == "E5501" and "(2 blocked)" in diag.message
    line = line_of(path, "BLOCKED-CYCLE")
    blocked = sorted(n.message for n in diag.notes if n.span is not None and n.span.line == line)
    assert blocked == [
        f"core ({x}, 0) NCRISC blocked in noc_semaphore_wait: it waits for the semaphore to equal 1; it holds 0"
        for x in (0, 1)], diag.render()


def test_semaphore_that_overshoots_an_exact_wait(device) -> None:
    """Two senders share one semaphore on the receiver, which waits for == 1: the count reaches 2
    and the wait can never be satisfied (noc_semaphore_wait is an equality test)."""
    path = HERE / "shared_semaphore.cpp"
    grid = cores(0, 0, 2, 0)
    r = device.worker_core_from_logical_core(ttnn.CoreCoord(0, 0))
    rt = {(0, 0): [r.x, r.y, 1], (1, 0): [r.x, r.y, 0], (2, 0): [r.x, r.y, 0]}
    diag = _error(lambda: run([], [kernel(path, ttnn.ReaderConfigDescriptor(), grid, rt=rt)], [],
                              [ttnn.SemaphoreDescriptor(id=0, core_ranges=grid)]))
    assert diag.code == "E5502", diag.render()
    assert diag.message == ("noc_semaphore_wait waits for the semaphore to equal 1, but it already holds 2 and "
                            "semaphores only count up here: the wait can never be satisfied")
    assert diag.span.file.endswith(path.name) and diag.span.line == line_of(path, "OVERSHOOT")
    assert "noc_semaphore_wait_min" in diag.hint


def test_polling_loop_that_nothing_changes(device) -> None:
    path = HERE / "poll_forever.cpp"
    diag = _error(lambda: run([], [kernel(path, ttnn.WriterConfigDescriptor())], [cb(0)]))
    assert diag.code == "E5501"
    assert _note(diag, path, "POLLING") == (
        "core (0, 0) BRISC blocked in cb_pages_available_at_front: it polls in a loop that nothing else changes")


def test_compute_kernel_blocked_on_input(device, tmp_path) -> None:
    """The Tensix machine's UNPACK TRISC polls the CB's counter in the LLK's cb_wait_front, and the
    report names the kernel's call."""
    idle = write_kernel(tmp_path, "idle_reader.cpp", '#include "api/dataflow/dataflow_api.h"\nvoid kernel_main() {}\n')
    path = HERE / "compute_waits.cpp"
    diag = _error(lambda: run([], [kernel(idle, ttnn.ReaderConfigDescriptor()), compute(path)], [cb(0), cb(16)]))
    assert diag.code == "E5501" and "(1 blocked)" in diag.message
    assert _note(diag, path, "BLOCKED-COMPUTE") == (
        "core (0, 0) compute (TRISC0-2) blocked in cb_wait_front: it waits for 1 pages in CB 0; 0 have been pushed "
        "and not popped")
    assert diag.span.line == line_of(path, "BLOCKED-COMPUTE")
