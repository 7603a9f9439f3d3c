"""The published PyKernel's types (``pykernel.kernel_types``): what kernel parameters are annotated with.

``CircularBuffer`` marks a kernel parameter that receives a circular buffer (its id arrives as a
compile-time argument) and describes one on the host; ``CompileTimeValue`` marks a parameter
given as a keyword constant of ``create_kernel``; ``Kernel`` holds a kernel's generated C++.
"""

from __future__ import annotations

import os
from enum import IntFlag
from typing import Any

from ..dtypes import DataFormat


class CircularBuffer:
    """A circular buffer as a kernel sees it: its index, the tensor shape it was sized for, its format."""

    def __init__(self, cb_id: int, tensor_shape: tuple[int, ...] = (8, 128, 128), dtype: Any = "Float32"):
        self.cb_id = cb_id
        self.tensor_shape = tuple(tensor_shape)
        self.tile_shape = 32
        self.tilized_shape = self.get_tilized_memref_shape()
        self.dtype = dtype

    def get_tilized_memref_shape(self) -> list[int]:
        """The tensor shape with its last two extents counted in tiles (rounded up)."""
        shape = list(self.tensor_shape)
        if len(shape) >= 2:
            shape[-2] = -(-shape[-2] // self.tile_shape)
            shape[-1] = -(-shape[-1] // self.tile_shape)
        return shape

    def __repr__(self) -> str:
        return f"CircularBuffer({self.cb_id}, {self.tensor_shape}, {self.dtype})"


class CompileTimeValue:
    """A constant bound to the kernel parameter named ``key`` (``create_kernel(..., key=value)``)."""

    def __init__(self, key: str, value: Any):
        self.key = key
        self.value = value

    def __repr__(self) -> str:
        return f"CompileTimeValue({self.key!r}, {self.value!r})"


#: the published PyKernel's older spelling
CompiledValue = CompileTimeValue


class TensorAccessorConfig(IntFlag):
    """tt-metal's ArgConfig flags: the first compile-time word of a tensor's TensorAccessorArgs."""

    NONE = 0
    Sharded = 1 << 0
    IsDram = 1 << 1
    RuntimeRank = 1 << 2
    RuntimeNumBanks = 1 << 3
    RuntimeTensorShape = 1 << 4
    RuntimeShardShape = 1 << 5
    RuntimeBankCoords = 1 << 6


class Kernel:
    """A kernel's generated C++ (``kernel_string``) under its name."""

    def __init__(self, kernel_name: str, kernel_string: str):
        self.kernel_name = kernel_name
        self.kernel_string = kernel_string

    def dump(self) -> None:
        print(self.kernel_string)

    def dump_to_file(self, file_path: str = "") -> str:
        """Write the C++ (by default to ``generated/pykernels/<name>.cpp``); the absolute path."""
        path = file_path or os.path.join("generated", "pykernels", f"{self.kernel_name}.cpp")
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w") as f:
            f.write(self.kernel_string)
        return os.path.abspath(path)


def data_format_name(fmt: DataFormat) -> str:
    """How the published CircularBuffer names a format (``BFloat16``, ``Float32``, ...)."""
    return {"bfloat16": "BFloat16", "float32": "Float32", "uint32": "UInt32", "uint8": "UInt8",
            "uint16": "UInt16", "int32": "Int32"}.get(fmt.name, fmt.metal_name)
