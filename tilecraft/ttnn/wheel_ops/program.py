"""The pieces every host of a ttnn 0.81.1 program is made of, on the ``generic_op`` API: CB and
kernel descriptors, the Metal 2.0 bindings, the launch.

A host writes a program as ttnn's program factory does (its kernels, their compile-time and
runtime args, defines and CBs) and runs it with :func:`run`. The hosts of this package are the
implementations of ttnn ops at ``--level cpp`` (``.registry``); the emulator's tests and
benchmarks/emit_vs_hand.py build their programs from the same pieces.

The kernels are mostly Metal 2.0 kernels: they name their arguments and buffers (``args::Wt``,
``dfb::scaler``, ``tensor::src``), which a host declares with ``ttnn.KernelBindings`` (tilecraft's
stand-in for the C++ host's schema; docs/emulator.md).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Iterable

import torch

from tilecraft.arch import get as get_arch

from ..cores import CoreCoord, CoreRange, CoreRangeSet
from ..descriptors import (CBDescriptor, CBFormatDescriptor, KernelBindings, KernelDescriptor, ProgramDescriptor,
                           RuntimeArgs, TileDescriptor)
from ..datatype import bfloat16
from ..generic import corerange_to_cores, generic_op
from ..tensor import Tensor

#: the one core (0, 0) the single-core programs run on
ONE = CoreRangeSet([CoreRange(CoreCoord(0, 0), CoreCoord(0, 0))])


def cb(index: int, dtype=bfloat16, pages: int = 2, core_ranges: CoreRangeSet = ONE,
       page_size: int | None = None, tile: TileDescriptor | None = None) -> CBDescriptor:
    """A CB of ``pages`` pages (tiles of ``dtype`` unless ``page_size`` says otherwise)."""
    size = dtype.tile_bytes if page_size is None else page_size
    fmt = CBFormatDescriptor(buffer_index=index, data_format=dtype, page_size=size, tile=tile)
    return CBDescriptor(total_size=pages * size, core_ranges=core_ranges, format_descriptors=[fmt])


def kernel(path: Path, config, core_ranges: CoreRangeSet = ONE, rt: dict | list | None = None,
           ct: Iterable[int] = (), common: Iterable[int] = (), defines: Iterable[tuple[str, str]] = (),
           named: Iterable[tuple[str, int]] = ()) -> KernelDescriptor:
    """A kernel over ``core_ranges``; ``rt`` is {(x, y): args} or one list for every core."""
    runtime = RuntimeArgs()
    if rt is not None:
        table = rt if isinstance(rt, dict) else {c: rt for c in corerange_to_cores(core_ranges)}
        for core, args in table.items():
            x, y = (core.x, core.y) if isinstance(core, CoreCoord) else core
            runtime[x][y] = list(args)
    return KernelDescriptor(kernel_source=str(path), source_type=KernelDescriptor.SourceType.FILE_PATH,
                            core_ranges=core_ranges, compile_time_args=list(ct),
                            named_compile_time_args=list(named), defines=list(defines),
                            runtime_args=runtime, common_runtime_args=list(common), config=config)


def run(tensors: list[Tensor], kernels: list, cbs: list, semaphores: list = ()) -> Tensor:
    """One generic_op program of ``kernels`` and ``cbs`` over ``tensors`` (outputs last)."""
    return generic_op(tensors, ProgramDescriptor(kernels=list(kernels), semaphores=list(semaphores), cbs=list(cbs)))


class Unfit(Exception):
    """A host's program for the call would not fit a core (its CBs exceed L1): the call runs at the
    language level instead, with this as the reason."""


def run_op(tensors: list[Tensor], kernels: list, cbs: list) -> Tensor:
    """:func:`run` for a ttnn op's host: a program whose CBs would not fit a core's L1 (with the
    L1 the arch reserves) is :class:`Unfit` before anything compiles."""
    device = tensors[0].device()
    available = get_arch(str(device.arch())).l1_available
    need = sum(c.total_size for c in cbs)
    if need > available:
        raise Unfit(f"its circular buffers need {need // 1024} KiB of a core's L1, which has {available // 1024} KiB")
    return run(tensors, kernels, cbs)


def bound(desc: KernelDescriptor, **bindings) -> KernelDescriptor:
    """``desc`` with the names a Metal 2.0 kernel gives its arguments, buffers and tensors."""
    desc.bindings = KernelBindings(**bindings)
    return desc


def float_bits(value: float) -> int:
    """A float32's bits, as hosts pass a float runtime arg (eps)."""
    return int(torch.tensor([value], dtype=torch.float32).view(torch.int32).item())


def packed_scalar(value: float) -> int:
    """A scalar runtime arg as ttnn's ``pack_scalar_runtime_arg`` packs it for bfloat16: the value's
    upper 16 bits (truncated to bfloat16), twice."""
    half = (float_bits(value) >> 16) & 0xFFFF
    return half << 16 | half


def largest_block(wt: int) -> int:
    """ttnn's norm factories' block size: the largest divisor of Wt up to 8 (find_max_divisor)."""
    return max(b for b in range(1, 9) if wt % b == 0)


def tile_rows(tensor: Tensor) -> tuple[int, int]:
    """A tile-layout tensor as its kernels walk it: (tile rows of every batch together, tiles per row)."""
    padded = tensor.padded_shape
    return math.prod(padded[:-1]) // 32, padded[-1] // 32
