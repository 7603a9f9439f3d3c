"""``tilecraft profile --no-values`` on the published matmul tutorials: loops advanced by whole
periods (tilecraft/perf/fastforward.py) against every operation timed.

Why this shape (issue 12, item 4): the timing model serves ``tilecraft profile`` at the published
sizes, so what counts is the whole process a user waits for: the tutorials step 1 (one node,
1x1-tile blocks: M*K*N/32^3 iterations of one K loop) and step 4 (4x4-tile blocks on the full
8x8 grid, 64 cores sharing DRAM banks), unchanged apart from the problem size. Each size runs

* ``fast``: this checkout, the default (fast-forward on);
* ``exact``: this checkout with ``--exact`` (every operation timed: the reference the tests
  compare against, and what ``profile`` did before fast-forwarding);
* ``before`` (with ``--before DIR``): another checkout of tilecraft (e.g. the main branch before
  this change), run with the same interpreter from that directory.

Note that the tutorial scripts compute their own torch golden on the host (an fp32 GEMM of the
full size, about 16 s at 8192^3 on one thread here) even when no values are simulated: that is
in every process's time. Runs alternate between cases (so load changes hit all of them), one
process at a time, OMP_NUM_THREADS=1; the load average is printed before and after.

    .venv/bin/python -m benchmarks.bench_profile --sizes 2048 4096 8192 --repeat 3 --before /work/main
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_scale import MATMUL, median, run_alternating
from benchmarks.bench_vs_reference import REPO_ROOT, fmt
from benchmarks.tutorial_sources import matmul_size, write_resized


def cases(args: argparse.Namespace, workdir: Path) -> dict[str, tuple[list[str], Path]]:
    """Every process, by name: its command and the directory it runs in."""
    profile = [args.python, "-m", "tilecraft", "profile", "--no-values"]
    out: dict[str, tuple[list[str], Path]] = {}
    for n in args.sizes:
        for step, tutorial in MATMUL.items():
            script = str(write_resized(tutorial, matmul_size(n, n, n), workdir / str(n)))
            out[f"{step} {n} fast"] = ([*profile, script], REPO_ROOT)
            out[f"{step} {n} exact"] = ([*profile, script, "--exact"], REPO_ROOT)
            if args.before:
                out[f"{step} {n} before"] = ([*profile, script], args.before)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2048, 4096, 8192], help="M = K = N of the tutorials")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each process (the median is shown)")
    parser.add_argument("--before", type=Path, help="a checkout of tilecraft to run as 'before' (from its directory)")
    parser.add_argument("--python", default=sys.executable, help="interpreter for every child (default: this one)")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds before a run is killed")
    args = parser.parse_args(argv)
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs), "
          f"OMP_NUM_THREADS=1, sizes {args.sizes}, repeat {args.repeat}", flush=True)
    with tempfile.TemporaryDirectory(prefix="tilecraft-profile-") as tmp:
        results = run_alternating(cases(args, Path(tmp)), env, args.repeat, args.timeout)
    load = os.getloadavg()
    print(f"\n{'tutorial':<8} {'size':>5} {'fast s':>8} {'exact s':>8} {'before s':>9} {'exact/fast':>11}")
    for n in args.sizes:
        for step in MATMUL:
            fast, exact = median(results[f"{step} {n} fast"]), median(results[f"{step} {n} exact"])
            before = median(results[f"{step} {n} before"]) if args.before else None
            speedup = exact / fast if fast and exact else None
            print(f"{step:<8} {n:>5} {fmt(fast, 8, 2)} {fmt(exact, 8, 2)} {fmt(before, 9, 2)} {fmt(speedup, 11, 1)}")
    print(f"\nload average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0 if all(r.ok for runs in results.values() for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
