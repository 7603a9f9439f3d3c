"""Phase 2 alone: the value evaluation of the matmul tutorials, its seconds and the memory it adds.

Why this shape (issue 12): the whole-process benchmark (bench_scale) mixes phase 1 (the
synchronisation skeleton and the recording of the dataflow graph) with phase 2 (evaluating that
graph). This one runs ``tilecraft run`` on a resized tutorial in a child process and wraps the
evaluator the engine builds, so it can report, per run:

- ``phase1_s``: from the start of the process to the evaluator's construction (imports, compile,
  skeleton, recording);
- ``phase2_s``: the evaluator's construction and run (what levels.py/chains.py/values.py cost), and
  ``phase2_cpu_s`` the process's CPU seconds over the same span (``time.process_time``: on a shared
  machine wall time is mostly waiting for a core);
- ``rss_before_mib``: the resident set when phase 2 starts; ``peak_phase2_mib``: the peak (VmHWM)
  when phase 2 ends (its excess over the first is at most what phase 2 adds on top of the
  recording, exactly that when phase 1's own peak is lower); ``peak_mib``: the process's peak at its
  end (the tutorial's own host code, e.g. its torch reference check, runs after phase 2).

Each case runs ``--repeat`` times in fresh processes (alternating cases, so a change in machine
load hits all of them); the medians are printed with the load average before and after.
OMP_NUM_THREADS=1 for every child.

    .venv/bin/python -m benchmarks.bench_values --size 2048 --repeat 3
    .venv/bin/python -m benchmarks.bench_values --size 4096 --case step1 --exact   # the reference mode
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.tutorial_sources import matmul_size, write_resized

CASES = {"step1": "matmul/step_1_single_node_single_tile_block.py",
         "step4": "matmul/step_4_multinode_grid_full.py"}

#: the child: run the script through the CLI with the engine's evaluator factory wrapped
CHILD = """\
import json, sys, time
t0 = time.perf_counter()
result_path, run_args = sys.argv[1], sys.argv[2:]  # the script run sees its own argv
from tilecraft.sim.language import engine

def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) / 1024
    return 0.0

real = engine.evaluator_for
times = {}

class Timed:
    def __init__(self, rec, exact, device=None):
        times["phase1_s"] = time.perf_counter() - t0
        times["rss_before_mib"] = status("VmRSS:")
        start, cpu = time.perf_counter(), time.process_time()
        self.inner = real(rec, exact, device)
        self.start, self.cpu = start, cpu

    def run(self):
        self.inner.run()
        times["phase2_s"] = time.perf_counter() - self.start
        times["phase2_cpu_s"] = time.process_time() - self.cpu
        times["peak_phase2_mib"] = status("VmHWM:")

    def __getattr__(self, name):
        return getattr(self.inner, name)

engine.evaluator_for = Timed
from tilecraft.cli import main
code = main(["run", *run_args])
times["peak_mib"] = status("VmHWM:")
with open(result_path, "w") as out:
    json.dump(times, out)
sys.exit(code)
"""


def run_child(python: str, script: Path, exact: bool, workdir: Path) -> dict[str, float]:
    result = workdir / "times.json"
    result.unlink(missing_ok=True)
    cmd = [python, "-c", CHILD, str(result), str(script), *(["--exact"] if exact else [])]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    proc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode or not result.exists():
        raise SystemExit(f"{script.name} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return json.loads(result.read_text())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=2048, help="M = K = N")
    parser.add_argument("--case", action="append", choices=sorted(CASES), help="default: every case")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--exact", action="store_true", help="time the exact mode instead")
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args(argv)
    cases = args.case or sorted(CASES)
    print(f"load before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        scripts = {c: write_resized(CASES[c], matmul_size(args.size, args.size, args.size), workdir / c)
                   for c in cases}
        runs: dict[str, list[dict[str, float]]] = {c: [] for c in cases}
        for _ in range(args.repeat):
            for c in cases:
                runs[c].append(run_child(args.python, scripts[c], args.exact, workdir))
    print(f"load after: {os.getloadavg()}")
    for c in cases:
        med = {key: statistics.median(r[key] for r in runs[c]) for key in runs[c][0]}
        phase2 = ", ".join(f"{r['phase2_s']:.2f}" for r in runs[c])
        cpu = ", ".join(f"{r['phase2_cpu_s']:.2f}" for r in runs[c])
        print(f"{c} {args.size}^3{' --exact' if args.exact else ''}: phase2 {med['phase2_s']:.2f} s "
              f"(runs: {phase2}), CPU {med['phase2_cpu_s']:.2f} s (runs: {cpu}), phase1 {med['phase1_s']:.2f} s, rss at phase 2 {med['rss_before_mib']:.0f} MiB, "
              f"peak by the end of phase 2 {med['peak_phase2_mib']:.0f} MiB (+{med['peak_phase2_mib'] - med['rss_before_mib']:.0f}), "
              f"of the process {med['peak_mib']:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
