"""Public hardware measurements beside the model's prediction for the same configuration.

    .venv/bin/python -m benchmarks.hardware_figures [--fast]

Prints the table of docs/performance-model.md ("Against the hardware"): every figure we found in
tt-metal's tech reports that the model can be set up for, the program the model times for it, the
measured and the predicted value, and predicted / measured device time (the model is meant to be
within 15%). ``tests/perf/test_perf_hardware.py`` recomputes each row and checks the docs table.

What is compared. GEMMs: the GEMM_FLOPS report's "manually tuned" tables, rows whose inputs and
output are all in DRAM (the L1-sharded rows keep in0 resident in L1, a different program), the
"device based utilization" (device time from the device profiler, which is what the model
predicts), untraced runs. The model times :func:`benchmarks.perf_kernels.matmul_mcast`, the same
2-D multicast reuse the report's ``MatmulMultiCoreReuseMultiCastProgramConfig`` runs, on the same grid,
formats (inputs and output) and fidelity; sub-blocks (bm, bk, bn) are fixed per problem shape
(8, 4, 8 where they divide; 13, 5, 5 for the 4160^3 problem, 130 tiles a side), not per row.
DRAM: the DRAM-bandwidth reports' read microbenchmarks, one reader per bank
(:func:`benchmarks.perf_kernels.bank_readers`, 16 KiB per read, the reports' packet size).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from functools import cache

import tilecraft.ttnn as ttnn
from benchmarks.perf_kernels import bank_readers, matmul_mcast, tile_tensor
from tilecraft.perf import estimate, resolve_arch, resolve_fidelity
from tilecraft.perf.capture import programs

GEMM_FLOPS = ("tt-metal tech_reports/GEMM_FLOPS/GEMM_FLOPS.md, {} Manually Tuned Configurations, "
              "device based utilization (https://github.com/tenstorrent/tt-metal/blob/main/tech_reports/"
              "GEMM_FLOPS/GEMM_FLOPS.md)")
DRAM_WH = ("tt-metal tech_reports/Saturating_DRAM_bandwidth/Saturating_DRAM_bandwidth.md, "
           "DRAM u-benchmark @12GBps")
DRAM_BH = ("tt-metal tech_reports/Saturating_DRAM_bandwidth/Saturating_DRAM_bandwidth_Blackhole.md, "
           "{}")
#: the largest |predicted / measured - 1| of device time the model is held to
TOLERANCE = 0.15


@dataclass(frozen=True)
class Figure:
    """One published measurement and the configuration the model is set up with for it."""

    board: str
    grid: tuple[int, int]
    #: "gemm": ``measured`` is device utilisation in %; "dram": read bandwidth in GB/s
    kind: str
    config: str
    measured: float
    source: str
    #: gemm: (M, K, N), format, fidelity, sub-blocks (bm, bk, bn)
    shape: tuple[int, int, int] = (0, 0, 0)
    dtype: str = "bfloat16"
    fidelity: str = "HiFi4"
    blocks: tuple[int, int, int] = (8, 4, 8)
    #: dram: reads in flight per reader
    in_flight: int = 2
    #: part of the default test run (the others take 5 s to minutes each: -m slow)
    fast: bool = False
    #: why the model does not reproduce this figure (the row is shown, and tested to stay outside)
    outside: str = ""

    @property
    def label(self) -> str:
        return f"{self.board} {self.config}"


def _gemm(board: str, grid: tuple[int, int], shape: tuple[int, int, int], dtype: str, fidelity: str,
          util: float, blocks: tuple[int, int, int] = (8, 4, 8), fast: bool = False) -> Figure:
    m, k, n = shape
    config = f"{m}x{k}x{n} {dtype} {fidelity}"
    return Figure(board, grid, "gemm", config, util, GEMM_FLOPS.format(board.upper()), shape, dtype, fidelity,
                  blocks, fast=fast)


_WH, _BH = ("n150", (8, 8)), ("p150", (13, 10))
_PLACEMENT = ("reader cores next to their bank (1 hop, no overlapping routes): the model has no "
              "placement-dependent NoC congestion, so it predicts this as the arbitrary placement")

FIGURES: tuple[Figure, ...] = (
    *(_gemm(*_WH, (4096,) * 3, d, f, u, fast=True) for d, f, u in (
        ("bfloat16", "HiFi2", 59.50), ("bfloat16", "HiFi4", 83.21), ("bfloat8_b", "HiFi2", 79.43),
        ("bfloat8_b", "LoFi", 58.88))),
    *(_gemm(*_WH, (8192,) * 3, d, f, u) for d, f, u in (
        ("bfloat16", "HiFi2", 66.47), ("bfloat16", "HiFi4", 88.69), ("bfloat8_b", "HiFi2", 83.94),
        ("bfloat8_b", "LoFi", 64.77), ("bfloat4_b", "LoFi", 82.57))),
    *(_gemm(*_BH, (4160,) * 3, d, f, u, (13, 5, 5)) for d, f, u in (
        ("bfloat16", "HiFi2", 88.30), ("bfloat16", "HiFi4", 93.81), ("bfloat8_b", "HiFi2", 89.54),
        ("bfloat8_b", "LoFi", 85.08), ("bfloat4_b", "LoFi", 86.27))),
    *(_gemm(*_BH, (5120, 6656, 6656), d, f, u) for d, f, u in (
        ("bfloat16", "HiFi2", 80.36), ("bfloat16", "HiFi4", 90.35), ("bfloat8_b", "HiFi2", 86.31),
        ("bfloat8_b", "LoFi", 77.50))),
    Figure("n150", (12, 1), "dram", "DRAM read, 12 readers (one per bank), 2 reads in flight", 267.0, DRAM_WH,
           in_flight=2, fast=True),
    Figure("p150", (8, 1), "dram", "DRAM read, 8 readers (one per bank), 1 read in flight", 186.0,
           DRAM_BH.format("buffering-depth sweep, 1 outstanding read"), in_flight=1, fast=True),
    Figure("p150", (8, 1), "dram", "DRAM read, 8 readers (one per bank), 2 reads in flight", 344.0,
           DRAM_BH.format("buffering-depth sweep, 2 outstanding reads (arbitrary cores)"), in_flight=2, fast=True),
    Figure("p150", (8, 1), "dram", "DRAM read, 8 bank-adjacent readers, 2 reads in flight", 500.0,
           DRAM_BH.format("measured results, bank-adjacent optimal NOC0 placement"), in_flight=2, fast=True,
           outside=_PLACEMENT),
    *(_gemm(*_WH, (16384,) * 3, d, f, u) for d, f, u in (
        ("bfloat16", "HiFi2", 71.34), ("bfloat16", "HiFi4", 91.45), ("bfloat8_b", "HiFi2", 86.65),
        ("bfloat8_b", "LoFi", 69.49), ("bfloat4_b", "LoFi", 84.75))),
)


def dram_read_tiles(banks: int) -> int:
    """Tiles the DRAM rows read: the reports' 8192 x 8192 bfloat16 tensor (65,536 tiles), rounded
    down to whole 16-tile pairs of reads per bank."""
    return 256 * 256 // banks // 16 * 16


@cache
def _gemm_program(board: str, grid: tuple[int, int], shape: tuple[int, int, int], dtype: str,
                  blocks: tuple[int, int, int]):
    m, k, n = shape
    fmt = getattr(ttnn, dtype)
    with programs(resolve_arch(board).name, grid) as launched:
        matmul_mcast(grid, *blocks)(tile_tensor((m, k), fmt), tile_tensor((k, n), fmt), tile_tensor((m, n), fmt))
    return launched[0]


@cache
def _dram_seconds(board: str, banks: int, in_flight: int) -> float:
    arch = resolve_arch(board)
    tiles = dram_read_tiles(banks)
    with programs(arch.name, (banks, 1)) as launched:
        bank_readers(banks, 8, in_flight)(tile_tensor((tiles * 32, banks * 32)))
    return estimate(launched[0], arch).seconds


def predicted(fig: Figure) -> float:
    """The model's value in the figure's unit: device utilisation in % or GB/s."""
    if fig.kind == "dram":
        return dram_read_tiles(fig.grid[0]) * fig.grid[0] * 2048 / _dram_seconds(fig.board, fig.grid[0],
                                                                                  fig.in_flight) / 1e9
    arch = resolve_arch(fig.board)
    est = estimate(_gemm_program(fig.board, fig.grid, fig.shape, fig.dtype, fig.blocks), arch, fig.fidelity)
    m, k, n = fig.shape
    ideal = m * k * n / 32 ** 3 * 16 * resolve_fidelity(fig.fidelity).phases / (fig.grid[0] * fig.grid[1])
    return 100 * ideal / est.cycles


def time_ratio(fig: Figure, value: float) -> float:
    """Predicted over measured device time, from the predicted ``value`` (utilisation and bandwidth
    are both inverse to time)."""
    return fig.measured / value


TABLE_HEAD = ("| board | grid | configuration | program (bm,bk,bn) | measured | predicted | predicted / measured time | source |",
              "|---|---|---|---|---|---|---|---|")


def table_row(fig: Figure) -> str:
    """The figure's row of the docs table, with the model's prediction computed now."""
    value = predicted(fig)
    unit = "%" if fig.kind == "gemm" else " GB/s"
    program = f"matmul_mcast {','.join(map(str, fig.blocks))}" if fig.kind == "gemm" else \
        f"bank_readers, {fig.in_flight} in flight"
    flag = " (outside: see below)" if fig.outside else ""
    return (f"| {fig.board} | {fig.grid[0]}x{fig.grid[1]} | {fig.config} | {program} | {fig.measured:.2f}{unit} | "
            f"{value:.2f}{unit} | {time_ratio(fig, value):.3f}{flag} | {fig.source} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fast", action="store_true", help="only the rows of the default test run")
    args = parser.parse_args()
    print("\n".join(TABLE_HEAD), flush=True)
    for fig in FIGURES:
        if fig.fast or not args.fast:
            print(table_row(fig), flush=True)


if __name__ == "__main__":
    main()
