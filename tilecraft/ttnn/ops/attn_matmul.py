"""Falcon's decode attention products: ``experimental.attn_matmul`` (multi-query: one key/value head)
and ``experimental.group_attn_matmul`` (grouped-query: each key/value head shared by
``q_heads / kv_heads`` query heads, consecutive query heads per group).

Operands as the device operation states them: ``a`` is ``[1, q_heads, users, K]`` (one token per
user), ``b`` is ``[users, kv_heads, K, N]``; the result is ``[1, q_heads, users, N]``, each user's
query rows times that user's ``b``. Products are the matrix unit's at the compute kernel config,
LoFi with bfloat16 DST by default (ttnn's default-constructed config), and ttnn's shape checks are
made: a single token, one key/value head for attn_matmul, 32 users for group_attn_matmul.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Optional

import torch

from tilecraft.diagnostics import UsageTypeError, type_name
from tilecraft.dtypes import DataFormat

from ..compute_config import WormholeComputeKernelConfig, as_compute_kernel_config, device_matmul
from ..layout import Layout, Shape
from ..memory import MemoryConfig
from ..primitives import DevicePrimitive, TensorType
from ..tensor import Tensor


def _rule(a: TensorType, b: TensorType, *, grouped: bool, config: WormholeComputeKernelConfig) -> TensorType:
    if a.layout is not Layout.TILE or b.layout is not Layout.TILE:
        raise ValueError("inputs must be in tile layout")
    if a.shape.rank != 4 or b.shape.rank != 4:
        raise ValueError(f"takes a [1, q_heads, users, K] and b [users, kv_heads, K, N], got {a.shape} and {b.shape}")
    if a.shape[0] != 1:
        raise ValueError(f"the query length (dim 0 of a, {a.shape}) must be 1")
    if not grouped and b.shape[1] != 1:
        raise ValueError(f"attn_matmul takes one key/value head (dim 1 of b, {b.shape}); use group_attn_matmul")
    if grouped and (a.shape[1] % b.shape[1] or b.shape[0] != 32):
        raise ValueError(f"the {a.shape[1]} query heads must split evenly over the {b.shape[1]} key/value heads, for "
                         f"32 users (b is {b.shape})")
    if a.shape[2] != b.shape[0] or a.shape[3] != b.shape[2]:
        raise ValueError(f"users (a dim 2, b dim 0) and K (a dim 3, b dim 2) must match: {a.shape} and {b.shape}")
    return replace(a, shape=Shape((1, a.shape[1], a.shape[2], b.shape[3])))


def _impl(a: torch.Tensor, b: torch.Tensor, *, grouped: bool, config: WormholeComputeKernelConfig) -> torch.Tensor:
    _, heads, users, k = a.shape
    kv_heads = b.shape[1]
    queries = a[0].permute(1, 0, 2).reshape(users, kv_heads, heads // kv_heads, k)  # [users, kv, group, K]
    out = device_matmul(queries, b, config, None)  # [users, kv, group, N]
    return out.reshape(users, heads, -1).permute(1, 0, 2).unsqueeze(0)


attn_matmul_p = DevicePrimitive("attn_matmul", _rule, _impl)
group_attn_matmul_p = DevicePrimitive("group_attn_matmul", _rule, _impl)


def _bind(primitive: DevicePrimitive, a: Tensor, b: Tensor, grouped: bool, memory_config: Optional[MemoryConfig],
          dtype: Optional[DataFormat], compute_kernel_config: Optional[WormholeComputeKernelConfig]) -> Tensor:
    for operand in (a, b):
        if not isinstance(operand, Tensor):
            raise UsageTypeError(f"ttnn.experimental.{primitive.name} takes ttnn tensors, got {type_name(operand)}")
    config = as_compute_kernel_config(compute_kernel_config) or WormholeComputeKernelConfig()
    return primitive.bind(a, b, dtype=dtype, memory_config=memory_config, grouped=grouped, config=config)


def attn_matmul(input_tensor_a: Tensor, input_tensor_b: Tensor, *, compute_with_storage_grid_size: object,
                memory_config: Optional[MemoryConfig] = None, dtype: Optional[DataFormat] = None,
                compute_kernel_config: Optional[WormholeComputeKernelConfig] = None) -> Tensor:
    """Each user's query heads times its single key (or value) head (see the module docstring)."""
    return _bind(attn_matmul_p, input_tensor_a, input_tensor_b, False, memory_config, dtype, compute_kernel_config)


def group_attn_matmul(input_tensor_a: Tensor, input_tensor_b: Tensor, *, compute_with_storage_grid_size: object,
                      memory_config: Optional[MemoryConfig] = None, dtype: Optional[DataFormat] = None,
                      compute_kernel_config: Optional[WormholeComputeKernelConfig] = None,
                      out_subblock_w: int = 1, row_major: bool = True) -> Tensor:
    """Each user's query heads times the key (or value) head of their group (see the module docstring)."""
    return _bind(group_attn_matmul_p, input_tensor_a, input_tensor_b, True, memory_config, dtype,
                 compute_kernel_config)
