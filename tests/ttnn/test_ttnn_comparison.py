"""Selection, comparison and in-place ops (tilecraft/ttnn/ops/comparison.py, inplace.py) against torch."""

from __future__ import annotations

import pytest
import torch

from tests.ttnn.values import bf16, tile, values
import tilecraft.ttnn as ttnn

torch.manual_seed(0)
X, Y = torch.randn(40, 70), torch.randn(40, 70)


BINARY = [
    (ttnn.maximum, torch.maximum), (ttnn.minimum, torch.minimum),
    (ttnn.gt, lambda a, b: (a > b).float()), (ttnn.lt, lambda a, b: (a < b).float()),
    (ttnn.ge, lambda a, b: (a >= b).float()), (ttnn.le, lambda a, b: (a <= b).float()),
    (ttnn.eq, lambda a, b: (a == b).float()), (ttnn.ne, lambda a, b: (a != b).float()),
    (ttnn.logical_and, lambda a, b: ((a != 0) & (b != 0)).float()),
    (ttnn.logical_or, lambda a, b: ((a != 0) | (b != 0)).float()),
]


@pytest.mark.parametrize(("op", "reference"), BINARY, ids=[b[0].__name__ for b in BINARY])
def test_binary_ops_match_torch_exactly_with_tensors_numbers_and_broadcasting(op, reference):
    """Selection and comparison compute no new values: the results are exact."""
    y = Y.clone()
    y[::3] = X[::3]  # equal entries, so that eq/ne/ge/le see ties
    y[::5] = 0  # zeros for the logical ops
    assert torch.equal(values(op(tile(X), tile(y))), reference(bf16(X), bf16(y)))
    assert torch.equal(values(op(tile(X), 0.5)), reference(bf16(X), torch.tensor(0.5)))
    assert torch.equal(values(op(tile(X[:, :1]), tile(y[:1]))), reference(bf16(X[:, :1]), bf16(y[:1])))


def test_comparisons_return_ones_and_zeros_in_the_input_dtype():
    result = ttnn.gt(tile(torch.arange(64.0).reshape(2, 32), ttnn.float32), 10)
    assert result.dtype is ttnn.float32 and set(values(result).unique().tolist()) == {0.0, 1.0}


def test_logical_not():
    x = torch.tensor([[0.0, 1.5, -2.0, 0.0]])
    assert torch.equal(values(ttnn.logical_not(tile(x))), torch.tensor([[1.0, 0.0, 0.0, 1.0]]))


@pytest.mark.parametrize(("low", "high"), [(-0.5, 0.5), (None, 0.25), (-1.0, None)])
def test_clamp(low, high):
    assert torch.equal(values(ttnn.clamp(tile(X), min=low, max=high)), torch.clamp(bf16(X), low, high))


def test_where_with_tensors_and_numbers():
    condition = (X > 0).float()
    assert torch.equal(values(ttnn.where(tile(condition), tile(X), tile(Y))),
                       torch.where(condition != 0, bf16(X), bf16(Y)))
    assert torch.equal(values(ttnn.where(tile(condition), tile(X), 0.0)), torch.where(condition != 0, bf16(X), 0.0))
    # a causal mask: a row condition broadcast against a square of scores
    mask = tile(torch.tril(torch.ones(32, 32)))
    scores = torch.randn(2, 32, 32)
    assert torch.equal(values(ttnn.where(mask, tile(scores), -1e9)),
                       torch.where(torch.tril(torch.ones(32, 32)) != 0, bf16(scores), bf16(torch.tensor(-1e9))))


def test_in_place_add_and_mul_overwrite_and_return_the_first_operand():
    a = tile(X)
    assert ttnn.add_(a, tile(Y)) is a
    expected = bf16(bf16(X) + bf16(Y))
    assert torch.equal(values(a), expected)
    assert ttnn.mul_(a, 2.0) is a and torch.equal(values(a), bf16(expected * 2))


def test_plus_one_counts_positions_in_place():
    positions = ttnn.from_torch(torch.tensor([[3, -1, 7, 0]], dtype=torch.int32), dtype=ttnn.int32,
                                layout=ttnn.ROW_MAJOR_LAYOUT)
    ttnn.plus_one(positions)
    assert ttnn.to_torch(positions).tolist() == [[4, 0, 8, 1]]
    ttnn.plus_one(positions, skip_negative_entries=True)
    assert ttnn.to_torch(positions).tolist() == [[5, 1, 9, 2]]


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: ttnn.gt(tile(torch.ones(2, 3)), tile(torch.ones(4, 3))), ValueError, r"ttnn.gt: shapes"),
    (lambda: ttnn.where(tile(torch.ones(2, 3)), tile(torch.ones(5, 3)), 0.0), ValueError, "do not broadcast"),
    (lambda: ttnn.clamp(tile(X)), ValueError, "needs min, max or both"),
    (lambda: ttnn.clamp(tile(X), min=1.0, max=0.0), ValueError, "min=1.0 is above max=0.0"),
    (lambda: ttnn.add_(tile(torch.ones(1, 3)), tile(torch.ones(4, 3))), ValueError, "writes into its first operand"),
    (lambda: ttnn.plus_one(tile(X)), ValueError, "int32 or uint32 tensors, got bfloat16"),
    (lambda: ttnn.maximum(X, tile(X)), TypeError, "from_torch"),
])
def test_bad_inputs_are_errors_naming_the_problem(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_preallocated_output_tensors_receive_the_result():
    out = tile(torch.zeros(40, 70))
    assert ttnn.gt(tile(X), 0.0, output_tensor=out) is out and torch.equal(values(out), (bf16(X) > 0).float())
    assert ttnn.add(tile(X), tile(Y), output_tensor=out) is out
    assert torch.equal(values(out), bf16(bf16(X) + bf16(Y)))
    with pytest.raises(ValueError, match="output_tensor is"):
        ttnn.multiply(tile(X), 2.0, output_tensor=tile(torch.zeros(40, 70), dtype=ttnn.float32))
