"""The numeric model: how values are rounded into Tensix data formats (see docs/numerics.md).

The simulator keeps every value stored in L1 or DRAM exactly as the device would hold it, so
rounding happens in one place: :func:`quantize` is applied when a value lands in a buffer of a
given format (a copy into a block, a store of a compute result, a tensor sent to the device).
Between stores the simulator computes in fp32 (:func:`to_compute`), as the Tensix math units
do with fp32 destination accumulation. Goldens are compared with the tolerances in
:data:`TOLERANCES`, stated once here and in the docs.

Everything is vectorised over whole tensors (a handful of torch ops, no Python loops over
elements), because it runs on 8192x8192 tensors and on batches of blocks.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from tilecraft.dtypes import BLOCK_FLOAT_GROUP, DataFormat

_FP32_EXP_BIAS = 127
_FP32_FRACTION_BITS = 23
_EXP_FIELD_MAX = 0xFF  # all-ones exponent: inf or NaN

#: representable range of each integer format (inclusive); values outside saturate
_INTEGER_RANGE: dict[str, tuple[int, int]] = {
    "int32": (-(2**31), 2**31 - 1),
    "uint32": (0, 2**32 - 1),
    "uint16": (0, 2**16 - 1),
    "uint8": (0, 2**8 - 1),
}


def quantize(x: torch.Tensor, fmt: DataFormat) -> torch.Tensor:
    """Round ``x`` into ``fmt`` and return it in ``fmt.torch_dtype``, holding only values the format can represent.

    Float inputs of any precision are first taken to fp32 (what the device holds before a pack), then:
    bfloat16/float16 round to nearest even; bfloat8_b/bfloat4_b pack with one shared exponent per 16
    contiguous values of the last dim (see :func:`_round_block_float`); integer formats truncate toward
    zero and saturate. Returns ``x`` itself when it is already in ``fmt`` storage and needs no rounding,
    so callers must not write into the result in place.
    """
    if fmt.is_integer:
        return _round_integer(x, fmt)
    if fmt.is_block_float:
        # element = sign + magnitude bits with an explicit leading one
        return _round_block_float(x, fmt.element_bits - 1, fmt.torch_dtype)
    if x.dtype == fmt.torch_dtype:
        return x
    if x.dtype == torch.float64:
        x = x.to(torch.float32)  # the device never holds fp64: round once, to fp32, first
    return x.to(fmt.torch_dtype)


def to_compute(x: torch.Tensor) -> torch.Tensor:
    """The tensor the simulator computes with: fp32 for float storage, int64 for integer storage.

    The math units compute in fp32 (DST with fp32 accumulation), so every float format widens to
    fp32 exactly. Integer formats stay integer: fp32 cannot hold all of int32/uint32 (24-bit
    significand) and the device's integer SFPU ops are exact, so int64 holds every uint32 and
    int32 value and their sums without wrapping; the store back (:func:`quantize`) saturates.
    Returns ``x`` itself when it is already fp32 or int64.
    """
    if x.is_floating_point():
        return x.to(torch.float32)
    return x.to(torch.int64)


def _round_integer(x: torch.Tensor, fmt: DataFormat) -> torch.Tensor:
    """Truncate toward zero and saturate to the format's range; NaN becomes 0.

    This is what tt-metal's typecast does for float -> int32/uint32 (truncate and clamp); its
    device path to uint16 rounds to nearest instead (an open inconsistency upstream), and we
    follow the majority rule for every integer format. Integer inputs saturate the same way.
    """
    lo, hi = _INTEGER_RANGE[fmt.name]
    if x.is_floating_point():
        # the fp32 clamp keeps the int64 conversion defined; the int64 clamp makes the bounds exact
        x = x.to(torch.float32).trunc().nan_to_num_(nan=0.0).clamp_(lo, hi)
    return x.to(torch.int64).clamp(lo, hi).to(fmt.torch_dtype)


def _round_block_float(x: torch.Tensor, mantissa_bits: int, out_dtype: torch.dtype) -> torch.Tensor:
    """Round values as a block-float pack does and return the represented values in ``out_dtype``.

    Each group of 16 contiguous values along the last dim (one row of a 16x16 face) shares one
    8-bit exponent ``E``: the fp32 exponent field of the group's largest magnitude (the largest
    exponent in the group). An element keeps a sign and a ``mantissa_bits``-bit magnitude ``q``
    with an explicit leading one, so it is worth ``q * 2**(E - 127 - (mantissa_bits - 1))``:
    ``q`` is the element divided by that step, rounded to nearest with ties to even and
    saturated at ``2**mantissa_bits - 1`` (no exponent bump). Small elements lose bits or flush
    to zero, and a zero is always +0. A group holding inf or NaN has ``E = 255``: inf and NaN
    stay, the group's finite elements keep what survives at that exponent (usually 0).

    tt-metal's host packer shifts the significand right before rounding and drops the bits
    shifted out, which can turn an exact-looking tie into a round-down; that only happens for
    inputs with more than 16 significant bits (fp32), never for bf16 or fp16 values, and the two
    rules then differ by one step. We round the exact quotient instead: it is the documented
    rule, and it costs one division instead of a dozen integer passes (this runs on 8192x8192
    tensors, where every full-size temporary matters, so the work tensor is updated in place).
    """
    if x.dim() == 0 or x.shape[-1] % BLOCK_FLOAT_GROUP:
        raise ValueError(
            f"block-float formats share one exponent per {BLOCK_FLOAT_GROUP} values of the last dim; "
            f"got shape {tuple(x.shape)}"
        )
    groups = x.to(torch.float32).reshape(*x.shape[:-1], -1, BLOCK_FLOAT_GROUP)
    low, high = torch.aminmax(groups, dim=-1, keepdim=True)
    largest = torch.maximum(high, -low)  # NaN propagates, giving exponent field 255
    shared = (largest.view(torch.int32) >> _FP32_FRACTION_BITS) & _EXP_FIELD_MAX
    step = torch.exp2((shared - (_FP32_EXP_BIAS + mantissa_bits - 1)).to(torch.float32))
    q_max = torch.where(shared == _EXP_FIELD_MAX, torch.inf, float((1 << mantissa_bits) - 1))

    q = groups / step  # exact: step is a power of two
    q.round_().clamp_(-q_max, q_max).add_(0.0).mul_(step)  # + 0.0 turns -0.0 into +0.0
    return q.reshape(x.shape).to(out_dtype)  # exact in bf16: |q| < 2**8 and step >= 2**-133


@dataclass(frozen=True)
class Tolerance:
    """How close a simulated result must be to a torch golden: allclose(rtol, atol) or PCC >= pcc."""

    rtol: float
    atol: float
    pcc: float


#: golden tolerances by format name of the result (docs/numerics.md explains each row)
TOLERANCES: dict[str, Tolerance] = {
    "float32": Tolerance(rtol=1e-5, atol=1e-6, pcc=0.99999),
    "float16": Tolerance(rtol=2e-3, atol=2e-3, pcc=0.9999),
    "bfloat16": Tolerance(rtol=1e-2, atol=1e-2, pcc=0.999),
    "bfloat8_b": Tolerance(rtol=5e-2, atol=5e-2, pcc=0.99),
    "bfloat4_b": Tolerance(rtol=0.25, atol=0.25, pcc=0.95),
    "int32": Tolerance(rtol=0.0, atol=0.0, pcc=1.0),
    "uint32": Tolerance(rtol=0.0, atol=0.0, pcc=1.0),
    "uint16": Tolerance(rtol=0.0, atol=0.0, pcc=1.0),
    "uint8": Tolerance(rtol=0.0, atol=0.0, pcc=1.0),
}


def pcc(actual: torch.Tensor, golden: torch.Tensor) -> float:
    """Pearson correlation of two tensors (flattened, in float64), the metric tt-metal's tests use.

    Two constant tensors correlate perfectly only when they are equal (the formula is 0/0 there).
    """
    a = actual.to(torch.float64).flatten()
    g = golden.to(torch.float64).flatten()
    a = a - a.mean()
    g = g - g.mean()
    denom = (a.norm() * g.norm()).item()
    if denom == 0.0:
        return 1.0 if torch.equal(actual.to(torch.float64), golden.to(torch.float64)) else 0.0
    return float((a @ g).item() / denom)


def matches_golden(actual: torch.Tensor, golden: torch.Tensor, fmt: DataFormat) -> bool:
    """Whether ``actual`` (held in ``fmt``) is close enough to a torch ``golden`` by :data:`TOLERANCES`.

    Integer formats must match exactly; float formats pass on allclose or on PCC, because a
    block-float or long bf16 accumulation can miss allclose on a few elements while the result
    as a whole is right.
    """
    tol = TOLERANCES[fmt.name]
    a = actual.to(torch.float64)
    g = golden.to(torch.float64)
    if a.shape != g.shape:
        return False
    if torch.allclose(a, g, rtol=tol.rtol, atol=tol.atol, equal_nan=True):
        return True
    return not fmt.is_integer and pcc(a, g) >= tol.pcc
