"""What the example hosts share: bfloat16 tile CBs, the work split over the grid, and the run
against a torch golden (DRAM tensors in, one pre-allocated DRAM tensor out, a PCC verdict).

Each host keeps its own ProgramDescriptor construction, which is what it is there to show; this
module holds the lines that would otherwise be the same in all of them. Hosts import it after
putting this directory on ``sys.path``.
"""

from __future__ import annotations

import os
from typing import Callable, Sequence

import torch
import ttnn

from tilecraft.testing import comp_pcc

TILE = 32
TILE_BYTES = TILE * TILE * 2  # one bfloat16 tile
COMMON_KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")


def tile_cb(pages: int, cores: ttnn.CoreRangeSet, *indices: int) -> ttnn.CBDescriptor:
    """A CB of ``pages`` bfloat16 tiles on ``cores``. Several indices give CBs that share the
    one allocation (each with its own read/write pointers), as tt-metal lets a program do."""
    formats = [ttnn.CBFormatDescriptor(buffer_index=index, data_format=ttnn.bfloat16, page_size=TILE_BYTES)
               for index in indices]
    return ttnn.CBDescriptor(total_size=pages * TILE_BYTES, core_ranges=cores, format_descriptors=formats)


def tile_mover(kind: str, cb: int, tensor: ttnn.Tensor, cores: ttnn.CoreRangeSet,
               runtime_args: ttnn.RuntimeArgs) -> ttnn.KernelDescriptor:
    """The shared ``reader_tiles.cpp`` (``kind="reader"``, RISCV_1) or ``writer_tiles.cpp``
    (``kind="writer"``, RISCV_0), moving consecutive tiles of ``tensor`` into or out of CB ``cb``;
    ``runtime_args`` per core: [tensor address, number of tiles, first tile]."""
    return ttnn.KernelDescriptor(
        kernel_source=os.path.join(COMMON_KERNELS, f"{kind}_tiles.cpp"),
        source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
        core_ranges=cores,
        compile_time_args=[cb, *ttnn.TensorAccessorArgs(tensor).get_compile_time_args()],
        runtime_args=runtime_args,
        config=ttnn.ReaderConfigDescriptor() if kind == "reader" else ttnn.WriterConfigDescriptor(),
    )


def split_work(device, units: int) -> tuple[ttnn.CoreRangeSet, list[tuple[ttnn.CoreCoord, int, int]]]:
    """``ttnn.split_work_to_cores`` over the device's compute grid: the cores used, and for each
    of them (core, its number of units, its first unit). When the units do not divide evenly the
    cores of the first group take one unit more than those of the second."""
    grid = device.compute_with_storage_grid_size()
    _, all_cores, group_1, group_2, units_1, units_2 = ttnn.split_work_to_cores(grid, units)
    shares, first = [], 0
    for group, count in ((group_1, units_1), (group_2, units_2)):
        for core in ttnn.corerange_to_cores(group, row_wise=True):
            shares.append((core, count, first))
            first += count
    assert first == units, f"split_work_to_cores covered {first} of {units} units"
    return all_cores, shares


def run_example(label: str, inputs: Sequence[torch.Tensor], output_shape: Sequence[int],
                program: Callable[..., ttnn.Tensor], golden: torch.Tensor, pcc_threshold: float) -> int:
    """Put ``inputs`` in DRAM as bfloat16 tile tensors, allocate the output, run
    ``program(device, *inputs, output)``, and compare with ``golden``: prints the PCC line and
    returns the exit status (1 below the threshold)."""
    device = ttnn.open_device(device_id=0)
    try:
        tensors = [ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                                   memory_config=ttnn.DRAM_MEMORY_CONFIG) for t in inputs]
        output = ttnn.allocate_tensor_on_device(ttnn.Shape(list(output_shape)), ttnn.bfloat16, ttnn.TILE_LAYOUT,
                                                device, ttnn.DRAM_MEMORY_CONFIG)
        result = ttnn.to_torch(program(device, *tensors, output))
    finally:
        ttnn.close_device(device)
    passed, message = comp_pcc(golden, result.float(), pcc_threshold)
    print(f"{label}: {message}")
    return 0 if passed else 1
