"""Numerics inside kernels: values are rounded to a buffer's format when they land in it."""

from __future__ import annotations

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn
from tilecraft import dtypes, session
from tilecraft.numerics import quantize


@ttl.kernel(grid=(1, 1))
def scale_into(a, y):
    a_cb = ttl.make_circular_buffer_like(a, shape=(1, 2), buffer_factor=2)
    y_cb = ttl.make_circular_buffer_like(y, shape=(1, 2), buffer_factor=2)

    @ttl.datamovement()
    def reader():
        for r in range(a.shape[0] // 32):
            with a_cb.reserve() as blk:
                ttl.copy(a[r, 0:2], blk).wait()

    @ttl.compute()
    def compute():
        for r in range(a.shape[0] // 32):
            with a_cb.wait() as x, y_cb.reserve() as out:
                out.store(x * 3.0 + 1.0)

    @ttl.datamovement()
    def writer():
        for r in range(a.shape[0] // 32):
            with y_cb.wait() as blk:
                ttl.copy(blk, y[r, 0:2]).wait()

    return ttl.Program(compute, reader, writer)(a, y)


def _run(in_fmt, out_fmt, exact=False):
    torch.manual_seed(0)
    x = torch.randn(64, 64) * 10
    a = ttnn.from_torch(x, dtype=in_fmt, layout=ttnn.TILE_LAYOUT)
    y = ttnn.from_torch(torch.zeros(64, 64), dtype=out_fmt, layout=ttnn.TILE_LAYOUT)
    with session.using(exact=exact):
        scale_into(a, y)
    return x, ttnn.to_torch(y)


def test_bfloat8_b_output_is_quantised_once_from_fp32_math():
    x, got = _run(ttnn.float32, ttnn.bfloat8_b)
    want = quantize(x * 3.0 + 1.0, dtypes.bfloat8_b).to(torch.float32)
    assert torch.equal(got.to(torch.float32), want)


def test_bfloat16_input_rounds_before_math():
    x, got = _run(ttnn.bfloat16, ttnn.float32)
    want = x.to(torch.bfloat16).to(torch.float32) * 3.0 + 1.0
    assert torch.equal(got, want)


def test_exact_mode_gives_identical_bits():
    _, batched = _run(ttnn.bfloat16, ttnn.bfloat8_b)
    _, exact = _run(ttnn.bfloat16, ttnn.bfloat8_b, exact=True)
    assert torch.equal(batched.to(torch.float32), exact.to(torch.float32))
