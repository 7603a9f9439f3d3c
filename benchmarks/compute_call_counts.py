"""How many Metalium calls the emitted compute kernels make when a program runs, by name.

    .venv/bin/python -m benchmarks.compute_call_counts examples/matmul_multicore_accumulate.py [...]

Runs each script at ``--level metal`` (the lowered kernels interpreted call by call) and counts
the calls every compute kernel makes, summed over all cores, for the calls that do compute work
or reconfigure it: the unpack/math/pack calls, inits and reconfigs, DST ownership. docs/emit.md
quotes its output before and after the compute emitter's matmul changes; run it with another
checkout's interpreter to count that checkout's kernels.
"""

from __future__ import annotations

import argparse
import contextlib
import io
from collections import Counter

from tilecraft.cli import main
from tilecraft.sim.metal_level import metal_engine

#: the call names counted (whatever the kernel's role, only compute kernels make them)
COUNTED = ("matmul_tiles", "matmul_block", "copy_tile", "fill_tile", "pack_tile", "add_binary_tile",
           "tile_regs_acquire", "reconfig_data_format_srca", "reconfig_data_format_srcb", "reconfig_data_format",
           "pack_reconfig_data_format", "matmul_init", "matmul_block_init", "copy_init", "fill_tile_init")


def count_calls(script: str) -> Counter:
    """Every counted call the script's programs make at the metal level."""
    counts: Counter = Counter()
    original = metal_engine.MetalCore.call

    def counting(self, fn, args, template, op):
        if fn in COUNTED:
            counts[fn] += 1
        return original(self, fn, args, template, op)

    metal_engine.MetalCore.call = counting
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["run", script, "--level", "metal"]) == 0, script
    finally:
        metal_engine.MetalCore.call = original
    return counts


def main_cli() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scripts", nargs="+")
    for script in parser.parse_args().scripts:
        counts = count_calls(script)
        print(f"{script}: {sum(counts.values())} counted calls")
        print("  " + ", ".join(f"{name} {counts[name]}" for name in COUNTED if counts[name]))


if __name__ == "__main__":
    main_cli()
