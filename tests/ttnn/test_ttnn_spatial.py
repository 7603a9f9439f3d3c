"""Channels-last image ops (upsample, fold, avg_pool2d, get_conv_output_dim) against torch."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from tests.ttnn.values import rows, values
import tilecraft.ttnn as ttnn

torch.manual_seed(0)
IMAGE = torch.randn(2, 8, 12, 32)  # N, H, W, C


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


def conv_reference(image, weight, bias, stride, padding, groups=1):
    out = F.conv2d(image.permute(0, 3, 1, 2), weight, bias, stride=stride, padding=padding, groups=groups)
    return out.permute(0, 2, 3, 1).reshape(1, 1, -1, weight.shape[0])


@pytest.mark.parametrize("groups", [1, 2])
def test_conv2d_on_channels_last_rows_returns_dims_and_weights(groups):
    weight, bias = torch.randn(16, 32 // groups, 3, 3), torch.randn(16)
    flat = rows(IMAGE.reshape(1, 1, -1, 32))
    out, (out_h, out_w), (w, b) = ttnn.conv2d(
        flat, rows(weight), None, 32, 16, 2, 8, 12, (3, 3), (2, 2), (1, 1), groups=groups,
        bias_tensor=rows(bias.reshape(1, 1, 1, 16)), return_output_dim=True, return_weights_and_bias=True,
        conv_config=ttnn.Conv2dConfig(activation="relu", shard_layout=ttnn.TensorMemoryLayout.HEIGHT_SHARDED))
    assert (out_h, out_w) == (4, 6) and tuple(out.shape) == (1, 1, 2 * 4 * 6, 16)
    expected = torch.relu(conv_reference(IMAGE, weight, bias, 2, 1, groups))
    assert torch.allclose(values(out), expected, atol=1e-4)
    again = ttnn.conv2d(rows(IMAGE), w, None, 32, 16, 2, 8, 12, 3, 2, 1, groups=groups, bias_tensor=b)
    assert torch.allclose(values(again), conv_reference(IMAGE, weight, bias, 2, 1, groups), atol=1e-4)


def test_conv2d_with_a_compute_config_multiplies_on_the_matrix_unit():
    weight = torch.randn(16, 32, 3, 3)
    bf = lambda t: ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT)  # noqa: E731
    exact = conv_reference(IMAGE.bfloat16().float(), weight.bfloat16().float(), None, 1, 1)
    hifi4 = ttnn.WormholeComputeKernelConfig(math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=True)
    high = values(ttnn.conv2d(bf(IMAGE), bf(weight), None, 32, 16, 2, 8, 12, 3, 1, 1, compute_config=hifi4))
    low = values(ttnn.conv2d(bf(IMAGE), bf(weight), None, 32, 16, 2, 8, 12, 3, 1, 1,
                             compute_config=ttnn.WormholeComputeKernelConfig(), dtype=ttnn.bfloat16,
                             conv_config=ttnn.Conv2dConfig(weights_dtype=ttnn.bfloat8_b)))
    assert torch.allclose(high, exact, rtol=2 ** -7, atol=0.05)
    assert (low - exact).abs().mean() > 4 * (high - exact).abs().mean()


@pytest.mark.parametrize(("call", "message"), [
    (lambda: ttnn.conv2d(rows(IMAGE), rows(torch.randn(16, 32, 3, 3)), None, 32, 16, 2, 8, 10, 3),
     "is not 2 images of 8x10"),
    (lambda: ttnn.conv2d(rows(IMAGE), rows(torch.randn(16, 32, 5, 5)), None, 32, 16, 2, 8, 12, 3),
     r"must be \[out, in / groups, kh, kw\]"),
    (lambda: ttnn.conv2d(rows(IMAGE), rows(torch.randn(16, 32, 3, 3)), None, 32, 16, 2, 8, 12, 3,
                         bias_tensor=rows(torch.ones(8))), "must hold 16 values"),
])
def test_conv2d_shape_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()
