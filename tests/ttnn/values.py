"""What the ttnn op tests share: tensors made in one format and layout, the values the device
computes from, and a result's values back as fp32."""

from __future__ import annotations

import torch

import tilecraft.ttnn as ttnn


def tile(data: torch.Tensor, dtype=ttnn.bfloat16, **kwargs) -> ttnn.Tensor:
    """``data`` as a tile-layout ttnn tensor of ``dtype`` (bfloat16 by default)."""
    return ttnn.from_torch(data, dtype=dtype, layout=ttnn.TILE_LAYOUT, **kwargs)


def rows(data: torch.Tensor, dtype=ttnn.float32) -> ttnn.Tensor:
    """``data`` as a row-major ttnn tensor of ``dtype`` (float32 by default)."""
    return ttnn.from_torch(data, dtype=dtype, layout=ttnn.ROW_MAJOR_LAYOUT)


def bf16(data: torch.Tensor) -> torch.Tensor:
    """The values as bfloat16 holds them, widened to fp32: what a bfloat16 tensor computes from."""
    return data.bfloat16().float()


def values(t: ttnn.Tensor) -> torch.Tensor:
    """A result's values as an fp32 torch tensor."""
    return ttnn.to_torch(t).float()
