"""``ttnn.conv2d`` with its ``Conv2dConfig``, on ttnn's channels-last activations.

The input is ``[N, H, W, C]`` or the flattened ``[1, 1, N*H*W, C]`` rows convolutions hand each
other; the weights are in torch's ``[out, in / groups, kh, kw]`` layout; the result is
``[1, 1, N*out_h*out_w, out]`` (optionally with ``(out_h, out_w)`` and the weights and bias used, as
ttnn returns them). Values: the weights rounded to ``conv_config.weights_dtype``, the convolution
exact in fp32 (or, with ``compute_config``, as patches times weights on the matrix unit at the
config's fidelity), the bias added and ``conv_config.activation`` applied, one rounding. The
weights handed back are the same values (ttnn hands back the device's prepared layout, which only
its own conv2d reads; passing either back to tilecraft's conv2d computes the same).

``Conv2dConfig``'s sharding, buffering and halo settings decide where the work runs, not the
values, and are recorded only.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional, Sequence, Union

import torch
import torch.nn.functional as F

from tilecraft.diagnostics import UsageTypeError, UsageValueError, type_name
from tilecraft.dtypes import DataFormat

from ..compute_config import WormholeComputeKernelConfig, as_compute_kernel_config, device_matmul
from ..layout import Layout, Shape
from ..memory import MemoryConfig
from ..primitives import DevicePrimitive, TensorType
from ..tensor import Tensor
from .activation import Activation, activation_name, apply_activation
from .spatial import get_conv_output_dim

Pair = Union[int, Sequence[int]]


class Conv2dConfig:
    """ttnn's convolution settings: ``weights_dtype`` and ``activation`` change the values; the
    others (``shard_layout``, ``act_block_h_override``, ``deallocate_activation``, ...: sharding, block
    sizes, buffering, halo) where and how the work runs, and are kept in ``settings``."""

    def __init__(self, *, weights_dtype: Optional[DataFormat] = None, activation: Activation = None,
                 **settings: object) -> None:
        self.weights_dtype = weights_dtype
        self.activation = activation
        self.settings = settings

    def __repr__(self) -> str:
        return f"Conv2dConfig(weights_dtype={self.weights_dtype!r}, activation={self.activation!r}, {self.settings})"


def _pair(value: Pair) -> tuple[int, int]:
    return (value, value) if isinstance(value, int) else (int(value[0]), int(value[1]))


def _padding(value: Pair) -> tuple[int, int, int, int]:
    """(top, bottom, left, right) from an int, (h, w) or (top, bottom, left, right)."""
    if isinstance(value, int):
        return (value,) * 4
    pads = tuple(int(v) for v in value)
    if len(pads) == 2:
        return pads[0], pads[0], pads[1], pads[1]
    if len(pads) == 4:
        return pads  # type: ignore[return-value]
    raise UsageValueError(f"ttnn.conv2d: padding is an int, (h, w) or (top, bottom, left, right), got {value!r}")


@dataclass(frozen=True)
class _Geometry:
    batch: int
    height: int
    width: int
    in_channels: int
    out_channels: int
    kernel: tuple[int, int]
    stride: tuple[int, int]
    padding: tuple[int, int, int, int]
    dilation: tuple[int, int]
    groups: int

    def output(self) -> tuple[int, int]:
        top, bottom, left, right = self.padding
        return (get_conv_output_dim(self.height + top + bottom, self.kernel[0], self.stride[0], 0, self.dilation[0]),
                get_conv_output_dim(self.width + left + right, self.kernel[1], self.stride[1], 0, self.dilation[1]))


def _rule(x: TensorType, weight: TensorType, *bias: TensorType, geometry: _Geometry,
          config: Optional[WormholeComputeKernelConfig], activation: Optional[str]) -> TensorType:
    g = geometry
    if x.shape.volume() != g.batch * g.height * g.width * x.shape[-1] or x.shape[-1] < g.in_channels:
        raise ValueError(f"the input {x.shape} is not {g.batch} images of {g.height}x{g.width} with {g.in_channels} "
                         f"channels, as [N, H, W, C] or [1, 1, N*H*W, C]")
    expected = (g.out_channels, g.in_channels // g.groups, *g.kernel)
    if g.in_channels % g.groups or g.out_channels % g.groups or tuple(weight.shape) != expected:
        raise ValueError(f"the weights {weight.shape} must be [out, in / groups, kh, kw] = {list(expected)} "
                         f"({g.groups} groups dividing both channel counts)")
    if bias and bias[0].shape.volume() != g.out_channels:
        raise ValueError(f"the bias {bias[0].shape} must hold {g.out_channels} values")
    out_h, out_w = g.output()
    if out_h < 1 or out_w < 1:
        raise ValueError(f"a {g.kernel} kernel does not fit the padded {g.height}x{g.width} image")
    return replace(x, shape=Shape((1, 1, g.batch * out_h * out_w, g.out_channels)))


def _impl(x: torch.Tensor, weight: torch.Tensor, *bias: torch.Tensor, geometry: _Geometry,
          config: Optional[WormholeComputeKernelConfig], activation: Optional[str]) -> torch.Tensor:
    g = geometry
    image = x.float().reshape(g.batch, g.height, g.width, -1)[..., :g.in_channels].permute(0, 3, 1, 2)
    top, bottom, left, right = g.padding
    image = F.pad(image, (left, right, top, bottom))
    w = weight.float()
    if config is None:
        out = F.conv2d(image, w, stride=g.stride, dilation=g.dilation, groups=g.groups)
    else:  # patches times weights on the matrix unit, group by group
        out_h, out_w = g.output()
        patches = F.unfold(image, g.kernel, dilation=g.dilation, stride=g.stride)  # [N, C*kh*kw, L]
        per_group = patches.reshape(g.batch, g.groups, -1, out_h * out_w).transpose(-2, -1)  # [N, G, L, Ck]
        weights = w.reshape(g.groups, g.out_channels // g.groups, -1).transpose(-2, -1)  # [G, Ck, out/G]
        out = device_matmul(per_group, weights, config, None)  # [N, G, L, out/G]
        out = out.permute(0, 1, 3, 2).reshape(g.batch, g.out_channels, out_h, out_w)
    if bias:
        out = out + bias[0].float().reshape(1, -1, 1, 1)
    out = apply_activation(out, activation)
    return out.permute(0, 2, 3, 1).reshape(1, 1, -1, g.out_channels)


conv2d_p = DevicePrimitive("conv2d", _rule, _impl)


def conv2d(input_tensor: Tensor, weight_tensor: Tensor, device: object, in_channels: int, out_channels: int,
           batch_size: int, input_height: int, input_width: int, kernel_size: Pair, stride: Pair = (1, 1),
           padding: Pair = (0, 0), dilation: Pair = (1, 1), groups: int = 1, *, dtype: Optional[DataFormat] = None,
           bias_tensor: Optional[Tensor] = None, conv_config: Optional[Conv2dConfig] = None,
           compute_config: Optional[WormholeComputeKernelConfig] = None,
           memory_config: Optional[MemoryConfig] = None, slice_config: object = None,
           return_output_dim: bool = False, return_weights_and_bias: bool = False) -> object:
    """A 2-D convolution (see the module docstring for the layouts and what is returned)."""
    for name, operand in (("input_tensor", input_tensor), ("weight_tensor", weight_tensor),
                          ("bias_tensor", bias_tensor)):
        if operand is not None and not isinstance(operand, Tensor):
            raise UsageTypeError(f"ttnn.conv2d: {name} must be a ttnn.Tensor, got {type_name(operand)}")
    if conv_config is not None and not isinstance(conv_config, Conv2dConfig):
        raise UsageTypeError(f"ttnn.conv2d: conv_config must be a ttnn.Conv2dConfig, got {conv_config!r}")
    settings = conv_config or Conv2dConfig()
    weights = weight_tensor
    if settings.weights_dtype is not None and settings.weights_dtype is not weight_tensor.dtype:
        layout = Layout.TILE if settings.weights_dtype.is_block_float else weight_tensor.layout
        weights = Tensor.from_values(weight_tensor.logical(), settings.weights_dtype, layout)
    geometry = _Geometry(batch_size, input_height, input_width, in_channels, out_channels, _pair(kernel_size),
                         _pair(stride), _padding(padding), _pair(dilation), groups)
    operands = (input_tensor, weights) + (() if bias_tensor is None else (bias_tensor,))
    out = conv2d_p.bind(*operands, dtype=dtype, memory_config=memory_config, geometry=geometry,
                        config=as_compute_kernel_config(compute_config),
                        activation=activation_name(settings.activation))
    extra: tuple = ()
    if return_output_dim:
        extra += (geometry.output(),)
    if return_weights_and_bias:
        extra += ((weights, bias_tensor),)
    return (out, *extra) if extra else out
