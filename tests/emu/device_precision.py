"""The device's precision, for comparing ``--level cpp`` results with the language level.

The emulator computes the device's FPU arithmetic (docs/numerics.md section 8), the language level
its idealized one, so FPU results agree to the device's precision rather than bit for bit:
elementwise results within one unit in the last place of the output format (DST and the packer
round ties away from zero; a bfloat16 DST after every fidelity phase), matmul and reduce sums
within 2^-6 of the tensor's largest magnitude with an RMS error below 2^-8 of the tensor's RMS
(products are aligned in groups of eight with about 12 significant bits, a bfloat16 DST rounds
after every 16-long MVMUL; on the examples at HiFi4 at most 2^-7.7 and 2^-9.3 were measured).
"""

from __future__ import annotations

import torch


def within_one_ulp(got: torch.Tensor, want: torch.Tensor) -> torch.Tensor:
    """Elementwise: |got - want| <= one ulp of the storage format at |want|."""
    g, w = got.double(), want.double()
    mantissa_bits = {torch.float32: 23, torch.bfloat16: 7, torch.float16: 10}.get(want.dtype, 23)
    ulp = torch.exp2(torch.floor(torch.log2(w.abs().clamp_min(torch.finfo(torch.float32).tiny))) - mantissa_bits)
    return ((g - w).abs() <= ulp) | (g == w) | (g.isnan() & w.isnan())


def within_sum_precision(got: torch.Tensor, want: torch.Tensor) -> torch.Tensor:
    """Elementwise: |got - want| <= 2^-6 max|want|, when the RMS error is below 2^-8 of the RMS."""
    d, w = got.double() - want.double(), want.double()
    if d.pow(2).mean().sqrt() > 2.0 ** -8 * w.pow(2).mean().sqrt():
        return torch.zeros_like(d, dtype=torch.bool)
    return d.abs() <= 2.0 ** -6 * w.abs().max()


def assert_device_precision(got: torch.Tensor, want: torch.Tensor, sums: bool) -> None:
    """got (``--level cpp``) agrees with want (language level) to the device's precision; `sums`:
    the tensor holds matrix-unit sums (matmul, reduce)."""
    ok = within_one_ulp(got, want)
    if sums:
        ok = ok | within_sum_precision(got, want)
    assert ok.all(), (f"{int((~ok).sum())} elements beyond the device's precision, "
                      f"max |diff| {(got.double() - want.double()).abs().max().item():.3g}")
