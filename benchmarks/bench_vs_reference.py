"""Time tilecraft against the published simulator (tt-lang-sim 1.1.6) on the same tutorials.

Why this shape:
- Whole-process wall time and peak RSS, because that is what a user waits for
  and what runs a 2-core machine out of memory (interpreter start, torch import
  and the script's own host work included).
- Both sides run alternately in one invocation, so drift in machine load hits
  both alike; the load average is printed before and after so a noisy run can
  be recognised. Quote the ratio, not the absolute times.
- OMP_NUM_THREADS=1 for both: without it the reference is 3-10x slower and noisy
  on a small machine, which would flatter us.
- Peak RSS comes from os.wait4 on each child, so it is that child's peak, not
  the harness's.

Run from the repository root, e.g.
    python -m benchmarks.bench_vs_reference --case eltwise1_2048 --repeat 3
See benchmarks/README.md for the cases and targets.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

if __package__ in (None, ""):
    # Run as a file (`python benchmarks/bench_vs_reference.py`): make the
    # repository root importable, as `python -m benchmarks.…` would.
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.tutorial_sources import Resize, elementwise_size, matmul_size, write_resized

DEFAULT_REFERENCE = "/tmp/ref/venv/bin/tt-lang-sim"
SIDES = ("ours", "reference")
#: ``--before``: a third side, tilecraft with its compiled chain kernel switched off (the value engine
#: as it was before the kernel: whole-array torch passes), run alternately with the other two
BEFORE = "before"
BEFORE_ENV = {"TILECRAFT_FUSED_CHAINS": "0"}
STDERR_TAIL_LINES = 12
MIB = 1024 * 1024
# Children run here, so `python -m tilecraft` benchmarks this checkout even when
# it is not installed in --python's environment. Scripts are passed by absolute path.
REPO_ROOT = Path(__file__).resolve().parents[1]


#: programs the published tutorials lack, in 1.1.6's spelling and at their benchmark size
PROGRAMS = REPO_ROOT / "benchmarks" / "reference_programs"


@dataclass(frozen=True)
class Case:
    """One benchmark: a tutorial at one size, with the extra CLI args each side needs. ``root`` None:
    ``tutorial`` is a published tutorial; else a program under ``root``, run as it is when ``resize``
    is None."""

    tutorial: str
    resize: Resize | None
    measures: str
    ours_args: tuple[str, ...] = ()
    reference_args: tuple[str, ...] = ()
    root: Path | None = None


ELTWISE1 = "elementwise/step_1_single_node_single_tile_block.py"
ELTWISE4 = "elementwise/step_4_multinode_grid_full.py"
MATMUL1 = "matmul/step_1_single_node_single_tile_block.py"
MATMUL4 = "matmul/step_4_multinode_grid_full.py"

# Both simulators read `--grid A,B` as the tuple that grid="full" becomes, i.e.
# what `ttl.grid_size(dims=2)` returns (the tutorials unpack it as cols, rows).
CASES: dict[str, Case] = {
    "matmul1_2048": Case(MATMUL1, matmul_size(2048, 2048, 2048),
                         "per-tile scheduling cost: 262,144 1x1-tile matmuls on one node"),
    "matmul4_4096": Case(MATMUL4, matmul_size(4096, 4096, 4096),
                         "value math: 4x4-tile blocks on an 8x8 grid, 32 K steps of 64 output blocks a node",
                         ("--grid", "8,8"), ("--grid", "8,8")),
    "mcast_4096": Case("matmul_1d_multicast.py", None,
                       "a pipe multicast: node 0 reads each block of a, 31 nodes receive it; 4x4-tile blocks, 4096^3",
                       ("--grid", "8,8"), ("--grid", "8,8"), PROGRAMS),
    "flash_4096": Case("flash_attention.py", None,
                       "flash attention S=4096, D=128 on 8x8 nodes: 8,192 block steps of about 12 block ops",
                       ("--grid", "8,8"), ("--grid", "8,8"), PROGRAMS),
    "eltwise1_8192": Case(ELTWISE1, elementwise_size(8192),
                          "per-tile cost and memory on large tensors: 65,536 tiles, one node"),
    "eltwise1_2048": Case(ELTWISE1, elementwise_size(2048),
                          "fixed cost (start-up, imports, host work) at the published size"),
    "eltwise4_8x8": Case(ELTWISE4, elementwise_size(2048),
                         "multi-node overhead: grid='full' as an 8x8 grid",
                         ("--grid", "8,8"), ("--grid", "8,8")),
    "eltwise4_1x1": Case(ELTWISE4, elementwise_size(2048),
                         "the same program on a 1x1 grid: baseline for the 8x8 memory",
                         ("--grid", "1,1"), ("--grid", "1,1")),
}


@dataclass
class Run:
    """One child process: its wall time, peak RSS and, if it failed, why."""

    wall_s: float
    peak_rss_mib: float
    returncode: int
    timed_out: bool = False
    stderr_tail: str = ""
    #: the child's user + system CPU seconds: on a shared machine wall time is mostly waiting for a core
    cpu_s: float = 0.0

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out

    def failure(self) -> str:
        why = f"timed out after {self.wall_s:.0f} s" if self.timed_out else f"exit code {self.returncode}"
        return f"{why}; end of stderr:\n{self.stderr_tail or '(empty)'}"


@dataclass
class SideResult:
    command: list[str]
    runs: list[Run] = field(default_factory=list)

    @property
    def failed_run(self) -> Run | None:
        return next((run for run in self.runs if not run.ok), None)

    @property
    def median_wall_s(self) -> float | None:
        if not self.runs or self.failed_run:
            return None
        return statistics.median(run.wall_s for run in self.runs)

    @property
    def median_cpu_s(self) -> float | None:
        if not self.runs or self.failed_run:
            return None
        return statistics.median(run.cpu_s for run in self.runs)

    @property
    def peak_rss_mib(self) -> float | None:
        if not self.runs or self.failed_run:
            return None
        return max(run.peak_rss_mib for run in self.runs)


def run_once(command: list[str], cwd: Path, env: dict[str, str], timeout_s: float) -> Run:
    """Run `command` to completion, measuring wall time and the child's own peak RSS."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                                 stderr=err, start_new_session=True)
        timed_out = threading.Event()

        def kill_on_timeout() -> None:
            timed_out.set()
            os.killpg(child.pid, signal.SIGKILL)

        timer = threading.Timer(timeout_s, kill_on_timeout)
        timer.start()
        # Wait without reaping: the zombie keeps the pid (and process group)
        # reserved, so a timer firing late cannot signal an unrelated process.
        os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)
        wall_s = time.perf_counter() - start
        timer.cancel()
        timer.join()
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        run = Run(wall_s, usage.ru_maxrss * 1024 / MIB, child.returncode, timed_out.is_set(),
                  cpu_s=usage.ru_utime + usage.ru_stime)
        if not run.ok:
            err.seek(0)
            lines = err.read().decode(errors="replace").splitlines()
            run.stderr_tail = "\n".join(lines[-STDERR_TAIL_LINES:])
        return run


def side_commands(case: Case, script: Path, python: str, reference: str) -> dict[str, list[str]]:
    return {
        "ours": [python, "-m", "tilecraft", "run", str(script), *case.ours_args],
        "reference": [reference, str(script), *case.reference_args],
        BEFORE: [python, "-m", "tilecraft", "run", str(script), *case.ours_args],
    }


def run_case(name: str, case: Case, sides: tuple[str, ...], args: argparse.Namespace,
             workdir: Path, env: dict[str, str]) -> dict[str, SideResult]:
    """Run the selected sides of one case alternately, `args.repeat` times each."""
    script = write_resized(case.tutorial, case.resize, workdir / name, case.root)
    commands = side_commands(case, script, args.python, args.reference)
    results = {side: SideResult(commands[side]) for side in sides}
    for repetition in range(1, args.repeat + 1):
        for side in sides:
            result = results[side]
            if result.failed_run:
                continue  # a broken side fails the same way every time; do not wait on it again
            run = run_once(result.command, REPO_ROOT, {**env, **BEFORE_ENV} if side == BEFORE else env, args.timeout)
            result.runs.append(run)
            shown = f"{run.wall_s:.2f} s ({run.cpu_s:.2f} s CPU), {run.peak_rss_mib:.0f} MiB" if run.ok else "FAILED"
            print(f"  {name} {side} #{repetition}: {shown}", flush=True)
    return results


def fmt(value: float | None, width: int, decimals: int) -> str:
    return "-".rjust(width) if value is None else f"{value:{width}.{decimals}f}"


def ratio(results: dict[str, SideResult], over: str = "reference") -> float | None:
    """``over``'s time over ours (default the reference's): above 1 means tilecraft is faster."""
    if "ours" not in results or over not in results:
        return None
    ours, other = results["ours"].median_wall_s, results[over].median_wall_s
    return None if ours is None or other is None else other / ours


def print_table(all_results: dict[str, dict[str, SideResult]]) -> None:
    before = any(BEFORE in results for results in all_results.values())
    header = (f"{'case':<15} {'ours s':>8} {'ref s':>8} {'ref/ours':>9} "
              f"{'ours MiB':>9} {'ref MiB':>9} {'ours CPU':>9} {'ref CPU':>8}"
              + (f" {'before s':>9} {'before/ours':>12}" if before else ""))
    print(header)
    print("-" * len(header))
    empty = SideResult([])
    for name, results in all_results.items():
        ours, ref = results.get("ours", empty), results.get("reference", empty)
        extra = (f" {fmt(results.get(BEFORE, empty).median_wall_s, 9, 2)} {fmt(ratio(results, BEFORE), 12, 2)}"
                 if before else "")
        print(f"{name:<15} {fmt(ours.median_wall_s, 8, 2)} {fmt(ref.median_wall_s, 8, 2)} "
              f"{fmt(ratio(results), 9, 2)} "
              f"{fmt(ours.peak_rss_mib, 9, 0)} {fmt(ref.peak_rss_mib, 9, 0)} "
              f"{fmt(ours.median_cpu_s, 9, 2)} {fmt(ref.median_cpu_s, 8, 2)}{extra}")
    for name, results in all_results.items():
        for side, result in results.items():
            failed = result.failed_run
            if failed:
                print(f"\n{name} / {side} FAILED ({' '.join(result.command)}): {failed.failure()}")


def check_targets(all_results: dict[str, dict[str, SideResult]]) -> list[dict[str, object]]:
    """The project's performance targets (see README.md), judged where the data exists."""

    def rss(case: str, side: str) -> float | None:
        result = all_results.get(case, {}).get(side)
        return result.peak_rss_mib if result else None

    def speedup(case: str) -> float | None:
        return ratio(all_results[case]) if case in all_results else None

    checks: list[tuple[str, list[float | None], Callable[..., bool]]] = [
        *((f"{case}: reference/ours >= 2 with less memory (issue 26)",
           [speedup(case), rss(case, "ours"), rss(case, "reference")],
           lambda r, ours, ref: r >= 2 and ours < ref) for case in all_results),
        ("matmul1_2048: reference/ours >= 5", [speedup("matmul1_2048")], lambda r: r >= 5),
        ("eltwise1_8192: reference/ours >= 3", [speedup("eltwise1_8192")], lambda r: r >= 3),
        ("eltwise1_8192: peak RSS ours <= reference",
         [rss("eltwise1_8192", "ours"), rss("eltwise1_8192", "reference")],
         lambda ours, ref: ours <= ref),
        ("eltwise4: peak RSS ours 8x8 - 1x1 <= 128 MiB",
         [rss("eltwise4_8x8", "ours"), rss("eltwise4_1x1", "ours")],
         lambda grid8, grid1: grid8 - grid1 <= 128),
    ]
    return [{"target": description, "values": values,
             "met": None if None in values else passes(*values)}
            for description, values, passes in checks]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    cases = "\n".join(f"  {name:<15} {case.measures}" for name, case in CASES.items())
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=f"cases:\n{cases}",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--case", action="append", choices=list(CASES),
                        help="case to run (repeatable; default: all)")
    parser.add_argument("--only", choices=SIDES, help="run one side only")
    parser.add_argument("--before", action="store_true",
                        help="also run tilecraft with its compiled chain kernel off (TILECRAFT_FUSED_CHAINS=0)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per side (default: 3)")
    parser.add_argument("--python", default=sys.executable,
                        help="interpreter that runs `-m tilecraft run` (default: this one)")
    parser.add_argument("--reference", default=DEFAULT_REFERENCE,
                        help=f"tt-lang-sim executable (default: {DEFAULT_REFERENCE})")
    parser.add_argument("--timeout", type=float, default=1800,
                        help="seconds before one run is killed and counted as failed (default: 1800)")
    parser.add_argument("--json", type=Path, help="also write the results to this JSON file")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.only != "ours" and not Path(args.reference).is_file():
        parser.error(f"reference simulator {args.reference} not found; create it with\n"
                     "  python3.11 -m venv /tmp/ref/venv && "
                     "/tmp/ref/venv/bin/pip install torch==2.13.0 tt-lang-sim==1.1.6\n"
                     "or pass --reference PATH, or --only ours")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    names = args.case or list(CASES)
    sides = ((args.only,) if args.only else SIDES) + ((BEFORE,) if args.before else ())
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    load_before = os.getloadavg()
    print(f"load average before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}"
          f" ({os.cpu_count()} CPUs), OMP_NUM_THREADS=1, repeat {args.repeat}", flush=True)
    with tempfile.TemporaryDirectory(prefix="tilecraft-bench-") as tmp:
        all_results = {name: run_case(name, CASES[name], sides, args, Path(tmp), env)
                       for name in names}
    load_after = os.getloadavg()
    print()
    print_table(all_results)
    targets = check_targets(all_results)
    print()
    for target in targets:
        verdict = {True: "met", False: "NOT MET", None: "not measured"}[target["met"]]
        print(f"target {target['target']}: {verdict}")
    print(f"\nload average after: {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")
    if args.json:
        report = {
            "machine": {"platform": platform.platform(), "cpus": os.cpu_count(),
                        "python": args.python, "reference": args.reference},
            "env": {"OMP_NUM_THREADS": "1"},
            "repeat": args.repeat,
            "load_before": load_before,
            "load_after": load_after,
            "cases": {
                name: {
                    "tutorial": CASES[name].tutorial,
                    "measures": CASES[name].measures,
                    "resize": asdict(CASES[name].resize) if CASES[name].resize else None,
                    "ratio_reference_over_ours": ratio(results),
                    "sides": {side: {"command": result.command,
                                     "median_wall_s": result.median_wall_s,
                                     "median_cpu_s": result.median_cpu_s,
                                     "peak_rss_mib": result.peak_rss_mib,
                                     "runs": [asdict(run) for run in result.runs]}
                              for side, result in results.items()},
                }
                for name, results in all_results.items()
            },
            "targets": targets,
        }
        args.json.write_text(json.dumps(report, indent=2) + "\n")
        print(f"wrote {args.json}")
    failed = any(result.failed_run for results in all_results.values() for result in results.values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
