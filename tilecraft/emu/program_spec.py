"""What the emulator runs: a program in plain records, independent of how a host spelled it.

``tilecraft.ttnn.generic_op`` translates ttnn descriptors into these records (PyKernel and other
front ends can build them directly); :mod:`.launch` validates them against the chip, places
them in L1 and DRAM, compiles the kernels and runs them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import torch

from ..diagnostics import Span
from ..dtypes import DataFormat
from .bindings import NamedBindings

Core = tuple[int, int]

BRISC, NCRISC, TRISC = 0, 1, 2
SLOT_NAMES = {BRISC: "RISCV_0 (BRISC)", NCRISC: "RISCV_1 (NCRISC)", TRISC: "compute"}


@dataclass(frozen=True)
class ComputeSpec:
    math_fidelity: int = 4  # tt-metal's MathFidelity value: LoFi 0, HiFi2 2, HiFi3 3, HiFi4 4
    fp32_dest_acc: bool = False
    dst_full_sync: bool = False
    approx: bool = False
    unpack_to_dest_fp32: tuple[bool, ...] = ()
    bfp8_pack_precise: bool = False  # the packer rounds Bfp8_b/Bfp4_b once from fp32 DST (docs/numerics.md)


@dataclass
class KernelSpec:
    name: str
    source: Path
    text: str
    display: str
    slot: int
    noc: int
    cores: list[Core]
    compile_args: list[int] = field(default_factory=list)
    named_args: list[tuple[str, int]] = field(default_factory=list)
    defines: list[tuple[str, str]] = field(default_factory=list)
    runtime_args: dict[Core, list[int]] = field(default_factory=dict)
    common_args: list[int] = field(default_factory=list)
    compute: ComputeSpec | None = None
    bindings: NamedBindings | None = None  # Metal 2.0 named args and bindings (tilecraft extension)
    span: Span | None = None  # where the host described it


@dataclass(frozen=True)
class CBFormat:
    index: int
    fmt: DataFormat
    page_size: int
    tile_rows: int = 32
    tile_cols: int = 32


@dataclass
class CBSpec:
    cores: list[Core]
    total_size: int
    formats: list[CBFormat]
    alias: int | None = None  # index of the (sharded L1) tensor whose shard the CB is
    address_offset: int = 0
    span: Span | None = None


@dataclass
class SemaphoreSpec:
    id: int
    cores: list[Core]
    initial: int = 0
    span: Span | None = None


@dataclass
class TensorSpec:
    """One io tensor: its padded storage (read and written in place) and where it lives."""

    name: str
    storage: torch.Tensor
    fmt: DataFormat
    tiled: bool
    address: int
    memory: str  # "dram", "l1" (interleaved) or "sharded" (L1)
    #: sharded only: the shard shape (rows, cols) in elements and the cores in shard order
    shard_shape: tuple[int, int] | None = None
    shard_cores: list[Core] | None = None
    shard_grid: tuple[int, int] | None = None  # shards along (rows, cols) of the 2-d view


@dataclass
class ProgramSpec:
    kernels: list[KernelSpec]
    cbs: list[CBSpec]
    semaphores: list[SemaphoreSpec]
    tensors: list[TensorSpec]
    arch: str = "wormhole_b0"
    span: Span | None = None
