"""The emitter defects of issue 10, caught on today's emitted code: one test per defect class,
each running a TT-Lang program (an example, or a small planted program in tests/emu/defects/)
through ``tilecraft emit``'s C++ on the emulator and asserting the diagnostic's code, message
and the emitted kernel line it points at.

These tests describe the emitter as it is: when the EmitMetal issue fixes a defect, its test here
fails and becomes "runs with no finding"; the planted C++ kernels of test_sanitizer.py and
test_deadlock.py (named in each case) keep guarding the emulator's checks for good.
"""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import dataclass
from pathlib import Path

import pytest
import torch

import tilecraft.ttnn as ttnn
from tilecraft import session
from tilecraft.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
PLANTED = Path(__file__).resolve().parent / "defects"

pytestmark = pytest.mark.usefixtures("fresh_process_state")


def run_cpp(script: Path, *extra: str) -> tuple[int, list[dict], str]:
    """Exit code, the JSON diagnostics, and stderr of ``tilecraft run SCRIPT --level cpp``."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["run", str(script), "--level", "cpp", "--diagnostics-format", "json", *extra])
    text = err.getvalue()
    diagnostics: list[dict] = []
    decoder = json.JSONDecoder()
    at = text.find("{")
    while at != -1:
        try:
            obj, end = decoder.raw_decode(text, at)
        except json.JSONDecodeError:
            at = text.find("{", at + 1)
            continue
        diagnostics += obj.get("diagnostics", []) if isinstance(obj, dict) else []
        at = text.find("{", end)
    return code, diagnostics, text


def source_line(diag: dict) -> str:
    span = diag["span"]
    return Path(span["file"]).read_text().splitlines()[span["line"] - 1]


@dataclass(frozen=True)
class Defect:
    id: str
    script: Path
    code: str
    message: str  # a fragment of the message
    call: str  # what the emitted line the diagnostic points at must contain
    hint: str = ""
    severity: str = "error"
    guard: str = ""  # the permanent planted-kernel test of the same check


DEFECTS = [
    Defect("1_pack_format", EXAMPLES / "row_reduce.py", "E5401",
           "pack_tile into CB 5 (Float16_b, 2048-byte pages) while the packer is configured for Float32 (CB 4): it "
           "writes 4096-byte Float32 tiles", "pack_tile(", "pack_reconfig_data_format(5)",
           guard="test_sanitizer.py::pack_format_mismatch"),
    Defect("1_unpack_format", EXAMPLES / "matmul_multicore_accumulate.py", "E5402",
           "matmul_tiles unpacks CB 0 (Float16_b) through SrcB, which is configured for Float32 (CB 3)",
           "matmul_tiles(", "reconfig_data_format_srcb(0)", guard="test_sanitizer.py::unpack_format_mismatch"),
    Defect("2_matmul_startup_order", PLANTED / "matmul_mixed_formats.py", "E5402",
           "matmul_tiles unpacks CB 0 (Float16_b) through SrcB, which is configured for Bfp8_b (CB 1)",
           "matmul_tiles(", "compute_kernel_hw_startup<SrcOrder::Reverse>(in0, in1, out)",
           guard="test_sanitizer.py::matmul_regular_startup"),
    Defect("3_reduce_uninit_before_pack", PLANTED / "reduce_uninit.py", "E5406",
           "pack_tile packs a reduce result after reduce_uninit()", "pack_tile(",
           "call reduce_uninit() after the packs", guard="test_sanitizer.py::reduce_uninit_before_pack"),
    Defect("4_fp32_unpacked_as_tf32", EXAMPLES / "compare_sfpu_chain.py", "E5411",
           "copy_tile unpacks Float32 CB 0 through SrcA as TF32: the low 13 mantissa bits of every value are dropped",
           "copy_tile(", "unpack_to_dest_mode[0] = UnpackToDestFp32", severity="warning",
           guard="test_sanitizer.py::tf32_copy"),
    # found by the emulator beyond issue 10's list
    Defect("init_state_leaks_across_if_else", EXAMPLES / "gather_pipes.py", "E5409",
           "mul_tiles while the unpacker and math are initialised for nothing (no init call yet)", "mul_tiles(",
           "call mul_init(icb0, icb1) before mul_tiles", guard="test_sanitizer.py::op_without_init"),
]


@pytest.mark.parametrize("defect", DEFECTS, ids=lambda d: d.id)
def test_defect_is_caught_at_its_emitted_line(defect: Defect) -> None:
    code, diagnostics, text = run_cpp(defect.script)
    found = [d for d in diagnostics if d["code"] == defect.code]
    assert found, text[-3000:]
    diag = found[0]
    assert diag["severity"] == defect.severity
    assert defect.message in diag["message"], diag["message"]
    assert defect.hint in (diag["hint"] or ""), diag["hint"]
    assert Path(diag["span"]["file"]).parent.parent.name == "emitted"  # a kernel tilecraft emit wrote
    assert defect.call in source_line(diag), source_line(diag)
    assert code != 0  # an error stops the run; the TF32 warning makes the example's own fp32 check fail


def test_defect_6_two_pipes_from_one_sender_run_as_at_the_language_level() -> None:
    """Defect 6 (two pipes of one net from one sender waited on one ready semaphore with an exact
    count, which the emulator found overshooting, E5502; guarded for good by
    test_deadlock.py::test_semaphore_that_overshoots_an_exact_wait) is fixed: each pipe a core
    sends counts its free destinations on a semaphore of its own (ir/pipe_protocol.py:
    ready_counters), and the planted program runs on the emulator with no finding, its own check
    (both receivers hold the sent tile, bit for bit) passing."""
    code, diagnostics, text = run_cpp(PLANTED / "two_pipes_one_sender.py")
    assert code == 0 and diagnostics == [], text[-3000:]


def test_defect_6_sender_waits_on_one_semaphore_per_pipe(tmp_path) -> None:
    """The emitted reader gives the sender's two pipes two ready semaphores (ids 0 and 1), and
    waits on the one its table row names."""
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        assert main(["emit", str(PLANTED / "two_pipes_one_sender.py"), "-o", str(tmp_path)]) == 0
    manifest = json.loads((tmp_path / "fan_out" / "manifest.json").read_text())
    ready = [s["name"] for s in manifest["semaphores"] if "ready" in s["name"]]
    assert ready == ["pipenet0_ready0", "pipenet0_ready1"]
    reader = (tmp_path / "fan_out" / "read.cpp").read_text()
    assert "get_semaphore(pipe_counter" in reader and "noc_semaphore_wait(ready_ptr, pipe_count" in reader


def test_defect_7_noc1_senders_give_the_larger_corner_first(tmp_path) -> None:
    """Defect 7 (NOC 1 multicast corners, E5305 on matmul_row_multicast; guarded for good by
    test_sanitizer.py::multicast_noc1_corners) is fixed: the reader runs on RISCV_1 (NOC 1) and
    passes the rectangle as (x_end, y_end, x_start, y_start); the emulator reports no E5305 (only
    defect 4's TF32 warnings remain on this fp32 example)."""
    code, diagnostics, text = run_cpp(EXAMPLES / "matmul_row_multicast.py")
    assert "E5305" not in {d["code"] for d in diagnostics}, text[-3000:]
    assert {d["code"] for d in diagnostics} <= {"E5411"}, text[-3000:]
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        assert main(["emit", str(EXAMPLES / "matmul_row_multicast.py"), "-o", str(tmp_path)]) == 0
    reader = (tmp_path / "matmul" / "load.cpp").read_text()
    assert "get_noc_multicast_addr(nx1, ny1, nx0, ny0, slot)" in reader


def test_defect_5_is_fixed_where_tile_names_dst_format() -> None:
    """Defect 5 (where_tile<DataFormat::Float16_b> hard-coded) was fixed on main (eb88345): the
    planted fp32 program's where_tile now names Float32 and runs without E5413; only defect 4's
    TF32 warnings remain. The check itself stays guarded by test_sanitizer.py::where_format."""
    code, diagnostics, text = run_cpp(PLANTED / "where_fp32.py")
    assert code == 0 and {d["code"] for d in diagnostics} == {"E5411"}, text[-3000:]


def test_shared_semaphore_program_passes_at_the_language_level() -> None:
    """Defect 6 is invisible to the language level: the same script runs there."""
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["run", str(PLANTED / "two_pipes_one_sender.py")]) == 0


def test_semaphore_addresses_are_emitted_as_get_semaphore() -> None:
    """Commit 33a9052 printed every semaphore address as its id (L1 address 0, E5302/E5307 here);
    the barrier examples now reach their waits with real addresses (only the TF32 warnings of
    defect 4 remain)."""
    for name in ("barrier_many_to_one", "barrier_one_to_many"):
        _, diagnostics, text = run_cpp(EXAMPLES / f"{name}.py")
        assert {d["code"] for d in diagnostics} == {"E5411"}, text[-3000:]


DST16_PROGRAM = '''
import torch
import tilecraft as ttl
import tilecraft.ttnn as ttnn

@ttl.operation(grid=(1, 1))
def fma(a: ttnn.Tensor, b: ttnn.Tensor, c: ttnn.Tensor, y: ttnn.Tensor):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=2)
    c_dfb = ttl.make_dataflow_buffer_like(c, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.datamovement()
    def read():
        with a_dfb.reserve() as ab, b_dfb.reserve() as bb, c_dfb.reserve() as cb:
            xa = ttl.copy(a[0, 0], ab)
            xb = ttl.copy(b[0, 0], bb)
            xc = ttl.copy(c[0, 0], cb)
            xa.wait()
            xb.wait()
            xc.wait()

    @ttl.compute()
    def math():
        with a_dfb.wait() as ab, b_dfb.wait() as bb, c_dfb.wait() as cb, y_dfb.reserve() as yb:
            yb.store(ab * bb + cb)

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as yb:
            ttl.copy(yb, y[0, 0]).wait()

torch.manual_seed(0)
args = [ttnn.from_torch(torch.randn(32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT) for _ in range(3)]
y = ttnn.zeros((32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
fma(*args, y)
'''


def test_bfloat16_programs_run_with_a_16_bit_dst(tmp_path, monkeypatch) -> None:
    """Beyond issue 10's list: the emitter sets fp32_dest_acc_en only when a buffer is fp32, so a
    bfloat16 program's DST holds Float16_b and a*b is rounded to bfloat16 before + c; the
    language level keeps intermediates in fp32 (docs/numerics.md section 4). With fp32 DST the
    same emitted kernels agree bit for bit."""
    script = tmp_path / "fma.py"
    script.write_text(DST16_PROGRAM)

    def outputs(level: str) -> torch.Tensor:
        seen: list[torch.Tensor] = []
        with session.using(result_hooks=[lambda program, tensors: seen.append(tensors[-1].storage.clone())]), \
                contextlib.redirect_stdout(io.StringIO()):
            assert main(["run", str(script), "--level", level]) == 0
        return seen[0]

    want = outputs("language")
    got = outputs("cpp")
    assert (got != want).sum() > 100  # of 1024: a*b rounded to bfloat16 before + c

    original = ttnn.generic_op

    def with_fp32_dest(io_tensors, program):
        for kernel in program.kernels:
            if isinstance(kernel.config, ttnn.ComputeConfigDescriptor):
                kernel.config.fp32_dest_acc_en = True
        return original(io_tensors, program)

    monkeypatch.setattr(ttnn, "generic_op", with_fp32_dest)
    assert torch.equal(outputs("cpp"), want)
