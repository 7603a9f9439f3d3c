"""argmax, topk and the softmax forms (numeric_stable, in place, scaled and masked) against torch."""

from __future__ import annotations

import pytest
import torch

from tests.ttnn.values import bf16, rows, tile, values
import tilecraft.ttnn as ttnn

torch.manual_seed(0)
X = torch.randn(2, 40, 70)


@pytest.mark.parametrize(("dim", "keepdim"), [(-1, False), (1, True), (None, False), (None, True)])
def test_argmax(dim, keepdim):
    x = torch.randperm(2 * 40 * 70).reshape(2, 40, 70).float()  # distinct values: one answer
    out = ttnn.argmax(rows(x, ttnn.float32), dim=dim, keepdim=keepdim)
    assert out.dtype is ttnn.uint32
    expected = torch.argmax(x.reshape(-1)) if dim is None else torch.argmax(x, dim=dim, keepdim=keepdim)
    if dim is None and keepdim:
        expected = expected.reshape(1, 1, 1)
    assert torch.equal(ttnn.to_torch(out).long(), expected)


def test_topk_values_and_positions():
    x = torch.randperm(2 * 40 * 64).reshape(2, 40, 64).float()
    top, where = ttnn.topk(tile(x, ttnn.float32), 5)
    expected = torch.topk(x, 5)
    assert torch.equal(values(top), expected.values) and where.dtype is ttnn.uint16
    assert torch.equal(ttnn.to_torch(where).long(), expected.indices)
    low, _ = ttnn.topk(tile(x, ttnn.float32), 3, dim=1, largest=False)
    assert torch.equal(values(low), torch.topk(x, 3, dim=1, largest=False).values)


def test_softmax_is_stable_by_default_and_overflows_without_it():
    big = X * 60
    stable = ttnn.softmax(tile(big, ttnn.float32), compute_kernel_config=ttnn.WormholeComputeKernelConfig())
    assert torch.allclose(values(stable), torch.softmax(big, -1), atol=1e-6)
    assert torch.isnan(values(ttnn.softmax(tile(big, ttnn.float32), numeric_stable=False))).any()


def test_softmax_in_place_and_scale_mask_softmax_in_place():
    x = tile(X)
    assert ttnn.softmax_in_place(x) is x
    assert torch.allclose(values(x), torch.softmax(bf16(X), -1), rtol=2 ** -7, atol=2 ** -9)
    scores, mask = tile(X[:, :, :64]), torch.zeros(1, 40, 64).masked_fill(torch.rand(40, 64) > 0.5, -1e4)
    assert ttnn.scale_mask_softmax_in_place(scores, 0.5, tile(mask)) is scores
    expected = torch.softmax(bf16(X[:, :, :64]) * 0.5 + bf16(mask), -1)
    assert torch.allclose(values(scores), expected, rtol=2 ** -7, atol=2 ** -9)


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: ttnn.argmax(tile(X)), ValueError, "ttnn.argmax: the input must be row-major"),
    (lambda: ttnn.argmax(rows(X), dim=3), ValueError, "dim 3 is out of range"),
    (lambda: ttnn.topk(tile(X), 71), ValueError, r"k=71 must be in \[1, 70\]"),
    (lambda: ttnn.scale_mask_softmax_in_place(tile(X), 1.0, tile(torch.zeros(3, 40, 70))), ValueError,
     r"shapes Shape\(\[3, 40, 70\]\) and Shape\(\[2, 40, 70\]\) do not broadcast"),
    (lambda: ttnn.softmax(tile(X), compute_kernel_config="HiFi4"), TypeError, "compute_kernel_config must be"),
])
def test_bad_inputs_are_errors_naming_the_problem(call, error, message):
    with pytest.raises(error, match=message):
        call()
