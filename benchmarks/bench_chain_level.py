"""One level of the matmul tutorials' accumulation chains through the compiled kernel, CPU seconds.

Why: phase 2 of matmul step 1 is 128 (4096^3) or 256 (8192^3) such levels, and its whole-process
time moves with machine load; the kernel alone on one thread, timed with ``time.process_time``,
is the figure that carries over between runs. Each shape is one level at size ``n``: step 1's
(``a`` n x 32 times ``b`` 32 x n, (n/32)^2 blocks of 32x32, one K tile) and step 4's (K 128, blocks
of 128x128); inputs are bfloat16 values held in fp32, the accumulators bfloat16 (8 x randn), results
written over them as a chain's level does. Prints the best and median of ``--repeat`` calls, the
share of elements recomputed exactly, and the rate in fused multiply-adds per second;
``--save FILE`` keeps the results (to compare two versions of the kernel bit for bit:
``--compare FILE``).

    .venv/bin/python -m benchmarks.bench_chain_level --size 4096
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import torch

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tilecraft.sim.dataflow import fused_chain

#: name: (block edge, K per level)
SHAPES = {"step1": (32, 32), "step4": (128, 128)}


def level(n: int, block: int, k: int, repeat: int) -> tuple[torch.Tensor, list[float], int]:
    """The results of one level, the CPU seconds of each call, and how many elements were repaired."""
    g = torch.Generator().manual_seed(0)
    a = torch.randn(n, k, generator=g).bfloat16().float()
    b = torch.randn(k, n, generator=g).bfloat16().float()
    grid = n // block
    acc = (torch.randn(grid * grid, block, block, generator=g) * 8).bfloat16()
    at_m, at_n = np.repeat(np.arange(grid), grid) * block, np.tile(np.arange(grid), grid) * block
    out, seconds, repaired = acc.clone(), [], 0
    for _ in range(repeat):
        out.copy_(acc)
        start = time.process_time()
        repaired = fused_chain.update(a, b, out, out, np.arange(grid * grid), at_m, at_n, threads=1)
        seconds.append(time.process_time() - start)
    return out, seconds, repaired


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=4096, help="M = N (a multiple of 128)")
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES), help="default: both")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--save", type=Path, help="keep the results here")
    parser.add_argument("--compare", type=Path, help="assert the results equal those saved here, bit for bit")
    args = parser.parse_args(argv)
    if fused_chain.library() is None:
        raise SystemExit("the compiled chain kernel is not available (no g++, or TILECRAFT_FUSED_CHAINS=0)")
    torch.set_num_threads(1)
    results = {}
    for name in args.shape or sorted(SHAPES):
        block, k = SHAPES[name]
        out, seconds, repaired = level(args.size, block, k, args.repeat)
        results[name] = out
        print(f"{name} level at {args.size}: best {min(seconds):.4f} s, median {statistics.median(seconds):.4f} s "
              f"CPU, repaired {repaired / out.numel():.3%}, {args.size * args.size * k / min(seconds) / 1e9:.1f} GFMA/s")
    if args.save:
        torch.save(results, args.save)
    if args.compare:
        saved = torch.load(args.compare)
        for name, out in results.items():
            same = torch.equal(out.view(torch.int16), saved[name].view(torch.int16))
            print(f"{name}: {'the same bits' if same else 'DIFFERENT bits'} as {args.compare}")
            if not same:
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
