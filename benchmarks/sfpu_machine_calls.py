"""Time ``--numerics device``'s SFPU functions (tilecraft/sim/sfpu_machine.py): the LLK run on the Tensix machine.

Three costs of one call on ``--values`` fp32 inputs, medians of ``--repeat``:

- *compiled*: a function no run has used yet, its kernels compiled (``x ** n`` with an exponent
  chosen anew per repeat, so each is a new kernel text);
- *launch*: a function whose kernels are in the cache, on values it has not seen (one launch);
- *remembered*: the same values again (no launch: the per-value table answers).

A binary (``div``) has no per-value table: every call launches.

    .venv/bin/python -m benchmarks.sfpu_machine_calls                  # 8192 values, 3 repeats
    .venv/bin/python -m benchmarks.sfpu_machine_calls --values 65536 --repeat 5
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import torch

from tilecraft.sim import sfpu_machine


def _seconds(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--values", type=int, default=8192)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sfpu_machine.unary("exp")(torch.zeros(1))  # the machine's library and the shared prefix built
    compiled, launch, remembered, binary = [], [], [], []
    for _ in range(args.repeat):
        x = torch.randn(args.values)
        power = sfpu_machine.power(float(random.randrange(100, 10**6)))
        compiled.append(_seconds(lambda: power(x)))
        launch.append(_seconds(lambda: sfpu_machine.unary("exp")(x)))
        remembered.append(_seconds(lambda: sfpu_machine.unary("exp")(x)))
        binary.append(_seconds(lambda: sfpu_machine.binary("div", x, x + 3)))
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    print(f"{args.values} fp32 values, medians of {args.repeat} (load {load}):")
    for name, times in (("compiled (new kernel)", compiled), ("launch (cached kernel, new values)", launch),
                        ("remembered values", remembered), ("binary div (launch)", binary)):
        print(f"  {name:36s} {statistics.median(times) * 1e3:9.1f} ms")


if __name__ == "__main__":
    main()
