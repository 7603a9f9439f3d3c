"""Scaled dot-product attention: ``transformer.scaled_dot_product_attention`` (prefill: every query
position) and ``transformer.scaled_dot_product_attention_decode`` (one new token per user against its
KV cache, up to ``cur_pos``), with grouped-query attention (key/value heads shared by
``num_heads / num_kv_heads`` query heads).

Numerics follow the kernel's stages at its compute kernel config (ttnn's default for attention: HiFi2,
bfloat16 DST): Q K^T on the matrix unit, the scores and the probabilities kept in bfloat16 as its
intermediate buffers hold them (fp32 with ``fp32_dest_acc_en``), the softmax in fp32, P V on the
matrix unit, one rounding into the result. The kernel's FlashAttention-2 chunking (a running
maximum and sum over K chunks) rounds slightly differently; that difference is not modelled.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence

import torch

from tilecraft.diagnostics import UsageTypeError, UsageValueError, type_name

from ..compute_config import WormholeComputeKernelConfig, as_compute_kernel_config, device_matmul
from ..cores import CoreCoord
from ..fidelity import MathFidelity
from ..memory import MemoryConfig
from ..primitives import DevicePrimitive, TensorType
from ..tensor import Tensor
from .rules import broadcast

#: ttnn's compute kernel config for attention when none is given
ATTENTION_DEFAULT = WormholeComputeKernelConfig(math_fidelity=MathFidelity.HiFi2, math_approx_mode=True)


@dataclass(frozen=True, kw_only=True)
class SDPAProgramConfig:
    """The cores and the Q/K chunk lengths (multiples of 32 rows) the attention kernel works in."""

    compute_with_storage_grid_size: CoreCoord = CoreCoord(8, 8)
    q_chunk_size: int = 32
    k_chunk_size: int = 32
    exp_approx_mode: bool = True
    sub_core_grids: object = None
    max_cores_per_head_batch: int = 16

    def __post_init__(self) -> None:
        for name in ("q_chunk_size", "k_chunk_size"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 32 or value % 32:
                raise UsageValueError(f"SDPAProgramConfig.{name} must be a positive multiple of 32, got {value!r}")
        if isinstance(self.compute_with_storage_grid_size, tuple):
            object.__setattr__(self, "compute_with_storage_grid_size", CoreCoord(*self.compute_with_storage_grid_size))


def _to_cb(values: torch.Tensor, config: WormholeComputeKernelConfig) -> torch.Tensor:
    return values if config.fp32_dest_acc_en else values.to(torch.bfloat16).float()


def _attend(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, bias: Optional[torch.Tensor], scale: float,
            config: WormholeComputeKernelConfig) -> torch.Tensor:
    """softmax(q k^T * scale + bias) v with ``[b, nh, sq, d]`` queries and ``[b, nkv, sk, d]`` keys/values."""
    group = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
    scores = _to_cb(device_matmul(q, k.transpose(-2, -1), config, None), config) * scale
    if bias is not None:
        scores = scores + bias
    probabilities = _to_cb(torch.softmax(scores, dim=-1), config)
    return device_matmul(probabilities, v, config, None)


def _check_heads(q: TensorType, k: TensorType, v: TensorType, decode: bool) -> None:
    if not q.shape.rank == k.shape.rank == v.shape.rank == 4:
        raise ValueError(f"takes rank-4 q, k, v, got {q.shape}, {k.shape}, {v.shape}")
    if k.shape != v.shape:
        raise ValueError(f"k {k.shape} and v {v.shape} must have one shape")
    q_heads = q.shape[2] if decode else q.shape[1]
    if q.shape[-1] != k.shape[-1] or q_heads % k.shape[1]:
        raise ValueError(f"q {q.shape} and k {k.shape} must share the head size, and the {q_heads} query heads "
                         f"must split evenly over the {k.shape[1]} key/value heads")


def _sdpa_rule(q: TensorType, k: TensorType, v: TensorType, mask: Optional[TensorType] = None, *,
               is_causal: bool, scale: float, config: WormholeComputeKernelConfig) -> TensorType:
    _check_heads(q, k, v, decode=False)
    if q.shape[0] != k.shape[0]:
        raise ValueError(f"q {q.shape} and k {k.shape} differ in batch")
    if is_causal and q.shape[2] != k.shape[2]:
        raise ValueError(f"causal attention needs as many query as key positions, got {q.shape[2]} and {k.shape[2]}")
    if mask is not None:
        scores = (q.shape[0], q.shape[1], q.shape[2], k.shape[2])
        if broadcast(mask.shape, scores) != scores:
            raise ValueError(f"the mask of shape {mask.shape} does not broadcast to the scores' {list(scores)}")
    return q


def _sdpa_impl(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: Optional[torch.Tensor] = None, *,
               is_causal: bool, scale: float, config: WormholeComputeKernelConfig) -> torch.Tensor:
    bias = None if mask is None else mask.float()
    if is_causal:
        sq, sk = q.shape[2], k.shape[2]
        bias = torch.zeros(sq, sk).masked_fill(torch.ones(sq, sk, dtype=torch.bool).triu(1), float("-inf"))
    return _attend(q.float(), k.float(), v.float(), bias, scale, config)


sdpa_p = DevicePrimitive("scaled_dot_product_attention", _sdpa_rule, _sdpa_impl)


def _config(value: Optional[WormholeComputeKernelConfig]) -> WormholeComputeKernelConfig:
    checked = as_compute_kernel_config(value)
    return ATTENTION_DEFAULT if checked is None else checked


def _check_program_config(program_config: object, function: str) -> None:
    if program_config is not None and not isinstance(program_config, SDPAProgramConfig):
        raise UsageTypeError(f"{function}: program_config must be a ttnn.SDPAProgramConfig, got {program_config!r}")


def scaled_dot_product_attention(input_tensor_q: Tensor, input_tensor_k: Tensor, input_tensor_v: Tensor, *,
                                 attn_mask: Optional[Tensor] = None, is_causal: bool = True,
                                 scale: Optional[float] = None, sliding_window_size: Optional[int] = None,
                                 memory_config: Optional[MemoryConfig] = None,
                                 program_config: Optional[SDPAProgramConfig] = None,
                                 compute_kernel_config: Optional[WormholeComputeKernelConfig] = None,
                                 attention_sink: Optional[Tensor] = None) -> Tensor:
    """softmax(q k^T * scale + mask) v over ``[b, heads, s, d]`` tensors; causal by default (each
    position attends to itself and earlier ones), with ``attn_mask`` added instead when not causal.
    ``scale`` defaults to 1/sqrt(d)."""
    function = "ttnn.transformer.scaled_dot_product_attention"
    if is_causal and attn_mask is not None:
        raise UsageValueError(f"{function}: is_causal and attn_mask are mutually exclusive; pass is_causal=False "
                              "with a mask")
    if sliding_window_size is not None or attention_sink is not None:
        raise UsageValueError(f"{function}: tilecraft does not simulate sliding_window_size or attention_sink")
    _check_program_config(program_config, function)
    for operand in (input_tensor_q, input_tensor_k, input_tensor_v):
        if not isinstance(operand, Tensor):
            raise UsageTypeError(f"{function} takes ttnn tensors, got {type_name(operand)}")
    head_size = input_tensor_q.shape[-1]
    operands = [input_tensor_q, input_tensor_k, input_tensor_v] + ([attn_mask] if attn_mask is not None else [])
    return sdpa_p.bind(*operands, memory_config=memory_config, is_causal=bool(is_causal),
                       scale=1 / math.sqrt(head_size) if scale is None else float(scale),
                       config=_config(compute_kernel_config))


def _decode_rule(q: TensorType, k: TensorType, v: TensorType, *, positions: tuple[int, ...], scale: float,
                 config: WormholeComputeKernelConfig, window: Optional[int]) -> TensorType:
    _check_heads(q, k, v, decode=True)
    if q.shape[0] != 1 or q.shape[1] != k.shape[0]:
        raise ValueError(f"q is [1, users, heads, d] with one user per cache row; got q {q.shape} and k {k.shape}")
    if len(positions) != k.shape[0] or any(not 0 <= p < k.shape[2] for p in positions):
        raise ValueError(f"cur_pos {list(positions)} needs one position per user within the cache's "
                         f"{k.shape[2]} positions")
    return q


def _decode_impl(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *, positions: tuple[int, ...], scale: float,
                 config: WormholeComputeKernelConfig, window: Optional[int]) -> torch.Tensor:
    users = q.permute(1, 2, 0, 3).float()  # [users, heads, 1, d]
    position, current = torch.arange(k.shape[2])[None, :], torch.tensor(positions)[:, None]
    visible = (position <= current) & (position > current - (window or k.shape[2] + 1))  # [users, positions]
    bias = torch.zeros(visible.shape).masked_fill(~visible, float("-inf"))[:, None, None, :]
    return _attend(users, k.float(), v.float(), bias, scale, config).permute(2, 0, 1, 3)


sdpa_decode_p = DevicePrimitive("scaled_dot_product_attention_decode", _decode_rule, _decode_impl)


def scaled_dot_product_attention_decode(input_tensor_q: Tensor, input_tensor_k: Tensor, input_tensor_v: Tensor, *,
                                        is_causal: bool = True, attn_mask: Optional[Tensor] = None,
                                        cur_pos: Optional[Sequence[int]] = None,
                                        cur_pos_tensor: Optional[Tensor] = None, scale: Optional[float] = None,
                                        memory_config: Optional[MemoryConfig] = None,
                                        program_config: Optional[SDPAProgramConfig] = None,
                                        compute_kernel_config: Optional[WormholeComputeKernelConfig] = None,
                                        sliding_window_size: Optional[int] = None) -> Tensor:
    """One query per user, ``q`` of ``[1, users, heads, d]``, against that user's KV cache
    ``[users, kv_heads, positions, d]`` up to and including its position ``cur_pos[user]`` (a list, or
    an int32 tensor ``cur_pos_tensor``); with ``sliding_window_size`` only the last that many positions."""
    function = "ttnn.transformer.scaled_dot_product_attention_decode"
    if attn_mask is not None or not is_causal:
        raise UsageValueError(f"{function}: tilecraft simulates the causal form (cur_pos), not attn_mask")
    _check_program_config(program_config, function)
    if cur_pos_tensor is not None:
        if not isinstance(cur_pos_tensor, Tensor):
            raise UsageTypeError(f"{function}: cur_pos_tensor must be a ttnn.Tensor, got {type_name(cur_pos_tensor)}")
        cur_pos = [int(p) for p in cur_pos_tensor.device_tensors()[0].logical().reshape(-1).tolist()]
    if cur_pos is None:
        raise UsageValueError(f"{function} needs cur_pos or cur_pos_tensor: each user's position in its cache")
    if not isinstance(input_tensor_q, Tensor):
        raise UsageTypeError(f"{function} takes ttnn tensors, got {type_name(input_tensor_q)}")
    head_size = input_tensor_q.shape[-1]
    return sdpa_decode_p.bind(input_tensor_q, input_tensor_k, input_tensor_v, memory_config=memory_config,
                              positions=tuple(int(p) for p in cur_pos),
                              scale=1 / math.sqrt(head_size) if scale is None else float(scale),
                              config=_config(compute_kernel_config), window=sliding_window_size)
