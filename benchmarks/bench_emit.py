"""Emission time per example: lowering + C++ + hosts + manifest, median of N (target < 0.5 s);
and ``tilecraft emit`` of the published 8192^3 matmul tutorial (step 4, the full 8x8 grid) from
the launch to header-checked files on disk (target < 5 s).

    .venv/bin/python -m benchmarks.bench_emit [--repeat 5] [--tutorial-only] [--command]

The tutorial is timed as ``tilecraft emit`` runs it -- the launch builds the program (front end,
passes), lowers it, writes every file and runs the header check, nothing simulated -- on the
tutorial's own operation and tensors of its size, loaded as benchmarks/perf_tutorial.py loads
them. The script body around the launch is the tutorial's host code, not tilecraft's: it builds
the 8192^3 golden with torch on the CPU, which alone takes tens of seconds here; ``--command``
also times the whole command on the tutorial file once, to show that part.

Examples with constructs the emitter does not lower yet (pipes, run-time slice extents) are
listed as such, not timed.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.emit_tools import programs_of
from benchmarks.perf_tutorial import STEP4, load_definitions
from tests.tutorials import tutorials_dir
from tilecraft import session
from tilecraft.cli import Emitter
from tilecraft.diagnostics import KernelError
from tilecraft.metal.emit import emit_program
from tilecraft.scripts import install_modules

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def time_tutorial(repeat: int, size: int = 8192) -> list[float]:
    """Seconds from the launch of the tutorial's operation to its header-checked files, per run."""
    install_modules()
    import ttnn  # served by tilecraft after install_modules()

    times = []
    with tempfile.TemporaryDirectory() as tmp:
        ns = load_definitions(tutorials_dir() / STEP4, Path(tmp), ttnn.open_device(device_id=0))
        tensors = [ttnn.zeros((size, size), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT) for _ in range(3)]
        for run in range(repeat):
            emitter = Emitter(Path(tmp) / f"out{run}")
            start = time.perf_counter()
            with session.using(simulate=False, lowering_hooks=[emitter]), contextlib.redirect_stderr(io.StringIO()):
                ns["tutorial_operation"](*tensors)
            times.append(time.perf_counter() - start)
            if emitter.check_unavailable is not None:
                raise SystemExit(f"the header check did not run: {emitter.check_unavailable}")
            (program,) = emitter.done
            assert (Path(tmp) / f"out{run}" / program / "compute.cpp").exists()
    return times


def time_command() -> float:
    """Seconds of ``tilecraft emit`` on the published tutorial file, host code included."""
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "tilecraft", "emit", str(tutorials_dir() / STEP4), "-o", tmp],
                       check=True, capture_output=True, env={**os.environ, "OMP_NUM_THREADS": "1"})
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--tutorial-only", action="store_true", help="time only the 8192^3 tutorial")
    parser.add_argument("--command", action="store_true", help="also time the whole command on the tutorial file")
    args = parser.parse_args()
    print(f"load average before: {load()}")
    times = time_tutorial(args.repeat)
    print(f"tilecraft emit {STEP4} at 8192^3: launch to header-checked files, median {statistics.median(times):.2f} s, "
          f"max {max(times):.2f} s of {len(times)} runs (target < 5 s); load average {load()}")
    if args.command:
        print(f"the whole command on the tutorial file (its torch golden included): {time_command():.1f} s")
    if args.tutorial_only:
        return
    print(f"{'example':40} {'median ms':>10} {'max ms':>8}  files")
    worst = 0.0
    for script in sorted(EXAMPLES.glob("*.py")):
        programs = programs_of(script)
        times = []
        try:
            for _ in range(args.repeat):
                start = time.perf_counter()
                emitted = [emit_program(p) for p in programs]
                times.append(time.perf_counter() - start)
        except KernelError as exc:
            print(f"{script.stem:40} {'-':>10} {'-':>8}  not emitted: {exc.code} {exc.diagnostic.message[:60]}")
            continue
        median = statistics.median(times) * 1000
        worst = max(worst, median)
        files = sum(len(e.files) for e in emitted)
        print(f"{script.stem:40} {median:10.1f} {max(times) * 1000:8.1f}  {files}")
    print(f"slowest median: {worst:.1f} ms (target < 500 ms); load average after: {load()}")


if __name__ == "__main__":
    main()
