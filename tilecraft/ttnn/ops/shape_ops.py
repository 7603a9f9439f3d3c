"""Ops that rearrange values without arithmetic: permute, concat, slice, pad, split, unsqueeze,
unsqueeze_to_4D and view.

Their results are exact (no value is computed, only moved), so the one rounding ``bind`` applies
changes nothing unless ``dtype`` converts. Shape rules raise ValueErrors in ttnn's terms (the dim,
the shapes, the range) which ``bind`` prefixes with the op's name.
"""

from __future__ import annotations

import builtins
from dataclasses import replace
from typing import Optional, Sequence, Union

import torch

from tilecraft.diagnostics import UsageTypeError, UsageValueError, type_name

from ..layout import Shape, normalize_dim
from ..memory import MemoryConfig
from ..primitives import DevicePrimitive, TensorType
from ..tensor import Tensor
from .data_movement import reshape
from .outputs import into


def _ints(values: object, what: str, function: str) -> tuple[int, ...]:
    if isinstance(values, int) or not isinstance(values, Sequence) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise UsageTypeError(f"ttnn.{function}: {what} is a sequence of ints, got {values!r}")
    return tuple(values)


# -- permute -----------------------------------------------------------------------------------------

def _permute_rule(x: TensorType, *, dims: tuple[int, ...]) -> TensorType:
    order = [normalize_dim(d, x.shape.rank) for d in dims]
    if sorted(order) != list(range(x.shape.rank)):
        raise ValueError(f"dims {list(dims)} are not a permutation of the {x.shape.rank} dims of {x.shape}")
    return replace(x, shape=Shape(x.shape[d] for d in order))


def _permute_impl(x: torch.Tensor, *, dims: tuple[int, ...]) -> torch.Tensor:
    return x.permute(dims)


permute_p = DevicePrimitive("permute", _permute_rule, _permute_impl)


def permute(input_tensor: Tensor, dims: Sequence[int], *, memory_config: Optional[MemoryConfig] = None,
            pad_value: float = 0.0) -> Tensor:
    """The dims reordered: result dim ``i`` is input dim ``dims[i]``."""
    return permute_p.bind(input_tensor, dims=_ints(dims, "dims", "permute"), memory_config=memory_config)


# -- concat ------------------------------------------------------------------------------------------

def _concat_rule(*parts: TensorType, dim: int) -> TensorType:
    first = parts[0]
    axis = normalize_dim(dim, first.shape.rank)
    for part in parts[1:]:
        if part.shape.rank != first.shape.rank or any(
                a != b for i, (a, b) in enumerate(zip(part.shape, first.shape)) if i != axis):
            raise ValueError(f"tensors of shapes {first.shape} and {part.shape} differ outside dim {dim}")
        if (part.dtype, part.layout) != (first.dtype, first.layout):
            raise ValueError(f"tensors to join must share dtype and layout; got {first.dtype.name} {first.layout} "
                             f"and {part.dtype.name} {part.layout}")
    return replace(first, shape=Shape(sum(p.shape[axis] for p in parts) if i == axis else n
                                      for i, n in enumerate(first.shape)))


def _concat_impl(*parts: torch.Tensor, dim: int) -> torch.Tensor:
    return torch.cat(parts, dim)


concat_p = DevicePrimitive("concat", _concat_rule, _concat_impl)


def concat(tensors: Sequence[Tensor], dim: int = 0, *, memory_config: Optional[MemoryConfig] = None,
           groups: int = 1, sub_core_grids: object = None) -> Tensor:
    """The tensors joined along ``dim`` (equal in every other dim, one dtype and layout)."""
    if isinstance(tensors, Tensor) or not isinstance(tensors, Sequence) or not tensors:
        raise UsageTypeError(f"ttnn.concat takes a non-empty list of ttnn tensors, got {type_name(tensors)}")
    if groups != 1:
        raise UsageValueError("ttnn.concat: tilecraft joins whole tensors only (groups=1)")
    return concat_p.bind(*tensors, dim=dim, memory_config=memory_config)


# -- slice -------------------------------------------------------------------------------------------

def _slice_bounds(shape: Shape, starts: tuple[int, ...], ends: tuple[int, ...],
                  steps: tuple[int, ...]) -> list[tuple[int, int, int]]:
    if not len(starts) == len(ends) == len(steps) == shape.rank:
        raise ValueError(f"needs one start, end and step per dim of {shape}; got {len(starts)} starts, "
                         f"{len(ends)} ends, {len(steps)} steps")
    bounds = []
    for axis, (n, start, end, step) in enumerate(zip(shape, starts, ends, steps)):
        start, end = (start + n if start < 0 else start), (end + n if end < 0 else end)
        if step < 1:
            raise ValueError(f"steps must be positive, got {step} for dim {axis}")
        if not 0 <= start <= end <= n:
            raise ValueError(f"[{starts[axis]}:{ends[axis]}] is outside dim {axis} of {shape} (size {n})")
        bounds.append((start, end, step))
    return bounds


def _slice_rule(x: TensorType, *, starts: tuple[int, ...], ends: tuple[int, ...],
                steps: tuple[int, ...]) -> TensorType:
    bounds = _slice_bounds(x.shape, starts, ends, steps)
    return replace(x, shape=Shape(-(-(e - s) // st) for s, e, st in bounds))


def _slice_impl(x: torch.Tensor, *, starts: tuple[int, ...], ends: tuple[int, ...],
                steps: tuple[int, ...]) -> torch.Tensor:
    return x[tuple(builtins.slice(s, e, st) for s, e, st in _slice_bounds(Shape(x.shape), starts, ends, steps))]


slice_p = DevicePrimitive("slice", _slice_rule, _slice_impl)


def slice(input_tensor: Tensor, starts: Sequence[int], ends: Sequence[int],  # noqa: A001 (ttnn's name)
          steps: Optional[Sequence[int]] = None, *, memory_config: Optional[MemoryConfig] = None,
          pad_value: Optional[float] = None, output_tensor: Optional[Tensor] = None) -> Tensor:
    """``input[starts[0]:ends[0]:steps[0], ...]``, one start, end and step per dim."""
    begin, end = _ints(starts, "starts", "slice"), _ints(ends, "ends", "slice")
    step = (1,) * len(begin) if steps is None else _ints(steps, "steps", "slice")
    return into(slice_p.bind(input_tensor, starts=begin, ends=end, steps=step, memory_config=memory_config),
                output_tensor, "ttnn.slice")


# -- split -------------------------------------------------------------------------------------------

def split(input_tensor: Tensor, split_size: Union[int, Sequence[int]], dim: int = 0, *,
          memory_config: Optional[MemoryConfig] = None) -> list[Tensor]:
    """Pieces along ``dim``: of ``split_size`` each (the last may be smaller), or of the listed sizes."""
    if not isinstance(input_tensor, Tensor):
        raise UsageTypeError(f"ttnn.split takes a ttnn.Tensor, got {type_name(input_tensor)}")
    shape = input_tensor.shape
    axis = normalize_dim(dim, shape.rank, "ttnn.split")
    if isinstance(split_size, int) and not isinstance(split_size, bool):
        if split_size < 1:
            raise UsageValueError(f"ttnn.split: split_size must be positive, got {split_size}")
        sizes = [min(split_size, shape[axis] - s) for s in range(0, shape[axis], split_size)]
    else:
        sizes = list(_ints(split_size, "split_size", "split"))
        if sum(sizes) != shape[axis]:
            raise UsageValueError(f"ttnn.split: sizes {sizes} add up to {sum(sizes)}, not dim {dim}'s {shape[axis]}")
    pieces, start = [], 0
    for size in sizes:
        starts = tuple(start if i == axis else 0 for i in range(shape.rank))
        ends = tuple(start + size if i == axis else n for i, n in enumerate(shape))
        pieces.append(slice(input_tensor, starts, ends, memory_config=memory_config))
        start += size
    return pieces


# -- pad ---------------------------------------------------------------------------------------------

def _pad_rule(x: TensorType, *, padding: tuple[tuple[int, int], ...], value: float) -> TensorType:
    if len(padding) > x.shape.rank or any(p < 0 for pair in padding for p in pair):
        raise ValueError(f"padding {[list(p) for p in padding]} needs at most one (front, back) pair of "
                         f"non-negative counts per dim of {x.shape}")
    pairs = ((0, 0),) * (x.shape.rank - len(padding)) + padding
    return replace(x, shape=Shape(n + a + b for n, (a, b) in zip(x.shape, pairs)))


def _pad_impl(x: torch.Tensor, *, padding: tuple[tuple[int, int], ...], value: float) -> torch.Tensor:
    flat = [p for pair in reversed(padding) for p in pair]  # torch pads the last dim first
    return torch.nn.functional.pad(x, flat, value=value)


pad_p = DevicePrimitive("pad", _pad_rule, _pad_impl)


def pad(input_tensor: Tensor, padding: Sequence[Sequence[int]], value: float, *,
        use_multicore: bool = True, memory_config: Optional[MemoryConfig] = None,
        sub_core_grids: object = None) -> Tensor:
    """``value`` added around the tensor: ``padding[i] = (front, back)`` for dim ``i`` (trailing dims
    when fewer pairs than dims are given)."""
    if not isinstance(padding, Sequence) or not all(isinstance(p, Sequence) and len(p) == 2 for p in padding):
        raise UsageTypeError(f"ttnn.pad takes padding as (front, back) pairs, one per dim, got {padding!r}")
    pairs = tuple(_ints(p, "each padding pair", "pad") for p in padding)
    return pad_p.bind(input_tensor, padding=pairs, value=float(value), memory_config=memory_config)


# -- unsqueeze, unsqueeze_to_4D, view ----------------------------------------------------------------

def unsqueeze(input_tensor: Tensor, dim: int) -> Tensor:
    """A dim of size 1 inserted at ``dim`` (``-1`` appends one)."""
    shape = list(input_tensor.shape) if isinstance(input_tensor, Tensor) else []
    axis = normalize_dim(dim, len(shape) + 1, "ttnn.unsqueeze")
    return reshape(input_tensor, shape[:axis] + [1] + shape[axis:])


def unsqueeze_to_4D(input_tensor: Tensor) -> Tensor:  # noqa: N802 (ttnn's spelling)
    """Leading dims of size 1 added up to rank 4."""
    rank = input_tensor.shape.rank if isinstance(input_tensor, Tensor) else 0
    if rank > 4:
        raise UsageValueError(f"ttnn.unsqueeze_to_4D: the tensor already has rank {rank}")
    return reshape(input_tensor, [1] * (4 - rank) + list(input_tensor.shape))


def view(input_tensor: Tensor, shape: Sequence[int]) -> Tensor:
    """The same values in ``shape`` (ttnn's zero-copy reshape; here a reshape)."""
    return reshape(input_tensor, shape)
