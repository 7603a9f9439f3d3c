"""Ops on images in ttnn's channels-last layout: upsample (``[N, H, W, C]``), fold (space to depth,
the patch embedding's first step), avg_pool2d (on the ``[1, 1, N*H*W, C]`` rows convolutions hand
over), and get_conv_output_dim, the size formula models use to plan them.

Upsampling and folding move values (exact); pooling averages in fp32 and rounds once.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Optional, Sequence, Union

import torch
import torch.nn.functional as F

from tilecraft.diagnostics import UsageValueError

from ..layout import Shape
from ..memory import MemoryConfig
from ..primitives import DevicePrimitive, TensorType
from ..tensor import Tensor

Pair = Union[int, Sequence[int]]


def _pair(value: Pair, what: str) -> tuple[int, int]:
    pair = (value, value) if isinstance(value, (int, float)) else tuple(value)
    if len(pair) != 2 or any(v <= 0 for v in pair):
        raise UsageValueError(f"{what} is a positive number or a (height, width) pair, got {value!r}")
    return pair  # type: ignore[return-value]


def get_conv_output_dim(input: int, window: int, stride: int = 1, pad: int = 0,  # noqa: A002 (ttnn's name)
                        dilation: int = 1) -> int:
    """The output size of a convolution or pooling window along one dim."""
    return (input + 2 * pad - dilation * (window - 1) - 1) // stride + 1


# -- upsample ----------------------------------------------------------------------------------------

def _upsample_rule(x: TensorType, *, scale: tuple[float, float], mode: str) -> TensorType:
    if x.shape.rank != 4:
        raise ValueError(f"takes a channels-last [N, H, W, C] image, got {x.shape}")
    n, h, w, c = x.shape
    return replace(x, shape=Shape((n, int(h * scale[0]), int(w * scale[1]), c)))


def _upsample_impl(x: torch.Tensor, *, scale: tuple[float, float], mode: str) -> torch.Tensor:
    out = F.interpolate(x.float().permute(0, 3, 1, 2), scale_factor=scale, mode=mode)
    return out.permute(0, 2, 3, 1)


upsample_p = DevicePrimitive("upsample", _upsample_rule, _upsample_impl)


def upsample(input_tensor: Tensor, scale_factor: Pair, *, mode: str = "nearest",
             memory_config: Optional[MemoryConfig] = None, compute_kernel_config: object = None) -> Tensor:
    """``[N, H, W, C]`` scaled by ``scale_factor`` in H and W, nearest or bilinear."""
    if mode not in ("nearest", "bilinear"):
        raise UsageValueError(f"ttnn.upsample: mode is 'nearest' or 'bilinear', got {mode!r}")
    return upsample_p.bind(input_tensor, memory_config=memory_config, scale=_pair(scale_factor, "scale_factor"),
                           mode=mode)


# -- fold --------------------------------------------------------------------------------------------

def _fold_rule(x: TensorType, *, stride: tuple[int, int], transpose: bool) -> TensorType:
    if x.shape.rank != 4:
        raise ValueError(f"takes a rank-4 image, got {x.shape}")
    n, h, w, c = (x.shape[0], x.shape[2], x.shape[3], x.shape[1]) if transpose else tuple(x.shape)
    if h % stride[0] or w % stride[1]:
        raise ValueError(f"strides {stride} must divide the image's height {h} and width {w}")
    return replace(x, shape=Shape((n, h // stride[0], w // stride[1], c * stride[0] * stride[1])))


def _fold_impl(x: torch.Tensor, *, stride: tuple[int, int], transpose: bool) -> torch.Tensor:
    if transpose:  # NCHW in, NHWC out
        x = x.permute(0, 2, 3, 1)
    n, h, w, c = x.shape
    sh, sw = stride
    return x.reshape(n, h // sh, sh, w // sw, sw, c).permute(0, 1, 3, 2, 4, 5).reshape(n, h // sh, w // sw,
                                                                                     c * sh * sw)


fold_p = DevicePrimitive("fold", _fold_rule, _fold_impl)


def fold(input: Tensor, stride_h: int, stride_w: int, *, use_transpose_as_fold: bool = False,  # noqa: A002
         output_shape: object = None, padding: Optional[Sequence[int]] = None, grid_size: object = None,
         override_memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """Space to depth: each ``stride_h`` x ``stride_w`` patch of ``[N, H, W, C]`` becomes one pixel of
    ``C * stride_h * stride_w`` channels (patch rows outer, channels inner). With
    ``use_transpose_as_fold`` the input is ``[N, C, H, W]``."""
    if padding is not None and any(padding):
        raise UsageValueError("ttnn.fold: tilecraft does not simulate padding; pad the image first (ttnn.pad)")
    return fold_p.bind(input, memory_config=override_memory_config, stride=(stride_h, stride_w),
                       transpose=bool(use_transpose_as_fold))


# -- avg_pool2d --------------------------------------------------------------------------------------

def _pool_geometry(input_h: int, input_w: int, kernel: tuple[int, int], stride: tuple[int, int],
                   padding: tuple[int, int], ceil_mode: bool) -> tuple[int, int]:
    """The pooled image's (height, width)."""
    out = []
    for size, k, s, p in zip((input_h, input_w), kernel, stride, padding):
        span = size + 2 * p - k
        out.append((-(-span // s) if ceil_mode else span // s) + 1)
    return out[0], out[1]


def _pool_rule(x: TensorType, *, batch_size: int, input_h: int, input_w: int, channels: int,
               kernel: tuple[int, int], stride: tuple[int, int], padding: tuple[int, int], ceil_mode: bool,
               count_include_pad: bool, divisor: Optional[int]) -> TensorType:
    if tuple(x.shape) != (1, 1, batch_size * input_h * input_w, channels):
        raise ValueError(f"takes the image as rows [1, 1, N*H*W, C] = [1, 1, {batch_size * input_h * input_w}, "
                         f"{channels}], got {x.shape}")
    if any(p > k // 2 for p, k in zip(padding, kernel)):
        raise ValueError(f"padding {padding} must be at most half the kernel {kernel}")
    out_h, out_w = _pool_geometry(input_h, input_w, kernel, stride, padding, ceil_mode)
    return replace(x, shape=Shape((1, 1, batch_size * out_h * out_w, channels)))


def _pool_impl(x: torch.Tensor, *, batch_size: int, input_h: int, input_w: int, channels: int,
               kernel: tuple[int, int], stride: tuple[int, int], padding: tuple[int, int], ceil_mode: bool,
               count_include_pad: bool, divisor: Optional[int]) -> torch.Tensor:
    image = x.float().reshape(batch_size, input_h, input_w, channels).permute(0, 3, 1, 2)
    out = F.avg_pool2d(image, kernel, stride, padding, ceil_mode=ceil_mode, count_include_pad=count_include_pad,
                       divisor_override=divisor)
    return out.permute(0, 2, 3, 1).reshape(1, 1, -1, channels)


avg_pool2d_p = DevicePrimitive("avg_pool2d", _pool_rule, _pool_impl)


def avg_pool2d(input_tensor: Tensor, batch_size: int, input_h: int, input_w: int, channels: int, kernel_size: Pair,
               stride: Pair, padding: Sequence[int] = (0, 0), ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: Optional[int] = None, *, memory_config: Optional[MemoryConfig] = None,
               applied_shard_scheme: object = None, in_place_halo: bool = False, dtype: object = None,
               output_layout: object = None, compute_kernel_config: object = None) -> Tensor:
    """Mean of each ``kernel_size`` window of the ``[1, 1, N*H*W, C]`` image, as
    ``[1, 1, N*out_h*out_w, C]``; ``padding`` is (h, w) or equal [top, bottom, left, right] pairs.
    ``applied_shard_scheme`` and ``in_place_halo`` change where the work runs, not the values."""
    pads = tuple(padding)
    if len(pads) == 4:
        if pads[0] != pads[1] or pads[2] != pads[3]:
            raise UsageValueError(f"ttnn.avg_pool2d: tilecraft simulates equal padding on opposite sides, got {pads}")
        pads = (pads[0], pads[2])
    return avg_pool2d_p.bind(input_tensor, memory_config=memory_config, dtype=dtype, layout=output_layout,
                             batch_size=batch_size,
                             input_h=input_h, input_w=input_w, channels=channels,
                             kernel=_pair(kernel_size, "kernel_size"), stride=_pair(stride, "stride"),
                             padding=(int(pads[0]), int(pads[1])), ceil_mode=bool(ceil_mode),
                             count_include_pad=bool(count_include_pad), divisor=divisor_override)
