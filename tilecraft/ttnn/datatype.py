"""ttnn's data types are tilecraft's :class:`~tilecraft.dtypes.DataFormat` records.

Sharing one object per format means the simulator, the cost model and the emitter read sizes and
storage types from the very dtype a user passed to ``ttnn.from_torch``; nothing is translated.
``ttnn.DataType.BFLOAT16 is ttnn.bfloat16`` holds, and ``isinstance(fmt, ttnn.DataType)`` works
for annotations and checks written against real ttnn.
"""

from __future__ import annotations

import torch

from tilecraft import dtypes
from tilecraft.diagnostics import UsageTypeError
from tilecraft.dtypes import DataFormat

bfloat16 = dtypes.bfloat16
float32 = dtypes.float32
float16 = dtypes.float16
bfloat8_b = dtypes.bfloat8_b
bfloat4_b = dtypes.bfloat4_b
int32 = dtypes.int32
uint32 = dtypes.uint32
uint16 = dtypes.uint16
uint8 = dtypes.uint8


class _DataTypeMeta(type):
    def __instancecheck__(cls, instance: object) -> bool:
        return isinstance(instance, DataFormat)


class DataType(metaclass=_DataTypeMeta):
    """The ttnn enumeration spelling of the formats (``ttnn.DataType.BFLOAT8_B``)."""

    BFLOAT16 = bfloat16
    FLOAT32 = float32
    FLOAT16 = float16
    BFLOAT8_B = bfloat8_b
    BFLOAT4_B = bfloat4_b
    INT32 = int32
    UINT32 = uint32
    UINT16 = uint16
    UINT8 = uint8


def as_data_format(value: object, argument: str = "dtype") -> DataFormat:
    """Check a user's dtype argument; a torch dtype is the usual slip, so name the fix."""
    if isinstance(value, DataFormat):
        return value
    if isinstance(value, torch.dtype):
        raise UsageTypeError(
            f"{argument} must be a ttnn data type such as ttnn.bfloat16, got the torch dtype {value}"
        )
    names = ", ".join(f"ttnn.{f.name}" for f in dtypes.ALL_FORMATS)
    raise UsageTypeError(f"{argument} must be a ttnn data type ({names}), got {value!r}")
