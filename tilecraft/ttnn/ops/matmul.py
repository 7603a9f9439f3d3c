"""Matrix multiply and linear: 2D, or batched over leading dims that broadcast like torch.

Without a compute kernel config the product is exact in fp32 and rounded once into the result
dtype. With one (``compute_kernel_config=``), it is the matrix unit's: the config's fidelity phases,
fp32 or bfloat16 DST, and the K blocks of the ``program_config`` (``compute_config.device_matmul``).
``linear`` adds its bias and applies its activation before the one rounding, as the fused kernel does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

import torch

from tilecraft.diagnostics import UsageTypeError, UsageValueError, type_name
from tilecraft.dtypes import DataFormat

from ..compute_config import (MatmulMultiCoreReuseProgramConfig, MatmulProgramConfig, WormholeComputeKernelConfig,
                              as_compute_kernel_config, check_program_config, device_matmul)
from ..cores import CoreCoord, CoreGrid
from ..layout import Shape
from ..memory import MemoryConfig
from ..primitives import DevicePrimitive, TensorType
from ..tensor import Tensor
from .activation import Activation, activation_name, apply_activation
from .rules import broadcast


def _matmul_rule(a: TensorType, b: TensorType, bias: Optional[TensorType] = None, *, transpose_a: bool,
                 transpose_b: bool, program_config: Optional[MatmulProgramConfig] = None,
                 compute_kernel_config: Optional[WormholeComputeKernelConfig] = None,
                 activation: Optional[str] = None) -> TensorType:
    if a.shape.rank < 2 or b.shape.rank < 2:
        raise UsageValueError(f"needs operands of rank 2 or more, got shapes {a.shape} and {b.shape}")
    m, k = a.shape[-2:] if not transpose_a else reversed(a.shape[-2:])
    k_b, n = b.shape[-2:] if not transpose_b else reversed(b.shape[-2:])
    if k != k_b:
        raise UsageValueError(
            f"inner dimensions differ: {a.shape}{' transposed' if transpose_a else ''} @ "
            f"{b.shape}{' transposed' if transpose_b else ''} contracts {k} with {k_b}"
        )
    fp32_dest = compute_kernel_config is not None and compute_kernel_config.fp32_dest_acc_en
    check_program_config(program_config, m, k, n, fp32_dest)
    batch = broadcast(a.shape[:-2], b.shape[:-2])
    result = Shape((*batch, m, n))
    if bias is not None and broadcast(bias.shape, result) != result:
        raise UsageValueError(f"the bias of shape {bias.shape} would grow the product's shape {result}")
    return replace(a, shape=result)


def _matmul_impl(a: torch.Tensor, b: torch.Tensor, bias: Optional[torch.Tensor] = None, *, transpose_a: bool,
                 transpose_b: bool, program_config: Optional[MatmulProgramConfig] = None,
                 compute_kernel_config: Optional[WormholeComputeKernelConfig] = None,
                 activation: Optional[str] = None) -> torch.Tensor:
    common = torch.promote_types(a.dtype, b.dtype)  # an integer tensor may meet a float one
    a, b = a.to(common), b.to(common)
    a, b = (a.mT if transpose_a else a), (b.mT if transpose_b else b)
    if compute_kernel_config is None or not common.is_floating_point:
        out = torch.matmul(a, b)
    else:
        k_block = check_program_config(program_config, a.shape[-2], a.shape[-1], b.shape[-1],
                                       compute_kernel_config.fp32_dest_acc_en)
        out = device_matmul(a, b, compute_kernel_config, k_block)
    if bias is not None:
        out = out + bias.to(out.dtype)
    return apply_activation(out, activation)


matmul_p = DevicePrimitive("matmul", _matmul_rule, _matmul_impl)
linear_p = DevicePrimitive("linear", _matmul_rule, _matmul_impl)


def _bind(primitive: DevicePrimitive, a: Tensor, b: Tensor, bias: Optional[Tensor], *, transpose_a: bool,
          transpose_b: bool, memory_config: Optional[MemoryConfig], dtype: Optional[DataFormat],
          program_config: Optional[MatmulProgramConfig], activation: Activation,
          compute_kernel_config: Optional[WormholeComputeKernelConfig], core_grid: Optional[CoreGrid]) -> Tensor:
    for operand in (a, b) + (() if bias is None else (bias,)):
        if not isinstance(operand, Tensor):
            raise UsageTypeError(f"{primitive!r} takes two ttnn tensors (and a ttnn bias), got {type_name(operand)}")
    if core_grid is not None and not isinstance(core_grid, CoreGrid):
        raise UsageTypeError(f"{primitive!r}: core_grid must be a ttnn.CoreGrid, got {core_grid!r}")
    operands = (a, b) if bias is None else (a, b, bias)
    if activation is None and program_config is not None:
        activation = getattr(program_config, "fused_activation", None)
    return primitive.bind(*operands, dtype=dtype, memory_config=memory_config, transpose_a=bool(transpose_a),
                          transpose_b=bool(transpose_b), program_config=program_config,
                          compute_kernel_config=as_compute_kernel_config(compute_kernel_config),
                          activation=activation_name(activation))


def matmul(input_tensor_a: Tensor, input_tensor_b: Tensor, *, transpose_a: bool = False,
           transpose_b: bool = False, memory_config: Optional[MemoryConfig] = None,
           dtype: Optional[DataFormat] = None, program_config: Optional[MatmulProgramConfig] = None,
           activation: Activation = None, compute_kernel_config: Optional[WormholeComputeKernelConfig] = None,
           core_grid: Optional[CoreGrid] = None, output_tile: object = None, global_cb: object = None,
           sub_device_id: object = None) -> Tensor:
    """``a @ b``, rounded once into the result dtype (``a``'s by default); see the module docstring
    for what ``compute_kernel_config`` and ``program_config`` change. ``core_grid`` and the
    placement arguments (``output_tile``, ``global_cb``, ``sub_device_id``) change where and how the
    work runs, not the values."""
    return _bind(matmul_p, input_tensor_a, input_tensor_b, None, transpose_a=transpose_a, transpose_b=transpose_b,
                 memory_config=memory_config, dtype=dtype, program_config=program_config, activation=activation,
                 compute_kernel_config=compute_kernel_config, core_grid=core_grid)


def linear(input_tensor_a: Tensor, input_tensor_b: Tensor, *, bias: Optional[Tensor] = None,
           transpose_a: bool = False, transpose_b: bool = False, memory_config: Optional[MemoryConfig] = None,
           dtype: Optional[DataFormat] = None, program_config: Optional[MatmulProgramConfig] = None,
           activation: Activation = None, compute_kernel_config: Optional[WormholeComputeKernelConfig] = None,
           core_grid: Optional[CoreGrid] = None, output_tile: object = None, global_cb: object = None,
           sub_device_id: object = None) -> Tensor:
    """``a @ b + bias`` (bias broadcast over the rows), then ``activation``, rounded once."""
    return _bind(linear_p, input_tensor_a, input_tensor_b, bias, transpose_a=transpose_a, transpose_b=transpose_b,
                 memory_config=memory_config, dtype=dtype, program_config=program_config, activation=activation,
                 compute_kernel_config=compute_kernel_config, core_grid=core_grid)


@dataclass(frozen=True, kw_only=True)
class MinimalMatmulConfig:
    """The blocks (in tiles) ``experimental.minimal_matmul`` computes per core and its K block."""

    M_block_size: int  # noqa: N815 (ttnn's spelling)
    K_block_size: int  # noqa: N815
    N_block_size: int  # noqa: N815
    subblock_h: int = 1
    subblock_w: int = 1
    compute_with_storage_grid_size: CoreCoord = CoreCoord(8, 8)

    def program_config(self) -> MatmulMultiCoreReuseProgramConfig:
        """The same blocking as the matmul program config whose checks it shares."""
        return MatmulMultiCoreReuseProgramConfig(
            in0_block_w=self.K_block_size, per_core_M=self.M_block_size, per_core_N=self.N_block_size,
            out_subblock_h=self.subblock_h, out_subblock_w=self.subblock_w,
            compute_with_storage_grid_size=self.compute_with_storage_grid_size)


def minimal_matmul(input_tensor: Tensor, weight_tensor: Tensor, bias_tensor: Optional[Tensor] = None, *,
                   fused_activation: Activation = None, config: Optional[MinimalMatmulConfig] = None,
                   memory_config: Optional[MemoryConfig] = None, dtype: Optional[DataFormat] = None,
                   compute_kernel_config: Optional[WormholeComputeKernelConfig] = None) -> Tensor:
    """:func:`linear` by ttnn's experimental prefill kernel: ``config.K_block_size`` is its K block
    (checked as a matmul program config's ``in0_block_w``)."""
    if config is not None and not isinstance(config, MinimalMatmulConfig):
        raise UsageTypeError(f"ttnn.experimental.minimal_matmul: config must be a ttnn.MinimalMatmulConfig, "
                             f"got {config!r}")
    return _bind(linear_p, input_tensor, weight_tensor, bias_tensor, transpose_a=False, transpose_b=False,
                 memory_config=memory_config, dtype=dtype,
                 program_config=None if config is None else config.program_config(), activation=fused_activation,
                 compute_kernel_config=compute_kernel_config, core_grid=None)
