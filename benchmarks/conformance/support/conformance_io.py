"""What a conformance program imports to make its inputs and hand its outputs to the harness.

The programs run unchanged on two simulators that disagree about torch itself: the published
tt-lang-sim rebinds ``torch.bfloat16`` to ``torch.float32`` and keeps bfloat16 tensors in
float32, while tilecraft keeps them in bfloat16, as the device does. So that both start from
the same numbers, inputs are made here with values that bfloat16 holds exactly (the low 16
bits of each float32 are cleared with integer operations, which the rebinding cannot touch).

Outputs go to the file named by ``$CONFORMANCE_OUTPUT`` (nothing is written when it is unset,
so a program also runs by hand), a numpy ``.npz`` archive (``torch.save`` cannot be used: with
``torch.bfloat16`` rebound it writes storages torch cannot read back): for each name, the values
as float32 under ``NAME`` and the format the program declared for them (``bfloat16``,
``float32``, ...) under ``NAME:format``. The harness compares in that format. This module is
put on ``PYTHONPATH`` by the harness; it is not part of tilecraft.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Optional

import numpy as np
import torch

OUTPUT_VARIABLE = "CONFORMANCE_OUTPUT"


def bf16_exact(shape: tuple[int, ...], seed: int, low: float = -2.0, high: float = 2.0,
               step: Optional[float] = None) -> torch.Tensor:
    """A float32 tensor of values in ``[low, high)`` that bfloat16 represents exactly.

    With ``step`` (a power of two) every value is a multiple of it, so sums and products of a
    few of them are exact in float32 and no summation order can change a result.
    """
    generator = torch.Generator().manual_seed(seed)
    values = torch.rand(shape, generator=generator, dtype=torch.float32) * (high - low) + low
    if step is not None:
        values = torch.round(values / step) * step
    bits = values.contiguous().view(torch.int32) & -65536  # keep sign, exponent, 7 mantissa bits
    return bits.view(torch.float32) + 0.0  # no negative zeros: their sign only tests summation order


def save_outputs(*, mesh_composer: Any = None, **outputs: Any) -> None:
    """Record ``name=value`` pairs for the harness: ttnn tensors, numbers, or ``(torch tensor,
    format name)`` pairs.

    A torch tensor needs its format named: its dtype differs between the simulators (the
    published one makes ``torch.bfloat16`` float32). Mesh tensors are gathered with
    ``mesh_composer``.
    """
    path = os.environ.get(OUTPUT_VARIABLE)
    if not path:
        return
    arrays: dict[str, np.ndarray] = {}
    for name, value in outputs.items():
        values, declared = _entry(value, mesh_composer)
        arrays[name] = values
        arrays[f"{name}:format"] = np.array(declared)
    with open(path, "wb") as file:
        np.savez(file, **arrays)


def _entry(value: Any, mesh_composer: Any) -> tuple[np.ndarray, str]:
    if isinstance(value, (int, float, bool)):
        return np.array(float(value), dtype=np.float64), "scalar"
    if isinstance(value, tuple):
        tensor, declared = value
        return tensor.detach().to(torch.float32).numpy().copy(), declared
    if isinstance(value, torch.Tensor):
        raise TypeError("save (tensor, format name): a torch tensor's dtype differs between the simulators")
    ttnn = sys.modules["ttnn"]  # the simulator's ttnn, whichever serves the program
    kwargs = {} if mesh_composer is None else {"mesh_composer": mesh_composer}
    return ttnn.to_torch(value, **kwargs).to(torch.float32).numpy().copy(), _format_name(value.dtype)


def _format_name(dtype: Any) -> str:
    """``torch.bfloat16``, ``DataType.BFLOAT16`` and ``bfloat16`` all name bfloat16."""
    name = str(dtype).lower()
    for prefix in ("torch.", "datatype."):
        name = name.removeprefix(prefix)
    return name
