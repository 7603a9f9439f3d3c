"""The autotuner on the multicast-reuse matmul (examples/autotune_matmul.py, 125 candidates).

    .venv/bin/python -m benchmarks.bench_tune throughput [--size 4096] [--arch n150] [--repeat 3]
    .venv/bin/python -m benchmarks.bench_tune check [--size 4096] [--arch n150 --arch p150]

``throughput``: candidates per second of the whole sweep (compile, bound, estimate with the
cut-off), median of ``--repeat`` sweeps, serially in this process, on a LocalCluster of 1 and of
2 workers, and on a LocalCluster started in another process and reached by its address (the way a
user points ``--scheduler`` at a cluster). Cluster start-up is not timed; each timed sweep follows
one untimed warm-up sweep on the same runner, so workers have imported tilecraft.

``check``: per board, the tuner's pick on a 2-worker LocalCluster (timed) against the exhaustive
search (every candidate estimated to its end, no cut-off, no lower bound), and the serial sweep's
tables against the Dask sweep's. Exits 1 if a pick is more than 1% slower than the exhaustive best
or the tables differ.

The load average is printed before and after: the machine is shared, and a sweep is CPU-bound.
"""

from __future__ import annotations

import argparse
import os
import runpy
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import tilecraft.ttnn as ttnn
from tilecraft import options as run_options
from tilecraft import session
from tilecraft.tune import options as tune_options
from tilecraft.tune.report import render_tables
from tilecraft.tune.runners import DaskRunner, SerialRunner
from tilecraft.tune.sweep import SweepResult, run_sweep

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "autotune_matmul.py"
#: started in another process: a LocalCluster that prints its address and lives until killed
CLUSTER_PROCESS = """
import logging, signal, sys, time
from distributed import LocalCluster
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # exit through atexit: the cluster closes its workers
cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                       silence_logs=logging.CRITICAL, env={"OMP_NUM_THREADS": "1"})
print(cluster.scheduler_address, flush=True)
while True:
    time.sleep(60)
"""


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def sweep(runner: Any, arch: str, size: int, exhaustive: bool = False) -> SweepResult:
    """One sweep of the example's matmul for ``size``^3 on ``arch`` (HiFi2, as the example says)."""
    op = runpy.run_path(str(EXAMPLE), run_name="bench_tune_matmul")["matmul"]
    tensors = [ttnn.zeros((size, size), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT) for _ in range(3)]
    with tune_options.using(arch=arch, dask=False), session.using(run_options.RunOptions()):
        request = op.setting(tuple(tensors), {}).request
    return run_sweep(request, op.candidates, runner, exhaustive=exhaustive)


def start_external_cluster() -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen([sys.executable, "-c", CLUSTER_PROCESS], stdout=subprocess.PIPE, text=True,
                               env={**os.environ, "OMP_NUM_THREADS": "1"})
    address = process.stdout.readline().strip()
    if not address:
        process.kill()
        raise RuntimeError("the external LocalCluster did not start")
    return process, address


def throughput(args: argparse.Namespace) -> int:
    print(f"load average before: {load_average()}")
    print(f"{'runner':58} {'candidates':>10} {'median s':>9} {'cand/s':>7}  all runs (s)")
    settings = [("serial", SerialRunner),
                ("LocalCluster, 1 worker", lambda: DaskRunner.start(1, None, 30)),
                ("LocalCluster, 2 workers", lambda: DaskRunner.start(2, None, 30))]
    external = None
    try:
        external = start_external_cluster()
        address = external[1]
        settings.append((f"LocalCluster in another process at {address}",
                         lambda: DaskRunner.start(None, address, 30)))
        for label, start in settings:
            runner = start()
            try:
                sweep(runner, args.arch, args.size)  # warm-up: workers import tilecraft
                times, count = [], 0
                for _ in range(args.repeat):
                    began = time.perf_counter()
                    result = sweep(runner, args.arch, args.size)
                    times.append(time.perf_counter() - began)
                    count = len(result.outcomes)
            finally:
                runner.close()
            median = statistics.median(times)
            print(f"{label:58} {count:>10} {median:>9.1f} {count / median:>7.1f}  "
                  f"{' '.join(f'{t:.1f}' for t in times)}", flush=True)
    finally:
        if external is not None:
            external[0].terminate()  # lets the cluster close its workers
            try:
                external[0].wait(timeout=30)
            except subprocess.TimeoutExpired:
                external[0].kill()
    print(f"load average after: {load_average()}")
    return 0


def check(args: argparse.Namespace) -> int:
    print(f"load average before: {load_average()}")
    failed = False
    runner = DaskRunner.start(2, None, 30)
    try:
        sweep(runner, args.arch[0], 512)  # warm-up: workers import tilecraft
        for arch in args.arch:
            began = time.perf_counter()
            tuned = sweep(runner, arch, args.size)
            tuned_s = time.perf_counter() - began
            serial = sweep(SerialRunner(), arch, args.size)
            began = time.perf_counter()
            full = sweep(runner, arch, args.size, exhaustive=True)
            full_s = time.perf_counter() - began
            pick, best = tuned.best, full.best
            gap = pick.cycles / best.cycles - 1
            same = render_tables(serial) == render_tables(tuned)
            print(f"{arch} {args.size}^3 HiFi2: {len(tuned.outcomes)} candidates "
                  f"({len(tuned.with_status('pruned'))} pruned at compile time)")
            print(f"  tuner (2-worker LocalCluster): {pick.params} {pick.seconds * 1e6:,.1f} us in {tuned_s:.1f} s "
                  f"({len([o for o in tuned.outcomes if o.status == 'slower' and o.reason.startswith('takes')])} "
                  f"skipped by their lower bound, {len(tuned.with_status('slower'))} slower in all)")
            print(f"  exhaustive (2 workers, every candidate to its end): {best.params} {best.seconds * 1e6:,.1f} us "
                  f"in {full_s:.1f} s")
            print(f"  pick vs exhaustive best: {gap:+.3%}; serial and Dask tables identical: {same}")
            failed |= gap > 0.01 or not same
    finally:
        runner.close()
    print(f"load average after: {load_average()}")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    t = sub.add_parser("throughput")
    t.add_argument("--size", type=int, default=4096)
    t.add_argument("--arch", default="n150")
    t.add_argument("--repeat", type=int, default=3)
    c = sub.add_parser("check")
    c.add_argument("--size", type=int, default=4096)
    c.add_argument("--arch", action="append", help="default: n150 and p150")
    args = parser.parse_args()
    if args.what == "check":
        args.arch = args.arch or ["n150", "p150"]
        return check(args)
    return throughput(args)


if __name__ == "__main__":
    sys.exit(main())
