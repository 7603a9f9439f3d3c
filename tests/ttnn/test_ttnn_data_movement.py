"""Ops that rearrange values (permute, concat, slice, split, pad, unsqueeze, view), move them between
placements and layouts (interleaved_to_sharded, sharded_to_interleaved, reshard, tilize, untilize,
copy), and embedding: exact results against torch, and ttnn's errors for bad shapes and placements."""

from __future__ import annotations

import pytest
import torch

from tests.ttnn.values import bf16, tile, values
import tilecraft.ttnn as ttnn

torch.manual_seed(0)
X = torch.randn(2, 3, 40, 64)


def test_permute():
    out = ttnn.permute(tile(X), (0, 2, 1, 3))
    assert tuple(out.shape) == (2, 40, 3, 64) and torch.equal(values(out), bf16(X).permute(0, 2, 1, 3))
    assert torch.equal(values(ttnn.permute(tile(X), (-1, 0, 1, 2))), bf16(X).permute(3, 0, 1, 2))


def test_concat_and_split_are_inverse():
    a, b = X[:, :, :8], X[:, :, 8:]
    joined = ttnn.concat([tile(a), tile(b)], dim=2)
    assert torch.equal(values(joined), bf16(X))
    pieces = ttnn.split(tile(X), 16, dim=3)
    assert [tuple(p.shape) for p in pieces] == [(2, 3, 40, 16)] * 4
    assert torch.equal(torch.cat([values(p) for p in pieces], 3), bf16(X))
    uneven = ttnn.split(tile(X), [8, 32], dim=-2)
    assert [p.shape[2] for p in uneven] == [8, 32] and torch.equal(values(uneven[1]), bf16(X[:, :, 8:]))


def test_slice_with_steps_and_negative_bounds():
    out = ttnn.slice(tile(X), [0, 1, 4, 0], [2, 3, -4, 64], [1, 1, 2, 3])
    assert torch.equal(values(out), bf16(X)[0:2, 1:3, 4:36:2, 0:64:3])


def test_pad_trailing_dims():
    out = ttnn.pad(tile(X), [(0, 0), (0, 24), (1, 31)], value=-1.5)
    assert tuple(out.shape) == (2, 3, 64, 96)
    assert torch.equal(values(out), torch.nn.functional.pad(bf16(X), (1, 31, 0, 24), value=-1.5))


def test_unsqueeze_unsqueeze_to_4d_and_view():
    x = tile(X[0, 0])
    assert tuple(ttnn.unsqueeze(x, 0).shape) == (1, 40, 64) and tuple(ttnn.unsqueeze(x, -1).shape) == (40, 64, 1)
    assert tuple(ttnn.unsqueeze_to_4D(x).shape) == (1, 1, 40, 64)
    assert torch.equal(values(ttnn.view(x, (1, 2560))), bf16(X[0, 0]).reshape(1, 2560))


def test_tilize_and_untilize_change_the_layout_only():
    rows = ttnn.from_torch(X, dtype=ttnn.bfloat16, layout=ttnn.ROW_MAJOR_LAYOUT)
    tiled = ttnn.tilize(rows)
    assert tiled.layout is ttnn.TILE_LAYOUT and torch.equal(values(tiled), bf16(X))
    back = ttnn.untilize(tiled)
    assert back.layout is ttnn.ROW_MAJOR_LAYOUT and torch.equal(values(back), bf16(X))


def test_sharding_round_trip_keeps_values_and_records_the_placement():
    device = ttnn.open_device(device_id=0)
    try:
        x = tile(X[0, 0], device=device)
        height = ttnn.create_sharded_memory_config((40, 64), ttnn.CoreGrid(y=1, x=2), ttnn.ShardStrategy.HEIGHT)
        sharded = ttnn.interleaved_to_sharded(x, height)
        assert ttnn.is_sharded(sharded) and torch.equal(values(sharded), bf16(X[0, 0]))
        width = ttnn.create_sharded_memory_config_((40, 64), ttnn.CoreGrid(y=1, x=2), ttnn.ShardStrategy.WIDTH)
        moved = ttnn.reshard(sharded, width)
        assert ttnn.get_memory_config(moved) == width
        back = ttnn.sharded_to_interleaved(moved, ttnn.L1_MEMORY_CONFIG)
        assert not ttnn.is_sharded(back) and torch.equal(values(back), bf16(X[0, 0]))
    finally:
        ttnn.close_device(device)


def test_copy_rounds_into_the_target():
    target = tile(torch.zeros(40, 64), dtype=ttnn.bfloat8_b)
    ttnn.copy(tile(X[0, 0], dtype=ttnn.float32), target)
    assert torch.allclose(values(target), X[0, 0], atol=0.05, rtol=2 ** -6)


def test_embedding_picks_rows_and_zeroes_padding():
    table = torch.randn(10, 64)
    ids = torch.tensor([[1, 4, 9, 0]], dtype=torch.int32)
    tt_ids = ttnn.from_torch(ids, dtype=ttnn.uint32, layout=ttnn.ROW_MAJOR_LAYOUT)
    out = ttnn.embedding(tt_ids, tile(table))
    assert tuple(out.shape) == (1, 4, 64) and out.layout is ttnn.ROW_MAJOR_LAYOUT
    assert torch.equal(values(out), bf16(table)[ids.long()])
    padded = ttnn.embedding(tt_ids, tile(table), padding_idx=4, layout=ttnn.TILE_LAYOUT)
    assert padded.layout is ttnn.TILE_LAYOUT and torch.equal(values(padded)[0, 1], torch.zeros(64))


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: ttnn.permute(tile(X), (0, 1, 1, 3)), ValueError, r"ttnn.permute: dims \[0, 1, 1, 3\] are not a permutation"),
    (lambda: ttnn.concat([tile(X), tile(X[:, :2, :8])], dim=1), ValueError, "differ outside dim 1"),
    (lambda: ttnn.concat([tile(X), tile(X, dtype=ttnn.float32)], dim=0), ValueError, "share dtype and layout"),
    (lambda: ttnn.concat(tile(X)), TypeError, "non-empty list"),
    (lambda: ttnn.slice(tile(X), [0, 0, 0, 0], [2, 3, 41, 64]), ValueError, r"\[0:41\] is outside dim 2"),
    (lambda: ttnn.slice(tile(X), [0, 0], [2, 3]), ValueError, "one start, end and step per dim"),
    (lambda: ttnn.split(tile(X), [8, 8], dim=2), ValueError, "add up to 16"),
    (lambda: ttnn.pad(tile(X), [(0, -1)], value=0.0), ValueError, "non-negative"),
    (lambda: ttnn.unsqueeze_to_4D(tile(X.reshape(1, 2, 3, 40, 64))), ValueError, "already has rank 5"),
    (lambda: ttnn.tilize(tile(X)), ValueError, "already in tile layout"),
    (lambda: ttnn.untilize(tile(X, dtype=ttnn.bfloat8_b)), ValueError, "exists only in tile layout"),
    (lambda: ttnn.sharded_to_interleaved(tile(X)), ValueError, "the input is not sharded"),
    (lambda: ttnn.interleaved_to_sharded(tile(X[0, 0]), ttnn.create_sharded_memory_config(
        (8, 64), ttnn.CoreGrid(y=1, x=2), ttnn.ShardStrategy.HEIGHT)), ValueError, "do not hold a tensor of shape"),
    (lambda: ttnn.interleaved_to_sharded(tile(X[0, 0]), ttnn.L1_MEMORY_CONFIG), ValueError, "needs a sharded"),
    (lambda: ttnn.embedding(ttnn.from_torch(torch.tensor([[3, 12]], dtype=torch.int32), dtype=ttnn.uint32),
                            tile(torch.randn(10, 64))), ValueError, "id 12 is outside the table's 10 rows"),
    (lambda: ttnn.embedding(tile(torch.ones(1, 2), dtype=ttnn.float32), tile(torch.randn(10, 64))), ValueError,
     "uint32"),
])
def test_bad_inputs_are_errors_naming_the_problem(call, error, message):
    with pytest.raises(error, match=message):
        call()
