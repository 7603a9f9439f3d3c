"""Emission time per example: lowering + C++ + hosts + manifest, median of N (target < 0.5 s).

    .venv/bin/python -m benchmarks.bench_emit [--repeat 5]

Examples with constructs the emitter does not lower yet (pipes, run-time slice extents) are
listed as such, not timed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from benchmarks.emit_tools import programs_of
from tilecraft.diagnostics import KernelError
from tilecraft.metal.emit import emit_program

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
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
    print(f"slowest median: {worst:.1f} ms (target < 500 ms); load average after: "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
