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
import math
import os
import sys
from typing import Callable, NamedTuple

import torch
import ttnn

from tilecraft.testing import comp_pcc

HERE = os.path.dirname(os.path.abspath(__file__))
COMMON_KERNELS = os.path.join(HERE, os.pardir, "common", "kernels")

SHAPE = (2, 2, 128, 256)      # 64 tiles: one per core of an 8x8 grid
TILE = 32
TILE_BYTES = TILE * TILE * 2  # one bfloat16 tile
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


def tile_cb(index: int, pages: int, cores: ttnn.CoreRangeSet) -> ttnn.CBDescriptor:
    page = ttnn.CBFormatDescriptor(buffer_index=index, data_format=ttnn.bfloat16, page_size=TILE_BYTES)
    return ttnn.CBDescriptor(total_size=pages * TILE_BYTES, core_ranges=cores, format_descriptors=[page])


def sfpu_chain(device, x: ttnn.Tensor, y: ttnn.Tensor, chain: list[str]) -> ttnn.Tensor:
    num_tiles = math.prod(x.padded_shape) // (TILE * TILE)
    grid = device.compute_with_storage_grid_size()
    _, all_cores, group_1, group_2, tiles_1, tiles_2 = ttnn.split_work_to_cores(grid, num_tiles)

    reader_args, compute_args, writer_args = ttnn.RuntimeArgs(), ttnn.RuntimeArgs(), ttnn.RuntimeArgs()
    first_tile = 0
    for group, count in ((group_1, tiles_1), (group_2, tiles_2)):
        for core in ttnn.corerange_to_cores(group, row_wise=True):
            reader_args[core.x][core.y] = [x.buffer_address(), count, first_tile]
            compute_args[core.x][core.y] = [count]
            writer_args[core.x][core.y] = [y.buffer_address(), count, first_tile]
            first_tile += count

    kernels = [
        ttnn.KernelDescriptor(
            kernel_source=os.path.join(COMMON_KERNELS, "reader_tiles.cpp"),
            source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
            core_ranges=all_cores,
            compile_time_args=[CB_IN, *ttnn.TensorAccessorArgs(x).get_compile_time_args()],
            runtime_args=reader_args,
            config=ttnn.ReaderConfigDescriptor(),
        ),
        ttnn.KernelDescriptor(
            kernel_source=os.path.join(HERE, "kernels", "compute_sfpu_chain.cpp"),
            source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
            core_ranges=all_cores,
            defines=chain_defines(chain),
            runtime_args=compute_args,
            config=ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4, math_approx_mode=False),
        ),
        ttnn.KernelDescriptor(
            kernel_source=os.path.join(COMMON_KERNELS, "writer_tiles.cpp"),
            source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
            core_ranges=all_cores,
            compile_time_args=[CB_OUT, *ttnn.TensorAccessorArgs(y).get_compile_time_args()],
            runtime_args=writer_args,
            config=ttnn.WriterConfigDescriptor(),
        ),
    ]
    program = ttnn.ProgramDescriptor(kernels=kernels, semaphores=[],
                                     cbs=[tile_cb(CB_IN, 2, all_cores), tile_cb(CB_OUT, 2, all_cores)])
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
    x_host = torch.randn(SHAPE).to(torch.bfloat16)
    expected = golden(x_host, chain)

    device = ttnn.open_device(device_id=0)
    try:
        x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                            memory_config=ttnn.DRAM_MEMORY_CONFIG)
        y = ttnn.allocate_tensor_on_device(ttnn.Shape(SHAPE), ttnn.bfloat16, ttnn.TILE_LAYOUT, device,
                                           ttnn.DRAM_MEMORY_CONFIG)
        result = ttnn.to_torch(sfpu_chain(device, x, y, chain))
    finally:
        ttnn.close_device(device)

    passed, message = comp_pcc(expected, result.float(), PCC_THRESHOLD)
    print(f"sfpu_chain {' -> '.join(chain)} on {SHAPE}: {message}")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
