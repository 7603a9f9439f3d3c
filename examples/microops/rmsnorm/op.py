"""Fused RMSNorm on an L1 height-sharded tensor, as a micro-op (ttnn.generic_op, ttnn 0.81.1).

    y = x / sqrt(mean(x^2, last dim) + eps) * gamma

Each core normalises the rows of its own shard without moving them: the input and output CBs
are aliased to the tensors' shards (``ttnn.cb_descriptor_from_sharded_tensor``), gamma comes
from DRAM once per core, and the square, the row reduction, the rsqrt and the two broadcast
multiplies run back to back in one compute kernel.
"""

from __future__ import annotations

import os

import torch
import ttnn

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")
TILE = 32
TILE_BYTES = TILE * TILE * 2  # one bfloat16 tile
CB_X, CB_GAMMA, CB_SCALER, CB_RSTD, CB_OUT, CB_SCRATCH = 0, 1, 2, 3, 16, 24


def _bits(value: float, dtype: torch.dtype) -> int:
    """The bit pattern of ``value`` rounded to ``dtype`` (bfloat16 or float32), as an unsigned int."""
    integer = {torch.bfloat16: torch.int16, torch.float32: torch.int32}[dtype]
    return torch.tensor([value], dtype=dtype).view(integer).item() & (0xFFFF if dtype == torch.bfloat16 else 0xFFFFFFFF)


class RMSNormHeightSharded:
    """RMSNorm over the last dimension of a [rows, W] bfloat16 tensor, height-sharded in L1."""

    @staticmethod
    def golden(input_tensor: torch.Tensor, gamma: torch.Tensor, epsilon: float = 1e-6) -> torch.Tensor:
        """PyTorch reference: RMSNorm in float32."""
        x = input_tensor.float()
        return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + epsilon) * gamma.float().reshape(1, -1)

    @staticmethod
    def op(input_tensor: ttnn.Tensor, gamma_tensor: ttnn.Tensor, output_tensor: ttnn.Tensor,
           epsilon: float = 1e-6, fp32_dest_acc_en: bool = False) -> ttnn.Tensor:
        """Normalise ``input_tensor`` into the pre-allocated ``output_tensor`` (same shape and
        sharding); ``gamma_tensor`` is a [1, W] bfloat16 tile tensor in DRAM."""
        memory = input_tensor.memory_config()
        if memory.memory_layout != ttnn.TensorMemoryLayout.HEIGHT_SHARDED or memory.buffer_type != ttnn.BufferType.L1:
            raise ValueError(f"the input must be height-sharded in L1, got {memory}")
        if output_tensor.memory_config() != memory:
            raise ValueError("the output must be sharded exactly like the input")
        shard_height, shard_width = memory.shard_spec.shape
        width = input_tensor.padded_shape[-1]
        if shard_width != width or shard_height % TILE:
            raise ValueError(f"each shard must hold whole rows of whole tiles: shard {shard_height}x{shard_width}, "
                             f"rows of {width}")
        cores = memory.shard_spec.grid
        wt, shard_rows = width // TILE, shard_height // TILE
        dst_tiles = 4 if fp32_dest_acc_en else 8   # half of DST

        gamma_args = ttnn.RuntimeArgs()
        for core in ttnn.corerange_to_cores(cores, row_wise=True):
            gamma_args[core.x][core.y] = [gamma_tensor.buffer_address()]

        reader = ttnn.KernelDescriptor(
            kernel_source=os.path.join(KERNELS, "rmsnorm_reader.cpp"),
            source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
            core_ranges=cores,
            compile_time_args=ttnn.TensorAccessorArgs(gamma_tensor).get_compile_time_args(),
            named_compile_time_args=[("shard_tiles", shard_rows * wt), ("Wt", wt),
                                     ("scaler", _bits(1.0 / width, torch.bfloat16))],
            runtime_args=gamma_args,
            config=ttnn.ReaderConfigDescriptor(),
        )
        compute = ttnn.KernelDescriptor(
            kernel_source=os.path.join(KERNELS, "rmsnorm_compute.cpp"),
            source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
            core_ranges=cores,
            named_compile_time_args=[("Wt", wt), ("shard_rows", shard_rows), ("dst_tiles", dst_tiles),
                                     ("epsilon", _bits(epsilon, torch.float32))],
            config=ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4,
                                                fp32_dest_acc_en=fp32_dest_acc_en, math_approx_mode=False),
        )
        writer = ttnn.KernelDescriptor(
            kernel_source=os.path.join(KERNELS, "rmsnorm_writer.cpp"),
            source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
            core_ranges=cores,
            named_compile_time_args=[("shard_tiles", shard_rows * wt)],
            config=ttnn.WriterConfigDescriptor(),
        )

        def cb(index: int, tiles: int) -> ttnn.CBDescriptor:
            page = ttnn.CBFormatDescriptor(buffer_index=index, data_format=ttnn.bfloat16, page_size=TILE_BYTES)
            return ttnn.CBDescriptor(total_size=tiles * TILE_BYTES, core_ranges=cores, format_descriptors=[page])

        cbs = [
            ttnn.cb_descriptor_from_sharded_tensor(CB_X, input_tensor),     # the input shard itself
            ttnn.cb_descriptor_from_sharded_tensor(CB_OUT, output_tensor),  # the output shard itself
            cb(CB_GAMMA, wt), cb(CB_SCALER, 1), cb(CB_RSTD, 1), cb(CB_SCRATCH, wt),
        ]
        program = ttnn.ProgramDescriptor(kernels=[reader, compute, writer], semaphores=[], cbs=cbs)
        return ttnn.generic_op([input_tensor, gamma_tensor, output_tensor], program)
