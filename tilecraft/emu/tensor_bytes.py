"""Tensors in the device's byte format: tilized pages of faces, or row-major rows.

A tile-layout tensor's pages are its 32x32 tiles in row-major tile order (leading dims
outermost), each stored face by face in the tensor's data format (runtime/formats.cpp encodes
and decodes, so host and kernels share one codec). A row-major tensor's pages are its rows.
Values are exchanged with the runtime as 32-bit words: fp32 bit patterns for float formats,
integers for integer formats.
"""

from __future__ import annotations

import numpy as np
import torch

from ..dtypes import DataFormat

#: tt-metal DataFormat enumerator values
FORMAT_CODES: dict[str, int] = {
    "Float32": 0, "Float16": 1, "Float16_b": 5, "Bfp8_b": 6, "Bfp4_b": 7, "Int32": 8, "UInt16": 9,
    "UInt32": 24, "UInt8": 30,
}
FORMAT_NAMES = {code: name for name, code in FORMAT_CODES.items()}
TILE = 32


def format_code(fmt: DataFormat) -> int:
    return FORMAT_CODES[fmt.metal_name]


def to_words(values: torch.Tensor, fmt: DataFormat) -> np.ndarray:
    """The tensor's values as 32-bit words (a flat uint32 array in the tensor's element order)."""
    if fmt.is_integer:
        return (values.to(torch.int64).reshape(-1).numpy() & 0xFFFFFFFF).astype(np.uint32)
    return values.to(torch.float32).contiguous().reshape(-1).numpy().view(np.uint32)


def from_words(words: np.ndarray, fmt: DataFormat, shape: tuple[int, ...]) -> torch.Tensor:
    """32-bit words back into a tensor of ``fmt``'s storage dtype (values are exact in it)."""
    if fmt.is_integer:
        signed = words.view(np.int32).astype(np.int64)
        values = words.astype(np.int64) if fmt.name == "uint32" else signed
        return torch.from_numpy(values.reshape(shape)).to(fmt.torch_dtype)
    return torch.from_numpy(words.view(np.float32).reshape(shape).copy()).to(fmt.torch_dtype)


def tilize(words: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Row-major words of a [..., H, W] tensor (H, W multiples of 32) -> tiles of faces, in page order."""
    h, w = shape[-2], shape[-1]
    lead = int(np.prod(shape[:-2], dtype=np.int64)) if len(shape) > 2 else 1
    x = words.reshape(lead, h // TILE, 2, 16, w // TILE, 2, 16)
    return x.transpose(0, 1, 4, 2, 5, 3, 6).reshape(-1)


def untilize(words: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    h, w = shape[-2], shape[-1]
    lead = int(np.prod(shape[:-2], dtype=np.int64)) if len(shape) > 2 else 1
    x = words.reshape(lead, h // TILE, w // TILE, 2, 2, 16, 16)
    return x.transpose(0, 1, 3, 5, 2, 4, 6).reshape(-1)


def row_bytes(words: np.ndarray, fmt: DataFormat) -> np.ndarray:
    """Row-major elements in ``fmt``'s byte encoding."""
    name = fmt.metal_name
    if name in ("Float32", "Int32", "UInt32"):
        return words.view(np.uint8)
    if name == "Float16_b":
        return (words >> 16).astype(np.uint16).view(np.uint8)
    if name == "Float16":
        return words.view(np.float32).astype(np.float16).view(np.uint8)
    if name == "UInt16":
        return words.astype(np.uint16).view(np.uint8)
    if name == "UInt8":
        return words.astype(np.uint8)
    raise ValueError(f"{fmt.name} has no row-major encoding (block-float formats need tile layout)")


def row_words(data: np.ndarray, fmt: DataFormat) -> np.ndarray:
    name = fmt.metal_name
    if name in ("Float32", "Int32", "UInt32"):
        return data.view(np.uint32).copy()
    if name == "Float16_b":
        return data.view(np.uint16).astype(np.uint32) << 16
    if name == "Float16":
        return data.view(np.float16).astype(np.float32).view(np.uint32)
    if name == "UInt16":
        return data.view(np.uint16).astype(np.uint32)
    if name == "UInt8":
        return data.astype(np.uint32)
    raise ValueError(f"{fmt.name} has no row-major encoding")
