"""The predictions quoted in docs/performance-model.md, recomputed from the model.

    .venv/bin/python -m benchmarks.perf_predictions [--sizes 2048 4096 8192]

Prints markdown tables: the multicast-reuse matmul (benchmarks/perf_kernels.py) on the 8x8
Wormhole and 13x10 Blackhole grids for LoFi / HiFi2 / HiFi4 and bfloat16 / bfloat8_b inputs,
and the DRAM-streaming elementwise add. Utilisation is the GEMM reports' definition (ideal
cycles / predicted cycles, reference/hardware.md).
"""

from __future__ import annotations

import argparse
import time

import tilecraft.ttnn as ttnn
from benchmarks.perf_kernels import eltwise_stream, matmul_mcast, tile_tensor
from tilecraft.diagnostics import KernelError
from tilecraft.perf import estimate, resolve_arch, resolve_fidelity
from tilecraft.perf.capture import programs

#: (board, grid): the grids of the public GEMM reports (reference/hardware.md)
MATMUL_SETUPS = (("n150", (8, 8)), ("p150", (13, 10)))
#: sub-block sizes (bm, bk, bn) tried per board and size; programs that overflow L1 are skipped
CANDIDATES = tuple((bm, bk, bn) for bm in (4, 8, 16) for bn in (4, 8, 16) for bk in (2, 4, 8)
                   if bm * bn <= 128 and bk * max(bm, bn) <= 64)
FIDELITIES = ("LoFi", "HiFi2", "HiFi4")
FORMATS = ("bfloat16", "bfloat8_b")


def matmul_rows(sizes: list[int]) -> list[str]:
    rows = ["| board | grid | size | blocks bm,bk,bn | inputs | fidelity | predicted ms | TFLOP/s | "
            "utilisation | bound |", "|---|---|---|---|---|---|---|---|---|---|"]
    for board, grid in MATMUL_SETUPS:
        arch = resolve_arch(board)
        for n in sizes:
            bm, bk, bn = best_blocks(arch, grid, n)
            for fmt_name in FORMATS:
                program = build_matmul(arch, grid, n, (bm, bk, bn), getattr(ttnn, fmt_name))
                for fidelity in FIDELITIES:
                    est = estimate(program, arch, fidelity)
                    phases = resolve_fidelity(fidelity).phases
                    ideal = (n / 32) ** 3 * 16 * phases / (grid[0] * grid[1])
                    rows.append(f"| {board} | {grid[0]}x{grid[1]} | {n}^3 | {bm},{bk},{bn} | {fmt_name} | "
                                f"{fidelity} | {est.seconds * 1e3:.3f} | {2 * n ** 3 / est.seconds / 1e12:.1f} | "
                                f"{ideal / est.cycles:.0%} | {est.bound} |")
    return rows


def build_matmul(arch, grid, n, blocks, fmt):
    """The program, or None when its buffers do not fit in L1 (the front end rejects it)."""
    try:
        with programs(arch.name, grid) as launched:
            matmul_mcast(grid, *blocks)(tile_tensor((n, n), fmt), tile_tensor((n, n), fmt),
                                        tile_tensor((n, n), ttnn.bfloat16))
    except KernelError:
        return None
    return launched[0]


def best_blocks(arch, grid, n):
    """The sub-block sizes with the shortest predicted time (bfloat16, HiFi2), as a tuned
    hand-written kernel picks its block sizes per problem."""
    timed = []
    for blocks in CANDIDATES:
        bm, bk, bn = blocks
        if (n // 32) % bm or (n // 32) % bn or (n // 32) % bk:
            continue
        program = build_matmul(arch, grid, n, blocks, ttnn.bfloat16)
        if program is not None:
            timed.append((estimate(program, arch, "HiFi2").cycles, blocks))
    return min(timed)[1]


def eltwise_rows(sizes: list[int]) -> list[str]:
    rows = ["| board | grid | size | predicted us | GB/s (read + write) | of peak | bound |",
            "|---|---|---|---|---|---|---|"]
    for board, grid in MATMUL_SETUPS:
        arch = resolve_arch(board)
        for n in sizes:
            with programs(arch.name, grid) as launched:
                eltwise_stream(grid, (1, 8))(*[tile_tensor((n, n)) for _ in range(3)])
            est = estimate(launched[0], arch)
            rows.append(f"| {board} | {grid[0]}x{grid[1]} | {n}x{n} | {est.seconds * 1e6:.1f} | "
                        f"{est.dram_bytes_per_s / 1e9:.0f} | {est.dram_bytes_per_s / est.peak_dram_bytes_per_s:.0%} "
                        f"| {est.bound} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2048, 4096, 8192])
    args = parser.parse_args()
    start = time.perf_counter()
    print("\n".join(matmul_rows(args.sizes)))
    print()
    print("\n".join(eltwise_rows(args.sizes)))
    print(f"\n(computed in {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
