"""The activations ops fuse after their math (``ttnn.linear(..., activation="gelu")``, a matmul
program config's ``fused_activation``): by name, or as ttnn's ``UnaryWithParam(UnaryOpType.RELU)``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Optional, Union

import torch

from .elementwise import activation_names, unary_function


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
    return None if activation is None else activation_names([activation])[0]


def apply_activation(values: torch.Tensor, name: Optional[str]) -> torch.Tensor:
    """``values`` through the activation ``name`` (unchanged for None)."""
    return values if name is None else unary_function(name)(values)
