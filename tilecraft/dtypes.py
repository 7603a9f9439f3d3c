"""Data formats shared by every layer (language, simulator, ttnn, emitter, cost model).

One record per format, so that a layer never re-derives sizes or storage types on its own:
the simulator stores values in ``torch_dtype``, the cost model reads ``tile_bytes`` and the
emitter reads ``metal_name``. Block-float formats (bfloat8_b, bfloat4_b) share one exponent per
16 values; their tile size includes those exponents (see reference/hardware.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

TILE_ROWS = 32
TILE_COLS = 32
TILE_ELEMS = TILE_ROWS * TILE_COLS
#: values sharing one exponent in a block-float format (one row of a 16x16 face)
BLOCK_FLOAT_GROUP = 16


@dataclass(frozen=True)
class DataFormat:
    """A Tensix data format: how one element is stored in L1 and DRAM."""

    name: str
    #: torch dtype the simulator stores values in (exact for every value of the format)
    torch_dtype: torch.dtype
    #: bits per element, not counting shared exponents
    element_bits: int
    #: the tt-metal ``DataFormat`` enumerator
    metal_name: str
    is_block_float: bool = False
    is_integer: bool = False

    @property
    def tile_bytes(self) -> int:
        """Bytes of one 32x32 tile in L1/DRAM, shared exponents included."""
        data = TILE_ELEMS * self.element_bits // 8
        if self.is_block_float:
            data += TILE_ELEMS // BLOCK_FLOAT_GROUP
        return data

    def bytes_for(self, elements: int) -> int:
        """Bytes taken by ``elements`` values (row-major buffers, no shared exponents)."""
        return (elements * self.element_bits + 7) // 8

    def __repr__(self) -> str:  # ttnn prints dtypes as DataType.BFLOAT16
        return f"DataType.{self.name.upper()}"


bfloat16 = DataFormat("bfloat16", torch.bfloat16, 16, "Float16_b")
float32 = DataFormat("float32", torch.float32, 32, "Float32")
float16 = DataFormat("float16", torch.float16, 16, "Float16")
bfloat8_b = DataFormat("bfloat8_b", torch.bfloat16, 8, "Bfp8_b", is_block_float=True)
bfloat4_b = DataFormat("bfloat4_b", torch.bfloat16, 4, "Bfp4_b", is_block_float=True)
int32 = DataFormat("int32", torch.int32, 32, "Int32", is_integer=True)
uint32 = DataFormat("uint32", torch.int64, 32, "UInt32", is_integer=True)
uint16 = DataFormat("uint16", torch.int32, 16, "UInt16", is_integer=True)
uint8 = DataFormat("uint8", torch.uint8, 8, "UInt8", is_integer=True)

ALL_FORMATS: tuple[DataFormat, ...] = (
    bfloat16, float32, float16, bfloat8_b, bfloat4_b, int32, uint32, uint16, uint8,
)
BY_NAME: dict[str, DataFormat] = {f.name: f for f in ALL_FORMATS}

_FROM_TORCH = {
    torch.bfloat16: bfloat16,
    torch.float32: float32,
    torch.float16: float16,
    torch.int32: int32,
    torch.uint8: uint8,
}


def from_torch_dtype(dtype: torch.dtype) -> DataFormat:
    """The format a torch tensor of ``dtype`` maps to when no format is named (float64 -> float32)."""
    if dtype == torch.float64:
        return float32
    if dtype in (torch.int64, torch.int16, torch.int8):
        return int32
    try:
        return _FROM_TORCH[dtype]
    except KeyError:
        raise TypeError(f"no Tensix data format for torch dtype {dtype}") from None
