"""A chain of SFPU functions y = f_n(...f_1(x)), picked by a define, on a grid of cores (ttnn 0.81.1).

The compute kernel has no SFPU call of its own: the host writes the chain into the define
``SFPU_OP_CHAIN_0`` (``relu_tile_init(); relu_tile(0); ...``) and names the headers it needs
with ``SFPU_OP_<FAMILY>_INCLUDE`` defines, the way ttnn's unary ops drive their one
``eltwise_sfpu`` kernel. Each distinct chain is a distinct compiled kernel; the reader and writer
are the generic tile movers of ``../common/kernels``.

Run:  tilecraft run examples/metal/sfpu_chain/sfpu_chain.py [OP ...]   (default: relu sqrt exp)
      OPs: see SFPU_OPS below.
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import sys
from typing import Callable, NamedTuple

import torch
import ttnn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "common"))
from example_host import TILE, run_example, split_work, tile_cb, tile_mover  # noqa: E402

SHAPE = (2, 2, 128, 256)      # 64 tiles: one per core of an 8x8 grid
CB_IN, CB_OUT = 0, 16
# SFPU functions are polynomial / table approximations evaluated on bfloat16 data in DST (no fp32
# accumulation here), and each intermediate is bfloat16: agreement with torch is to a few bf16
# ulps per function, which a PCC of 0.999 allows for a chain of a few functions.
PCC_THRESHOLD = 0.999


class SfpuOp(NamedTuple):
    include: str                                      # the SFPU_OP_*_INCLUDE define for its header
    code: str                                         # init and call on DST tile 0
    golden: Callable[[torch.Tensor], torch.Tensor]


SFPU_OPS = {
    "exp": SfpuOp("SFPU_OP_EXP_INCLUDE", "exp_tile_init(); exp_tile(0);", torch.exp),
    "relu": SfpuOp("SFPU_OP_RELU_FAMILY_INCLUDE", "relu_tile_init(); relu_tile(0);", torch.relu),
    "sqrt": SfpuOp("SFPU_OP_SQRT_INCLUDE", "sqrt_tile_init(); sqrt_tile(0);", torch.sqrt),
    "rsqrt": SfpuOp("SFPU_OP_RSQRT_INCLUDE", "rsqrt_tile_init(); rsqrt_tile(0);", torch.rsqrt),
    "recip": SfpuOp("SFPU_OP_RECIP_INCLUDE", "recip_tile_init(); recip_tile(0);", torch.reciprocal),
    "neg": SfpuOp("SFPU_OP_NEG_INCLUDE", "negative_tile_init(); negative_tile(0);", torch.neg),
    "gelu": SfpuOp("SFPU_OP_GELU_INCLUDE", "gelu_tile_init(); gelu_tile(0);",
                   lambda x: torch.nn.functional.gelu(x, approximate="tanh")),
    "sigmoid": SfpuOp("SFPU_OP_COMPUTE_KERNEL_API_INCLUDE", "sigmoid_tile_init(); sigmoid_tile(0);", torch.sigmoid),
    "tanh": SfpuOp("SFPU_OP_COMPUTE_KERNEL_API_INCLUDE", "tanh_tile_init(); tanh_tile(0);", torch.tanh),
    "abs": SfpuOp("SFPU_OP_COMPUTE_KERNEL_API_INCLUDE", "abs_tile_init(); abs_tile(0);", torch.abs),
}
DEFAULT_CHAIN = ("relu", "sqrt", "exp")


def chain_defines(chain: list[str]) -> list[tuple[str, str]]:
    """The compute kernel's defines for ``chain``: the header includes, then SFPU_OP_CHAIN_0."""
    includes = dict.fromkeys(SFPU_OPS[name].include for name in chain)
    return [(include, "1") for include in includes] + [
        ("SFPU_OP_CHAIN_0", " ".join(SFPU_OPS[name].code for name in chain))]


def golden(x: torch.Tensor, chain: list[str]) -> torch.Tensor:
    """The chain in float32, each intermediate rounded to bfloat16 as DST holds it."""
    y = x.float()
    for name in chain:
        y = SFPU_OPS[name].golden(y).to(torch.bfloat16).float()
    return y


def sfpu_chain(device, x: ttnn.Tensor, y: ttnn.Tensor, chain: list[str]) -> ttnn.Tensor:
    """y = chain(x) for interleaved bfloat16 tile tensors of one shape."""
    all_cores, shares = split_work(device, math.prod(x.padded_shape) // (TILE * TILE))
    reader_args, compute_args, writer_args = ttnn.RuntimeArgs(), ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    for core, num_tiles, first_tile in shares:
        reader_args[core.x][core.y] = [x.buffer_address(), num_tiles, first_tile]
        compute_args[core.x][core.y] = [num_tiles]
        writer_args[core.x][core.y] = [y.buffer_address(), num_tiles, first_tile]

    kernels = [
        tile_mover("reader", CB_IN, x, all_cores, reader_args),
        ttnn.KernelDescriptor(
            kernel_source=os.path.join(HERE, "kernels", "compute_sfpu_chain.cpp"),
            source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
            core_ranges=all_cores,
            defines=chain_defines(chain),
            runtime_args=compute_args,
            config=ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4, math_approx_mode=False),
        ),
        tile_mover("writer", CB_OUT, y, all_cores, writer_args),
    ]
    program = ttnn.ProgramDescriptor(kernels=kernels, semaphores=[],
                                     cbs=[tile_cb(2, all_cores, CB_IN), tile_cb(2, all_cores, CB_OUT)])
    return ttnn.generic_op([x, y], program)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ops", nargs="*", metavar="OP", default=list(DEFAULT_CHAIN),
                        help=f"the chain, applied left to right; one of {', '.join(SFPU_OPS)}")
    chain = parser.parse_args(argv).ops
    unknown = [name for name in chain if name not in SFPU_OPS]
    if unknown:
        parser.error(f"unknown SFPU op(s) {', '.join(unknown)}; choose from {', '.join(SFPU_OPS)}")

    torch.manual_seed(0)
    x = torch.randn(SHAPE).to(torch.bfloat16)
    return run_example(f"sfpu_chain {' -> '.join(chain)} on {SHAPE}", [x], SHAPE,
                       functools.partial(sfpu_chain, chain=chain), golden(x, chain), PCC_THRESHOLD)


if __name__ == "__main__":
    sys.exit(main())
