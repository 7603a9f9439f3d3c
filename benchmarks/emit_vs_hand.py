"""Emitted kernels against hand-written ones and the published compiler, by the kernel-level model.

    OMP_NUM_THREADS=1 .venv/bin/python -m benchmarks.emit_vs_hand [--write-docs] [--no-published]

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

``--write-docs`` replaces the table between the markers in docs/emit.md. Predictions are
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

from benchmarks.emit_comparison import call_sequence
from tilecraft import session
from tilecraft.diagnostics import KernelError
from tilecraft.emu import trace as tr
from tilecraft.emu.program import ProgramSpec
from tilecraft.metal.reference_kernels import DIRECTORY as REFERENCE
from tilecraft.perf import estimate_kernels
from tilecraft.perf.result import Estimate
from tilecraft.scripts import install_modules

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "emit.md"
BEGIN, END = "<!-- emit_vs_hand:begin -->", "<!-- emit_vs_hand:end -->"
TTLANG = Path("/tmp/ttlang")
COMPUTE_KINDS = frozenset(range(tr.HW_STARTUP, tr.COPY_DEST + 1))
NOC_KINDS = frozenset({tr.NOC_READ, tr.NOC_WRITE, tr.NOC_MCAST, tr.SEM_REMOTE, tr.SEM_MCAST})


@dataclass
class Side:
    """One kernel-level program's measurements."""

    calls_per_tile: float
    l1_bytes: int
    noc_transactions: int
    cycles: float


def measure(program: ProgramSpec, est: Estimate, out_tiles: int) -> Side:
    events = est.run.kernel_trace.events
    kinds = events["kind"]
    compute = int(np.isin(kinds, list(COMPUTE_KINDS)).sum())
    noc = int(np.isin(kinds, list(NOC_KINDS)).sum())
    per_core: dict[tuple[int, int], int] = {}
    for cb in program.cbs:
        for core in cb.cores:
            per_core[core] = per_core.get(core, 0) + cb.total_size
    return Side(compute / max(1, out_tiles), max(per_core.values(), default=0), noc, est.cycles)


# ---------------------------------------------------------------- hand-written hosts (reference_kernels)
def _tiles(t: Any) -> int:
    return int(np.prod(t.padded_shape)) // 1024


def _host(example: str, tensors: list, runtime: Callable[[list], tuple[list, list, list]],
          compile_args: Callable[[list], tuple[list, list, list]], cbs: dict[int, tuple[Any, int]]) -> Any:
    """A generic_op program of reference_kernels/<example> on core (0, 0) over ``tensors``."""
    import ttnn
    core = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(0, 0))])
    reader_rt, compute_rt, writer_rt = runtime(tensors)
    reader_ct, compute_ct, writer_ct = compile_args(tensors)

    def kernel(role, rt_values, ct, config):
        rt = ttnn.RuntimeArgs()
        rt[0][0] = rt_values
        return ttnn.KernelDescriptor(kernel_source=str(REFERENCE / example / f"{role}.cpp"), core_ranges=core,
                                     compile_time_args=ct, runtime_args=rt, config=config)

    descriptors = [ttnn.CBDescriptor(total_size=pages * _page(tensor), core_ranges=core,
                                     format_descriptors=[ttnn.CBFormatDescriptor(
                                         buffer_index=index, data_format=tensor.dtype, page_size=_page(tensor))])
                   for index, (tensor, pages) in cbs.items()]
    program = ttnn.ProgramDescriptor(
        kernels=[kernel("reader", reader_rt, reader_ct, ttnn.ReaderConfigDescriptor()),
                 kernel("compute", compute_rt, compute_ct, ttnn.ComputeConfigDescriptor(
                     math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=tensors[0].dtype == ttnn.float32)),
                 kernel("writer", writer_rt, writer_ct, ttnn.WriterConfigDescriptor())],
        semaphores=[], cbs=descriptors)
    return ttnn.generic_op(tensors, program)


def _page(t: Any) -> int:
    """Bytes of one tile of the tensor (bfloat16 or float32, the formats these programs use)."""
    import ttnn
    return 4096 if t.dtype == ttnn.float32 else 2048


def _accessor(t: Any) -> list[int]:
    import ttnn
    return list(ttnn.TensorAccessorArgs(t).get_compile_time_args())


def hand_eltwise_add(tensors: list) -> Any:
    a, b, y = tensors
    n, block = _tiles(y), 4
    return _host("eltwise_add", tensors,
                 lambda t: ([a.buffer_address(), b.buffer_address(), n, 0], [n], [y.buffer_address(), n, 0]),
                 lambda t: ([*_accessor(a), *_accessor(b), block], [block], [*_accessor(y), block]),
                 {0: (a, 2 * block), 1: (b, 2 * block), 16: (y, 2 * block)})


def hand_sfpu_chain(tensors: list) -> Any:
    x, y = tensors
    n = _tiles(y)
    return _host("sfpu_chain", tensors,
                 lambda t: ([x.buffer_address(), n, 0], [n], [y.buffer_address(), n, 0]),
                 lambda t: (_accessor(x), [], _accessor(y)),
                 {0: (x, 2), 16: (y, 2)})


def hand_matmul(tensors: list) -> Any:
    a, b, y = tensors
    mt, kt = a.padded_shape[-2] // 32, a.padded_shape[-1] // 32
    nt = b.padded_shape[-1] // 32
    count = mt * nt
    return _host("matmul", tensors,
                 lambda t: ([a.buffer_address(), b.buffer_address(), 0, count, kt, nt], [count, kt],
                            [y.buffer_address(), 0, count]),
                 lambda t: ([*_accessor(a), *_accessor(b)], [], _accessor(y)),
                 {0: (a, 2), 1: (b, 2), 16: (y, 2)})


@dataclass(frozen=True)
class Case:
    label: str
    example: str        # examples/<example>.py, a TT-Lang program
    operation: str      # its @ttl.operation's name (for the published compiler)
    hand: Callable[[list], Any] | None
    reference: str      # reference_kernels/<reference>, or why there is none


CASES = (
    Case("elementwise add", "compare_eltwise_add", "eltwise_add", hand_eltwise_add, "eltwise_add"),
    Case("SFPU chain", "compare_sfpu_chain", "sfpu_chain", hand_sfpu_chain, "sfpu_chain"),
    Case("reduce", "row_reduce", "row_reduce", None, "not written yet"),
    Case("broadcast", "broadcast_center_rows", "center_rows", None, "not written yet"),
    Case("single-core matmul", "compare_matmul", "tiled_matmul", hand_matmul, "matmul"),
    Case("multicore multicast matmul", "matmul_row_multicast", "matmul_row_multicast", None, "not written yet"),
)


@dataclass
class Row:
    case: Case
    emitted: list[Side]
    hand: Side | None
    published_compute: list[str]
    published_l1: int | None
    note: str = ""


def run_case(case: Case) -> Row:
    """Run the example at --level cpp (timing each launch), then the hand-written host on its tensors."""
    install_modules()
    launched: list[tuple[ProgramSpec, Estimate]] = []
    results: list[tuple[Any, list]] = []

    def emulated(program: ProgramSpec, result: Any) -> None:
        launched.append((program, estimate_kernels(program, result.trace)))

    script = ROOT / "examples" / f"{case.example}.py"
    argv, path = sys.argv, list(sys.path)
    sys.argv, sys.path = [str(script)], [str(script.parent), *sys.path]
    note = ""
    try:
        with session.using(level="cpp", emulator_hooks=[emulated],
                           result_hooks=[lambda program, tensors: results.append((program, tensors))]), \
                contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            runpy.run_path(str(script), run_name="__main__")
    except (AssertionError, KernelError) as exc:  # timed all the same: the note says the values are wrong
        first = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else ""
        note = (f"the emitted program fails at --level cpp ({type(exc).__name__}{': ' + first if first else ''})"
                .replace("|", "/"))
    finally:
        sys.argv, sys.path = argv, path
    emitted = []
    for (spec, est), (_, tensors) in zip(launched, results):
        emitted.append(measure(spec, est, _tiles(tensors[-1])))
    if not results:  # it failed before a launch finished: nothing to compare
        return Row(case, emitted, None, [], None, note)
    hand = _hand_side(case, results[0][1]) if case.hand is not None else None
    published, l1 = published_compiler(case, [tuple(t.shape) for t in results[0][1]])
    return Row(case, emitted, hand, published, l1, note)


def _hand_side(case: Case, tensors: list) -> Side:
    import ttnn
    seen: list[tuple[ProgramSpec, Estimate]] = []
    device = ttnn.open_device(device_id=0)
    try:
        placed = [t.to(device) if t.device() is None else t for t in tensors]
        with session.using(emulator_hooks=[lambda p, r: seen.append((p, estimate_kernels(p, r.trace)))]):
            assert case.hand is not None
            case.hand(placed)
    finally:
        ttnn.close_device(device)
    (spec, est), = seen
    return measure(spec, est, _tiles(tensors[-1]))


# ---------------------------------------------------------------- the published compiler (compile-only)
def published_compiler(case: Case, shapes: list[tuple[int, ...]]) -> tuple[list[str], int | None]:
    """Compile the example's operation on tensors of ``shapes`` with tt-lang 1.1.6; its compute call
    sequence and CB bytes."""
    if not (TTLANG / "run_ttlang.sh").is_file() or not PUBLISHED:
        return [], None
    work = TTLANG / "emit_vs_hand"
    (work / "drivers").mkdir(parents=True, exist_ok=True)
    source = (ROOT / "examples" / f"{case.example}.py").read_text()
    source = source.replace("import tilecraft as ttl", "import ttl").replace("import tilecraft.ttnn as ttnn",
                                                                             "import ttnn")
    cut = source.index("\ntorch.manual_seed(")
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
    lines = ["| program | side | compute calls / tile | L1 B / core | NoC transactions | predicted cycles | "
             "emitted speed / hand-written |", "|---|---|---|---|---|---|---|"]
    for row in rows:
        if not row.emitted:
            lines.append(f"| {row.case.label} | emitted `{row.case.example}` | fails at `--level cpp` (below) | | | | - |")
        for i, side in enumerate(row.emitted):
            name = row.case.example + (f" (launch {i + 1})" if len(row.emitted) > 1 else "")
            ratio = f"**{row.hand.cycles / side.cycles:.0%}**" if row.hand is not None and len(row.emitted) == 1 \
                else "-"
            lines.append(f"| {row.case.label} | emitted `{name}` | {side.calls_per_tile:.1f} | {side.l1_bytes:,} | "
                         f"{side.noc_transactions:,} | {side.cycles:,.0f} | {ratio} |")
        if row.hand is not None:
            h = row.hand
            lines.append(f"| | hand-written `reference_kernels/{row.case.reference}` | {h.calls_per_tile:.1f} | "
                         f"{h.l1_bytes:,} | {h.noc_transactions:,} | {h.cycles:,.0f} | |")
        else:
            lines.append(f"| | hand-written: {row.case.reference} | | | | | |")
        if row.published_compute or row.published_l1 is not None:
            l1 = f"{row.published_l1:,}" if row.published_l1 is not None else "-"
            lines.append(f"| | published compiler (compile-only, not timed) | see below | {l1} | | | |")
    out = ["\n".join(lines), ""]
    for row in rows:
        if row.note:
            out.append(f"- `{row.case.example}`: {row.note}.")
    for row in rows:
        if row.published_compute:
            out.append(f"- `{row.case.example}`, published compiler's compute kernel: "
                       f"`{' '.join(row.published_compute)}`")
    return "\n".join(out)


def write_docs(text: str) -> None:
    doc = DOC.read_text()
    block = f"{BEGIN}\n{text}\n{END}"
    if BEGIN in doc:
        doc = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, doc, flags=re.S)
    else:
        doc = doc.rstrip("\n") + "\n\n" + block + "\n"
    DOC.write_text(doc)


PUBLISHED = True


def main() -> None:
    global PUBLISHED
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write-docs", action="store_true", help="replace the table in docs/emit.md")
    parser.add_argument("--no-published", action="store_true", help="skip the published compiler")
    parser.add_argument("--only", help="run only the cases whose example contains this text")
    args = parser.parse_args()
    PUBLISHED = not args.no_published
    rows = []
    for case in CASES:
        if args.only and args.only not in case.example:
            continue
        rows.append(run_case(case))
        print(f"{case.label}: done", file=sys.stderr, flush=True)
    text = table(rows)
    print(text)
    if args.write_docs:
        write_docs(text)
        print(f"wrote {DOC}", file=sys.stderr)


if __name__ == "__main__":
    main()
