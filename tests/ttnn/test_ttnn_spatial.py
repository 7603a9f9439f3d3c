"""Channels-last image ops (upsample, fold, avg_pool2d, get_conv_output_dim) against torch."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

import tilecraft.ttnn as ttnn

torch.manual_seed(0)
IMAGE = torch.randn(2, 8, 12, 32)  # N, H, W, C


def rows(data: torch.Tensor, dtype=ttnn.float32) -> ttnn.Tensor:
    return ttnn.from_torch(data, dtype=dtype, layout=ttnn.ROW_MAJOR_LAYOUT)


def values(t: ttnn.Tensor) -> torch.Tensor:
    return ttnn.to_torch(t).float()


@pytest.mark.parametrize(("scale", "mode"), [(2, "nearest"), ((2, 3), "nearest"), (2, "bilinear")])
def test_upsample(scale, mode):
    out = ttnn.upsample(rows(IMAGE), scale, mode=mode)
    factor = (scale, scale) if isinstance(scale, int) else scale
    expected = F.interpolate(IMAGE.permute(0, 3, 1, 2), scale_factor=factor, mode=mode).permute(0, 2, 3, 1)
    assert torch.allclose(values(out), expected, atol=1e-6)


def test_fold_puts_each_patch_into_the_channels():
    out = values(ttnn.fold(rows(IMAGE), 2, 4))
    assert out.shape == (2, 4, 3, 32 * 8)
    # output pixel (1, 2) of image 0 holds rows 2..3, columns 8..11, row by row, channels innermost
    assert torch.equal(out[0, 1, 2], IMAGE[0, 2:4, 8:12].reshape(-1))
    transposed = values(ttnn.fold(rows(IMAGE.permute(0, 3, 1, 2).contiguous()), 2, 4, use_transpose_as_fold=True))
    assert torch.equal(transposed, out)


@pytest.mark.parametrize(("kernel", "stride", "padding", "ceil_mode", "include_pad"),
                         [(2, 2, (0, 0), False, True), ((3, 3), (2, 2), (1, 1), True, False),
                          ((3, 3), 1, [1, 1, 1, 1], False, True)])
def test_avg_pool2d_on_flattened_rows(kernel, stride, padding, ceil_mode, include_pad):
    flat = rows(IMAGE.reshape(1, 1, 2 * 8 * 12, 32))
    out = ttnn.avg_pool2d(flat, 2, 8, 12, 32, kernel, stride, padding, ceil_mode, include_pad)
    pad = tuple(padding)[::2] if len(padding) == 4 else padding
    expected = F.avg_pool2d(IMAGE.permute(0, 3, 1, 2), kernel, stride, pad, ceil_mode=ceil_mode,
                            count_include_pad=include_pad).permute(0, 2, 3, 1).reshape(1, 1, -1, 32)
    assert torch.allclose(values(out), expected, atol=1e-6)


def test_get_conv_output_dim():
    assert ttnn.get_conv_output_dim(224, 7, stride=2, pad=3) == 112
    assert ttnn.get_conv_output_dim(56, 3, 1, 1, dilation=2) == 54


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: ttnn.upsample(rows(IMAGE), 2, mode="bicubic"), ValueError, "'nearest' or 'bilinear'"),
    (lambda: ttnn.upsample(rows(IMAGE[0]), 2), ValueError, r"channels-last \[N, H, W, C\]"),
    (lambda: ttnn.fold(rows(IMAGE), 3, 4), ValueError, "must divide the image's height 8"),
    (lambda: ttnn.avg_pool2d(rows(IMAGE.reshape(1, 1, -1, 32)), 2, 8, 10, 32, 2, 2), ValueError, "N\\*H\\*W"),
    (lambda: ttnn.avg_pool2d(rows(IMAGE.reshape(1, 1, -1, 32)), 2, 8, 12, 32, 3, 1, [1, 0, 1, 1]), ValueError,
     "equal padding"),
])
def test_bad_inputs_are_errors_naming_the_problem(call, error, message):
    with pytest.raises(error, match=message):
        call()
