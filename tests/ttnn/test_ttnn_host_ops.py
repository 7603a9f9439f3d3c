"""The host ops the conformance sweep found missing: squeeze, repeat, pow / floor_div / remainder and
the Tensor operators bound to them, to_memory_config and the memory / device queries."""

from __future__ import annotations

import pytest
import torch

import tilecraft.ttnn as ttnn
from tilecraft.ttnn import ops


def tile(data: torch.Tensor, dtype=ttnn.bfloat16) -> ttnn.Tensor:
    return ttnn.from_torch(data, dtype=dtype, layout=ttnn.TILE_LAYOUT)


@pytest.mark.parametrize(("shape", "dim", "expected"), [
    ((1, 40, 1, 70), None, (40, 70)), ((1, 40, 70), 0, (40, 70)), ((1, 40, 70), -3, (40, 70)),
    ((1, 40, 70), 1, (1, 40, 70)),  # a dim that is not 1 stays, as in torch
])
def test_squeeze_drops_unit_dims(shape, dim, expected):
    data = torch.randn(shape)
    result = ttnn.squeeze(tile(data), dim)
    assert result.shape == expected and result.layout is ttnn.TILE_LAYOUT and result.dtype is ttnn.bfloat16
    assert torch.equal(ttnn.to_torch(result), data.to(torch.bfloat16).reshape(expected))


def test_squeeze_rejects_a_dim_out_of_range_and_a_non_int_dim():
    with pytest.raises(ValueError, match=r"ttnn.squeeze: dim 3 is out of range for a tensor of rank 3"):
        ttnn.squeeze(tile(torch.ones(1, 32, 32)), 3)
    with pytest.raises(TypeError, match="dim is an int or None"):
        ttnn.squeeze(tile(torch.ones(1, 32, 32)), 0.0)


def test_repeat_tiles_like_torch_and_prepends_dims():
    data = torch.randn(2, 40, 33)
    result = ttnn.repeat(tile(data, ttnn.float32), (2, 1, 3))
    assert result.shape == (4, 40, 99)
    assert torch.equal(ttnn.to_torch(result), data.repeat(2, 1, 3))
    assert ttnn.repeat(tile(torch.ones(32, 32)), [3, 1, 2]).shape == (3, 32, 64)


def test_repeat_rejects_too_few_or_negative_counts():
    with pytest.raises(ValueError, match=r"2 repeat counts \[1, 2\] for a tensor of rank 3"):
        ttnn.repeat(tile(torch.ones(1, 32, 32)), (1, 2))
    with pytest.raises(ValueError, match="non-negative"):
        ttnn.repeat(tile(torch.ones(32, 32)), (1, -1))
    with pytest.raises(TypeError, match="one repeat count per dim"):
        ttnn.repeat(tile(torch.ones(32, 32)), 2)


A = torch.tensor([[3.0, -7.0, 5.5, -0.5]]).repeat(8, 8)
B = torch.tensor([[2.0, 2.0, -2.0, 0.25]]).repeat(8, 8)


@pytest.mark.parametrize(("op", "reference"), [
    (ttnn.pow, torch.pow), (ttnn.floor_div, torch.floor_divide), (ttnn.remainder, torch.remainder),
    (lambda a, b: a ** b, torch.pow), (lambda a, b: a // b, torch.floor_divide), (lambda a, b: a % b, torch.remainder),
], ids=["pow", "floor_div", "remainder", "**", "//", "%"])
def test_binary_ops_and_operators_match_torch(op, reference):
    result = op(tile(A.abs(), ttnn.float32), tile(B, ttnn.float32)) if reference is torch.pow else \
        op(tile(A, ttnn.float32), tile(B, ttnn.float32))
    base = A.abs() if reference is torch.pow else A
    assert torch.equal(ttnn.to_torch(result), reference(base, B))


def test_remainder_and_floor_div_follow_pythons_signs():
    a, b = tile(torch.full((32, 32), -7.0), ttnn.float32), tile(torch.full((32, 32), 2.0), ttnn.float32)
    assert ttnn.to_torch(a // b)[0, 0].item() == -7.0 // 2.0 == -4.0
    assert ttnn.to_torch(a % b)[0, 0].item() == -7.0 % 2.0 == 1.0


def test_operators_with_numbers_and_abs():
    a = tile(A, ttnn.float32)
    assert torch.equal(ttnn.to_torch(a ** 2), A ** 2)
    assert torch.equal(ttnn.to_torch(2 ** tile(B, ttnn.float32)), 2 ** B)
    assert torch.equal(ttnn.to_torch(10 // a), torch.floor_divide(torch.full_like(A, 10.0), A))
    assert torch.equal(ttnn.to_torch(10 % a), torch.remainder(torch.full_like(A, 10.0), A))
    assert torch.equal(ttnn.to_torch(abs(a)), A.abs())


def test_pow_result_rounds_once_to_bfloat16():
    a = tile(torch.full((32, 32), 1.5))
    result = a ** 3
    assert result.dtype is ttnn.bfloat16
    assert ttnn.to_torch(result)[0, 0].item() == 3.375  # exact in bf16: 1.5**3


def test_to_memory_config_moves_and_keeps_values():
    data = torch.randn(64, 32)
    t = tile(data)
    moved = ttnn.to_memory_config(t, ttnn.L1_MEMORY_CONFIG)
    assert ttnn.get_memory_config(t) == ttnn.DRAM_MEMORY_CONFIG
    assert ttnn.get_memory_config(moved) == ttnn.L1_MEMORY_CONFIG
    assert torch.equal(ttnn.to_torch(moved), ttnn.to_torch(t))
    with pytest.raises(TypeError, match="needs the memory config"):
        ttnn.to_memory_config(t, None)


def test_is_sharded_reads_the_memory_layout():
    cores = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(0, 1))])
    config = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1,
                               ttnn.ShardSpec(cores, (32, 64), ttnn.ShardOrientation.ROW_MAJOR))
    sharded = ttnn.from_torch(torch.ones(64, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT,
                              memory_config=config)
    assert ttnn.is_sharded(sharded) and not ttnn.is_sharded(tile(torch.ones(32, 32)))
    with pytest.raises(TypeError, match="ttnn.is_sharded takes a ttnn.Tensor, got torch.Tensor"):
        ttnn.is_sharded(torch.ones(2))


def test_synchronize_device_checks_its_device():
    device = ttnn.open_device(device_id=0)
    ttnn.synchronize_device(device)
    ttnn.close_device(device)
    with pytest.raises(RuntimeError, match="is closed"):
        ttnn.synchronize_device(device)
    with pytest.raises(TypeError, match="takes a device or mesh device"):
        ttnn.synchronize_device("device 0")


def test_new_ops_are_primitives_with_shape_rules():
    t = ttnn.TensorType(ttnn.Shape([1, 64, 1]), ttnn.bfloat16, ttnn.TILE_LAYOUT)
    assert ops.squeeze_p.result_type(t, dim=None).shape == (64,)
    assert ops.repeat_p.result_type(t, repeats=(2, 1, 1, 3)).shape == (2, 1, 64, 3)
    assert ops.remainder_p.result_type(t, 2.0) == t


def test_tile_shape_is_the_tile_size_twice():
    assert ttnn.TILE_SHAPE == (ttnn.TILE_SIZE, ttnn.TILE_SIZE) == (32, 32)
