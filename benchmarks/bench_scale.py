"""Simulation at the published sizes: the matmul tutorials against torch's own GEMM of the same size.

Why this shape (issue 12):
- Whole-process wall time and peak RSS of ``tilecraft run`` on the published matmul tutorials
  (step 1: one node, 1x1-tile blocks; step 4: 4x4-tile blocks on the full grid), unchanged apart
  from the problem size.
- The anchor is a separate process, in the same invocation, that imports torch, builds two fp32
  matrices of the same size and multiplies them once (one thread): the least any simulator of
  the tutorial must do on this machine. Machines differ several-fold, so quote the ratio to the
  anchor, not the seconds.
- Memory must not grow with the number of nodes: step 4 on a 1x1 and on an 8x8 grid.
- Each matmul tutorial's host code alone (``step1_host``, ``step4_host``: benchmarks/host_floor.py,
  every kernel call skipped), so the simulation's own share is the difference.
- The elementwise tutorials at their published size against a script that imports torch and
  builds the same tensors (what is left is the simulator's fixed cost).
- Runs alternate between cases, so a change in machine load hits all of them; the load average
  is printed before and after. OMP_NUM_THREADS=1 for every child (``--threads`` for the simulated
  ones, e.g. on a GPU machine, where the tutorial's own host GEMM is the larger cost).

    .venv/bin/python -m benchmarks.bench_scale                      # 8192^3, 1 run each (minutes)
    .venv/bin/python -m benchmarks.bench_scale --size 2048 --repeat 3
    .venv/bin/python -m benchmarks.bench_scale --device cuda        # on a machine with a GPU

See benchmarks/README.md for the targets.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_vs_reference import BEFORE_ENV, REPO_ROOT, Run, fmt, run_once
from benchmarks.tutorial_sources import elementwise_size, matmul_size, write_resized

MATMUL = {"step1": "matmul/step_1_single_node_single_tile_block.py",
          "step4": "matmul/step_4_multinode_grid_full.py"}
ELTWISE = ["elementwise/step_1_single_node_single_tile_block.py", "elementwise/step_4_multinode_grid_full.py"]
#: the elementwise tutorials' published size
ELTWISE_SIZE = 2048

ANCHOR = """\
import sys, torch
torch.set_num_threads(1)
n = int(sys.argv[1])
a, b = torch.randn(n, n), torch.randn(n, n)
c = a @ b
"""

#: what an elementwise tutorial does besides simulating: import torch, build its tensors, check
ELTWISE_HOST = """\
import torch
torch.manual_seed(42)
shape = (2048, 2048)
a, b, c, d = (torch.rand(shape, dtype=torch.bfloat16) for _ in range(4))
expected_y = (a * b + c) * d
print(expected_y)
assert torch.allclose(expected_y, expected_y)
"""

#: the targets of issue 12 (times relative to the anchor, memory in MiB, seconds over the host script)
WITHIN_ANCHOR = 3.0
PEAK_RSS_MIB = 2048
NODES_MIB = 128
ELTWISE_OVER_HOST_S = 0.3


def commands(args: argparse.Namespace, workdir: Path) -> dict[str, list[str]]:
    """Every process the benchmark times, by name."""
    py, n = args.python, args.size
    anchor = workdir / "anchor_gemm.py"
    anchor.write_text(ANCHOR)
    host = workdir / "eltwise_host.py"
    host.write_text(ELTWISE_HOST)
    run = [py, "-m", "tilecraft", "run"]
    device = ["--device", args.device] if args.device else []
    out = {"anchor": [py, str(anchor), str(n)]}
    for name, tutorial in MATMUL.items():
        script = str(write_resized(tutorial, matmul_size(n, n, n), workdir / str(n)))
        out[name] = [*run, script, *device]
        out[f"{name}_host"] = [py, "-m", "benchmarks.host_floor", script]  # no device: its start-up is the simulation's
        if args.before:  # the same run with the compiled chain kernel off (``env`` execs: the same process)
            out[f"{name}_before"] = ["env", *(f"{k}={v}" for k, v in BEFORE_ENV.items()), *run, script, *device]
    step4 = write_resized(MATMUL["step4"], matmul_size(*(args.memory_size,) * 3), workdir / "memory")
    out["step4_1x1"] = [*run, str(step4), "--grid", "1,1", *device]
    out["step4_8x8"] = [*run, str(step4), "--grid", "8,8", *device]
    out["eltwise_host"] = [py, str(host)]
    for tutorial in ELTWISE:
        name = "eltwise" + Path(tutorial).stem.split("_")[1]
        out[name] = [*run, str(write_resized(tutorial, elementwise_size(ELTWISE_SIZE), workdir / "eltwise")), *device]
    return out


def median(runs: list[Run]) -> float | None:
    return statistics.median(r.wall_s for r in runs) if runs and all(r.ok for r in runs) else None


def peak(runs: list[Run]) -> float | None:
    return max(r.peak_rss_mib for r in runs) if runs and all(r.ok for r in runs) else None


def targets(results: dict[str, list[Run]]) -> list[tuple[str, bool | None]]:
    anchor = median(results["anchor"])
    checks: list[tuple[str, bool | None]] = []
    for name in MATMUL:
        wall, rss = median(results[name]), peak(results[name])
        checks.append((f"{name}: within {WITHIN_ANCHOR:g}x of the anchor",
                       None if wall is None or anchor is None else wall <= WITHIN_ANCHOR * anchor))
        checks.append((f"{name}: peak RSS under {PEAK_RSS_MIB} MiB", None if rss is None else rss < PEAK_RSS_MIB))
    one, eight = peak(results["step4_1x1"]), peak(results["step4_8x8"])
    checks.append((f"step4: 8x8 peak RSS within {NODES_MIB} MiB of 1x1",
                   None if one is None or eight is None else eight - one <= NODES_MIB))
    host = median(results["eltwise_host"])
    for name in results:
        if name.startswith("eltwise") and name != "eltwise_host":
            wall = median(results[name])
            checks.append((f"{name}: within {ELTWISE_OVER_HOST_S} s of the host script",
                           None if wall is None or host is None else wall - host <= ELTWISE_OVER_HOST_S))
    return checks


def run_alternating(todo: dict[str, tuple[list[str], Path]], env: dict[str, str], repeat: int,
                    timeout: float) -> dict[str, list[Run]]:
    """Run every process ``repeat`` times, one after the other and alternating between them (so a
    change in machine load hits all of them), printing each run as it ends."""
    results: dict[str, list[Run]] = {name: [] for name in todo}
    for repetition in range(1, repeat + 1):
        for name, (command, cwd) in todo.items():
            run = run_once(command, cwd, env, timeout)
            results[name].append(run)
            shown = f"{run.wall_s:.2f} s, {run.peak_rss_mib:.0f} MiB" if run.ok else "FAILED\n" + run.failure()
            print(f"  {name} #{repetition}: {shown}", flush=True)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=8192, help="M = K = N of the matmul tutorials (default 8192)")
    parser.add_argument("--memory-size", type=int, default=2048,
                        help="M = K = N of the 1x1 vs 8x8 memory comparison (default 2048)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each process (default 1)")
    parser.add_argument("--device", help="pass --device to tilecraft (e.g. cuda)")
    parser.add_argument("--before", action="store_true", help="also run step1_before and step4_before: the "
                        "tutorials with the compiled chain kernel off (TILECRAFT_FUSED_CHAINS=0)")
    parser.add_argument("--threads", type=int, default=1,
                        help="OMP_NUM_THREADS of every simulated process (default 1; the anchor always uses one)")
    parser.add_argument("--case", action="append", help="run only these processes (repeatable; the anchor "
                        "always runs)")
    parser.add_argument("--python", default=sys.executable, help="interpreter for every child (default: this one)")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds before a run is killed")
    parser.add_argument("--json", type=Path, help="also write the results to this JSON file")
    args = parser.parse_args(argv)
    env = {**os.environ, "OMP_NUM_THREADS": str(args.threads)}
    load_before = os.getloadavg()
    print(f"load average before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f} "
          f"({os.cpu_count()} CPUs), OMP_NUM_THREADS={args.threads}, size {args.size}, repeat {args.repeat}", flush=True)
    with tempfile.TemporaryDirectory(prefix="tilecraft-scale-") as tmp:
        todo = commands(args, Path(tmp))
        if args.case:
            todo = {name: cmd for name, cmd in todo.items() if name in args.case or name == "anchor"}
        results = run_alternating({name: (command, REPO_ROOT) for name, command in todo.items()}, env,
                                  args.repeat, args.timeout)
    load_after = os.getloadavg()
    anchor = median(results["anchor"])
    print(f"\n{'process':<14} {'median s':>9} {'x anchor':>9} {'peak MiB':>9}")
    for name, runs in results.items():
        wall = median(runs)
        times = None if wall is None or not anchor else wall / anchor
        print(f"{name:<14} {fmt(wall, 9, 2)} {fmt(times, 9, 2)} {fmt(peak(runs), 9, 0)}")
    for name in MATMUL:
        wall, host = (median(results[n]) if n in results else None for n in (name, f"{name}_host"))
        if wall is not None and host is not None:
            print(f"{name}: the simulation's own share (whole process minus the host code) {wall - host:.2f} s")
    print()
    checks = targets(results) if not args.case else []
    for description, met in checks:
        print(f"target {description}: {({True: 'met', False: 'NOT MET', None: 'not measured'})[met]}")
    print(f"\nload average after: {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")
    if args.json:
        args.json.write_text(json.dumps({
            "size": args.size, "repeat": args.repeat, "device": args.device or "cpu",
            "load_before": load_before, "load_after": load_after,
            "processes": {name: {"command": todo[name], "median_wall_s": median(runs), "peak_rss_mib": peak(runs),
                                 "runs": [vars(run) for run in runs]} for name, runs in results.items()},
            "targets": [{"target": d, "met": m} for d, m in checks]}, indent=2))
    return 0 if all(r.ok for runs in results.values() for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
