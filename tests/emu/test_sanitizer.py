"""The sanitizer: one planted mistake per finding class, each reported at its kernel line.

Every case is a kernel in tests/emu/sanitizer/ whose ``// FINDING-HERE`` comment marks the line
the diagnostic must point at; the host is the same for all of them (two cores, a two-tile DRAM
tensor, CBs of several formats, one semaphore), so each kernel shows only its mistake.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import torch

import tilecraft.ttnn as ttnn
from tests.emu.harness import SANITIZER, cb, compute, cores, dram, kernel, line_of, output, run
from tilecraft import session
from tilecraft.diagnostics import DiagnosticWarning, KernelError

GRID = cores(0, 0, 1, 0)
FIRST = cores(0, 0, 0, 0)


@dataclass(frozen=True)
class Case:
    name: str
    code: str
    message: str  # a fragment of the diagnostic's message
    role: str = "reader"  # reader (RISCV_1, NOC 1), writer (RISCV_0, NOC 0) or compute
    fp32: bool = False
    severity: str = "error"
    unpack_to_dest: tuple[int, ...] = ()


CASES = [
    Case("push_more_than_reserved", "E5201", "cb_push_back(0, 2) pushes more pages than the 1 reserved"),
    Case("push_unreserved_free", "E5210", "cb_push_back(0, 1) pushes more pages than the 0 reserved by "
         "cb_reserve_back; they are free now", severity="warning"),
    Case("pack_unreserved_free", "E5210", "pack_tile writes page 0 of CB 16, but only 0 pages are reserved "
         "(cb_reserve_back); the page is free now", "compute", severity="warning"),
    Case("pop_more_than_waited", "E5202", "cb_pop_front(0, 2) pops more pages than the 1 waited for"),
    Case("push_crosses_cb_end", "E5203", "cb_push_back(0, 2): the pages run past the end of the CB"),
    Case("reserve_more_than_cb", "E5204", "CB 0 holds only 2 pages, so the reservation can never be granted"),
    Case("push_with_read_in_flight", "E5205", "hands pages to the consumer while a NoC read issued at"),
    Case("pop_with_write_in_flight", "E5206", "frees pages that a NoC write issued at"),
    Case("unconfigured_cb", "E5209", "cb_reserve_back: CB 5 is not configured on core (0, 0)"),
    Case("misaligned_dram_read", "E5301", "differ modulo 32 bytes"),
    Case("read_past_end_of_l1", "E5302", "runs past the end of L1"),
    Case("read_outside_dram_buffer", "E5303", "is outside every buffer the host allocated there"),
    Case("bad_noc_coordinate", "E5304", "targets coordinates (9, 0), which are neither a Tensix core"),
    Case("multicast_noc1_corners", "E5305", "on NOC 1: the rectangle from (18, 18) to (19, 18) wraps around the NoC torus: it reaches 8 "
         "cores round the far side of the chip instead of the 2 between its corners"),
    Case("multicast_corner_not_tensix", "E5305", "on NOC 0: the rectangle's corner (5, 1) is not a Tensix core of "
         "the grid", "writer"),
    Case("multicast_count", "E5306", "num_dests is 3 but the rectangle from (18, 18) to (19, 18) holds 2", "writer"),
    Case("write_into_firmware_region", "E5307", "inside the firmware/mailbox region", "writer"),
    Case("read_past_cb_end", "E5308", "runs past the end of CB 0"),
    Case("semaphore_not_created", "E5311", "get_semaphore(3): no semaphore with id 3"),
    Case("runtime_arg_missing", "E5103", "get_arg_val(20): the kernel 'runtime_arg_missing' on core (0, 0) has 6"),
    Case("named_arg_missing", "E5116", 'get_named_compile_time_arg_val("rows"): the host passed no named'),
    Case("assert_failed", "E5008", "ASSERT(x > 100) failed"),
    Case("crash", "E5006", "the kernel crashed with SIGSEGV"),
    Case("pack_format_mismatch", "E5401", "pack_tile into CB 1 (Float32, 4096-byte pages) while the packer is "
         "configured for Float16_b (CB 16)", "compute"),
    Case("unpack_format_mismatch", "E5402", "copy_tile unpacks CB 1 (Float32) through SrcA, which is configured for "
         "Float16_b (CB 0)", "compute"),
    Case("pack_without_wait", "E5403", "pack_tile without tile_regs_wait()", "compute"),
    Case("dst_beyond_capacity", "E5404", "uses DST tile 9, but DST holds 8 tiles here", "compute"),
    Case("math_without_acquire", "E5405", "writes DST without owning it", "compute"),
    Case("reduce_uninit_before_pack", "E5406", "packs a reduce result after reduce_uninit()", "compute",
         severity="warning"),
    Case("matmul_regular_startup", "E5402", "matmul_tiles unpacks CB 0 (Float16_b) through SrcB, which is configured "
         "for Bfp8_b (CB 2)", "compute"),
    Case("op_without_init", "E5409", "add_tiles while the unpacker and math are initialised for nothing", "compute"),
    Case("before_hw_startup", "E5410", "before compute_kernel_hw_startup", "compute"),
    Case("pack_page_order", "E5412", "asks for page 1, but in-order packing writes the next page, 0", "compute"),
    Case("pack_beyond_reserved", "E5208", "pack_tile writes page 1 of CB 16, but only 1 pages are reserved", "compute"),
    Case("unpack_beyond_waited", "E5207", "copy_tile reads tile 1 of CB 0, but only 1 pages were waited for",
         "compute"),
    Case("where_format", "E5413", "where_tile<DataFormat::Float16_b> while DST holds fp32 (fp32_dest_acc_en) data", "compute", fp32=True),
    Case("float_op_on_integers", "E5414", "reads DST tile 0, which holds integers", "compute",
         fp32=True, unpack_to_dest=(3,)),
    Case("pack_untilize_beyond_reserved", "E5208", "pack_untilize_block writes 2 pages' worth of rows into CB 16, "
         "but only 1 pages are reserved", "compute"),
    Case("untilize_without_init", "E5409", "untilize_block while the unpacker and math are initialised for nothing",
         "compute"),
    Case("tf32_copy", "E5411", "copy_tile unpacks Float32 CB 1 through SrcA as TF32", "compute", fp32=True,
         severity="warning"),
]


def run_case(device, case: Case):
    t = dram(device, torch.randn(64, 32))
    out = output(device, (64, 32))
    path = SANITIZER / f"{case.name}.cpp"
    a, b = (device.worker_core_from_logical_core(ttnn.CoreCoord(x, 0)) for x in (0, 1))
    ct = [*ttnn.TensorAccessorArgs(t).get_compile_time_args(), *ttnn.TensorAccessorArgs(out).get_compile_time_args()]
    rt = [t.buffer_address(), out.buffer_address(), a.x, a.y, b.x, b.y]
    if case.role == "compute":
        k = compute(path, FIRST, fp32=case.fp32, unpack_to_dest=case.unpack_to_dest)
    else:
        config = ttnn.ReaderConfigDescriptor() if case.role == "reader" else ttnn.WriterConfigDescriptor()
        k = kernel(path, config, FIRST, rt=rt, ct=ct, named=[("tiles", 2)])
    cbs = [cb(0, ttnn.bfloat16, 2, GRID), cb(1, ttnn.float32, 2, GRID), cb(2, ttnn.bfloat8_b, 2, GRID),
           cb(3, ttnn.int32, 2, GRID), cb(16, ttnn.bfloat16, 2, GRID)]
    run([t, out], [k], cbs, [ttnn.SemaphoreDescriptor(id=0, core_ranges=GRID)])


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_finding_at_the_kernel_line(device, case: Case) -> None:
    path = SANITIZER / f"{case.name}.cpp"
    line = line_of(path)
    if case.severity == "warning":
        with pytest.warns(DiagnosticWarning) as caught:
            run_case(device, case)
        diag = caught[0].message.diagnostic
        assert (diag.code, diag.severity) == (case.code, "warning") and case.message in diag.message
        assert diag.span.file.endswith(path.name) and diag.span.line == line, diag.render()
        return
    with pytest.raises(KernelError) as info:
        run_case(device, case)
    diag = info.value.diagnostic
    assert diag.code == case.code, diag.render()
    assert case.message in diag.message, diag.render()
    assert diag.span is not None and diag.span.file.endswith(path.name) and diag.span.line == line, diag.render()
    where = "compute (TRISC0-2)" if case.role == "compute" else ("NCRISC" if case.role == "reader" else "BRISC")
    assert any(n.message == f"on core (0, 0), {where}" for n in diag.notes), diag.render()


def test_going_on_after_a_finding_shows_the_corruption(device) -> None:
    """With the sanitizer set to record and go on, a mismatched pack writes what the hardware
    writes: a 4096-byte fp32 tile into a 2048-byte bfloat16 page overruns into the next page."""
    case = next(c for c in CASES if c.name == "pack_format_mismatch")
    with session.using(emulator_stop_at_first_error=False), pytest.raises(KernelError) as info:
        run_case(device, case)
    assert [d.code for d in info.value.diagnostics] == ["E5401"]
