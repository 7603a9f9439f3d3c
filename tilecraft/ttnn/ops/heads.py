"""Splitting a fused QKV projection into attention heads and joining heads back:
``transformer.split_query_key_value_and_split_heads`` / ``concatenate_heads`` (``[b, s, width]``
activations) and ``experimental.nlp_create_qkv_heads`` / ``nlp_concat_heads`` (``[b, 1, s, width]``).

The fused projection holds all query heads, then the key heads, then the value heads, each
``head_size`` wide (``num_kv_heads`` key and value heads for grouped-query attention). Values only
move, so the results are exact.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Optional

import torch

from tilecraft.diagnostics import UsageTypeError, UsageValueError, type_name

from ..layout import Shape
from ..memory import MemoryConfig
from ..primitives import DevicePrimitive, TensorType
from ..tensor import Tensor
from .shape_ops import concat

_PARTS = ("query", "key", "value")


def _head_size(width: int, num_heads: int, num_kv_heads: int) -> int:
    """The width of one head in a fused projection ``width`` wide."""
    heads = num_heads + 2 * num_kv_heads
    if width % heads:
        raise ValueError(f"a fused width of {width} does not split into {num_heads} query and 2 x {num_kv_heads} "
                         f"key/value heads of one size")
    return width // heads


def _heads_rule(x: TensorType, *, part: str, num_heads: int, num_kv_heads: int, transpose: bool,
                four_d: bool) -> TensorType:
    if x.shape.rank != (4 if four_d else 3) or (four_d and x.shape[1] != 1):
        raise ValueError(f"takes a fused projection of shape {'[b, 1, s, width]' if four_d else '[b, s, width]'}, "
                         f"got {x.shape}")
    head_size = _head_size(x.shape[-1], num_heads, num_kv_heads)
    count = num_heads if part == "query" else num_kv_heads
    b, s = x.shape[0], x.shape[-2]
    return replace(x, shape=Shape((b, count, head_size, s) if transpose else (b, count, s, head_size)))


def _heads_impl(x: torch.Tensor, *, part: str, num_heads: int, num_kv_heads: int, transpose: bool,
                four_d: bool) -> torch.Tensor:
    b, s, width = x.shape[0], x.shape[-2], x.shape[-1]
    head_size = _head_size(width, num_heads, num_kv_heads)
    heads = x.reshape(b, s, num_heads + 2 * num_kv_heads, head_size)
    start, count = {"query": (0, num_heads), "key": (num_heads, num_kv_heads),
                    "value": (num_heads + num_kv_heads, num_kv_heads)}[part]
    out = heads[:, :, start:start + count].permute(0, 2, 1, 3)
    return out.transpose(-2, -1) if transpose else out


split_heads_p = DevicePrimitive("split_heads", _heads_rule, _heads_impl)


def _split(fused: Tensor, kv: Optional[Tensor], num_heads: int, num_kv_heads: Optional[int], transpose_key: bool,
           memory_config: Optional[MemoryConfig], four_d: bool, function: str) -> tuple[Tensor, Tensor, Tensor]:
    if not isinstance(fused, Tensor) or (kv is not None and not isinstance(kv, Tensor)):
        raise UsageTypeError(f"{function} takes ttnn tensors, got {type_name(fused)}")
    if not isinstance(num_heads, int) or num_heads < 1:
        raise UsageValueError(f"{function}: num_heads must be a positive int, got {num_heads!r}")
    kv_heads = num_heads if num_kv_heads is None else num_kv_heads
    if num_heads % kv_heads:
        raise UsageValueError(f"{function}: {num_heads} query heads do not share {kv_heads} key/value heads evenly")
    if kv is not None:
        fused = concat([fused, kv], dim=-1)
    return tuple(split_heads_p.bind(fused, memory_config=memory_config, part=part, num_heads=num_heads,
                                    num_kv_heads=kv_heads, transpose=transpose_key and part == "key", four_d=four_d)
                 for part in _PARTS)  # type: ignore[return-value]


def split_query_key_value_and_split_heads(input_tensor: Tensor, kv_input_tensor: Optional[Tensor] = None, *,
                                          num_heads: int, num_kv_heads: Optional[int] = None,
                                          transpose_key: bool = True, memory_config: Optional[MemoryConfig] = None,
                                          use_falcon7b_backend: bool = False) -> tuple[Tensor, Tensor, Tensor]:
    """``[b, s, (nh + 2 nkv) * d]`` -> query ``[b, nh, s, d]``, key ``[b, nkv, d, s]`` (``[b, nkv, s, d]``
    without ``transpose_key``), value ``[b, nkv, s, d]``."""
    return _split(input_tensor, kv_input_tensor, num_heads, num_kv_heads, transpose_key, memory_config, False,
                  "ttnn.transformer.split_query_key_value_and_split_heads")


def nlp_create_qkv_heads(input_tensor: Tensor, input_tensor_kv: Optional[Tensor] = None, *, num_heads: int,
                         num_kv_heads: Optional[int] = None, transpose_k_heads: bool = False,
                         memory_config: Optional[MemoryConfig] = None) -> tuple[Tensor, Tensor, Tensor]:
    """``[b, 1, s, (nh + 2 nkv) * d]`` -> query ``[b, nh, s, d]``, key ``[b, nkv, s, d]`` (``[b, nkv, d, s]``
    with ``transpose_k_heads``), value ``[b, nkv, s, d]``."""
    return _split(input_tensor, input_tensor_kv, num_heads, num_kv_heads, transpose_k_heads, memory_config, True,
                  "ttnn.experimental.nlp_create_qkv_heads")


def _join_rule(x: TensorType, *, four_d: bool) -> TensorType:
    if x.shape.rank != 4:
        raise ValueError(f"takes heads of shape [b, heads, s, head_size], got {x.shape}")
    b, heads, s, size = x.shape
    return replace(x, shape=Shape((b, 1, s, heads * size) if four_d else (b, s, heads * size)))


def _join_impl(x: torch.Tensor, *, four_d: bool) -> torch.Tensor:
    b, heads, s, size = x.shape
    joined = x.permute(0, 2, 1, 3).reshape(b, s, heads * size)
    return joined.unsqueeze(1) if four_d else joined


join_heads_p = DevicePrimitive("join_heads", _join_rule, _join_impl)


def concatenate_heads(input_tensor: Tensor, *, memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """``[b, heads, s, d]`` -> ``[b, s, heads * d]``."""
    return join_heads_p.bind(input_tensor, memory_config=memory_config, four_d=False)


def nlp_concat_heads(input_tensor: Tensor, *, memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """``[b, heads, s, d]`` -> ``[b, 1, s, heads * d]``."""
    return join_heads_p.bind(input_tensor, memory_config=memory_config, four_d=True)
