"""Checking a device result against a torch golden: the Pearson-correlation (PCC) test of tt-metal.

Kernel and micro-op tests for Tenstorrent hardware compare outputs by their Pearson correlation
coefficient with a golden computed in torch, because bfloat16 storage and the hardware's
rounding make elementwise equality the wrong test and a fixed absolute tolerance the wrong
scale. :func:`comp_pcc` follows the contract of ``comp_pcc`` in tt-metal's
``models/common/utility_functions`` (``passing, message = comp_pcc(golden, result, 0.99)``), so
a micro-op test written for a device runs unchanged here; its message also says *where* the
outputs differ (the worst elements, with their indices and both values), because a PCC of 0.93
alone does not tell a wrong tile from a wrong row.

The examples in ``examples/metal`` and ``examples/microops`` use it; it needs only torch.
"""

from __future__ import annotations

import math

import torch

from .diagnostics import type_name

__all__ = ["comp_pcc", "pcc"]

#: How many of the most different elements the message lists.
WORST_SHOWN = 5


def pcc(golden: torch.Tensor, calculated: torch.Tensor) -> float:
    """The Pearson correlation coefficient of two tensors of the same shape, in float64.

    NaN and infinite elements are compared by position, not correlated: the same non-finite
    value at the same place in both counts as agreement, any other non-finite element makes the
    result 0.0. Tensors that are equal give 1.0 even when they are constant (where the
    coefficient itself is undefined); unequal tensors of which one is constant give 0.0.
    """
    golden, calculated = _as_float64(golden, calculated)
    if golden.numel() == 0 or torch.equal(golden, calculated):
        return 1.0
    if bool(_nonfinite_on_one_side(golden, calculated).any()):
        return 0.0
    both = torch.isfinite(golden) & torch.isfinite(calculated)
    g, c = golden[both], calculated[both]
    if torch.equal(g, c):
        return 1.0
    g, c = g - g.mean(), c - c.mean()
    denominator = math.sqrt(float((g * g).sum()) * float((c * c).sum()))
    if denominator == 0.0:  # one side constant, the other not: no correlation to speak of
        return 0.0
    return max(-1.0, min(1.0, float((g * c).sum()) / denominator))


def comp_pcc(golden: torch.Tensor, calculated: torch.Tensor, pcc_threshold: float = 0.99) -> tuple[bool, str]:
    """``(passed, message)``: whether the PCC of ``calculated`` against ``golden`` reaches
    ``pcc_threshold``, and a message with the PCC, the threshold, the largest and mean absolute
    differences and the :data:`WORST_SHOWN` elements that differ most (index, golden, calculated).

    Raises ValueError when the shapes differ (a broadcast would hide a wrong output shape) or
    the threshold is not in (0, 1].
    """
    if not 0.0 < pcc_threshold <= 1.0:
        raise ValueError(f"pcc_threshold must be in (0, 1], got {pcc_threshold!r}")
    value = pcc(golden, calculated)
    passed = value >= pcc_threshold
    verdict = ">=" if passed else "<"
    return passed, f"PCC {value:.6f} {verdict} {pcc_threshold}; {_where_they_differ(golden, calculated)}"


def _as_float64(golden: torch.Tensor, calculated: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    if not (isinstance(golden, torch.Tensor) and isinstance(calculated, torch.Tensor)):
        raise TypeError(f"comp_pcc compares torch tensors, got {type_name(golden)} and "
                        f"{type_name(calculated)} (convert ttnn tensors with ttnn.to_torch)")
    if tuple(golden.shape) != tuple(calculated.shape):
        raise ValueError(f"golden and calculated shapes differ: {tuple(golden.shape)} vs "
                         f"{tuple(calculated.shape)} (slice the padded output to the golden's shape first)")
    return golden.detach().to(torch.float64), calculated.detach().to(torch.float64)


def _nonfinite_on_one_side(g: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
    """Where either side is NaN or infinite but the two are not the same non-finite value."""
    same = (g == c) | (g.isnan() & c.isnan())
    return (~torch.isfinite(g) | ~torch.isfinite(c)) & ~same


def _where_they_differ(golden: torch.Tensor, calculated: torch.Tensor) -> str:
    g, c = _as_float64(golden, calculated)
    if g.numel() == 0:
        return "both tensors are empty"
    difference = (g - c).abs()
    # A NaN or infinity on one side only is the worst kind of difference: rank it first.
    mismatch = _nonfinite_on_one_side(g, c)
    ranked = torch.where(mismatch, torch.full_like(difference, math.inf), difference.nan_to_num(0.0))
    if not bool((ranked > 0).any()):
        return "the tensors are identical"
    finite = ranked[torch.isfinite(ranked)]
    summary = (f"max |diff| {float(finite.max()) if finite.numel() else 0.0:.4g}, "
               f"mean |diff| {float(finite.mean()) if finite.numel() else 0.0:.4g}")
    if int(mismatch.sum()):
        summary += f", {int(mismatch.sum())} element(s) NaN or infinite on one side only (not in the max)"
    count = min(WORST_SHOWN, int((ranked > 0).sum()))
    order = torch.topk(ranked.flatten(), count).indices
    worst = []
    for flat in order.tolist():
        index = tuple(int(i) for i in torch.unravel_index(torch.tensor(flat), g.shape))
        worst.append(f"{list(index)}: golden {g.flatten()[flat].item():.6g}, got {c.flatten()[flat].item():.6g}")
    return f"{summary}; most different: " + "; ".join(worst)
