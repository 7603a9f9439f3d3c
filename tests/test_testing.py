"""tilecraft.testing.comp_pcc: the PCC verdict and the message that says where outputs differ."""

from __future__ import annotations

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from tilecraft.testing import WORST_SHOWN, comp_pcc, pcc


def randn(*shape: int) -> torch.Tensor:
    return torch.randn(*shape, generator=torch.Generator().manual_seed(0))


def test_identical_tensors_pass_with_pcc_one():
    x = randn(4, 64)
    assert comp_pcc(x, x.clone(), 0.9999) == (True, "PCC 1.000000 >= 0.9999; the tensors are identical")


def test_bfloat16_rounding_passes_and_the_message_shows_the_largest_errors():
    x = randn(64, 64)
    passed, message = comp_pcc(x, x.to(torch.bfloat16).float(), 0.999)
    assert passed
    assert 0.9999 < pcc(x, x.to(torch.bfloat16).float()) < 1.0 and ">= 0.999;" in message
    assert message.count("golden") == WORST_SHOWN


def test_one_wrong_element_fails_and_is_named_first():
    x = randn(8, 32)
    y = x.clone()
    y[5, 17] = 100.0
    passed, message = comp_pcc(x, y, 0.99)
    assert not passed
    assert "< 0.99" in message
    worst = message.split("most different: ")[1].split(";")[0]
    assert worst == f"[5, 17]: golden {x[5, 17].item():.6g}, got 100"


def test_swapped_rows_fail_and_the_message_points_into_them():
    x = torch.arange(64.0).reshape(8, 8)
    y = x.clone()
    y[[2, 6]] = y[[6, 2]]
    passed, message = comp_pcc(x, y, 0.99)
    assert not passed
    rows = {int(part.split("[")[1].split(",")[0]) for part in message.split("most different: ")[1].split("; ")}
    assert rows <= {2, 6}


def test_nan_on_one_side_fails_with_pcc_zero_and_is_reported():
    x = randn(4, 4)
    y = x.clone()
    y[1, 2] = math.nan
    assert pcc(x, y) == 0.0
    passed, message = comp_pcc(x, y)
    assert not passed
    assert "1 element(s) NaN or infinite on one side only" in message
    assert "[1, 2]:" in message.split("most different: ")[1].split(";")[0]


def test_matching_non_finite_values_agree():
    x = torch.tensor([1.0, math.inf, math.nan, 4.0, -2.0])
    assert pcc(x, x.clone()) == 1.0
    y = x.clone()
    y[0] = 1.5
    assert 0.9 < pcc(x, y) < 1.0  # correlated over the finite elements only


def test_constant_tensors():
    assert pcc(torch.ones(5), torch.ones(5)) == 1.0
    assert pcc(torch.ones(5), torch.full((5,), 2.0)) == 0.0
    assert pcc(torch.ones(5), torch.arange(5.0)) == 0.0


def test_misuse_is_explained():
    with pytest.raises(ValueError, match=r"shapes differ: \(2, 3\) vs \(3, 2\)"):
        comp_pcc(torch.zeros(2, 3), torch.zeros(3, 2))
    with pytest.raises(ValueError, match=r"pcc_threshold must be in \(0, 1\]"):
        comp_pcc(torch.zeros(2), torch.zeros(2), 99)
    with pytest.raises(TypeError, match="ttnn.to_torch"):
        comp_pcc(torch.zeros(2), [0.0, 0.0])


@settings(max_examples=50, deadline=None)
@given(scale=st.floats(0.01, 100.0), shift=st.floats(-100.0, 100.0), seed=st.integers(0, 2**16))
def test_pcc_is_invariant_under_positive_affine_maps_and_flips_sign_under_negative(scale, shift, seed):
    x = torch.randn(256, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)
    assert pcc(x, scale * x + shift) == pytest.approx(1.0, abs=1e-9)
    assert pcc(x, -scale * x + shift) == pytest.approx(-1.0, abs=1e-9)
