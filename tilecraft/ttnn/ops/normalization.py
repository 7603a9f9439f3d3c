"""Normalisations over the last dim: layer_norm, rms_norm, and the two halves of the distributed
RMSNorm (rms_norm_pre_all_gather / rms_norm_post_all_gather) with an all-gather between them.

Numerics: with fp32 DST (the default ttnn gives layer norm, ``fp32_dest_acc_en=True``) the statistics
and the normalised values are kept in fp32 and the result is rounded once. With a compute kernel
config that turns fp32 DST off, each intermediate the kernel writes to a circular buffer (the mean,
x - mean, the variance, 1/sqrt(variance + eps), the normalised values) is rounded to bfloat16 first,
as the kernel's intermediate buffers hold them.

ttnn's checks are made too: tile-layout input, ``weight``/``bias`` as wide as the input's last dim
(or, row-major, its values in rows of 32), a residual of the input's shape, no height sharding.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Optional

import torch

from tilecraft.diagnostics import UsageTypeError, UsageValueError, type_name
from tilecraft.dtypes import DataFormat

from ..compute_config import WormholeComputeKernelConfig, as_compute_kernel_config
from ..layout import Layout, Shape
from ..memory import MemoryConfig, TensorMemoryLayout
from ..primitives import DevicePrimitive, TensorType
from ..tensor import Tensor

#: the operands a norm may take after its input, in the order bind passes them
_OPTIONAL = ("residual", "weight", "bias")


def _norm_rule(x: TensorType, *others: TensorType, present: tuple[str, ...], epsilon: float, fp32: bool,
               rms: bool) -> TensorType:
    if x.layout is not Layout.TILE:
        raise ValueError("the input must be in tile layout (ttnn.to_layout(x, ttnn.TILE_LAYOUT))")
    width = x.shape[-1] if x.shape.rank else 1
    for name, operand in zip(present, others):
        if name == "residual" and operand.shape != x.shape:
            raise ValueError(f"the residual of shape {operand.shape} must have the input's shape {x.shape}")
        if name != "residual" and operand.layout is Layout.TILE and operand.shape[-1] != width:
            raise ValueError(f"the {name} of shape {operand.shape} must be as wide as the input's last dim ({width})")
        if name != "residual" and operand.layout is Layout.ROW_MAJOR and (
                operand.shape[-1] != 32 or operand.shape.volume() != width):
            raise ValueError(f"a row-major {name} holds the input's {width} values in rows of 32; got shape "
                             f"{operand.shape}")
    return replace(x, layout=Layout.TILE)


def _to_cb(values: torch.Tensor, fp32: bool) -> torch.Tensor:
    """An intermediate as the kernel's circular buffer holds it."""
    return values if fp32 else values.to(torch.bfloat16).float()


def _norm_impl(x: torch.Tensor, *others: torch.Tensor, present: tuple[str, ...], epsilon: float, fp32: bool,
               rms: bool) -> torch.Tensor:
    given = dict(zip(present, others))
    x = x.float()
    if "residual" in given:
        x = _to_cb(x + given["residual"].float(), fp32)
    if rms:
        centred = x
    else:
        centred = _to_cb(x - _to_cb(x.mean(-1, keepdim=True), fp32), fp32)
    variance = _to_cb(_to_cb(centred * centred, fp32).mean(-1, keepdim=True), fp32)
    return _affine(_to_cb(centred * _to_cb(torch.rsqrt(variance + epsilon), fp32), fp32), given, fp32)


def _affine(normalized: torch.Tensor, given: dict[str, torch.Tensor], fp32: bool) -> torch.Tensor:
    """``normalized * weight + bias`` with whichever of the two was given."""
    out = normalized
    if "weight" in given:
        out = _to_cb(out * given["weight"].float().reshape(-1), fp32)
    if "bias" in given:
        out = out + given["bias"].float().reshape(-1)
    return out


layer_norm_p = DevicePrimitive("layer_norm", _norm_rule, _norm_impl)
rms_norm_p = DevicePrimitive("rms_norm", _norm_rule, _norm_impl)


def _fp32_dest(config: Optional[WormholeComputeKernelConfig]) -> bool:
    """Whether DST (and the intermediates) are fp32: ttnn's norm default is yes."""
    checked = as_compute_kernel_config(config)
    return True if checked is None else checked.fp32_dest_acc_en


def _bind_norm(primitive: DevicePrimitive, input_tensor: Tensor, *, rms: bool, epsilon: float,
               optional: dict[str, Optional[Tensor]], memory_config: Optional[MemoryConfig],
               compute_kernel_config: Optional[WormholeComputeKernelConfig]) -> Tensor:
    for name, operand in (("input", input_tensor), *optional.items()):
        if operand is not None and not isinstance(operand, Tensor):
            raise UsageTypeError(f"{primitive!r}: the {name} must be a ttnn.Tensor, got {type_name(operand)}")
    if input_tensor.memory_config().memory_layout is TensorMemoryLayout.HEIGHT_SHARDED:
        raise UsageValueError(f"{primitive!r} takes interleaved, width- or block-sharded input, not height-sharded")
    present = tuple(name for name in _OPTIONAL if optional.get(name) is not None)
    return primitive.bind(input_tensor, *(optional[name] for name in present), memory_config=memory_config,
                          present=present, epsilon=float(epsilon), fp32=_fp32_dest(compute_kernel_config), rms=rms)


def layer_norm(input_tensor: Tensor, *, memory_config: Optional[MemoryConfig] = None, epsilon: float = 1e-12,
               weight: Optional[Tensor] = None, bias: Optional[Tensor] = None,
               residual_input_tensor: Optional[Tensor] = None, program_config: object = None,
               compute_kernel_config: Optional[WormholeComputeKernelConfig] = None,
               core_grid: object = None) -> Tensor:
    """(x - mean) / sqrt(var + epsilon) * weight + bias over the last dim, of x = input + residual."""
    return _bind_norm(layer_norm_p, input_tensor, rms=False, epsilon=epsilon,
                      optional={"residual": residual_input_tensor, "weight": weight, "bias": bias},
                      memory_config=memory_config, compute_kernel_config=compute_kernel_config)


def rms_norm(input_tensor: Tensor, *, memory_config: Optional[MemoryConfig] = None, epsilon: float = 1e-12,
             weight: Optional[Tensor] = None, bias: Optional[Tensor] = None,
             residual_input_tensor: Optional[Tensor] = None, program_config: object = None,
             compute_kernel_config: Optional[WormholeComputeKernelConfig] = None) -> Tensor:
    """x / sqrt(mean(x**2) + epsilon) * weight + bias over the last dim, of x = input + residual."""
    return _bind_norm(rms_norm_p, input_tensor, rms=True, epsilon=epsilon,
                      optional={"residual": residual_input_tensor, "weight": weight, "bias": bias},
                      memory_config=memory_config, compute_kernel_config=compute_kernel_config)


# -- the distributed RMSNorm: local sums of squares, an all-gather, then the normalisation ----------

_STATS_WIDTH = 32  # one tile column per device: the sum of squares in column 0


def _pre_rule(x: TensorType, *, fp32: bool) -> TensorType:
    if x.layout is not Layout.TILE:
        raise ValueError("the input must be in tile layout")
    return replace(x, shape=Shape((*x.shape[:-1], _STATS_WIDTH)))


def _pre_impl(x: torch.Tensor, *, fp32: bool) -> torch.Tensor:
    stats = torch.zeros(*x.shape[:-1], _STATS_WIDTH)
    stats[..., 0] = _to_cb((x.float() * x.float()).sum(-1), fp32)
    return stats


rms_norm_pre_all_gather_p = DevicePrimitive("rms_norm_pre_all_gather", _pre_rule, _pre_impl)


def rms_norm_pre_all_gather(input_tensor: Tensor, *, residual_input_tensor: Optional[Tensor] = None,
                            compute_kernel_config: Optional[WormholeComputeKernelConfig] = None,
                            program_config: object = None, memory_config: Optional[MemoryConfig] = None,
                            dtype: DataFormat = None, use_2d_core_grid: object = None) -> Tensor:
    """This device's sum of squares over the last dim, one tile wide (column 0), for an all-gather."""
    if residual_input_tensor is not None:
        input_tensor = input_tensor + residual_input_tensor
    return rms_norm_pre_all_gather_p.bind(input_tensor, dtype=dtype, memory_config=memory_config,
                                          fp32=_fp32_dest(compute_kernel_config))


def _post_rule(x: TensorType, stats: TensorType, *others: TensorType, present: tuple[str, ...], epsilon: float,
               fp32: bool) -> TensorType:
    if stats.shape[:-1] != x.shape[:-1] or stats.shape[-1] % _STATS_WIDTH:
        raise ValueError(f"the gathered statistics of shape {stats.shape} must be whole tiles of "
                         f"rms_norm_pre_all_gather output for an input of shape {x.shape}")
    return _norm_rule(x, *others, present=present, epsilon=epsilon, fp32=fp32, rms=True)


def _post_impl(x: torch.Tensor, stats: torch.Tensor, *others: torch.Tensor, present: tuple[str, ...],
               epsilon: float, fp32: bool) -> torch.Tensor:
    devices = stats.shape[-1] // _STATS_WIDTH
    mean_square = stats.float()[..., ::_STATS_WIDTH].sum(-1, keepdim=True) / (x.shape[-1] * devices)
    normalized = _to_cb(x.float() * _to_cb(torch.rsqrt(_to_cb(mean_square, fp32) + epsilon), fp32), fp32)
    return _affine(normalized, dict(zip(present, others)), fp32)


rms_norm_post_all_gather_p = DevicePrimitive("rms_norm_post_all_gather", _post_rule, _post_impl)


def rms_norm_post_all_gather(input_tensor: Tensor, stats: Tensor, *, epsilon: float = 1e-12,
                             weight: Optional[Tensor] = None, bias: Optional[Tensor] = None,
                             memory_config: Optional[MemoryConfig] = None, program_config: object = None,
                             compute_kernel_config: Optional[WormholeComputeKernelConfig] = None,
                             dtype: Optional[DataFormat] = None, use_2d_core_grid: object = None) -> Tensor:
    """x / sqrt(mean(x**2) + epsilon) * weight + bias, the mean taken over every device's slice of the
    last dim from the gathered ``stats`` (one tile per device, from rms_norm_pre_all_gather)."""
    if not isinstance(stats, Tensor):
        raise UsageTypeError(f"ttnn.rms_norm_post_all_gather: stats must be a ttnn.Tensor, got {type_name(stats)}")
    present = tuple(name for name, t in (("weight", weight), ("bias", bias)) if t is not None)
    extra = tuple(t for t in (weight, bias) if t is not None)
    return rms_norm_post_all_gather_p.bind(input_tensor, stats, *extra, dtype=dtype, memory_config=memory_config,
                                           present=present, epsilon=float(epsilon),
                                           fp32=_fp32_dest(compute_kernel_config))
