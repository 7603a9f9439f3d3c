"""Emitted kernels against hand-written ones and the published compiler, by the kernel-level model.

    OMP_NUM_THREADS=1 .venv/bin/python -m benchmarks.emit_vs_hand [--write-docs] [--no-published]
        [--yardsticks] [--arch wormhole_b0,blackhole] [--only TEXT]

For each program (elementwise, SFPU chain, reduce, broadcast, single-core matmul, multicore
multicast matmul) it runs the TT-Lang example as its emitted C++ on the kernel emulator
(``--level cpp``) and, where we have one, our hand-written kernels (tilecraft/metal/reference_kernels)
on the same tensors, and times both with the kernel-level cost model (tilecraft/perf/kernel_replay.py)
from the calls each RISC made. Per side: compute API calls per output tile, L1 bytes of circular
buffers per core, NoC transactions (reads, writes, multicasts, remote semaphore writes), predicted
cycles, and the emitted kernel's speed as a share of the hand-written one's. The published TT-Lang
compiler (../shared/tools/ttlang-compiler, compile-only, set up in /tmp/ttlang) compiles the same
operation; its compute kernel's call sequence and its CB bytes are listed beside ours (its kernels
target tt-metal 0.74 and cannot run on our 0.81.1 emulator, so they are not timed).

``--yardsticks`` runs issue 23's cases instead: TT-Lang programs written as a user would (named
expressions, no buffers placed for intermediates) -- flash attention (S=2048, D=128, 8x8 cores),
softmax and RMSNorm over rows, matmul with a bias + GELU epilogue -- against hand-written kernels
(reference_kernels/flash_attention, reference_kernels/matmul_bias_gelu) or, for softmax and RMSNorm,
ttnn 0.81.1's own kernels from the wheel (tilecraft/ttnn/wheel_ops/norms.py). Every case is timed on each
architecture of ``--arch`` (default: Wormhole and Blackhole), program, hand-written host and model.

``--lines`` also prints, for every side timed, the kernel-level model's per-line report (cycles and
stalls per source line of each kernel, as ``tilecraft profile`` prints them): where the emitted
kernels spend the cycles the hand-written ones do not.

``--write-docs`` replaces the table between the markers in docs/emit.md (the yardsticks have their
own markers). Predictions are
deterministic (no timing noise: the emulator's run time is not what is measured).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import re
import runpy
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from benchmarks.emit_comparison import call_sequence
from tilecraft import session
from tilecraft.diagnostics import KernelError
from tilecraft.emu import wheel_kernels
from tilecraft.emu.codes import Ev
from tilecraft.emu.program_spec import ProgramSpec
from tilecraft.metal.reference_kernels import DIRECTORY as REFERENCE
from tilecraft.metal.lower import lower_program
from tilecraft.perf import estimate_kernels, estimate_lowered
from tilecraft.perf.report import format_estimate
from tilecraft.perf.result import Estimate
from tilecraft.scripts import install_modules
from tilecraft.ttnn.wheel_ops.norms import layernorm_program, softmax_program
from tilecraft.ttnn.wheel_ops.program import largest_block, run

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "emit.md"
BEGIN, END = "<!-- emit_vs_hand:begin -->", "<!-- emit_vs_hand:end -->"
YARDSTICK_BEGIN, YARDSTICK_END = "<!-- emit_vs_hand:yardsticks:begin -->", "<!-- emit_vs_hand:yardsticks:end -->"
TTLANG = Path("/tmp/ttlang")
COMPUTE_KINDS = frozenset(range(Ev.HW_STARTUP, Ev.COPY_DEST + 1))
ARCH_NAMES = {"wormhole_b0": "Wormhole", "blackhole": "Blackhole"}
NOC_KINDS = frozenset({Ev.NOC_READ, Ev.NOC_WRITE, Ev.NOC_MCAST, Ev.SEM_REMOTE, Ev.SEM_MCAST})


@dataclass
class Side:
    """One kernel-level program's measurements."""

    calls_per_tile: float
    l1_bytes: int
    noc_transactions: int
    cycles: float
    microseconds: float
    #: the kernel-level model's report, per source line (``--lines``)
    lines: str = field(default="", repr=False)


def measure(program: ProgramSpec, est: Estimate, out_tiles: int) -> Side:
    per_core: dict[tuple[int, int], int] = {}
    for cb in program.cbs:
        for core in cb.cores:
            per_core[core] = per_core.get(core, 0) + cb.total_size
    return _side(est, max(per_core.values(), default=0), out_tiles)


def measure_lowered(program: Any, out_tiles: int, arch: str) -> Side:
    """The emitted kernels timed through the metal-level simulation of their kernel IR (the same calls
    as their C++, tests/perf/test_perf_kernel.py): for programs whose C++ does not run on the emulator yet."""
    l1 = sum(cb.pages * cb.page_bytes for cb in lower_program(program, arch).cbs)
    return _side(estimate_lowered(program, arch), l1, out_tiles)


def _side(est: Estimate, l1_bytes: int, out_tiles: int) -> Side:
    kinds = est.run.kernel_trace.events["kind"]
    compute = int(np.isin(kinds, list(COMPUTE_KINDS)).sum())
    noc = int(np.isin(kinds, list(NOC_KINDS)).sum())
    return Side(compute / max(1, out_tiles), l1_bytes, noc, est.cycles, est.seconds * 1e6, format_estimate(est))


# ---------------------------------------------------------------- hand-written hosts (reference_kernels)
def _tiles(t: Any) -> int:
    return int(np.prod(t.padded_shape)) // 1024


def _host(example: str, tensors: list, runtime: Callable[[int], tuple[list, list, list]],
          compile_args: Callable[[list], tuple[list, list, list]], cbs: dict[int, tuple[Any, int]],
          grid: tuple[int, int] = (1, 1), fp32_dest: bool | None = None, borrowed: dict[str, str] | None = None,
          unpack_to_dest: tuple[int, ...] = ()) -> Any:
    """A generic_op program of reference_kernels/<example>/{reader,compute,writer}.cpp (a role in
    ``borrowed`` takes another example's kernel) on the cores (0, 0) .. ``grid`` - (1, 1) over ``tensors``;
    the CBs ``unpack_to_dest`` are only copied into DST, whole (UnpackToDestFp32). ``runtime(i)`` gives the i-th core's (row-major) runtime args;
    each CB is (a tensor or a data format, pages); DST is fp32 when ``fp32_dest`` (by default: when
    the first tensor is)."""
    import ttnn
    cols, rows = grid
    core = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(cols - 1, rows - 1))])
    per_core = {(x, y): runtime(y * cols + x) for y in range(rows) for x in range(cols)}
    reader_ct, compute_ct, writer_ct = compile_args(tensors)
    if fp32_dest is None:
        fp32_dest = tensors[0].dtype == ttnn.float32
    modes = [ttnn.UnpackToDestMode.UnpackToDestFp32 if i in unpack_to_dest else ttnn.UnpackToDestMode.Default
             for i in range(32)]

    def kernel(role, which, ct, config):
        rt = ttnn.RuntimeArgs()
        for (x, y), args in per_core.items():
            rt[x][y] = args[which]
        source = REFERENCE / (borrowed or {}).get(role, example) / f"{role}.cpp"
        return ttnn.KernelDescriptor(kernel_source=str(source), core_ranges=core,
                                     compile_time_args=ct, runtime_args=rt, config=config)

    def descriptor(index: int, what: Any, pages: int) -> Any:
        fmt = getattr(what, "dtype", what)
        return ttnn.CBDescriptor(total_size=pages * _page(fmt), core_ranges=core, format_descriptors=[
            ttnn.CBFormatDescriptor(buffer_index=index, data_format=fmt, page_size=_page(fmt))])

    program = ttnn.ProgramDescriptor(
        kernels=[kernel("reader", 0, reader_ct, ttnn.ReaderConfigDescriptor()),
                 kernel("compute", 1, compute_ct, ttnn.ComputeConfigDescriptor(
                     math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=fp32_dest, unpack_to_dest_mode=modes)),
                 kernel("writer", 2, writer_ct, ttnn.WriterConfigDescriptor())],
        semaphores=[], cbs=[descriptor(index, what, pages) for index, (what, pages) in cbs.items()])
    return ttnn.generic_op(tensors, program)


def _page(dtype: Any) -> int:
    """Bytes of one tile of a data format (bfloat16 or float32, the formats these programs use)."""
    import ttnn
    return 4096 if dtype == ttnn.float32 else 2048


def _accessor(t: Any) -> list[int]:
    import ttnn
    return list(ttnn.TensorAccessorArgs(t).get_compile_time_args())


def hand_eltwise_add(device: Any, tensors: list) -> Any:
    a, b, y = tensors
    n, block = _tiles(y), 4
    return _host("eltwise_add", tensors,
                 lambda i: ([a.buffer_address(), b.buffer_address(), n, 0], [n], [y.buffer_address(), n, 0]),
                 lambda t: ([*_accessor(a), *_accessor(b), block], [block], [*_accessor(y), block]),
                 {0: (a, 2 * block), 1: (b, 2 * block), 16: (y, 2 * block)})


def hand_sfpu_chain(device: Any, tensors: list) -> Any:
    x, y = tensors
    n = _tiles(y)
    return _host("sfpu_chain", tensors,
                 lambda i: ([x.buffer_address(), n, 0], [n], [y.buffer_address(), n, 0]),
                 lambda t: (_accessor(x), [], _accessor(y)),
                 {0: (x, 2), 16: (y, 2)})


def hand_matmul(device: Any, tensors: list) -> Any:
    a, b, y = tensors
    mt, kt = a.padded_shape[-2] // 32, a.padded_shape[-1] // 32
    nt = b.padded_shape[-1] // 32
    count = mt * nt
    return _host("matmul", tensors,
                 lambda i: ([a.buffer_address(), b.buffer_address(), 0, count, kt, nt], [count, kt],
                            [y.buffer_address(), 0, count]),
                 lambda t: ([*_accessor(a), *_accessor(b)], [], _accessor(y)),
                 {0: (a, 2), 1: (b, 2), 16: (y, 2)})


def hand_reduce_rows(device: Any, tensors: list) -> Any:
    x, y = tensors
    bands, wt = x.padded_shape[-2] // 32, x.padded_shape[-1] // 32
    return _host("reduce_rows", tensors,
                 lambda i: ([x.buffer_address(), bands, 0], [bands], [y.buffer_address(), bands, 0]),
                 lambda t: ([*_accessor(x), wt], [wt], _accessor(y)),
                 {0: (x, 2 * wt), 2: (x, 1), 16: (y, 2)})


def hand_broadcast_rows(device: Any, tensors: list) -> Any:
    x, g, y = tensors
    bands, wt = x.padded_shape[-2] // 32, x.padded_shape[-1] // 32
    return _host("broadcast_rows", tensors,
                 lambda i: ([x.buffer_address(), g.buffer_address(), bands, 0], [bands],
                            [y.buffer_address(), bands, 0]),
                 lambda t: ([*_accessor(x), *_accessor(g), wt], [wt, 8], [*_accessor(y), wt]),
                 {0: (x, 2 * wt), 1: (g, wt), 16: (y, 2 * wt)})


def hand_flash_attention(device: Any, tensors: list) -> Any:
    """reference_kernels/flash_attention on an 8x8 grid, the query blocks (one tile row each) shared
    as the TT-Lang program shares them; the writer is the matmul's (one tile at a time)."""
    import ttnn
    q, k, v, out = tensors
    grid, bk = (8, 8), 2
    d = q.padded_shape[-1] // 32
    q_blocks, kv_blocks = q.padded_shape[-2] // 32, k.padded_shape[-2] // 32 // bk
    per_core = -(-q_blocks // (grid[0] * grid[1]))
    scale = int(np.float32(1 / np.sqrt(q.padded_shape[-1])).view(np.uint32))

    def runtime(i: int) -> tuple[list, list, list]:
        first = min(i * per_core, q_blocks)
        count = min(per_core, q_blocks - first)
        return ([q.buffer_address(), k.buffer_address(), v.buffer_address(), first, count, kv_blocks],
                [count, kv_blocks, scale], [out.buffer_address(), first * d, count * d])

    fp32 = ttnn.float32
    return _host("flash_attention", tensors, runtime,
                 lambda t: ([*_accessor(q), *_accessor(k), *_accessor(v), d, bk], [d, bk], _accessor(out)),
                 {0: (q, 2 * d), 1: (k, 2 * bk * d), 2: (v, 2 * bk * d), 3: (q, 1), 4: (fp32, bk), 5: (fp32, bk),
                  6: (fp32, 1), 7: (fp32, 1), 8: (fp32, 2), 9: (fp32, 2 * d), 10: (fp32, 1), 11: (fp32, 1),
                  16: (out, 2 * d)},
                 grid=grid, fp32_dest=True, borrowed={"writer": "matmul"}, unpack_to_dest=(8,))


def hand_matmul_bias_gelu(device: Any, tensors: list) -> Any:
    """reference_kernels/matmul_bias_gelu on a 4x4 grid, the output blocks (2x2 tiles) shared as the
    TT-Lang program shares them."""
    import ttnn
    a, b, bias, y = tensors
    grid, (bm, bn, bk) = (4, 4), (2, 2, 2)
    n_blocks, k_blocks = b.padded_shape[-1] // 32 // bn, a.padded_shape[-1] // 32 // bk
    blocks = a.padded_shape[-2] // 32 // bm * n_blocks
    per_core = -(-blocks // (grid[0] * grid[1]))

    def runtime(i: int) -> tuple[list, list, list]:
        first = min(i * per_core, blocks)
        count = min(per_core, blocks - first)
        return ([a.buffer_address(), b.buffer_address(), bias.buffer_address(), first, count, n_blocks, k_blocks],
                [count, k_blocks], [y.buffer_address(), first, count, n_blocks])

    return _host("matmul_bias_gelu", tensors, runtime,
                 lambda t: ([*_accessor(a), *_accessor(b), *_accessor(bias), bm, bn, bk], [bm, bn, bk],
                            [*_accessor(y), bm, bn]),
                 {0: (a, 2 * bm * bk), 1: (b, 2 * bk * bn), 2: (bias, 2 * bn), 24: (ttnn.float32, bm * bn),
                  16: (y, 2 * bm * bn)}, grid=grid, fp32_dest=True)


def hand_ttnn_softmax(device: Any, tensors: list) -> Any:
    """ttnn 0.81.1's own softmax kernels (numerically stable), one core, every row."""
    x, y = tensors
    kernels, cbs = softmax_program(_wheel_ops(), x, y, largest_block(x.padded_shape[-1] // 32),
                                   stable=True, padded=0)
    return run(tensors, kernels, cbs)


def hand_ttnn_rmsnorm(device: Any, tensors: list) -> Any:
    """ttnn 0.81.1's own layernorm kernels with RMSNORM defined and the gain fused, one core, every row."""
    x, g, y = tensors
    kernels, cbs = layernorm_program(_wheel_ops(), x, y, 1e-5, largest_block(x.padded_shape[-1] // 32),
                                     gamma=g, beta=None, rms=True)
    return run(tensors, kernels, cbs)


def _wheel_ops() -> Path:
    """The ttnn wheel's operations directory (downloaded and unpacked once)."""
    return wheel_kernels.operations(wheel_kernels.ensure_kernels())


def hand_matmul_mcast(device: Any, tensors: list) -> Any:
    """examples/metal/matmul_multicore_mcast's host (hand-written kernels: reuse and multicast of both
    operands, matmul_block on sub-blocks) on a 4x4 grid."""
    a, b, y = tensors
    path = ROOT / "examples" / "metal" / "matmul_multicore_mcast" / "matmul_multicore_mcast.py"
    host = runpy.run_path(str(path), run_name="emit_vs_hand_host")
    return host["matmul_mcast"](device, a, b, y, rows=4, cols=4)


@dataclass(frozen=True)
class Case:
    label: str
    example: str        # examples/<example>.py or benchmarks/emit_programs/<example>.py, a TT-Lang program
    operation: str      # its @ttl.operation's name (for the published compiler)
    hand: Callable[[Any, list], Any] | None
    reference: str      # where the hand-written kernels are
    args: tuple[str, ...] = ()  # the script's command line


CASES = (
    Case("elementwise add", "compare_eltwise_add", "eltwise_add", hand_eltwise_add, "reference_kernels/eltwise_add"),
    Case("SFPU chain", "compare_sfpu_chain", "sfpu_chain", hand_sfpu_chain, "reference_kernels/sfpu_chain"),
    Case("reduce", "reduce_rows", "reduce_rows", hand_reduce_rows, "reference_kernels/reduce_rows"),
    Case("broadcast", "broadcast_rows", "scale_columns", hand_broadcast_rows, "reference_kernels/broadcast_rows"),
    Case("single-core matmul", "compare_matmul", "tiled_matmul", hand_matmul, "reference_kernels/matmul"),
    Case("multicore reuse/multicast matmul", "matmul_mcast", "matmul_mcast_reuse", hand_matmul_mcast,
         "examples/metal/matmul_multicore_mcast"),
)

#: issue 23's yardsticks: TT-Lang written as a user would (named expressions, no buffers placed for
#: intermediates) against hand-written kernels or ttnn's own (``--yardsticks``; their own table)
YARDSTICKS = (
    Case("flash attention", "flash_attention", "flash_attention", hand_flash_attention,
         "reference_kernels/flash_attention", ("--seq", "2048", "--head", "128", "--grid", "8,8")),
    Case("softmax over rows", "softmax_rows", "softmax", hand_ttnn_softmax,
         "ttnn 0.81.1 softmax.cpp (wheel)"),
    Case("RMSNorm", "rmsnorm_rows", "rmsnorm", hand_ttnn_rmsnorm, "ttnn 0.81.1 layernorm.cpp, RMSNORM (wheel)"),
    Case("matmul + bias + GELU", "matmul_bias_gelu", "matmul_bias_gelu", hand_matmul_bias_gelu,
         "reference_kernels/matmul_bias_gelu"),
)


@dataclass
class Row:
    case: Case
    arch: str
    emitted: list[Side]
    hand: Side | None
    published_compute: list[str]
    published_l1: int | None
    note: str = ""


def _script(case: Case) -> Path:
    own = ROOT / "benchmarks" / "emit_programs" / f"{case.example}.py"
    return own if own.is_file() else ROOT / "examples" / f"{case.example}.py"


def _run_script(script: Path, args: tuple[str, ...] = (), **changes: Any) -> tuple[str, list[tuple[Any, list]]]:
    """Run a TT-Lang script with command line ``args`` under ``session.using(**changes)``; (failure note,
    launched (program, tensors))."""
    install_modules()
    results: list[tuple[Any, list]] = []
    argv, path = sys.argv, list(sys.path)
    sys.argv, sys.path = [str(script), *args], [str(script.parent), *sys.path]
    note = ""
    try:
        with session.using(result_hooks=[lambda program, tensors: results.append((program, tensors))], **changes), \
                contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            runpy.run_path(str(script), run_name="__main__")
    except (AssertionError, KernelError) as exc:
        first = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else ""
        note = f"{type(exc).__name__}{': ' + first if first else ''}".replace("|", "/")
    finally:
        sys.argv, sys.path = argv, path
    return note, results


def run_case(case: Case, arch: str = "wormhole_b0", published: bool = True) -> Row:
    """Run the example at the language level (the reference values and the tensors), as its emitted C++
    (timing each launch), and the hand-written host on the same tensors (timed, checked), all on ``arch``."""
    script = _script(case)
    failed, reference = _run_script(script, case.args, arch=arch)
    if failed or not reference:
        raise RuntimeError(f"{script} fails at the language level: {failed}")
    launched: list[tuple[ProgramSpec, Estimate]] = []

    def emulated(program: ProgramSpec, result: Any) -> None:
        launched.append((program, estimate_kernels(program, result.trace, program.arch)))

    failed, results = _run_script(script, case.args, arch=arch, level="cpp", emulator_hooks=[emulated])
    note = f"the emitted program fails at --level cpp ({failed})" if failed else ""
    emitted = [measure(spec, est, _tiles(tensors[-1])) for (spec, est), (_, tensors) in zip(launched, results)]
    if not emitted:  # its C++ stops on the emulator: time its kernel IR at the metal level instead
        emitted = [measure_lowered(program, _tiles(tensors[-1]), arch) for program, tensors in reference]
        note += "; timed at --level metal (the lowered kernel IR's calls, the ones its C++ makes)"
    tensors = reference[0][1]
    hand = None
    if case.hand is not None:
        hand, wrong = _hand_side(case, tensors, arch)
        if wrong:
            note += ("; " if note else "") + f"the hand-written kernels' output differs from the language level: {wrong}"
    sequence, l1 = published_compiler(case, [tuple(t.shape) for t in tensors]) if published else ([], None)
    return Row(case, arch, emitted, hand, sequence, l1, note)


def _hand_side(case: Case, tensors: list, arch: str) -> tuple[Side, str]:
    """Time the hand-written host on ``tensors`` (outputs last, holding the language level's values),
    and check its output against those values."""
    import torch
    import ttnn
    expected = ttnn.to_torch(tensors[-1]).float().clone()
    tensors[-1].storage.zero_()
    seen: list[tuple[ProgramSpec, Estimate]] = []
    with session.using(arch=arch):
        device = ttnn.open_device(device_id=0)
    try:
        placed = [t.to(device) if t.device() is None else t for t in tensors]
        with session.using(arch=arch, emulator_hooks=[lambda p, r: seen.append((p, estimate_kernels(p, r.trace,
                                                                                                     p.arch)))]), \
                contextlib.redirect_stderr(io.StringIO()):
            assert case.hand is not None
            case.hand(device, placed)
        got = ttnn.to_torch(placed[-1]).float()
    finally:
        ttnn.close_device(device)
    (spec, est), = seen
    wrong = "" if torch.allclose(got, expected, rtol=2e-2, atol=2e-2 * float(expected.abs().max())) else \
        f"max |difference| {float((got - expected).abs().max()):.3g}"
    return measure(spec, est, _tiles(tensors[-1])), wrong


# ---------------------------------------------------------------- the published compiler (compile-only)
def published_compiler(case: Case, shapes: list[tuple[int, ...]]) -> tuple[list[str], int | None]:
    """Compile the example's operation on tensors of ``shapes`` with tt-lang 1.1.6; its compute call
    sequence and CB bytes."""
    if not (TTLANG / "run_ttlang.sh").is_file():
        return [], None
    work = TTLANG / "emit_vs_hand"
    (work / "drivers").mkdir(parents=True, exist_ok=True)
    source = _script(case).read_text()
    source = source.replace("import tilecraft as ttl", "import ttl").replace("import tilecraft.ttnn as ttnn",
                                                                             "import ttnn")
    cut = source.index("\ntorch.manual_seed(")
    if "@ttl.operation" not in source[:cut]:
        return ["(not run: the operation is built by a factory in another module)"], None
    driver = source[:cut] + ("\n\nimport ttnn as _fake\n_dev = _fake.Device()\n"
                             f"_args = [_fake.Tensor(s, device=_dev) for s in {shapes!r}]\n"
                             f"{case.operation}(*_args)\nprint('COMPILED_OK')\n")
    path = work / "drivers" / f"{case.example}.py"
    path.write_text(driver)
    out = work / "out" / case.example
    done = subprocess.run(["bash", str(TTLANG / "run_ttlang.sh"), str(path), str(out)], capture_output=True,
                          text=True, cwd=TTLANG)
    computes = sorted(out.glob("ttlang_kernel_compute*.cpp")) if done.returncode == 0 else []
    if not computes:
        return ["(did not compile: " + (done.stdout.strip().splitlines() or ["?"])[-1][:80] + ")"], None
    sequence = []
    for f in computes:
        sequence += call_sequence(f.read_text())
    return sequence, _cb_bytes(out / "runner.py")


def _cb_bytes(runner: Path) -> int | None:
    """Total CB bytes of the published compiler's host (its CB_CONFIGS rows end in total_size)."""
    if not runner.is_file():
        return None
    match = re.search(r"CB_CONFIGS\s*=\s*\[(.*?)\n\]", runner.read_text(), re.S)
    if match is None:
        return None
    sizes = re.findall(r",\s*(\d+)\),", match.group(1))
    return sum(int(size) for size in sizes) if sizes else None


# ---------------------------------------------------------------- report
def table(rows: list[Row]) -> str:
    lines = ["| program | arch | side | compute calls / tile | L1 B / core | NoC transactions | predicted cycles | "
             "predicted µs | emitted speed / hand-written |", "|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        arch = ARCH_NAMES.get(row.arch, row.arch)
        if not row.emitted:
            lines.append(f"| {row.case.label} | {arch} | emitted `{row.case.example}` | fails (below) | | | | | - |")
        for i, side in enumerate(row.emitted):
            name = row.case.example + (f" (launch {i + 1})" if len(row.emitted) > 1 else "")
            ratio = f"**{row.hand.cycles / side.cycles:.0%}**" if row.hand is not None and len(row.emitted) == 1 \
                else "-"
            lines.append(f"| {row.case.label} | {arch} | emitted `{name}` | {side.calls_per_tile:.1f} | "
                         f"{side.l1_bytes:,} | {side.noc_transactions:,} | {side.cycles:,.0f} | "
                         f"{side.microseconds:,.1f} | {ratio} |")
        if row.hand is not None:
            h = row.hand
            lines.append(f"| | | hand-written `{row.case.reference}` | {h.calls_per_tile:.1f} | "
                         f"{h.l1_bytes:,} | {h.noc_transactions:,} | {h.cycles:,.0f} | {h.microseconds:,.1f} | |")
        else:
            lines.append(f"| | | hand-written: {row.case.reference} | | | | | | |")
        if row.published_compute or row.published_l1 is not None:
            l1 = f"{row.published_l1:,}" if row.published_l1 is not None else "-"
            lines.append(f"| | | published compiler (compile-only, not timed) | see below | {l1} | | | | |")
    out = ["\n".join(lines), ""]
    for row in rows:
        if row.note:
            out.append(f"- `{row.case.example}` ({ARCH_NAMES.get(row.arch, row.arch)}): {row.note}.")
    for row in rows:
        if row.published_compute and row.arch == rows[0].arch:
            out.append(f"- `{row.case.example}`, published compiler's compute kernel: "
                       f"`{' '.join(row.published_compute)}`")
    return "\n".join(out)


def per_line(rows: list[Row]) -> str:
    """Each side's per-line report, headed by its case and architecture."""
    out = []
    for row in rows:
        sides = [("emitted", side) for side in row.emitted] + ([("hand-written", row.hand)] if row.hand else [])
        for name, side in sides:
            out += [f"\n## {row.case.label}, {ARCH_NAMES.get(row.arch, row.arch)}, {name}", side.lines]
    return "\n".join(out)


def write_docs(text: str, begin: str = BEGIN, end: str = END) -> None:
    doc = DOC.read_text()
    block = f"{begin}\n{text}\n{end}"
    if begin in doc:
        doc = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: block, doc, flags=re.S)
    else:
        doc = doc.rstrip("\n") + "\n\n" + block + "\n"
    DOC.write_text(doc)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write-docs", action="store_true", help="replace the table in docs/emit.md")
    parser.add_argument("--no-published", action="store_true", help="skip the published compiler")
    parser.add_argument("--only", help="run only the cases whose example contains this text")
    parser.add_argument("--arch", default=",".join(ARCH_NAMES),
                        help="comma-separated architectures to time on (default: both)")
    parser.add_argument("--lines", action="store_true",
                        help="also print each side's per-line report of the kernel-level model")
    parser.add_argument("--yardsticks", action="store_true",
                        help="issue 23's yardsticks (flash attention, softmax, RMSNorm, matmul + bias + GELU) "
                             "instead of the emitter comparisons; --write-docs writes their own table")
    args = parser.parse_args()
    rows = []
    for case in YARDSTICKS if args.yardsticks else CASES:
        if args.only and args.only not in case.example:
            continue
        for n, arch in enumerate(args.arch.split(",")):
            rows.append(run_case(case, arch, published=not args.no_published and n == 0))
            print(f"{case.label}, {arch}: done", file=sys.stderr, flush=True)
    text = table(rows)
    print(text)
    if args.lines:
        print(per_line(rows))
    if args.write_docs:
        write_docs(text, *((YARDSTICK_BEGIN, YARDSTICK_END) if args.yardsticks else (BEGIN, END)))
        print(f"wrote {DOC}", file=sys.stderr)


if __name__ == "__main__":
    main()
