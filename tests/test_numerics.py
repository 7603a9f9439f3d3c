"""The numeric model on hand-computed values: rounding into every format, compute dtypes, tolerances."""

from __future__ import annotations

import pytest
import torch

from tilecraft import dtypes
from tilecraft.numerics import TOLERANCES, matches_golden, pcc, quantize, to_compute

FLOAT_FORMATS = [f for f in dtypes.ALL_FORMATS if not f.is_integer]


def row(*values: float, width: int = 16) -> torch.Tensor:
    """A [1, width] fp32 row holding ``values`` first and zeros after."""
    out = torch.zeros(1, width)
    out[0, : len(values)] = torch.tensor(values, dtype=torch.float64).float()
    return out


def as_list(t: torch.Tensor) -> list[float]:
    return t.float().flatten().tolist()


# ---------------------------------------------------------------- IEEE-like formats


def test_bfloat16_rounds_ties_to_even():
    # bf16 keeps 7 fraction bits: near 1.0 the step is 2**-7
    x = torch.tensor([1 + 2**-8, 1 + 3 * 2**-8, 1 + 2**-8 + 2**-20, -(1 + 2**-8)], dtype=torch.float64)
    assert as_list(quantize(x, dtypes.bfloat16)) == [1.0, 1 + 2**-6, 1 + 2**-7, -1.0]


def test_float16_rounds_ties_to_even_and_overflows_to_inf():
    x = torch.tensor([1 + 2**-11, 1 + 3 * 2**-11, 70000.0])
    assert as_list(quantize(x, dtypes.float16)) == [1.0, 1 + 2**-9, float("inf")]


def test_float32_takes_wider_inputs_to_fp32():
    x = torch.tensor([1 + 2**-30], dtype=torch.float64)
    y = quantize(x, dtypes.float32)
    assert y.dtype == torch.float32 and y.item() == 1.0


@pytest.mark.parametrize("fmt", dtypes.ALL_FORMATS, ids=lambda f: f.name)
def test_result_is_stored_in_the_format_torch_dtype(fmt):
    assert quantize(torch.randn(2, 32), fmt).dtype == fmt.torch_dtype


@pytest.mark.parametrize("fmt", FLOAT_FORMATS, ids=lambda f: f.name)
def test_quantize_is_idempotent(fmt):
    torch.manual_seed(0)
    once = quantize(torch.randn(4, 64) * 100, fmt)
    assert torch.equal(quantize(once, fmt), once)


# ---------------------------------------------------------------- block floats


def test_bfp8_group_with_max_one():
    # shared exponent is that of 1.0, so the step is 2**-6 (7 magnitude bits, leading one explicit)
    x = row(1.0, 2**-8, 2**-7, 3 * 2**-7, -0.5, 1 + 2**-7, 1 + 3 * 2**-7, 1.99999, -(2**-8))
    expected = [
        1.0,
        0.0,  # 1/256 is a quarter step: flushed to zero
        0.0,  # 1/128 is half a step: tie, rounds to even (0)
        2**-5,  # 1.5 steps: tie, rounds to even (2 steps)
        -0.5,
        1.0,  # 64.5 steps -> 64
        1 + 2**-5,  # 65.5 steps -> 66
        127 * 2**-6,  # 127.99 steps saturates at 127 (no exponent bump)
        0.0,
    ] + [0.0] * 7
    y = quantize(x, dtypes.bfloat8_b)
    assert as_list(y) == expected
    assert not torch.signbit(y[0, 8])  # a negative value flushed to zero is +0


def test_bfp4_group_with_max_one():
    # 3 magnitude bits: the step is 2**-2
    x = row(1.0, 1 + 3 * 2**-7, 1.99999, 0.375, 0.125, -0.625)
    assert as_list(quantize(x, dtypes.bfloat4_b)) == [1.0, 1.0, 1.75, 0.5, 0.0, -0.5] + [0.0] * 10


def test_bfp8_groups_are_16_contiguous_values_of_a_row():
    # one 32-wide tile row is two groups: the small value shares 1.0's exponent only in group 0
    x = torch.zeros(2, 32)
    x[0, 0] = 1.0
    x[0, 5] = 2**-9
    x[0, 20] = 2**-9
    x[1, 3] = 2**-9  # another row: its own groups
    y = quantize(x, dtypes.bfloat8_b)
    assert y[0, 0] == 1.0 and y[0, 5] == 0.0
    assert y[0, 20] == 2**-9 and y[1, 3] == 2**-9


def test_bfp8_small_group_keeps_7_bits_relative_to_its_own_max():
    x = row(3.0, 3.0 * (1 + 2**-6), 0.1)
    step = 2.0 ** (1 - 6)  # exponent of 3.0 is 1
    y = quantize(x, dtypes.bfloat8_b)
    # 3.046875 is 97.5 steps: a tie, rounded to even (98); 0.1 is 3.2 steps
    assert as_list(y)[:3] == [3.0, 3.0 + 2 * step, 3 * step]


def test_bfp8_error_is_at_most_half_a_step_of_the_group():
    torch.manual_seed(1)
    x = torch.randn(64, 128) * torch.rand(64, 1) * 10
    y = quantize(x, dtypes.bfloat8_b).float()
    groups = x.reshape(64, 8, 16)
    _, exponent = torch.frexp(groups.abs().amax(-1, keepdim=True))  # max = m * 2**exponent, m in [0.5, 1)
    step = torch.exp2(exponent.float() - 1 - 6)
    err = (y.reshape(64, 8, 16) - groups).abs()
    # half a step, or one step where the largest magnitude saturates
    assert bool((err <= step).all())
    below_saturation = groups.abs() < groups.abs().amax(-1, keepdim=True) * 0.9
    assert bool(((err <= step / 2) | ~below_saturation).all())


def test_block_float_needs_whole_groups():
    with pytest.raises(ValueError, match="16"):
        quantize(torch.ones(2, 24), dtypes.bfloat8_b)


def test_block_float_batches_of_blocks_round_like_single_blocks():
    torch.manual_seed(2)
    blocks = torch.randn(5, 32, 64)
    batched = quantize(blocks, dtypes.bfloat8_b)
    for i in range(5):
        assert torch.equal(batched[i], quantize(blocks[i], dtypes.bfloat8_b))


def test_block_float_zero_group_and_non_finite_values():
    assert as_list(quantize(torch.zeros(1, 16), dtypes.bfloat8_b)) == [0.0] * 16
    y = as_list(quantize(row(float("inf"), -float("inf"), float("nan"), 1.0), dtypes.bfloat8_b))
    assert y[0] == float("inf") and y[1] == -float("inf") and y[2] != y[2]
    assert y[3] == 0.0  # shares the exponent of inf


def test_block_float_accepts_bfloat16_input():
    x = row(1.0, 3 * 2**-7).to(torch.bfloat16)
    assert as_list(quantize(x, dtypes.bfloat8_b))[:2] == [1.0, 2**-5]


# ---------------------------------------------------------------- integers


def test_integer_formats_truncate_toward_zero_and_saturate():
    x = torch.tensor([1.5, -1.5, 2.9, -2.9, 1e10, -1e10, float("nan"), float("inf"), 2.0**31])
    assert quantize(x, dtypes.int32).tolist() == [1, -1, 2, -2, 2**31 - 1, -(2**31), 0, 2**31 - 1, 2**31 - 1]
    assert quantize(x, dtypes.uint32).tolist() == [1, 0, 2, 0, 2**32 - 1, 0, 0, 2**32 - 1, 2**31]
    assert quantize(x, dtypes.uint16).tolist() == [1, 0, 2, 0, 65535, 0, 0, 65535, 65535]
    assert quantize(x, dtypes.uint8).tolist() == [1, 0, 2, 0, 255, 0, 0, 255, 255]


def test_integer_inputs_saturate():
    x = torch.tensor([-5, 70000, 2**40])
    assert quantize(x, dtypes.uint16).tolist() == [0, 65535, 65535]
    assert quantize(x, dtypes.int32).tolist() == [-5, 70000, 2**31 - 1]


# ---------------------------------------------------------------- compute dtype


def test_to_compute_widens_floats_to_fp32_and_integers_to_int64():
    bf = torch.tensor([1.5, -3.25], dtype=torch.bfloat16)
    assert to_compute(bf).dtype == torch.float32 and to_compute(bf).tolist() == [1.5, -3.25]
    assert to_compute(torch.tensor([7], dtype=torch.int32)).dtype == torch.int64
    assert to_compute(torch.tensor([255], dtype=torch.uint8)).tolist() == [255]
    fp32 = torch.ones(3)
    assert to_compute(fp32) is fp32


# ---------------------------------------------------------------- tolerances


def test_every_format_has_a_tolerance():
    assert set(TOLERANCES) == {f.name for f in dtypes.ALL_FORMATS}


def test_pcc():
    x = torch.arange(10.0)
    assert pcc(x, x) == pytest.approx(1.0)
    assert pcc(x, -x) == pytest.approx(-1.0)
    assert pcc(torch.ones(4), torch.ones(4)) == 1.0
    assert pcc(torch.ones(4), torch.zeros(4)) == 0.0


def test_matches_golden_by_format():
    torch.manual_seed(3)
    golden = torch.randn(64, 64)
    assert matches_golden(quantize(golden, dtypes.bfloat16), golden, dtypes.bfloat16)
    assert matches_golden(quantize(golden, dtypes.bfloat8_b), golden, dtypes.bfloat8_b)
    assert not matches_golden(quantize(golden, dtypes.bfloat8_b), golden, dtypes.float32)
    assert not matches_golden(torch.zeros(64, 64), golden, dtypes.bfloat16)
    ints = torch.arange(6)
    assert matches_golden(ints, ints, dtypes.int32)
    assert not matches_golden(ints + 1, ints, dtypes.int32)
    assert not matches_golden(torch.zeros(2, 2), torch.zeros(2, 3), dtypes.float32)
