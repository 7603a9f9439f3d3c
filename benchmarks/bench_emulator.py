"""Kernel emulator speed: ``--level cpp`` beside the language-level simulator on the same programs.

    .venv/bin/python -m benchmarks.bench_emulator [--repeat 5] [--case eltwise] [--case matmul]
        [--case metal_mcast] [--json FILE]

Two programs, each run in this process through ``tilecraft run`` (so both levels pay the same
script overhead, which is left out of the numbers):

* ``eltwise``: the published elementwise tutorial, step 4 (``grid="full"``: 8x8 on Wormhole,
  y = a * b + c on 2048x2048 bfloat16 in 4x4-tile blocks), unmodified; fetched with the other
  tutorials (tests/tutorials.py).
* ``matmul``: a 1024^3 bfloat16 matmul on the 8x8 grid whose row leaders read each block of ``a``
  once and multicast it to their row over a ``ttl.PipeNet`` (examples/matmul_row_multicast.py at
  size; its multicasting thread is declared second so that it runs on RISCV_0 / NOC 0 and today's
  NOC 1 corner defect does not stop it).
* ``metal_mcast``: the hand-written multicast matmul (examples/metal/matmul_multicore_mcast, its
  kernels and host unchanged) at 512^3 bfloat16 on 8x8, HiFi4, bfloat16 DST: issue 21's speed
  target (warm within 10 s). It has no language level; its time is the ``generic_op`` launch
  (placement, the kernel cache look-up, emulation), warm only, wall and CPU.

For each program and level the time is the launch itself: from the program's start to its results
(driver hooks), i.e. simulation, or for ``cpp`` emission + compilation + emulation. ``cold`` runs
each repetition with an empty kernel cache (every kernel compiled, in parallel), ``warm`` with
the cache filled. The emulator's runtime library is built once per tilecraft version and
machine; its build time is reported on its own. Repetitions alternate between the levels so that
a change in machine load touches both; medians are reported. Run with OMP_NUM_THREADS=1 (set
here) as the other benchmarks do.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

from tilecraft import session  # noqa: E402
from tilecraft.cli import main as cli  # noqa: E402
from tilecraft.emu import build, launch, native  # noqa: E402
from tilecraft.ttnn import generic  # noqa: E402

MATMUL = '''
import torch
import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32
M, K, N = {m}, {k}, {n}
GRID = (8, 8)
BM, BN, BK = M // TILE // GRID[1], N // TILE // GRID[0], 2


@ttl.operation(grid=GRID)
def matmul(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    grid_n, grid_m = ttl.grid_size(dims=2)
    k_blocks = a.shape[1] // TILE // BK
    row_net = ttl.PipeNet([ttl.Pipe(src=(0, r), dst=(slice(0, grid_n), r)) for r in range(grid_m)])

    fetch_dfb = ttl.make_dataflow_buffer_like(a, shape=(BM, BK), block_count=2)
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(BM, BK), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(BK, BN), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(BM, BN), block_count=1)

    @ttl.datamovement()
    def save():
        nx, ny = ttl.node(dims=2)
        y_blk = y_dfb.wait()
        ttl.copy(y_blk, y[ny * BM:(ny + 1) * BM, nx * BN:(nx + 1) * BN]).wait()
        y_blk.pop()

    @ttl.datamovement()
    def load():
        nx, ny = ttl.node(dims=2)
        m0, n0 = ny * BM, nx * BN
        for kb in range(k_blocks):
            k0 = kb * BK

            def send(pipe):
                blk = fetch_dfb.reserve()
                ttl.copy(a[m0:m0 + BM, k0:k0 + BK], blk).wait()
                blk.push()
                blk = fetch_dfb.wait()
                ttl.copy(blk, pipe).wait()
                blk.pop()

            def receive(pipe):
                blk = a_dfb.reserve()
                ttl.copy(pipe, blk).wait()
                blk.push()

            row_net.if_src(send)
            row_net.if_dst(receive)

            b_blk = b_dfb.reserve()
            ttl.copy(b[k0:k0 + BK, n0:n0 + BN], b_blk).wait()
            b_blk.push()

    @ttl.compute()
    def mac():
        y_blk = y_dfb.reserve()
        y_blk.store(ttl.block.fill(0.0, shape=y_blk.shape))
        for _ in range(k_blocks):
            a_blk = a_dfb.wait()
            b_blk = b_dfb.wait()
            y_blk += a_blk @ b_blk
            a_blk.pop()
            b_blk.pop()
        y_blk.push()


torch.manual_seed(0)
a = ttnn.from_torch(torch.randn(M, K), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
b = ttnn.from_torch(torch.randn(K, N), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((M, N), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
matmul(a, b, y)
'''


def eltwise_script(workdir: Path) -> Path:
    from tests.tutorials import tutorials_dir
    return tutorials_dir() / "elementwise" / "step_4_multinode_grid_full.py"


def matmul_script(workdir: Path) -> Path:
    path = workdir / "matmul_mcast_1024.py"
    path.write_text(MATMUL.format(m=1024, k=1024, n=1024))
    return path


METAL_MCAST = (Path(__file__).resolve().parent.parent / "examples" / "metal" / "matmul_multicore_mcast"
               / "matmul_multicore_mcast.py")
METAL_CASES = {"metal_mcast": ("hand-written multicast matmul 512^3 bf16 HiFi4, 8x8",
                               [str(METAL_MCAST), "--cores", "8x8", "--size", "512x512x512"])}

CASES = {"eltwise": ("elementwise tutorial step 4, 2048x2048 bf16, 8x8", eltwise_script),
         "matmul": ("multicast matmul 1024^3 bf16, 8x8", matmul_script)}


def launch_seconds(script: Path, level: str) -> tuple[float, float]:
    """Wall and CPU time (this process's threads) from the program's start to its results, for one
    ``tilecraft run`` of ``script``."""
    marks: dict[str, tuple[float, float]] = {}
    now = lambda: (time.perf_counter(), time.process_time())  # noqa: E731
    start_hook = lambda program: marks.setdefault("start", now())  # noqa: E731
    end_hook = lambda program, tensors: marks.setdefault("end", now())  # noqa: E731
    saved_argv, saved_path = list(sys.argv), list(sys.path)
    try:
        with session.using(program_hooks=[start_hook], result_hooks=[end_hook]), \
                contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
            code = cli(["run", str(script), "--level", level])
    finally:
        sys.argv[:], sys.path[:] = saved_argv, saved_path
        for name in ("ttl", "ttnn"):
            sys.modules.pop(name, None)
    if code != 0 or "end" not in marks:
        raise SystemExit(f"{script.name} --level {level} failed:\n{err.getvalue()[-3000:]}")
    return marks["end"][0] - marks["start"][0], marks["end"][1] - marks["start"][1]


def generic_op_seconds(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU time of the ``ttnn.generic_op`` launches of one ``tilecraft run`` of a
    hand-written host (``argv``: its path and arguments), summed over the launches."""
    spent = [0.0, 0.0]
    original = launch.run

    def timed(*args, **kwargs):
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - wall
            spent[1] += time.process_time() - cpu

    saved_argv, saved_path = list(sys.argv), list(sys.path)
    launch.run = timed
    try:
        with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()) as err:
            code = cli(["run", *argv, "--level", "cpp"])
    finally:
        launch.run = original
        sys.argv[:], sys.path[:] = saved_argv, saved_path
        sys.modules.pop("ttnn", None)
    if code != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{out.getvalue()[-2000:]}{err.getvalue()[-3000:]}")
    return spent[0], spent[1]


def metal_case(name: str, repeat: int, workdir: Path) -> dict:
    """Warm medians of a hand-written host's launches (the cache filled by a first run)."""
    title, argv = METAL_CASES[name]
    with cache_dir(workdir / f"{name}-warm"), generic.recorded_runs() as runs:
        generic_op_seconds(argv)
        warm = [generic_op_seconds(argv) for _ in range(repeat)]
    row = {"title": title, "cpp_warm_s": statistics.median(r[0] for r in warm),
           "cpp_warm_cpu_s": statistics.median(r[1] for r in warm),
           "emulation_s_last_warm": runs[-1].run_seconds, "runs": {"cpp_warm": warm}}
    print(f"\n{name}: {title}  (medians of {repeat}; wall / CPU seconds)")
    print(f"  generic_op, warm    {row['cpp_warm_s']:7.3f} / {row['cpp_warm_cpu_s']:.3f}  (target <= 10 s); "
          f"emulation {row['emulation_s_last_warm']:.3f} of it")
    return row


@contextlib.contextmanager
def cache_dir(path: Path):
    saved = os.environ.get("TILECRAFT_CACHE_DIR")
    os.environ["TILECRAFT_CACHE_DIR"] = str(path)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("TILECRAFT_CACHE_DIR", None)
        else:
            os.environ["TILECRAFT_CACHE_DIR"] = saved


def runtime_build_seconds(workdir: Path) -> float:
    """Build the runtime library into an empty cache (what a first run on a machine pays once)."""
    with cache_dir(workdir / "runtime-cache"):
        start = time.perf_counter()
        build.runtime_library()
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--case", action="append", choices=sorted([*CASES, *METAL_CASES]))
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; cpus: {os.cpu_count()}")
    report: dict = {"cases": {}}
    with tempfile.TemporaryDirectory(prefix="bench-emu-") as tmp:
        workdir = Path(tmp)
        report["runtime_build_s"] = runtime_build_seconds(workdir)
        native.lib()  # loaded once per process, from the default cache
        print(f"runtime library build (once per tilecraft version and machine): {report['runtime_build_s']:.2f} s")
        for name in args.case or sorted([*CASES, *METAL_CASES]):
            if name in METAL_CASES:
                report["cases"][name] = metal_case(name, args.repeat, workdir)
                continue
            title, make = CASES[name]
            script = make(workdir)
            launch_seconds(script, "language")  # warm-up: imports, first-call costs
            lang, cold, warm, compiles = [], [], [], []
            with cache_dir(workdir / f"{name}-warm"):
                launch_seconds(script, "cpp")  # fills the warm cache
            for rep in range(args.repeat):
                lang.append(launch_seconds(script, "language"))
                with cache_dir(workdir / f"{name}-cold-{rep}"), generic.recorded_runs() as runs:
                    cold.append(launch_seconds(script, "cpp"))
                compiles += runs[-1].kernel_compile_seconds
                kernels = runs[-1].kernels
                with cache_dir(workdir / f"{name}-warm"), generic.recorded_runs() as runs:
                    warm.append(launch_seconds(script, "cpp"))
                emulate = runs[-1].run_seconds
            med = lambda runs, i: statistics.median(r[i] for r in runs)  # noqa: E731
            row = {"title": title, "language_s": med(lang, 0), "language_cpu_s": med(lang, 1),
                   "cpp_cold_s": med(cold, 0), "cpp_warm_s": med(warm, 0), "cpp_warm_cpu_s": med(warm, 1),
                   "kernels": kernels, "kernel_compile_s_median": statistics.median(compiles),
                   "kernel_compile_s_max": max(compiles), "emulation_s_last_warm": emulate,
                   "runs": {"language": lang, "cpp_cold": cold, "cpp_warm": warm}}
            row["warm_over_language"] = row["cpp_warm_s"] / row["language_s"]
            row["warm_over_language_cpu"] = row["cpp_warm_cpu_s"] / row["language_cpu_s"]
            report["cases"][name] = row
            print(f"\n{name}: {title}  (medians of {args.repeat}; wall / CPU seconds)")
            print(f"  language level      {row['language_s']:7.3f} / {row['language_cpu_s']:.3f}")
            print(f"  cpp, cold cache     {row['cpp_cold_s']:7.3f}          ({kernels} kernels, compiled in parallel)")
            print(f"  cpp, warm cache     {row['cpp_warm_s']:7.3f} / {row['cpp_warm_cpu_s']:.3f}  = "
                  f"{row['warm_over_language']:.2f}x / {row['warm_over_language_cpu']:.2f}x the language level "
                  f"(target <= 2x); emulation {emulate:.3f} of it")
            print(f"  g++ per kernel      median {row['kernel_compile_s_median']:.2f} s, max "
                  f"{row['kernel_compile_s_max']:.2f} s (target < 3 s)")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
