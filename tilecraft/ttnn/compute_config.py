"""Compute kernel configs and matmul program configs: the records models pass to ttnn's math ops.

A compute kernel config (``ttnn.WormholeComputeKernelConfig``, ``init_device_compute_kernel_config``)
sets the matrix unit's fidelity and whether DST accumulates in fp32; the ops that take one compute
with those settings through :mod:`tilecraft.device_arith` (:func:`device_matmul`). A matmul program
config says how the product is split over cores and blocked along K; ttnn checks it against the
operands' shapes, and so does :func:`check_program_config`, and its ``in0_block_w`` is the K block
after which partial sums leave DST (rounded to bfloat16 unless DST accumulates in fp32).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Optional, Union

import torch

from tilecraft import device_arith
from tilecraft.diagnostics import UsageTypeError, UsageValueError

from .cores import CoreCoord
from .fidelity import MathFidelity


@dataclass(frozen=True)
class WormholeComputeKernelConfig:
    """How a compute kernel does its math (ttnn's defaults: LoFi, approximate SFPU, bfloat16 DST)."""

    math_fidelity: MathFidelity = MathFidelity.LoFi
    math_approx_mode: bool = True
    fp32_dest_acc_en: bool = False
    packer_l1_acc: bool = False
    dst_full_sync_en: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.math_fidelity, MathFidelity):
            raise UsageTypeError(f"math_fidelity must be a ttnn.MathFidelity, got {self.math_fidelity!r}")


class BlackholeComputeKernelConfig(WormholeComputeKernelConfig):
    """The same settings for a Blackhole device."""


#: what ttnn's ops accept as ``compute_kernel_config``
DeviceComputeKernelConfig = WormholeComputeKernelConfig


def init_device_compute_kernel_config(arch: object, config: Optional[WormholeComputeKernelConfig] = None, *,
                                      math_fidelity: MathFidelity = MathFidelity.LoFi, math_approx_mode: bool = True,
                                      fp32_dest_acc_en: bool = False, packer_l1_acc: bool = False,
                                      dst_full_sync_en: bool = False, throttle_level: object = None
                                      ) -> WormholeComputeKernelConfig:
    """``config`` when given, else a config with these settings for ``arch`` (``device.arch()``)."""
    if config is not None:
        return as_compute_kernel_config(config)
    kind = BlackholeComputeKernelConfig if "blackhole" in str(arch).lower() else WormholeComputeKernelConfig
    return kind(math_fidelity, bool(math_approx_mode), bool(fp32_dest_acc_en), bool(packer_l1_acc),
                bool(dst_full_sync_en))


def as_compute_kernel_config(value: object) -> Optional[WormholeComputeKernelConfig]:
    """Check a user's ``compute_kernel_config`` argument (None: the op's default)."""
    if value is None or isinstance(value, WormholeComputeKernelConfig):
        return value
    raise UsageTypeError(f"compute_kernel_config must be a ttnn.WormholeComputeKernelConfig (or "
                         f"ttnn.init_device_compute_kernel_config(...)), got {value!r}")


@dataclass(frozen=True, kw_only=True)
class _MatmulProgramConfig:
    """What every matmul program config has: the K block and the cores' output block, in tiles."""

    in0_block_w: int
    per_core_M: int  # noqa: N815 (ttnn's spelling)
    per_core_N: int  # noqa: N815
    out_subblock_h: int = 1
    out_subblock_w: int = 1
    compute_with_storage_grid_size: CoreCoord = field(default_factory=lambda: CoreCoord(8, 8))
    fused_activation: object = None

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "int" and not (isinstance(value, int) and not isinstance(value, bool) and value > 0):
                raise UsageValueError(f"{type(self).__name__}.{f.name} is a positive number of tiles, got {value!r}")
        grid = self.compute_with_storage_grid_size
        if isinstance(grid, tuple):
            object.__setattr__(self, "compute_with_storage_grid_size", CoreCoord(*grid))

    def blocks_fit(self, m_blocks: int, n_blocks: int) -> Optional[str]:
        """Why ``m_blocks`` x ``n_blocks`` output blocks do not fit the grid (None when they do)."""
        grid = self.compute_with_storage_grid_size
        if m_blocks * n_blocks > grid.x * grid.y:
            return f"{m_blocks * n_blocks} output blocks need more cores than the {grid.x}x{grid.y} grid has"
        return None


@dataclass(frozen=True, kw_only=True)
class MatmulMultiCoreReuseProgramConfig(_MatmulProgramConfig):
    """Each core computes its blocks of the output, reading both operands itself."""


@dataclass(frozen=True, kw_only=True)
class MatmulMultiCoreReuseMultiCastProgramConfig(_MatmulProgramConfig):
    """2-D multicast: output block rows go down the grid's rows, block columns across its columns
    (the other way round with ``transpose_mcast``)."""

    transpose_mcast: bool = False
    fuse_batch: bool = False
    out_block_h: Optional[int] = None
    out_block_w: Optional[int] = None

    def blocks_fit(self, m_blocks: int, n_blocks: int) -> Optional[str]:
        grid = self.compute_with_storage_grid_size
        rows, cols = (grid.x, grid.y) if self.transpose_mcast else (grid.y, grid.x)
        if m_blocks > rows or n_blocks > cols:
            return (f"{m_blocks} block rows x {n_blocks} block columns do not fit the {grid.x}x{grid.y} grid "
                    f"({rows} rows, {cols} columns{' with transpose_mcast' if self.transpose_mcast else ''})")
        return None


@dataclass(frozen=True, kw_only=True)
class MatmulMultiCoreReuseMultiCast1DProgramConfig(_MatmulProgramConfig):
    """1-D multicast: one operand is sent to every core, which computes a row (or column) of blocks."""

    fuse_batch: bool = True
    mcast_in0: bool = True
    out_block_h: Optional[int] = None
    out_block_w: Optional[int] = None
    gather_in0: bool = False
    hop_cores: object = None
    num_global_cb_receivers: int = 1
    untilize_out: bool = False


MatmulProgramConfig = Union[MatmulMultiCoreReuseProgramConfig, MatmulMultiCoreReuseMultiCastProgramConfig,
                            MatmulMultiCoreReuseMultiCast1DProgramConfig]


def check_program_config(config: object, m: int, k: int, n: int, fp32_dest: bool) -> Optional[int]:
    """The K block in tiles that ``config`` makes the product ``[m, k] @ [k, n]`` (elements) use, after
    the checks ttnn makes of it; None when there is no config (the whole K in one block)."""
    if config is None:
        return None
    if not isinstance(config, _MatmulProgramConfig):
        raise UsageTypeError(f"program_config must be a ttnn matmul program config such as "
                             f"ttnn.MatmulMultiCoreReuseMultiCastProgramConfig, got {config!r}")
    mt, kt, nt = (-(-d // 32) for d in (m, k, n))
    name = type(config).__name__
    if kt % config.in0_block_w:
        raise ValueError(f"{name}: in0_block_w={config.in0_block_w} must divide the {kt} tiles of K")
    if config.per_core_M % config.out_subblock_h or config.per_core_N % config.out_subblock_w:
        raise ValueError(f"{name}: out_subblock_h={config.out_subblock_h} / out_subblock_w={config.out_subblock_w} "
                         f"must divide per_core_M={config.per_core_M} / per_core_N={config.per_core_N}")
    dst_tiles = 4 if fp32_dest else 8
    if config.out_subblock_h * config.out_subblock_w > dst_tiles:
        raise ValueError(f"{name}: an out subblock of {config.out_subblock_h}x{config.out_subblock_w} tiles exceeds "
                         f"the {dst_tiles} DST tiles {'fp32' if fp32_dest else 'bfloat16'} accumulation leaves")
    why = config.blocks_fit(-(-mt // config.per_core_M), -(-nt // config.per_core_N))
    if why:
        raise ValueError(f"{name}: per_core_M={config.per_core_M}, per_core_N={config.per_core_N} for an output of "
                         f"{mt}x{nt} tiles: {why}")
    return config.in0_block_w


def device_matmul(a: torch.Tensor, b: torch.Tensor, config: WormholeComputeKernelConfig,
                  k_block_tiles: Optional[int]) -> torch.Tensor:
    """``a @ b`` (batched, broadcast) as the matrix unit computes it with ``config``: each K block of
    ``k_block_tiles`` tiles accumulated in DST at the config's fidelity, the partial sum packed to
    bfloat16 between blocks unless DST is fp32. fp32 operands reach the matrix unit as tf32."""
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
    pad = lambda x, rows, cols: torch.nn.functional.pad(x.float(), (0, cols, 0, rows))  # noqa: E731
    kp = -(-k // 32) * 32
    x = pad(a, -(-m // 32) * 32 - m, kp - k)
    y = pad(b, 0, -(-n // 32) * 32 - n)
    y = torch.nn.functional.pad(y, (0, 0, 0, kp - k))
    if a.dtype == torch.float32:
        x = device_arith.tf32(x)
    if b.dtype == torch.float32:
        y = device_arith.tf32(y)
    block = (k_block_tiles or kp // 32) * 32
    acc = None
    for k0 in range(0, kp, block):
        if acc is not None and not config.fp32_dest_acc_en:
            acc = device_arith.pack_bf16(acc).float()
        acc = device_arith.block_matmul(x[..., k0:k0 + block], y[..., k0:k0 + block, :], acc,
                                        config.math_fidelity.phases, config.fp32_dest_acc_en)
    return acc[..., :m, :n]
