"""The activations ops fuse after their math (``ttnn.linear(..., activation="gelu")``, a matmul
program config's ``fused_activation``): by name, or as ttnn's ``UnaryWithParam(UnaryOpType.RELU)``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Optional, Union

import torch

from tilecraft.diagnostics import UsageTypeError

from .elementwise import unary_function


class UnaryOpType(Enum):
    """The fusable activations ttnn names (the subset tilecraft computes)."""

    RELU = "relu"
    GELU = "gelu"
    SILU = "silu"
    SIGMOID = "sigmoid"
    TANH = "tanh"


@dataclass(frozen=True)
class UnaryWithParam:
    """An activation with its parameter (``UnaryWithParam(UnaryOpType.GELU, 1.0)``: the parameter of
    GELU is its fast-approximation flag, of the others unused)."""

    op_type: UnaryOpType
    param: Optional[float] = None


Activation = Union[str, UnaryWithParam, None]


def activation_name(activation: Activation) -> Optional[str]:
    """The op name of an ``activation`` argument (None: no activation)."""
    if activation is None or isinstance(activation, str):
        if activation is not None:
            unary_function(activation)  # an unknown name fails here, at the call
        return activation
    if isinstance(activation, UnaryWithParam) and isinstance(activation.op_type, UnaryOpType):
        return activation.op_type.value
    raise UsageTypeError(f"activation must be a name such as 'relu' or a ttnn.UnaryWithParam, got {activation!r}")


def apply_activation(values: torch.Tensor, name: Optional[str]) -> torch.Tensor:
    """``values`` through the activation ``name`` (unchanged for None)."""
    return values if name is None else unary_function(name)(values)
