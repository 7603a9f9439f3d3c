"""Block math semantics: every table entry against an independent reference, and the hardware's
placement rules for reduce and broadcast on hand-built blocks."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from tilecraft.sim import tile_math as tm

SELU_SCALE = 1.0507009873554804934193349852946
SELU_ALPHA = 1.6732632423543772848170429916717

ANY = np.linspace(-3.0, 3.0, 61)  # includes exact halves and zero
POSITIVE = np.linspace(0.05, 5.0, 50)
UNIT = np.linspace(-0.95, 0.95, 39)
ABOVE_ONE = np.linspace(1.05, 5.0, 40)
SPECIAL = np.array([0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan])


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def _softplus(x, beta=1.0, threshold=20.0):
    return np.where(beta * x > threshold, x, np.log1p(np.exp(beta * x)) / beta)


def _round_half_even(x, decimals=0):
    return np.round(x, decimals)  # numpy rounds halves to even


#: name -> (numpy reference in float64, sample inputs); written from the formulas, not from torch
UNARY_REFERENCE = {
    "abs": (np.abs, ANY),
    "neg": (np.negative, ANY),
    "exp": (np.exp, ANY),
    "exp2": (np.exp2, ANY),
    "expm1": (np.expm1, ANY),
    "log": (np.log, POSITIVE),
    "log2": (np.log2, POSITIVE),
    "log10": (np.log10, POSITIVE),
    "log1p": (np.log1p, POSITIVE),
    "sqrt": (np.sqrt, POSITIVE),
    "rsqrt": (lambda x: 1.0 / np.sqrt(x), POSITIVE),
    "recip": (lambda x: 1.0 / x, POSITIVE),
    "square": (np.square, ANY),
    "sin": (np.sin, ANY),
    "cos": (np.cos, ANY),
    "tan": (np.tan, UNIT),
    "asin": (np.arcsin, UNIT),
    "acos": (np.arccos, UNIT),
    "atan": (np.arctan, ANY),
    "sinh": (np.sinh, ANY),
    "cosh": (np.cosh, ANY),
    "tanh": (np.tanh, ANY),
    "asinh": (np.arcsinh, ANY),
    "acosh": (np.arccosh, ABOVE_ONE),
    "atanh": (np.arctanh, UNIT),
    "erf": (np.vectorize(math.erf), ANY),
    "erfc": (np.vectorize(math.erfc), ANY),
    "relu": (lambda x: np.maximum(x, 0.0), ANY),
    "relu6": (lambda x: np.clip(x, 0.0, 6.0), ANY * 3),
    "sigmoid": (_sigmoid, ANY),
    "gelu": (lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))), ANY),
    "silu": (lambda x: x * _sigmoid(x), ANY),
    "softsign": (lambda x: x / (1 + np.abs(x)), ANY),
    "hardsigmoid": (lambda x: np.clip(x / 6 + 0.5, 0.0, 1.0), ANY * 2),
    "hardswish": (lambda x: x * np.clip(x + 3, 0.0, 6.0) / 6, ANY * 2),
    "selu": (lambda x: SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * np.expm1(x)), ANY),
    "mish": (lambda x: x * np.tanh(np.log1p(np.exp(x))), ANY),
    "floor": (np.floor, ANY),
    "ceil": (np.ceil, ANY),
    "trunc": (np.trunc, ANY),
    "frac": (lambda x: x - np.trunc(x), ANY),
    "sign": (np.sign, ANY),
    "signbit": (lambda x: np.signbit(x).astype(np.float64), SPECIAL),
    "logical_not": (lambda x: (x == 0).astype(np.float64), SPECIAL),
    "isfinite": (lambda x: np.isfinite(x).astype(np.float64), SPECIAL),
    "isinf": (lambda x: np.isinf(x).astype(np.float64), SPECIAL),
    "isnan": (lambda x: np.isnan(x).astype(np.float64), SPECIAL),
}

#: name -> (op params, numpy reference taking the same params)
UNARY_PARAM_REFERENCE = {
    "relu_max": ((2.0,), lambda x, hi: np.clip(x, 0.0, hi)),
    "relu_min": ((1.0,), lambda x, lo: np.maximum(x, lo)),
    "leaky_relu": ((0.1,), lambda x, s: np.where(x > 0, x, s * x)),
    "prelu": ((0.25,), lambda x, s: np.where(x > 0, x, s * x)),
    "elu": ((0.5,), lambda x, a: np.where(x > 0, x, a * np.expm1(x))),
    "celu": ((2.0, 0.5), lambda x, a, r: np.where(x > 0, x, a * np.expm1(x * r))),
    "softplus": ((2.0, 0.5, 4.0), lambda x, b, r, t: _softplus(x, b, t)),
    "hardtanh": ((-1.0, 2.0), lambda x, lo, hi: np.clip(x, lo, hi)),
    "clamp": ((-0.5, 1.5), lambda x, lo, hi: np.clip(x, lo, hi)),
    "threshold": ((0.5, -7.0), lambda x, t, v: np.where(x > t, v, x)),
    "threshold_le": ((0.5, -7.0), lambda x, t, v: np.where(x <= t, v, x)),
    "round": ((1,), _round_half_even),
    "rsub": ((3.0,), lambda x, s: s - x),
    "power": ((3.0,), lambda x, p: x**p),
}

#: name -> (numpy reference, a sample, b sample)
BINARY_REFERENCE = {
    "add": (np.add, ANY, ANY[::-1]),
    "sub": (np.subtract, ANY, ANY[::-1]),
    "mul": (np.multiply, ANY, ANY[::-1]),
    "div": (np.divide, ANY, np.linspace(0.1, 4.0, 61)),
    "floordiv": (np.floor_divide, ANY, np.full(61, 0.75)),
    "remainder": (np.remainder, ANY, np.full(61, -0.75)),
    "fmod": (np.fmod, ANY, np.full(61, -0.75)),
    "pow": (np.power, np.linspace(0.1, 3.0, 61), ANY),
    "atan2": (np.arctan2, ANY, ANY[::-1]),
    "max": (np.maximum, ANY, ANY[::-1]),
    "min": (np.minimum, ANY, ANY[::-1]),
    "eq": (lambda a, b: (a == b).astype(np.float64), ANY, np.round(ANY[::-1])),
    "ne": (lambda a, b: (a != b).astype(np.float64), ANY, np.round(ANY[::-1])),
    "lt": (lambda a, b: (a < b).astype(np.float64), ANY, np.round(ANY[::-1])),
    "le": (lambda a, b: (a <= b).astype(np.float64), ANY, np.round(ANY[::-1])),
    "gt": (lambda a, b: (a > b).astype(np.float64), ANY, np.round(ANY[::-1])),
    "ge": (lambda a, b: (a >= b).astype(np.float64), ANY, np.round(ANY[::-1])),
}


def fp32(values) -> torch.Tensor:
    return torch.tensor(np.array(values), dtype=torch.float32)


def check(actual: torch.Tensor, expected: np.ndarray) -> None:
    assert actual.dtype == torch.float32
    np.testing.assert_allclose(actual.double().numpy(), expected, rtol=2e-5, atol=2e-6, equal_nan=True)


def test_every_op_has_a_reference():
    assert set(UNARY_REFERENCE) == set(tm.UNARY)
    assert set(UNARY_PARAM_REFERENCE) == set(tm.UNARY_PARAM)
    assert set(BINARY_REFERENCE) == set(tm.BINARY)


def test_published_ttl_math_names_are_all_there():
    # the published spelling logp1 reaches the simulator as log1p (the IR resolves aliases)
    published = (
        "abs neg exp exp2 expm1 log log1p sqrt square rsqrt recip tan tanh atan atanh sin asin asinh cos acos "
        "acosh relu sigmoid gelu silu softsign hardsigmoid selu floor ceil frac trunc sign signbit"
    ).split()
    assert set(published) <= set(tm.UNARY)
    assert {"max", "min", "gt", "lt", "eq", "ne"} <= set(tm.BINARY)
    params = "rsub relu_max relu_min leaky_relu elu celu prelu softplus hardtanh round clamp threshold".split()
    assert set(params) <= set(tm.UNARY_PARAM)


@pytest.mark.parametrize("name", sorted(UNARY_REFERENCE))
def test_unary(name):
    reference, sample = UNARY_REFERENCE[name]
    x = fp32(sample)
    # compare with the reference evaluated on the fp32 inputs, in float64
    check(tm.UNARY[name](x), reference(x.double().numpy()))


@pytest.mark.parametrize("name", sorted(UNARY_PARAM_REFERENCE))
def test_unary_param(name):
    params, reference = UNARY_PARAM_REFERENCE[name]
    x = fp32(ANY * 2)
    check(tm.UNARY_PARAM[name](x, *params), reference(x.double().numpy(), *params))


@pytest.mark.parametrize("name", sorted(BINARY_REFERENCE))
def test_binary(name):
    reference, a, b = BINARY_REFERENCE[name]
    ta, tb = fp32(a), fp32(b)
    check(tm.BINARY[name](ta, tb), reference(ta.double().numpy(), tb.double().numpy()))


@pytest.mark.parametrize("name", ["silu", "gelu", "selu", "mish", "hardsigmoid", "hardswish", "frac", "exp"])
def test_functions_of_integers_compute_in_fp32(name):
    """torch has no integer kernel for most of these; docs/numerics.md: the result is fp32."""
    x = torch.arange(-4, 5, dtype=torch.int64)
    got = tm.UNARY[name](x)
    assert got.dtype == torch.float32
    assert torch.equal(got, tm.UNARY[name](x.to(torch.float32)))


@pytest.mark.parametrize("name, params", [("leaky_relu", (0.5,)), ("prelu", (0.25,)), ("elu", (1.0,)),
                                          ("round", (0,))])
def test_parameterised_functions_of_integers_compute_in_fp32(name, params):
    x = torch.arange(-4, 5, dtype=torch.int64)
    got = tm.UNARY_PARAM[name](x, *params)
    assert got.dtype == torch.float32
    assert torch.equal(got, tm.UNARY_PARAM[name](x.to(torch.float32), *params))


def test_threshold_follows_the_specification_and_threshold_le_the_hardware():
    # ttl.math.threshold replaces values above the threshold (TT-Lang specification, published
    # simulator); Metalium's threshold_tile, like torch's threshold, replaces values at or below it
    x = fp32([0.0, 1.0, 2.0, float("nan")])
    assert tm.UNARY_PARAM["threshold"](x, 1.0, 9.0)[:3].tolist() == [0.0, 1.0, 9.0]
    assert tm.UNARY_PARAM["threshold_le"](x, 1.0, 9.0)[:3].tolist() == [9.0, 9.0, 2.0]


def test_softplus_uses_the_reciprocal_it_is_given():
    # like the device, which multiplies by beta_reciprocal instead of dividing by beta
    x = fp32([0.0])
    assert tm.UNARY_PARAM["softplus"](x, 1.0, 2.0, 20.0).item() == pytest.approx(2 * math.log(2))


def test_elementwise_ops_keep_batch_dims_and_broadcast_scalars():
    torch.manual_seed(0)
    x = torch.randn(2, 3, 32, 64)
    y = tm.UNARY["exp"](x)
    assert y.shape == x.shape and torch.equal(y[1, 2], tm.UNARY["exp"](x[1, 2]))
    s = tm.BINARY["mul"](x, torch.tensor(2.0))
    assert torch.equal(s, x * 2)
    row = tm.BINARY["max"](x, torch.zeros(1, 64))
    assert torch.equal(row, x.clamp(min=0))


def test_comparisons_of_integers_stay_integer():
    a = torch.tensor([1, 5], dtype=torch.int64)
    out = tm.BINARY["lt"](a, torch.tensor([3, 3]))
    assert out.dtype == torch.int64 and out.tolist() == [1, 0]


def test_where_selects_on_nonzero():
    cond = fp32([1.0, 0.0, -2.0, 0.5])
    assert tm.where(cond, fp32([1, 2, 3, 4]), fp32([-1, -2, -3, -4])).tolist() == [1, -2, 3, 4]


def test_matmul_batched():
    torch.manual_seed(1)
    a, b = torch.randn(3, 64, 32), torch.randn(3, 32, 96)
    out = tm.matmul(a, b)
    assert out.shape == (3, 64, 96)
    np.testing.assert_allclose(out.numpy(), np.matmul(a.double().numpy(), b.double().numpy()), rtol=1e-4, atol=1e-4)


def test_transpose_is_elementwise_over_the_whole_block():
    x = torch.arange(2 * 64 * 96, dtype=torch.float32).reshape(2, 64, 96)
    t = tm.transpose(x)
    assert t.shape == (2, 96, 64)
    assert t[1, 70, 40] == x[1, 40, 70]  # element (40, 70) of tile (1, 2) lands in tile (2, 1)


def test_fill():
    out = tm.fill(2.5, (2, 32, 64))
    assert out.shape == (2, 32, 64) and out.dtype == torch.float32 and bool((out == 2.5).all())


# ---------------------------------------------------------------- reduce


def test_reduce_sum_over_columns_lands_in_column_zero_of_one_tile():
    x = torch.zeros(64, 64)  # 2x2 tiles
    x[3, :] = 1.0  # 64 ones across both tiles of row 3
    x[40, 10] = 5.0
    out = tm.reduce("sum", x, [-1])
    assert out.shape == (64, 32)
    expected = torch.zeros(64, 32)
    expected[3, 0] = 64.0
    expected[40, 0] = 5.0
    assert torch.equal(out, expected)


def test_reduce_max_over_rows_lands_in_row_zero():
    x = torch.full((64, 32), -1.0)
    x[50, 7] = 4.0
    out = tm.reduce("max", x, [-2])
    expected = torch.zeros(32, 32)
    expected[0, :] = -1.0
    expected[0, 7] = 4.0
    assert torch.equal(out, expected)


def test_reduce_scalar_lands_in_element_zero_zero():
    x = torch.arange(64 * 96, dtype=torch.float32).reshape(64, 96)
    out = tm.reduce("sum", x, [-2, -1])
    assert out.shape == (32, 32)
    assert out[0, 0] == x.sum() and out.count_nonzero() == 1


def test_reduce_max_sees_the_padding_zeros():
    # a (32, 1) tensor of negative values padded to a tile: the max along columns is 0
    x = torch.zeros(32, 32)
    x[:, 0] = -3.0
    assert bool((tm.reduce("max", x, [-1])[:, 0] == 0.0).all())


def test_reduce_scaler_uses_element_zero_zero_and_scales_before_reducing():
    x = fp32([[1.0, -2.0] + [-5.0] * 30] * 32)
    scaler = torch.full((32, 32), 99.0)
    scaler[0, 0] = -1.0
    out = tm.reduce("max", x, [-1], scaler=scaler)
    assert out[0, 0] == 5.0  # max(-x), not -max(x)
    assert tm.reduce("sum", x, [-1], scaler=0.5)[0, 0] == 0.5 * x[0].sum()


def test_reduce_keeps_batch_dims():
    torch.manual_seed(2)
    x = torch.randn(4, 32, 64)
    scaler = torch.rand(4, 32, 32)
    out = tm.reduce("sum", x, [-1], scaler=scaler)
    assert out.shape == (4, 32, 32)
    for i in range(4):
        assert torch.equal(out[i], tm.reduce("sum", x[i], [-1], scaler=scaler[i]))


def test_reduce_over_an_outer_grid_dim_keeps_extent_one():
    x = torch.ones(3, 32, 32)  # a rank-3 block of 3x1x1 tiles
    out = tm.reduce("sum", x, [-3])
    assert out.shape == (1, 32, 32) and bool((out == 3.0).all())


def test_reduce_rejects_unknown_kinds_and_bad_dims():
    with pytest.raises(ValueError, match="unknown reduction"):
        tm.reduce("mean", torch.ones(32, 32), [-1])
    with pytest.raises(ValueError):
        tm.reduce("sum", torch.ones(32, 32), [0])
    with pytest.raises(ValueError):
        tm.reduce("sum", torch.ones(32, 32), [])


# ---------------------------------------------------------------- broadcast


def padded_column(values: torch.Tensor) -> torch.Tensor:
    """A (n, 1) tensor in tile layout: (n, 32) with the data in column 0 and junk after it."""
    out = torch.full((values.shape[0], 32), 1000.0)
    out[:, 0] = values
    return out


def test_broadcast_tutorial_a_times_b_plus_c():
    # y = a*b + c with a (128, 1), b (1, 128), c (1, 1): blocks of 4x1, 1x4, 1x1 tiles into 4x4
    a = torch.arange(128, dtype=torch.float32)
    b = torch.arange(128, dtype=torch.float32) * 10
    a_blk = padded_column(a)
    b_blk = padded_column(b).T.contiguous()
    c_blk = torch.full((32, 32), 1000.0)
    c_blk[0, 0] = 5.0
    shape = (128, 128)
    y = tm.BINARY["add"](
        tm.BINARY["mul"](tm.broadcast(a_blk, [-1], shape), tm.broadcast(b_blk, tm.block_dims([0], 2), shape)),
        tm.broadcast(c_blk, [-2, -1], shape),
    )
    assert torch.equal(y, a[:, None] * b[None, :] + 5.0)


def test_broadcast_rows_replicates_row_zero_across_tiles():
    x = torch.zeros(32, 64)
    x[0] = torch.arange(64.0)
    x[1:] = -1.0
    out = tm.broadcast(x, [-2], (96, 64))
    assert out.shape == (96, 64) and torch.equal(out, torch.arange(64.0).expand(96, 64))


def test_broadcast_keeps_batch_dims():
    x = torch.randn(5, 64, 32)
    out = tm.broadcast(x, [-1], (64, 128))
    assert out.shape == (5, 64, 128)
    assert torch.equal(out[3, :, 100], x[3, :, 0])


def test_broadcast_rejects_a_source_wider_than_one_tile_or_mismatched_dims():
    with pytest.raises(ValueError, match="one tile"):
        tm.broadcast(torch.ones(32, 64), [-1], (32, 128))
    with pytest.raises(ValueError, match="keeps dim"):
        tm.broadcast(torch.ones(64, 32), [-1], (32, 128))


def test_block_dims_normalises_python_dims():
    assert tm.block_dims([0], 2) == (-2,)
    assert tm.block_dims([-1, 0], 2) == (-2, -1)
    assert tm.block_dims([1], 3) == (-2,)
    for bad in ([2], [-3], [0, -2], []):
        with pytest.raises(ValueError):
            tm.block_dims(bad, 2)


@pytest.mark.parametrize("name", sorted(tm.UNARY))
def test_unary_results_do_not_depend_on_the_batch_length(name: str) -> None:
    """A value computed in a long batch and alone gives the same bits (the fast and --exact modes
    batch differently); torch's fp32 SIMD and scalar paths of transcendental functions do not."""
    torch.manual_seed(0)
    x = torch.randn(4096) * 3
    fn = tm.UNARY[name]
    whole = fn(x)
    alone = torch.cat([fn(x[i:i + 5]) for i in range(0, 500, 5)])
    assert torch.equal(whole[:500].view(torch.int32), alone.view(torch.int32)) or \
        torch.equal(whole[:500].nan_to_num(), alone.nan_to_num())
