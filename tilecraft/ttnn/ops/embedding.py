"""``ttnn.embedding``: rows of a weight table picked by integer ids.

The result has the ids' shape plus the table's row width, in the table's dtype and row-major
layout unless told otherwise; rows are copied, so the values are exact. An id outside the table is
a ValueError naming it (the device would read whatever lies past the table).
"""

from __future__ import annotations

import math
from typing import Optional

import torch

from tilecraft.diagnostics import UsageTypeError, UsageValueError, type_name
from tilecraft.dtypes import DataFormat

from ..layout import Layout, Shape
from ..memory import MemoryConfig
from ..primitives import DevicePrimitive, TensorType
from ..tensor import Tensor


def _table_shape(weight: Shape) -> tuple[int, int]:
    """(rows, width) of a table given as [vocab, hidden] or with leading dims of 1."""
    if weight.rank < 2 or math.prod(weight[:-2]) != 1:
        raise ValueError(f"the weight table is [vocabulary, width] (leading dims of 1 allowed), got {weight}")
    return weight[-2], weight[-1]


def _embedding_rule(ids: TensorType, weight: TensorType, *, padding_idx: Optional[int]) -> TensorType:
    _, width = _table_shape(weight.shape)
    return TensorType(Shape((*ids.shape, width)), weight.dtype, Layout.ROW_MAJOR)


def _embedding_impl(ids: torch.Tensor, weight: torch.Tensor, *, padding_idx: Optional[int]) -> torch.Tensor:
    rows, width = _table_shape(Shape(weight.shape))
    index = ids.to(torch.int64)
    if index.numel() and (index.min() < 0 or index.max() >= rows):
        bad = index[(index < 0) | (index >= rows)][0].item()
        raise UsageValueError(f"ttnn.embedding: id {bad} is outside the table's {rows} rows")
    out = weight.reshape(rows, width)[index]
    if padding_idx is not None:
        out[index == padding_idx] = 0
    return out


embedding_p = DevicePrimitive("embedding", _embedding_rule, _embedding_impl)


def embedding(input_tensor: Tensor, weight: Tensor, *, padding_idx: Optional[int] = None,
              layout: Layout = Layout.ROW_MAJOR, embeddings_type: object = None,
              dtype: Optional[DataFormat] = None, memory_config: Optional[MemoryConfig] = None) -> Tensor:
    """``weight[input_tensor]``: one table row per id (rows at ``padding_idx`` are zeros)."""
    for operand, what in ((input_tensor, "ids"), (weight, "weight table")):
        if not isinstance(operand, Tensor):
            raise UsageTypeError(f"ttnn.embedding: the {what} must be a ttnn.Tensor, got {type_name(operand)}")
    if not input_tensor.dtype.is_integer and input_tensor.dtype.name != "bfloat16":
        raise UsageValueError(f"ttnn.embedding takes uint32 (or bfloat16) ids, got {input_tensor.dtype.name}")
    return embedding_p.bind(input_tensor, weight, dtype=dtype, layout=layout, memory_config=memory_config,
                           padding_idx=padding_idx)
