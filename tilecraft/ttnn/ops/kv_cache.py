"""Writes into a KV cache, in place: ``fill_cache`` (a user's whole prompt), and the paged forms
``experimental.paged_fill_cache`` / ``experimental.paged_update_cache`` (the cache split into blocks
of positions, a page table naming each user's blocks).

A cache is ``[users, kv_heads, positions, d]``, or ``[blocks, kv_heads, block_size, d]`` when paged;
values are rounded into the cache's dtype as they are written. A write outside the cache (a
position past its end, a block the page table does not have) is a ValueError naming it.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

import torch

from tilecraft.diagnostics import UsageTypeError, UsageValueError, type_name

from ..tensor import Tensor
from ..trace import traced


def _tensors(function: str, **named: object) -> None:
    for name, value in named.items():
        if not isinstance(value, Tensor):
            raise UsageTypeError(f"{function}: {name} must be a ttnn.Tensor, got {type_name(value)}")


def _write(cache: Tensor, update: Callable[[torch.Tensor], None]) -> None:
    """Apply ``update`` to each device's cache values and store them back, rounded into its dtype."""
    for piece in cache.device_tensors():
        values = piece.logical().clone()
        update(values)
        piece.storage.copy_(Tensor.from_values(values, piece.dtype, piece.layout).storage)


def _rows(table: Tensor) -> list[list[int]]:
    return [[int(v) for v in row] for row in table.device_tensors()[0].logical().reshape(table.shape[0], -1).tolist()]


@traced
def fill_cache(cache: Tensor, input: Tensor, batch_idx: int) -> Tensor:  # noqa: A002 (ttnn's name)
    """Write ``input`` ``[1, kv_heads, s, d]`` into positions ``0..s`` of user ``batch_idx``'s cache."""
    _tensors("ttnn.fill_cache", cache=cache, input=input)
    users, heads, positions, width = cache.shape
    if input.shape[0] != 1 or input.shape[1] != heads or input.shape[3] != width or input.shape[2] > positions:
        raise UsageValueError(f"ttnn.fill_cache: input {input.shape} does not fit a cache of {cache.shape}")
    if not 0 <= batch_idx < users:
        raise UsageValueError(f"ttnn.fill_cache: batch_idx {batch_idx} is outside the cache's {users} users")
    prompt = input.device_tensors()[0].logical().float()

    def update(values: torch.Tensor) -> None:
        values[batch_idx, :, :prompt.shape[2]] = prompt[0].to(values.dtype)
    _write(cache, update)
    return cache


@traced
def paged_fill_cache(cache: Tensor, input_tensor: Tensor, page_table: Tensor, *, batch_idx: int = 0,
                     batch_idx_tensor: Optional[Tensor] = None) -> Tensor:
    """Write ``input`` ``[1, kv_heads, s, d]`` into user ``batch_idx``'s blocks, position ``t`` into
    block ``page_table[batch_idx, t // block_size]``, row ``t % block_size``."""
    function = "ttnn.experimental.paged_fill_cache"
    _tensors(function, cache=cache, input_tensor=input_tensor, page_table=page_table)
    if batch_idx_tensor is not None:
        batch_idx = int(batch_idx_tensor.device_tensors()[0].logical().reshape(-1)[0])
    blocks, heads, block_size, width = cache.shape
    table = _rows(page_table)
    if not 0 <= batch_idx < len(table):
        raise UsageValueError(f"{function}: batch_idx {batch_idx} is outside the page table's {len(table)} users")
    length = input_tensor.shape[2]
    if input_tensor.shape[1] != heads or input_tensor.shape[3] != width or length > len(table[batch_idx]) * block_size:
        raise UsageValueError(f"{function}: input {input_tensor.shape} does not fit {len(table[batch_idx])} blocks "
                              f"of {cache.shape}")
    prompt = input_tensor.device_tensors()[0].logical()[0]

    def update(values: torch.Tensor) -> None:
        for t in range(length):
            block = table[batch_idx][t // block_size]
            if not 0 <= block < blocks:
                raise UsageValueError(f"{function}: the page table names block {block}; the cache has {blocks}")
            values[block, :, t % block_size] = prompt[:, t].to(values.dtype)
    _write(cache, update)
    return cache


@traced
def paged_update_cache(cache: Tensor, input_tensor: Tensor, *, update_idxs: Sequence[int] = (),
                       update_idxs_tensor: Optional[Tensor] = None, share_cache: Optional[bool] = None,
                       page_table: Optional[Tensor] = None, batch_offset: int = 0,
                       compute_kernel_config: object = None) -> Tensor:
    """Write each user's new token, ``input`` ``[1, users, heads, d]`` (heads may be padded past the
    cache's), at that user's position ``update_idxs[user]``: into its own cache row, or through
    ``page_table`` into a block of a paged cache. A negative position skips the user."""
    function = "ttnn.experimental.paged_update_cache"
    _tensors(function, cache=cache, input_tensor=input_tensor)
    if update_idxs_tensor is not None:
        update_idxs = [int(p) for p in update_idxs_tensor.device_tensors()[0].logical().reshape(-1).tolist()]
    users = input_tensor.shape[1]
    if len(update_idxs) != users:
        raise UsageValueError(f"{function}: {len(update_idxs)} positions for {users} users")
    rows, heads, positions, width = cache.shape
    if input_tensor.shape[2] < heads or input_tensor.shape[3] != width:
        raise UsageValueError(f"{function}: input {input_tensor.shape} does not hold the {heads} heads of width "
                              f"{width} of the cache {cache.shape}")
    table = None if page_table is None else _rows(page_table)
    tokens = input_tensor.device_tensors()[0].logical()[0]

    def update(values: torch.Tensor) -> None:
        for user, position in enumerate(update_idxs):
            if position < 0:
                continue
            if table is None:
                row, offset = batch_offset + user, position
            else:
                row, offset = table[user][position // positions], position % positions
            if not (0 <= row < rows and offset < positions):
                raise UsageValueError(f"{function}: user {user}'s position {position} is outside the cache {cache.shape}")
            values[row, :, offset] = tokens[user, :heads].to(values.dtype)
    _write(cache, update)
    return cache
