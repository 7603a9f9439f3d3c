"""What the matmul tutorials' host code costs, part by part (issue 26, item 4).

``tilecraft profile --no-values`` of step 4 at 8192^3 runs the tutorial's script body, which is
mostly not tilecraft's: it draws its inputs with torch, computes its own fp32 golden and checks
the PCC. ``benchmarks/host_floor.py`` times that body as one process; this splits it into the
steps the script makes, each timed in CPU seconds (user + system of this process, so that a
machine shared with other work does not inflate them), in the script's own order and with its own
calls (step 4's body from ``torch.manual_seed(42)`` on; the PCC fails, as nothing was computed):

| part | the script's lines | whose code |
|---|---|---|
| import torch | ``import torch`` | torch |
| import tilecraft | ``import ttnn`` / ``import ttl`` (tilecraft serves both) | tilecraft |
| inputs | three ``torch.randn((M, K), dtype=torch.bfloat16)`` | torch |
| golden | ``torch.relu(a.float() @ b.float() + c.float()).to(torch.bfloat16)`` | torch |
| to device | three ``ttnn.from_torch`` and the output's ``torch.zeros`` + ``from_torch`` | tilecraft (a copy each) |
| from device | ``ttnn.to_torch(y)`` | tilecraft (a copy) |
| PCC | ``torch.corrcoef(torch.stack([...]))`` | torch |

    OMP_NUM_THREADS=1 .venv/bin/python -m benchmarks.host_parts [--size 8192]
"""

from __future__ import annotations

import argparse
import os
from contextlib import contextmanager
from typing import Iterator


def cpu_seconds() -> float:
    """User + system CPU seconds of this process so far (all its threads)."""
    usage = os.times()
    return usage.user + usage.system


@contextmanager
def part(name: str, owner: str, table: list[tuple[str, str, float]]) -> Iterator[None]:
    start = cpu_seconds()
    yield
    table.append((name, owner, cpu_seconds() - start))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=8192, help="M = K = N")
    args = parser.parse_args(argv)
    n = args.size
    table: list[tuple[str, str, float]] = []
    with part("import torch", "torch", table):
        import torch
    with part("import tilecraft (ttnn, ttl)", "tilecraft", table):
        from tilecraft.scripts import install_modules
        install_modules()
        import ttl  # noqa: F401  (the tutorial imports it; served by tilecraft)
        import ttnn
    device = ttnn.open_device(device_id=0)

    def from_torch(tensor: torch.Tensor) -> ttnn.Tensor:  # the tutorial's helper, verbatim in effect
        return ttnn.from_torch(tensor, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                               memory_config=ttnn.DRAM_MEMORY_CONFIG)

    torch.manual_seed(42)
    with part("inputs: 3 x torch.randn bfloat16", "torch", table):
        a = torch.randn((n, n), dtype=torch.bfloat16)
        b = torch.randn((n, n), dtype=torch.bfloat16)
        c = torch.randn((n, n), dtype=torch.bfloat16)
    with part("golden: fp32 GEMM, + c, relu, to bfloat16", "torch", table):
        expected = torch.relu(a.float() @ b.float() + c.float()).to(torch.bfloat16)
    with part("to device: 4 x from_torch (+ the output's zeros)", "tilecraft", table):
        a, b, c = from_torch(a), from_torch(b), from_torch(c)
        y = from_torch(torch.zeros((n, n), dtype=torch.bfloat16))
    with part("from device: to_torch", "tilecraft", table):
        y = ttnn.to_torch(y)
    with part("PCC: stack + corrcoef", "torch", table):
        torch.corrcoef(torch.stack([y.flatten().float(), expected.flatten().float()]))[0, 1].item()
    ttnn.close_device(device)
    print(f"size {n}, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '(unset)')}, "
          f"torch threads {torch.get_num_threads()}, load average {os.getloadavg()[0]:.2f}")
    print("| part | whose | CPU s |\n|---|---|---:|")
    for name, owner, seconds in table:
        print(f"| {name} | {owner} | {seconds:.2f} |")
    for owner in ("torch", "tilecraft"):
        print(f"| **all {owner}** | | {sum(s for _, o, s in table if o == owner):.2f} |")
    print(f"| **all** | | {sum(s for _, _, s in table):.2f} |")


if __name__ == "__main__":
    main()
