"""The emitter defects of issue 10 (and one the emulator found beyond its list), each once caught
by the emulator on the emitted code and now fixed in the emitter: every test runs the TT-Lang
program that showed the defect (an example, or a small planted program in tests/emu/defects/)
through ``tilecraft emit``'s C++ on the emulator and asserts it runs with no finding and that the
emitted kernel carries the fix. The planted C++ kernels of test_sanitizer.py and test_deadlock.py
(named in each case) keep guarding the emulator's checks for good.
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
from tests.emu.device_precision import within_one_ulp
from tilecraft import session
from tests.outputs import emit_script
from tilecraft.cli import main
from tests.emu.harness import script_values

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
PLANTED = Path(__file__).resolve().parent / "defects"

pytestmark = pytest.mark.usefixtures("fresh_process_state")


def run_cpp(script: Path, *extra: str) -> tuple[int, list[dict], str]:
    """Exit code, the JSON diagnostics, and stderr of ``tilecraft run SCRIPT --level cpp``."""
    return run_at("cpp", script, *extra)


def run_at(level: str, script: Path, *extra: str) -> tuple[int, list[dict], str]:
    """Exit code, the JSON diagnostics, and stderr of ``tilecraft run SCRIPT --level LEVEL``."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["run", str(script), "--level", level, "--diagnostics-format", "json", *extra])
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
    emit_script(PLANTED / "two_pipes_one_sender.py", tmp_path)
    manifest = json.loads((tmp_path / "fan_out" / "manifest.json").read_text())
    ready = [s["name"] for s in manifest["semaphores"] if "ready" in s["name"]]
    assert ready == ["pipenet0_ready0", "pipenet0_ready1"]
    reader = (tmp_path / "fan_out" / "read.cpp").read_text()
    assert "get_semaphore(pipe_counter" in reader and "noc_semaphore_wait(ready_ptr, pipe_count" in reader


def test_defect_7_noc1_senders_give_the_larger_corner_first(tmp_path) -> None:
    """Defect 7 (NOC 1 multicast corners, E5305 on matmul_row_multicast; guarded for good by
    test_sanitizer.py::multicast_noc1_corners) is fixed: the reader runs on RISCV_1 (NOC 1) and
    passes the rectangle as (x_end, y_end, x_start, y_start); the emulator reports no E5305 (only
    W3002 remains: this fp32 example's matmul reads its operands as TF32 on the device)."""
    code, diagnostics, text = run_cpp(EXAMPLES / "matmul_row_multicast.py")
    assert "E5305" not in {d["code"] for d in diagnostics}, text[-3000:]
    assert {d["code"] for d in diagnostics} <= {"W3002"}, text[-3000:]
    emit_script(EXAMPLES / "matmul_row_multicast.py", tmp_path)
    reader = (tmp_path / "matmul" / "load.cpp").read_text()
    assert "get_noc_multicast_addr(nx1, ny1, nx0, ny0, slot)" in reader


def test_defect_5_is_fixed_where_tile_names_dst_format() -> None:
    """Defect 5 (where_tile<DataFormat::Float16_b> hard-coded) was fixed on main (eb88345): the
    planted fp32 program's where_tile names Float32 and runs without E5413 (and, with defect 4
    fixed, without any finding). The check itself stays guarded by test_sanitizer.py::where_format."""
    code, diagnostics, text = run_cpp(PLANTED / "where_fp32.py")
    assert code == 0 and not diagnostics, text[-3000:]


def test_shared_semaphore_program_passes_at_the_language_level() -> None:
    """Defect 6 is invisible to the language level: the same script runs there."""
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["run", str(PLANTED / "two_pipes_one_sender.py")]) == 0


def test_semaphore_addresses_are_emitted_as_get_semaphore() -> None:
    """Commit 33a9052 printed every semaphore address as its id (L1 address 0, E5302/E5307 here);
    the barrier examples now reach their waits with real addresses and run without a finding."""
    for name in ("barrier_many_to_one", "barrier_one_to_many"):
        code, diagnostics, text = run_cpp(EXAMPLES / f"{name}.py")
        assert code == 0 and not diagnostics, text[-3000:]


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


def test_bfloat16_programs_run_with_an_fp32_dst(tmp_path, monkeypatch) -> None:
    """Beyond issue 10's list: the emitter once set fp32_dest_acc_en only when a buffer was fp32,
    so a bfloat16 program's DST held Float16_b and a*b was rounded to bfloat16 before + c; the
    language level keeps intermediates in fp32 (docs/numerics.md section 4). Every emitted
    program now runs with fp32 DST and agrees to one bfloat16 ulp (the packer's ties); forcing a 16-bit DST on the same
    kernels still shows the difference (the emulator models it)."""
    script = tmp_path / "fma.py"
    script.write_text(DST16_PROGRAM)

    def outputs(level: str) -> torch.Tensor:
        seen: list[torch.Tensor] = []
        with session.using(result_hooks=[lambda program, tensors: seen.append(tensors[-1].storage.clone())]), \
                contextlib.redirect_stdout(io.StringIO()):
            assert main(["run", str(script), "--level", level]) == 0
        return seen[0]

    want = outputs("language")
    assert within_one_ulp(outputs("cpp"), want).all()  # the packer rounds ties away from zero

    original = ttnn.generic_op

    def with_16_bit_dest(io_tensors, program):
        for kernel in program.kernels:
            if isinstance(kernel.config, ttnn.ComputeConfigDescriptor):
                assert kernel.config.fp32_dest_acc_en
                kernel.config.fp32_dest_acc_en = False
        return original(io_tensors, program)

    monkeypatch.setattr(ttnn, "generic_op", with_16_bit_dest)
    assert (outputs("cpp") != want).sum() > 100  # of 1024: a*b rounded to bfloat16 before + c


SANITIZER = Path(__file__).resolve().parent / "sanitizer"


@dataclass(frozen=True)
class Fixed:
    """A defect the emitter no longer produces: the program that showed it, the emitted file and
    line that fix it, and the planted C++ kernel with which test_sanitizer.py keeps the
    emulator's check of it alive."""

    id: str
    script: Path
    file: str  # the emitted file, within the program's directory
    fix: str  # what a line of the emitted file must contain
    guard: str
    before: str = ""  # the start of a line after which ``fix`` must come


FIXED = [
    # the reduce scaler (bfloat16 CB 5) is packed first, the Float32 sums later
    Fixed("1_pack_format", EXAMPLES / "row_reduce.py", "reduce.cpp", "pack_reconfig_data_format(cb_sum_dfb_partial);",
          "pack_format_mismatch", before="pack_tile(0, cb_reduce_scaler);"),
    # the reduce read bfloat16 data and scaler; the Float32 partial sums (CB 4) are then copied into DST
    Fixed("1_unpack_format", EXAMPLES / "row_reduce.py", "reduce.cpp", "reconfig_data_format_srca(cb_sum_dfb_partial);",
          "unpack_format_mismatch", before="reduce_uninit();"),
    Fixed("2_matmul_startup_order", PLANTED / "matmul_mixed_formats.py", "mac.cpp",
          "compute_kernel_hw_startup<SrcOrder::Reverse>(cb_a_dfb, cb_b_dfb, cb_y_dfb);", "matmul_regular_startup"),
    # the edge mask stays set until the reduce result is packed
    Fixed("3_reduce_uninit_before_pack", PLANTED / "reduce_uninit.py", "reduce.cpp", "reduce_uninit();",
          "reduce_uninit_before_pack", before="pack_tile(0, cb_y_dfb, 0);"),
    Fixed("4_fp32_unpacked_as_tf32", EXAMPLES / "compare_sfpu_chain.py", "program.py",
          "ttnn.UnpackToDestMode.UnpackToDestFp32 if i in config[\"unpack_to_dest_fp32\"]", "tf32_copy"),
    # each branch of the if/else initialises the FPU for its own mul_tiles
    Fixed("init_state_leaks_across_if_else", PLANTED / "init_across_if_else.py", "math.cpp", "mul_init(cb_a_dfb, cb_b_dfb);",
          "op_without_init", before="} else {"),
]


@pytest.mark.parametrize("fixed", FIXED, ids=lambda f: f.id)
def test_fixed_defect_runs_without_a_finding(fixed: Fixed, tmp_path) -> None:
    """The program that showed the defect runs on the emulator with no sanitizer finding, and the
    emitted code carries the fix; the emulator's check stays guarded by a planted kernel."""
    code, diagnostics, text = run_cpp(fixed.script)
    assert code == 0 and not diagnostics, text[-3000:]
    emit_script(fixed.script, tmp_path)
    (emitted,) = tmp_path.glob(f"*/{fixed.file}")
    lines = [line.strip() for line in emitted.read_text().splitlines()]
    start = next((i for i, line in enumerate(lines) if line.startswith(fixed.before)), None) if fixed.before else 0
    assert start is not None, f"{fixed.before!r} not in {emitted}"
    assert any(fixed.fix in line for line in lines[start:]), f"{fixed.fix!r} not after {fixed.before!r} in {emitted}"
    assert (SANITIZER / f"{fixed.guard}.cpp").is_file()


def test_fp32_copies_are_unpacked_straight_into_dst(tmp_path) -> None:
    """Defect 4 in the hosts: the Float32 buffer the compute kernel copies into DST is
    UnpackToDestFp32 in the manifest and the C++ host; with the mode taken away, the emulator's
    TF32 warning (E5411) comes back at the copy."""
    emit_script(EXAMPLES / "compare_sfpu_chain.py", tmp_path)
    (manifest,) = tmp_path.glob("*/manifest.json")
    config = json.loads(manifest.read_text())["compute_config"]
    assert config["unpack_to_dest_fp32"] == [0] and config["num_circular_buffers"] == 32
    assert "_unpack_to_dest[0] = UnpackToDestMode::UnpackToDestFp32;" in (manifest.parent / "main.cpp").read_text()


def test_fp32_copies_without_unpack_to_dest_are_tf32(monkeypatch) -> None:
    """What the hardware does without the mode (docs/numerics.md section 4): the same emitted
    kernels, run with every buffer in Default mode, drop 13 mantissa bits (warning E5411)."""
    original = ttnn.generic_op

    def without_unpack_to_dest(io_tensors, program):
        for kernel in program.kernels:
            if isinstance(kernel.config, ttnn.ComputeConfigDescriptor):
                kernel.config.unpack_to_dest_mode = []
        return original(io_tensors, program)

    monkeypatch.setattr(ttnn, "generic_op", without_unpack_to_dest)
    _, diagnostics, text = run_cpp(EXAMPLES / "compare_sfpu_chain.py")
    tf32 = [d for d in diagnostics if d["code"] == "E5411"]
    assert tf32 and tf32[0]["severity"] == "warning", text[-3000:]
    # at the TT-Lang line that reads the block, the emitted copy_tile line as the first note
    assert tf32[0]["span"]["file"] == str(EXAMPLES / "compare_sfpu_chain.py")
    assert "copy_tile(" in source_line(tf32[0]["notes"][0]), text[-3000:]


def test_fp32_read_by_the_fpu_is_warned_at_its_line() -> None:
    """Where no UnpackToDestFp32 path exists (matmul, reduce, transpose), the device reads Float32
    blocks as TF32; tilecraft run computes in fp32 and says so at the operation (W3002). The
    emulator shows the difference: broadcast_center_rows' row means differ by up to 4e-3, so the
    example checks its result to the device's precision."""
    path = EXAMPLES / "broadcast_center_rows.py"
    code, diagnostics, text = run_at("language", path)
    assert code == 0, text[-3000:]
    (tf32,) = [d for d in diagnostics if d["code"] == "W3002"]
    assert tf32["severity"] == "warning" and "reduce_sum reads a Float32 block of 'x_dfb'" in tf32["message"]
    assert (tf32["span"]["line"], tf32["span"]["col"]) == (42, 28)
    assert "ttl.math.reduce_sum(x_blk" in Path(tf32["span"]["file"]).read_text().splitlines()[41]


def test_a_float32_block_read_by_the_fpu_and_into_dst_keeps_its_bits_in_dst() -> None:
    """The last expected failure of test_examples_cpp.py (broadcast_center_rows): a Float32 block
    that reduce reads through SrcA and the SFPU subtraction copies into DST. The copy read it as
    TF32 (E5411), so ``x - rowmax(x)`` lost 13 bits of ``x``; it now reads the block through a
    second buffer index in UnpackToDestFp32 mode, and every level gives torch's bits (the row
    maxima are exact in TF32, so the reduce is exact too)."""
    script = PLANTED / "fp32_read_both_ways.py"
    code, want, err = script_values(script)
    assert code == 0, err[-3000:]
    x, y, z = want
    assert torch.equal(y, x - 4.5) and torch.equal(z, x - 4.5)
    for level in ("metal", "cpp"):
        code, got, err = script_values(script, "--level", level)
        assert code == 0 and "error[" not in err and "warning[E" not in err, f"{level}: {err[-3000:]}"
        assert all(torch.equal(g, w) for g, w in zip(got, want, strict=True)), level


def test_the_copies_of_a_block_the_fpu_also_reads_name_a_second_index_on_its_pages(tmp_path) -> None:
    """What the emitter writes for that block (metal/dst_view.py): ``x_dfb_to_dst`` on the pages of
    ``x_dfb`` (one CircularBufferConfig, two indices; no L1 of its own), in UnpackToDestFp32 mode
    while ``x_dfb`` stays in Default for the reduce; the kernel that pushes a buffer's pages
    publishes them under its view too (the reader for ``x_dfb``, the compute kernel for ``w_dfb``),
    and the compute kernel waits for and pops both."""
    emit_script(PLANTED / "fp32_read_both_ways.py", tmp_path)
    (manifest_path,) = tmp_path.glob("*/manifest.json")
    manifest = json.loads(manifest_path.read_text())
    buffers = {cb["name"]: cb for cb in manifest["circular_buffers"]}
    x, view = buffers["x_dfb"], buffers["x_dfb_to_dst"]
    assert view["shares_pages_of"] == x["index"] and "shares_pages_of" not in x
    assert (view["data_format"], view["page_size"], view["total_size"]) == ("Float32", 4096, x["total_size"])
    modes = manifest["compute_config"]["unpack_to_dest_fp32"]
    assert view["index"] in modes and x["index"] not in modes
    host = (manifest_path.parent / "main.cpp").read_text()
    assert (f"CircularBufferConfig({x['total_size']}, {{{{{x['index']}, tt::DataFormat::Float32}}, "
            f"{{{view['index']}, tt::DataFormat::Float32}}}}).set_page_size({x['index']}, 4096)"
            f".set_page_size({view['index']}, 4096));  // x_dfb, x_dfb_to_dst") in host
    assert f"_unpack_to_dest[{view['index']}] = UnpackToDestMode::UnpackToDestFp32;" in host
    reader = [line.strip() for line in (manifest_path.parent / "read.cpp").read_text().splitlines()]
    push = reader.index("cb_push_back(cb_x_dfb, 2);")
    assert reader[push + 1:push + 3] == ["cb_reserve_back(cb_x_dfb_to_dst, 2);", "cb_push_back(cb_x_dfb_to_dst, 2);"]
    lines = [line.strip() for line in (manifest_path.parent / "math.cpp").read_text().splitlines()]
    assert not any(line.startswith(("cb_reserve_back(cb_x_dfb_to_dst", "cb_push_back(cb_x_dfb_to_dst"))
                   for line in lines)
    push = lines.index("cb_push_back(cb_w_dfb, 2);")
    assert lines[push + 1:push + 3] == ["cb_reserve_back(cb_w_dfb_to_dst, 2);", "cb_push_back(cb_w_dfb_to_dst, 2);"]
    for name in ("x_dfb", "w_dfb"):
        assert lines[lines.index(f"cb_wait_front(cb_{name}, 2);") + 1] == f"cb_wait_front(cb_{name}_to_dst, 2);"
        assert lines[lines.index(f"cb_pop_front(cb_{name}, 2);") + 1] == f"cb_pop_front(cb_{name}_to_dst, 2);"
        assert any(line.startswith(f"reduce_tile<PoolType::MAX, ReduceDim::REDUCE_ROW>(cb_{name}, ") for line in lines)
    copies = [line for line in lines if line.startswith("copy_tile(")]
    assert copies and all(line.startswith(("copy_tile(cb_x_dfb_to_dst, ", "copy_tile(cb_w_dfb_to_dst, "))
                          for line in copies), copies


def test_a_block_stored_again_before_its_push_runs_as_at_the_language_level() -> None:
    """Found by the ``--level cpp`` property campaign: a second store into a reserved block before
    its push (``y.store(a); y.store(b)``, or a store in a loop inside the reservation) was emitted
    as in-order ``pack_tile``, which packs after the pages already packed and so past the reserved
    ones (E5412). The repeated stores now address their pages (``pack_tile<true>``, which the
    real LLK runs on the Tensix machine): the second store overwrites the
    first, at every level, and equals torch bit for bit (every value is exact in bfloat16)."""
    script = PLANTED / "store_twice.py"
    code, want, err = script_values(script)
    assert code == 0, err[-3000:]
    x, y, z = (t.float() for t in want)
    assert torch.equal(y, x * 2.0) and torch.equal(z, x * 0.5)
    for level in ("metal", "cpp"):
        code, got, err = script_values(script, "--level", level)
        assert code == 0 and "error[" not in err and "warning[" not in err, f"{level}: {err[-3000:]}"
        assert all(torch.equal(g, w) for g, w in zip(got, want, strict=True)), level


def test_only_the_repeated_stores_address_their_pages(tmp_path) -> None:
    """The first store into a fresh reservation packs in order, as every other emitted store does
    (their C++ is unchanged); the second store of ``yb`` and the looped store of ``zb`` carry
    ``pack_tile<true>``, and so do no stores of blocks stored once per branch (init_across_if_else)."""
    emit_script(PLANTED / "store_twice.py", tmp_path / "twice")
    packs = [line.strip() for line in (tmp_path / "twice" / "store_twice" / "math.cpp").read_text().splitlines()
             if line.strip().startswith("pack_tile")]
    assert [p.split("(")[0] for p in packs] == ["pack_tile", "pack_tile<true>", "pack_tile<true>"], packs
    assert "cb_y_dfb" in packs[1] and "cb_z_dfb" in packs[2]
    emit_script(PLANTED / "init_across_if_else.py", tmp_path / "branches")
    (math,) = (tmp_path / "branches").glob("*/math.cpp")
    assert "pack_tile(" in math.read_text() and "pack_tile<" not in math.read_text()


def int32_goldens(x: torch.Tensor, z: torch.Tensor, e: torch.Tensor) -> list[torch.Tensor]:
    """torch's int32 arithmetic (which wraps around, as the device does) on int32_math.py's stores."""
    flags = ((e < x).int() + (e > z).int() * 2 + (x <= z).int() * 4 + (x >= e).int() * 8 + (x == z).int() * 16
             + (e != x).int() * 32)
    return [x * z - x + z - 7, torch.where(e >= x, torch.maximum(e, z), torch.minimum(e, x)), flags,
            torch.relu(x) - z.abs() - x * 2 + z * z - (5 - x), x * 65536]


def test_int32_block_math_takes_the_integer_calls_at_every_level() -> None:
    """Found by the ``--level cpp`` property campaign: block math on Int32 blocks was emitted as the
    float calls, which the device computes on the integers' bit patterns as floats. It now takes
    0.81.1's integer SFPU calls, and on the Tensix machine (the real LLK) every store equals torch's
    int32 arithmetic bit for bit, with negatives, the format's extremes (compared and selected) and
    products up to 46000^2. Where a value leaves the Int32 range (``x * 65536``) the device wraps
    around as torch does, and the language level (and the Metalium level, which computes as it
    does) saturates at the store: the documented difference (docs/numerics.md)."""
    script = PLANTED / "int32_math.py"
    code, want, err = script_values(script)
    assert code == 0 and "error[" not in err and "warning[" not in err, err[-3000:]
    x, z, e = want[:3]
    goldens = int32_goldens(x, z, e)
    for got, golden in zip(want[3:7], goldens[:4], strict=True):
        assert torch.equal(got, golden)
    wide = x.long() * 65536
    assert torch.equal(want[7], wide.clamp(-(2**31), 2**31 - 1).int())  # saturated
    assert not torch.equal(want[7], goldens[4])
    for level in ("metal", "cpp"):
        code, got, err = script_values(script, "--level", level)
        assert code == 0 and "error[" not in err and "warning[" not in err, f"{level}: {err[-3000:]}"
        assert all(torch.equal(g, w) for g, w in zip(got[:7], want[:7], strict=True)), level
        assert torch.equal(got[7], want[7] if level == "metal" else goldens[4]), level


def test_int32_block_math_emits_the_integer_calls(tmp_path) -> None:
    """The emitted compute kernel of int32_math.py calls the integer forms only, with their 0.81.1
    template arguments, and no float SFPU or FPU call."""
    emit_script(PLANTED / "int32_math.py", tmp_path)
    math = (tmp_path / "int32_math" / "math.cpp").read_text()
    for call in ("add_int_tile<DataFormat::Int32>(", "sub_int_tile<DataFormat::Int32>(", "mul_int_tile_init<DataFormat::Int32>()",
                 "binary_max_int32_tile(", "binary_min_int32_tile(", "lt_int_tile<DataFormat::Int32>(",
                 "eq_int_tile_init<DataFormat::Int32>()", "where_tile<DataFormat::Int32>(", "abs_tile_int32(",
                 "negative_tile_int32(", "relu_tile_int32(", "fill_tile_int<DataFormat::Int32>(1, 0x00010000u)"):
        assert call in math, call
    for float_call in ("_binary_tile(", "add_tiles(", "sub_tiles(", "fill_tile(", "binary_max_tile("):
        assert float_call not in math, float_call


@pytest.mark.slow  # a kernel of its own (about 25 s cold); test_a_block_stored_again_before_its_push covers pack_tile<true>
def test_a_transposed_block_stored_twice_stays_in_its_pages() -> None:
    """Found by the ``--level cpp`` property campaign (seed 1, 8 programs per kind; two transpose
    programs stopped at E5208 before the fix): a transposed block of three tiles stored twice in
    one reservation. The first store packs its three pages in order; the second, in order too,
    went on to page 3, beyond the reserved ones. It now addresses its pages (``pack_tile<true>``)
    and the emitted program runs on the Tensix machine with no finding, equal to torch and to the
    language level bit for bit."""
    script = PLANTED / "transpose_twice.py"
    code, want, err = script_values(script)
    assert code == 0, err[-3000:]
    x, y = want
    assert torch.equal(y, torch.sign(x.float()).T ** 3)
    code, got, err = script_values(script, "--level", "cpp")
    # the one finding is E5411: the transpose reads its computed operand as TF32 (exact for -1, 0, 1)
    assert code == 0 and "error[" not in err and err.count("warning[") == err.count("warning[E5411]"), err[-3000:]
    assert all(torch.equal(g, w) for g, w in zip(got, want, strict=True))


def test_division_by_a_number_is_not_div_unary_tile(tmp_path) -> None:
    """Found reproducing a seed-1 campaign program (broadcast, a golden mismatch on the Tensix
    machine): ``x / 2.0`` was emitted as ``div_unary_tile(idst, bits(2.0))``, which 0.81.1 computes
    as ``x * 2.0`` (ckernel_sfpu_binop_with_unary.h: the host passes the reciprocal), and the first
    engine divided, hiding it. A power of two now multiplies by its exact reciprocal (the same
    bits as dividing), any other number goes through the SFPU's division of two tiles."""
    script = PLANTED / "store_twice.py"
    path = tmp_path / "divide.py"
    path.write_text(script.read_text().replace("xb * 2.0)  # overwrites", "xb / 4.0)  # overwrites")
                    .replace("zb.store(xb * 0.5)", "zb.store(xb / 3.0)")
                    .replace("x_host * 2.0)", "x_host / 4.0)")
                    .replace("assert torch.equal(ttnn.to_torch(z).float(), x_host * 0.5)", ""))
    emit_script(path, tmp_path / "emitted")
    (math,) = (tmp_path / "emitted").glob("*/math.cpp")
    assert "div_unary_tile" not in math.read_text() and "mul_unary_tile" in math.read_text()
    assert "div_binary_tile" in math.read_text()
    code, want, err = script_values(path)
    assert code == 0, err[-3000:]
    code, got, err = script_values(path, "--level", "cpp")
    assert code == 0 and "error[" not in err, err[-3000:]
    x, y, z = got
    assert torch.equal(y, want[1]) and torch.equal(y.float(), x.float() / 4.0)
    assert torch.allclose(z.float(), x.float() / 3.0, rtol=1e-2, atol=1e-2)
