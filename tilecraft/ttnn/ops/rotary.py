"""Rotary position embeddings: ``experimental.rotary_embedding`` (rotate-half form, as Falcon and
GPT-NeoX use it) and ``experimental.rotary_embedding_llama`` (adjacent pairs, rotated by a 32x32
transformation matrix on the matrix unit, as tt_transformers' Llama does).

Both compute x * cos + rotate(x) * sin in fp32 and round once; rotary_embedding_llama's default
compute kernel config is HiFi4, so its rotation, a product with one nonzero (+-1) per column, is exact.
"""

from __future__ import annotations

from typing import Optional

import torch

from tilecraft.diagnostics import UsageTypeError, UsageValueError, type_name

from ..memory import MemoryConfig
from ..primitives import DevicePrimitive, TensorType
from ..tensor import Tensor


def _check_tables(x: TensorType, cos: TensorType, sin: TensorType, positions: int) -> None:
    if x.shape.rank != 4:
        raise ValueError(f"takes [b, heads, s, d] input, got {x.shape}")
    if cos.shape != sin.shape or cos.shape[-1] != x.shape[-1] or cos.shape[-2] < positions:
        raise ValueError(f"the cos {cos.shape} and sin {sin.shape} tables must be alike, as wide as the head "
                         f"({x.shape[-1]}) and cover its {positions} positions")


def _rotary_rule(x: TensorType, cos: TensorType, sin: TensorType, *, token_index: Optional[int]) -> TensorType:
    _check_tables(x, cos, sin, x.shape[-2] if token_index is None else token_index + 1)
    return x


def _rotate_half(x: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    return torch.cat([-x[..., half:], x[..., :half]], dim=-1)


def _rotary_impl(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, *, token_index: Optional[int]) -> torch.Tensor:
    rows = slice(0, x.shape[-2]) if token_index is None else slice(token_index, token_index + 1)
    c, s = cos[..., rows, :].float(), sin[..., rows, :].float()
    return x.float() * c + _rotate_half(x.float()) * s


rotary_embedding_p = DevicePrimitive("rotary_embedding", _rotary_rule, _rotary_impl)


def rotary_embedding(input_tensor: Tensor, cos_cache: Tensor, sin_cache: Tensor, token_index: Optional[int] = None,
                     *, memory_config: Optional[MemoryConfig] = None, compute_kernel_config: object = None) -> Tensor:
    """x * cos + rotate_half(x) * sin, with the tables' first ``s`` rows (row ``token_index`` when
    decoding one token)."""
    return rotary_embedding_p.bind(input_tensor, cos_cache, sin_cache, memory_config=memory_config,
                                   token_index=token_index)


def _llama_rule(x: TensorType, cos: TensorType, sin: TensorType, trans: TensorType) -> TensorType:
    _check_tables(x, cos, sin, x.shape[-2])
    if tuple(trans.shape[-2:]) != (32, 32):
        raise ValueError(f"the transformation matrix is one 32x32 tile, got {trans.shape}")
    if x.shape[-1] % 32:
        raise ValueError(f"the head size {x.shape[-1]} must be whole tiles of 32")
    return x


def _llama_impl(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, trans: torch.Tensor) -> torch.Tensor:
    x = x.float()
    tiles = x.reshape(*x.shape[:-1], x.shape[-1] // 32, 32)
    rotated = (tiles @ trans.float().reshape(32, 32)).reshape(x.shape)
    rows = slice(0, x.shape[-2])
    return x * cos[..., rows, :].float() + rotated * sin[..., rows, :].float()


rotary_embedding_llama_p = DevicePrimitive("rotary_embedding_llama", _llama_rule, _llama_impl)


def rotary_embedding_llama(input_tensor: Tensor, cos_cache: Tensor, sin_cache: Tensor, trans_mat: Tensor,
                           is_decode_mode: bool = False, *, memory_config: Optional[MemoryConfig] = None,
                           compute_kernel_config: object = None) -> Tensor:
    """x * cos + (x @ trans_mat) * sin, ``trans_mat`` applied to each 32-wide tile of the head (prefill
    form: ``[b, heads, s, d]`` input, tables of at least ``s`` rows)."""
    if is_decode_mode:
        raise UsageValueError("ttnn.experimental.rotary_embedding_llama: tilecraft simulates the prefill form; "
                              "is_decode_mode=True (height-sharded [1, users, heads, d]) is not simulated")
    for operand in (input_tensor, cos_cache, sin_cache, trans_mat):
        if not isinstance(operand, Tensor):
            raise UsageTypeError(f"ttnn.experimental.rotary_embedding_llama takes ttnn tensors, got {type_name(operand)}")
    return rotary_embedding_llama_p.bind(input_tensor, cos_cache, sin_cache, trans_mat, memory_config=memory_config)
