"""Gather of row shards from several cores into one core, as a micro-op (ttnn.generic_op, ttnn 0.81.1).

The input is height-sharded in L1 over a grid of sender cores; the output, of the same shape,
is one shard on a single gather core. Every sender writes its shard straight into the output
shard at its own row offset (``noc_async_write``), waits for the write to land and increments a
semaphore on the gather core (``noc_semaphore_inc``); the gather core waits until the semaphore
has counted every sender (``noc_semaphore_wait``) and re-arms it (``noc_semaphore_set``). Both
tensors stay where they are: the CBs are aliased to their shards.
"""

from __future__ import annotations

import os

import torch
import ttnn

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")
TILE = 32
CB_IN, CB_OUT = 0, 16
SEMAPHORE = 0


class GatherSingleCore:
    """Concatenates the row shards of ``input_tensor`` on the one core of ``output_tensor``."""

    @staticmethod
    def golden(input_tensor: torch.Tensor) -> torch.Tensor:
        """PyTorch reference: the same rows, in the same order (only their place on chip changes)."""
        return input_tensor

    @staticmethod
    def op(input_tensor: ttnn.Tensor, output_tensor: ttnn.Tensor) -> ttnn.Tensor:
        """Gather ``input_tensor`` (height-sharded in L1, row-major shard order) into the
        pre-allocated ``output_tensor`` (same shape, height-sharded on exactly one core)."""
        in_memory, out_memory = input_tensor.memory_config(), output_tensor.memory_config()
        for name, memory in (("input", in_memory), ("output", out_memory)):
            if memory.memory_layout != ttnn.TensorMemoryLayout.HEIGHT_SHARDED or memory.buffer_type != ttnn.BufferType.L1:
                raise ValueError(f"the {name} must be height-sharded in L1, got {memory}")
        if out_memory.shard_spec.grid.num_cores() != 1:
            raise ValueError(f"the output must be sharded on exactly one core, got {out_memory.shard_spec.grid}")
        if in_memory.shard_spec.orientation != ttnn.ShardOrientation.ROW_MAJOR:
            raise ValueError("the input shards must be in ROW_MAJOR orientation (shard i on the i-th core, row by row)")

        device = input_tensor.device()
        sender_grid = in_memory.shard_spec.grid
        gather_grid = out_memory.shard_spec.grid
        gather_core = gather_grid.ranges()[0].start
        gather_noc = device.worker_core_from_logical_core(gather_core)
        shard_height, shard_width = in_memory.shard_spec.shape
        shard_tiles = (shard_height // TILE) * (shard_width // TILE)
        senders = ttnn.corerange_to_cores(sender_grid, row_wise=True)

        sender_args = ttnn.RuntimeArgs()
        for index, core in enumerate(senders):  # shard i is on the i-th core, row by row
            sender_args[core.x][core.y] = [index]
        sender = ttnn.KernelDescriptor(
            kernel_source=os.path.join(KERNELS, "gather_sender.cpp"),
            source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
            core_ranges=sender_grid,
            named_compile_time_args=[("shard_tiles", shard_tiles), ("semaphore", SEMAPHORE)],
            runtime_args=sender_args,
            common_runtime_args=[gather_noc.x, gather_noc.y, output_tensor.buffer_address()],
            config=ttnn.ReaderConfigDescriptor(),
        )
        receiver = ttnn.KernelDescriptor(
            kernel_source=os.path.join(KERNELS, "gather_receiver.cpp"),
            source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
            core_ranges=gather_grid,
            named_compile_time_args=[("num_senders", len(senders)), ("shard_tiles", len(senders) * shard_tiles),
                                     ("semaphore", SEMAPHORE)],
            config=ttnn.WriterConfigDescriptor(),
        )
        # The semaphore must exist on both sides: the senders take its address from their own
        # copy, the gather core counts on its copy. (A CoreRangeSet's ranges may not overlap.)
        semaphore_cores = sender_grid if sender_grid.contains(gather_core) else ttnn.CoreRangeSet(
            [*sender_grid.ranges(), *gather_grid.ranges()])
        semaphore = ttnn.SemaphoreDescriptor(id=SEMAPHORE, core_type=ttnn.CoreType.WORKER,
                                             core_ranges=semaphore_cores, initial_value=0)
        program = ttnn.ProgramDescriptor(
            kernels=[sender, receiver],
            semaphores=[semaphore],
            cbs=[ttnn.cb_descriptor_from_sharded_tensor(CB_IN, input_tensor),
                 ttnn.cb_descriptor_from_sharded_tensor(CB_OUT, output_tensor)],
        )
        return ttnn.generic_op([input_tensor, output_tensor], program)
