"""Hand-written TT-Metalium kernels (tt-metal 0.81.1) to compare emitted kernels against.

Written for tilecraft from the 0.81.1 API as the wheel's headers define it (not copied from
tt-metal's examples): an elementwise binary add, an SFPU unary chain sqrt(relu(exp(x))), a tiled
matmul, row sums (reduce) and a column scaling by a broadcast row (broadcast), each as reader
(RISCV_1) / compute / writer (RISCV_0). benchmarks/emit_vs_hand.py times them against the emitted
kernels of the same programs. Every kernel here must pass
``tilecraft.metal.headercheck`` (tests/metal/test_headercheck.py).

``KERNELS`` says how each file is checked: its kind and the compile-time args a host would pass.
An interleaved DRAM tensor's ``TensorAccessorArgs`` take two compile-time args, the
``ArgConfig`` flags (``IsDram`` = 2) and the aligned page size (2048 B for a bfloat16 tile).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DIRECTORY = Path(__file__).parent

_DRAM_TILE_ACCESSOR = (2, 2048)  # TensorAccessorArgs of an interleaved DRAM bf16 tensor
_BLOCK = 4                       # tiles per DST acquisition / NoC barrier in eltwise_add
_WIDTH = 8                       # tiles per row band in reduce_rows and broadcast_rows


@dataclass(frozen=True)
class ReferenceKernel:
    example: str
    role: str                       # reader | compute | writer (the kind for headercheck)
    compile_time_args: tuple[int, ...]

    @property
    def path(self) -> Path:
        return DIRECTORY / self.example / f"{self.role}.cpp"

    @property
    def id(self) -> str:
        return f"{self.example}/{self.role}"


KERNELS: tuple[ReferenceKernel, ...] = (
    ReferenceKernel("eltwise_add", "reader", (*_DRAM_TILE_ACCESSOR, *_DRAM_TILE_ACCESSOR, _BLOCK)),
    ReferenceKernel("eltwise_add", "compute", (_BLOCK,)),
    ReferenceKernel("eltwise_add", "writer", (*_DRAM_TILE_ACCESSOR, _BLOCK)),
    ReferenceKernel("sfpu_chain", "reader", _DRAM_TILE_ACCESSOR),
    ReferenceKernel("sfpu_chain", "compute", ()),
    ReferenceKernel("sfpu_chain", "writer", _DRAM_TILE_ACCESSOR),
    ReferenceKernel("matmul", "reader", (*_DRAM_TILE_ACCESSOR, *_DRAM_TILE_ACCESSOR)),
    ReferenceKernel("matmul", "compute", ()),
    ReferenceKernel("matmul", "writer", _DRAM_TILE_ACCESSOR),
    ReferenceKernel("reduce_rows", "reader", (*_DRAM_TILE_ACCESSOR, _WIDTH)),
    ReferenceKernel("reduce_rows", "compute", (_WIDTH,)),
    ReferenceKernel("reduce_rows", "writer", _DRAM_TILE_ACCESSOR),
    ReferenceKernel("broadcast_rows", "reader", (*_DRAM_TILE_ACCESSOR, *_DRAM_TILE_ACCESSOR, _WIDTH)),
    ReferenceKernel("broadcast_rows", "compute", (_WIDTH, 8)),
    ReferenceKernel("broadcast_rows", "writer", (*_DRAM_TILE_ACCESSOR, _WIDTH)),
)
