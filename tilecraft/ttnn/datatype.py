"""ttnn's data types are tilecraft's :class:`~tilecraft.dtypes.DataFormat` records.

Sharing one object per format means the simulator, the cost model and the emitter read sizes and
storage types from the very dtype a user passed to ``ttnn.from_torch``; nothing is translated.
``ttnn.DataType.BFLOAT16 is ttnn.bfloat16`` holds, and ``isinstance(fmt, ttnn.DataType)`` works
for annotations and checks written against real ttnn.
"""

from __future__ import annotations

import torch

from tilecraft import dtypes
from tilecraft.diagnostics import UsageTypeError, calling_user_span, warn
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


#: torch dtypes that name a ttnn data type in the published TT-Lang simulator (there ``ttnn.float32``
#: *is* ``torch.float32``), so its programs pass them where ttnn expects a ttnn data type
_TORCH_SPELLING: dict[torch.dtype, DataFormat] = {
    torch.bfloat16: bfloat16, torch.float32: float32, torch.float16: float16, torch.int32: int32,
    torch.uint8: uint8, torch.uint16: uint16, torch.uint32: uint32,
}


def as_data_format(value: object, argument: str = "dtype") -> DataFormat:
    """Check a user's dtype argument. A torch dtype with a ttnn counterpart is taken as that one,
    as the published simulator takes it, with a warning (W0502): real ttnn rejects it."""
    if isinstance(value, DataFormat):
        return value
    if isinstance(value, torch.dtype) and value in _TORCH_SPELLING:
        fmt = _TORCH_SPELLING[value]
        warn("W0502", f"{argument}={value} is taken as ttnn.{fmt.name}, as the TT-Lang simulator does; real ttnn "
             f"needs a ttnn data type here", calling_user_span(), hint=f"pass {argument}=ttnn.{fmt.name}")
        return fmt
    if isinstance(value, torch.dtype):
        raise UsageTypeError(
            f"{argument} must be a ttnn data type such as ttnn.bfloat16; the torch dtype {value} has no Tensix "
            f"format", hint="use ttnn.float32, ttnn.bfloat16, ttnn.int32, ... (convert the data first if needed)"
        )
    names = ", ".join(f"ttnn.{f.name}" for f in dtypes.ALL_FORMATS)
    raise UsageTypeError(f"{argument} must be a ttnn data type ({names}), got {value!r}")


def format_of_torch(dtype: torch.dtype) -> DataFormat:
    """The format a torch tensor's values are kept in when the user names none (``from_torch``,
    ``Tensor(torch_tensor)``); torch.bool has none."""
    try:
        return dtypes.from_torch_dtype(dtype)
    except TypeError:
        raise UsageTypeError(f"no Tensix data format holds {dtype} values",
                             hint="convert the tensor first (t.to(torch.float32)) or pass dtype=ttnn.bfloat16, "
                                  "ttnn.int32, ...") from None
