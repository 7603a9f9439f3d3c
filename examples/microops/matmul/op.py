"""[1, K] x [K, N] matmul with the weight width-sharded over cores, as a micro-op (ttnn 0.81.1).

The decode-time shape of a linear layer: one activation row against a weight that is too big
for one core. The weight is width-sharded in L1 (each core holds all of K and its slice of N),
and so is the output; the activation row sits in the L1 of a single core. Every weight core
pulls the activation row from that core over the NoC, multiplies it by its weight shard with
``matmul_block`` and packs its output slice straight into its output shard (the weight and
output CBs are aliased to the shards).
"""

from __future__ import annotations

import os

import torch
import ttnn

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")
TILE = 32
TILE_BYTES = TILE * TILE * 2  # one bfloat16 tile
CB_ACT, CB_WEIGHT, CB_OUT = 0, 1, 16


def _sharded_in_l1(tensor: ttnn.Tensor, layout: ttnn.TensorMemoryLayout, name: str):
    memory = tensor.memory_config()
    if memory.memory_layout != layout or memory.buffer_type != ttnn.BufferType.L1:
        raise ValueError(f"the {name} must be {layout} in L1, got {memory}")
    return memory.shard_spec


class MatmulWidthShardedWeight:
    """``activation [1, K] @ weight [K, N]`` with ``weight`` and the output width-sharded alike."""

    @staticmethod
    def golden(activation: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
        """PyTorch reference: the product in float32."""
        return activation.float() @ weight.float()

    @staticmethod
    def op(activation_tensor: ttnn.Tensor, weight_tensor: ttnn.Tensor, output_tensor: ttnn.Tensor,
           fp32_dest_acc_en: bool = False) -> ttnn.Tensor:
        """Multiply into the pre-allocated ``output_tensor`` ([1, N], sharded like the weight).

        ``activation_tensor`` is a [1, K] bfloat16 tile tensor sharded on one core in L1.
        """
        act_shard = _sharded_in_l1(activation_tensor, ttnn.TensorMemoryLayout.HEIGHT_SHARDED, "activation")
        weight_shard = _sharded_in_l1(weight_tensor, ttnn.TensorMemoryLayout.WIDTH_SHARDED, "weight")
        out_shard = _sharded_in_l1(output_tensor, ttnn.TensorMemoryLayout.WIDTH_SHARDED, "output")
        if act_shard.grid.num_cores() != 1:
            raise ValueError(f"the activation must sit on one core, got {act_shard.grid}")
        if out_shard.grid != weight_shard.grid or out_shard.shape[1] != weight_shard.shape[1]:
            raise ValueError("the output must be width-sharded on the weight's cores, with the weight's shard width")
        k = activation_tensor.padded_shape[-1]
        if weight_shard.shape[0] != k:
            raise ValueError(f"each weight shard must hold all K={k} rows, got {weight_shard.shape}")
        kt, nt = k // TILE, weight_shard.shape[1] // TILE
        dst_tiles = 4 if fp32_dest_acc_en else 8
        if nt > dst_tiles:
            raise ValueError(f"{nt} output tiles per core do not fit in half of DST ({dst_tiles} tiles "
                             f"{'with' if fp32_dest_acc_en else 'without'} fp32 accumulation): use more cores")

        device = activation_tensor.device()
        act_noc = device.worker_core_from_logical_core(act_shard.grid.ranges()[0].start)
        cores = weight_shard.grid

        reader = ttnn.KernelDescriptor(
            kernel_source=os.path.join(KERNELS, "matmul_reader.cpp"),
            source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
            core_ranges=cores,
            named_compile_time_args=[("Kt", kt), ("weight_tiles", kt * nt)],
            common_runtime_args=[act_noc.x, act_noc.y, activation_tensor.buffer_address()],
            config=ttnn.ReaderConfigDescriptor(),
        )
        compute = ttnn.KernelDescriptor(
            kernel_source=os.path.join(KERNELS, "matmul_compute.cpp"),
            source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
            core_ranges=cores,
            named_compile_time_args=[("Kt", kt), ("Nt", nt)],
            config=ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity.HiFi4,
                                                fp32_dest_acc_en=fp32_dest_acc_en),
        )
        writer = ttnn.KernelDescriptor(
            kernel_source=os.path.join(KERNELS, "matmul_writer.cpp"),
            source_type=ttnn.KernelDescriptor.SourceType.FILE_PATH,
            core_ranges=cores,
            named_compile_time_args=[("Nt", nt)],
            config=ttnn.WriterConfigDescriptor(),
        )
        act_page = ttnn.CBFormatDescriptor(buffer_index=CB_ACT, data_format=ttnn.bfloat16, page_size=TILE_BYTES)
        cbs = [
            ttnn.CBDescriptor(total_size=kt * TILE_BYTES, core_ranges=cores, format_descriptors=[act_page]),
            ttnn.cb_descriptor_from_sharded_tensor(CB_WEIGHT, weight_tensor),
            ttnn.cb_descriptor_from_sharded_tensor(CB_OUT, output_tensor),
        ]
        program = ttnn.ProgramDescriptor(kernels=[reader, compute, writer], semaphores=[], cbs=cbs)
        return ttnn.generic_op([activation_tensor, weight_tensor, output_tensor], program)
