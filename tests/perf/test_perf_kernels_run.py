"""The kernels the performance model is quoted on compute the right values in the simulator."""

from __future__ import annotations

import torch

import tilecraft.ttnn as ttnn
from benchmarks.perf_kernels import eltwise_stream, matmul_mcast, unary_pipeline


def device_tensor(t: torch.Tensor):
    return ttnn.from_torch(t, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)


def test_multicast_matmul_values():
    torch.manual_seed(3)
    # 5 x 3 blocks of 2 x 2 tiles on a 3 x 2 grid: column 2 and row 1 repeat the last block
    a, b = torch.randn(320, 128), torch.randn(128, 192)
    y = ttnn.zeros((320, 192), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
    matmul_mcast((3, 2), 2, 2, 1)(device_tensor(a), device_tensor(b), y)
    torch.testing.assert_close(ttnn.to_torch(y), a @ b, rtol=1e-4, atol=1e-3)


def test_eltwise_stream_values():
    torch.manual_seed(4)
    a, b = torch.randn(96, 256), torch.randn(96, 256)
    y = ttnn.zeros((96, 256), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
    eltwise_stream((2, 2), (1, 4))(device_tensor(a), device_tensor(b), y)
    torch.testing.assert_close(ttnn.to_torch(y), a + b)


def test_unary_pipeline_values():
    x = torch.linspace(-3, 3, 64 * 128).reshape(64, 128)
    y = ttnn.zeros((64, 128), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
    unary_pipeline(2, 4, "exp")(device_tensor(x), y)
    torch.testing.assert_close(ttnn.to_torch(y), torch.exp(x), rtol=1e-3, atol=1e-3)
