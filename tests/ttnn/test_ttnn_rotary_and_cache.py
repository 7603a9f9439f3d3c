"""Rotary embeddings (ttnn.experimental.rotary_embedding, rotary_embedding_llama) against torch, and
KV-cache writes (ttnn.fill_cache, ttnn.experimental.paged_fill_cache / paged_update_cache)."""

from __future__ import annotations

import pytest
import torch

from tests.ttnn.values import bf16, tile, values
import tilecraft.ttnn as ttnn

torch.manual_seed(0)
X = torch.randn(1, 2, 64, 64)
ANGLES = torch.arange(128)[:, None] * torch.rand(32)[None, :]


def test_rotary_embedding_rotates_halves():
    cos = torch.cat([ANGLES.cos(), ANGLES.cos()], -1)[None, None]
    sin = torch.cat([ANGLES.sin(), ANGLES.sin()], -1)[None, None]
    x = bf16(X)
    expected = x * bf16(cos)[..., :64, :] + torch.cat([-x[..., 32:], x[..., :32]], -1) * bf16(sin)[..., :64, :]
    out = ttnn.experimental.rotary_embedding(tile(X), tile(cos), tile(sin))
    assert torch.allclose(values(out), expected, rtol=2 ** -7, atol=2 ** -7)
    token = ttnn.experimental.rotary_embedding(tile(X[:, :, :1]), tile(cos), tile(sin), 70)
    assert torch.allclose(values(token), x[:, :, :1] * bf16(cos)[..., 70:71, :] + torch.cat(
        [-x[:, :, :1, 32:], x[:, :, :1, :32]], -1) * bf16(sin)[..., 70:71, :], rtol=2 ** -7, atol=2 ** -7)


def test_rotary_embedding_llama_rotates_adjacent_pairs_with_the_transformation_matrix():
    """tt_transformers' layout: each (even, odd) pair rotated by its angle; the 32x32 matrix maps
    x[2i] -> x[2i+1] and x[2i+1] -> -x[2i]."""
    trans = torch.zeros(32, 32)
    trans[torch.arange(0, 32, 2), torch.arange(1, 32, 2)] = 1
    trans[torch.arange(1, 32, 2), torch.arange(0, 32, 2)] = -1
    cos = ANGLES[:64, :, None].cos().expand(64, 32, 2).reshape(64, 64)[None, None]
    sin = ANGLES[:64, :, None].sin().expand(64, 32, 2).reshape(64, 64)[None, None]
    out = ttnn.experimental.rotary_embedding_llama(tile(X), tile(cos), tile(sin), tile(trans))
    pairs = torch.view_as_complex(bf16(X).reshape(1, 2, 64, 32, 2).contiguous())
    rotated = torch.view_as_real(pairs * torch.polar(torch.ones(64, 32), ANGLES[:64])).reshape(1, 2, 64, 64)
    assert torch.allclose(values(out), rotated, rtol=2 ** -6, atol=2 ** -6)


def test_fill_cache_writes_one_users_prompt():
    cache = tile(torch.zeros(3, 2, 128, 64))
    ttnn.fill_cache(cache, tile(X), batch_idx=1)
    held = values(cache)
    assert torch.equal(held[1, :, :64], bf16(X[0])) and not held[[0, 2]].any() and not held[1, :, 64:].any()


def test_paged_fill_and_update_follow_the_page_table():
    cache = tile(torch.zeros(6, 2, 32, 64))  # 6 blocks of 32 positions
    table = ttnn.from_torch(torch.tensor([[4, 1], [0, 5]], dtype=torch.int32), dtype=ttnn.int32)
    ttnn.experimental.paged_fill_cache(cache, tile(X[:, :, :40]), table, batch_idx=0)
    held = values(cache)
    assert torch.equal(held[4], bf16(X[0, :, :32])) and torch.equal(held[1, :, :8], bf16(X[0, :, 32:40]))
    tokens = torch.randn(1, 2, 32, 64)  # [1, users, heads padded to 32, d]
    ttnn.experimental.paged_update_cache(cache, tile(tokens), update_idxs=[40, 33], page_table=table)
    held = values(cache)
    assert torch.equal(held[1, :, 8], bf16(tokens[0, 0, :2])) and torch.equal(held[5, :, 1], bf16(tokens[0, 1, :2]))


def test_update_cache_without_a_page_table_and_skipped_users():
    cache = tile(torch.zeros(2, 2, 64, 64))
    tokens = torch.randn(1, 2, 32, 64)
    ttnn.experimental.paged_update_cache(cache, tile(tokens), update_idxs=[7, -1])
    held = values(cache)
    assert torch.equal(held[0, :, 7], bf16(tokens[0, 0, :2])) and not held[1].any()


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: ttnn.experimental.rotary_embedding(tile(X), tile(torch.ones(1, 1, 32, 64)), tile(torch.ones(1, 1, 32, 64))),
     ValueError, "cover its 64 positions"),
    (lambda: ttnn.experimental.rotary_embedding_llama(tile(X), tile(torch.ones(1, 1, 64, 64)),
                                                      tile(torch.ones(1, 1, 64, 64)), tile(torch.ones(16, 16))),
     ValueError, "one 32x32 tile"),
    (lambda: ttnn.experimental.rotary_embedding_llama(tile(X), tile(X), tile(X), tile(torch.eye(32)), True),
     ValueError, "is_decode_mode=True"),
    (lambda: ttnn.fill_cache(tile(torch.zeros(3, 2, 32, 64)), tile(X), batch_idx=0), ValueError, "does not fit"),
    (lambda: ttnn.fill_cache(tile(torch.zeros(3, 2, 128, 64)), tile(X), batch_idx=3), ValueError, "outside the cache's 3 users"),
    (lambda: ttnn.experimental.paged_update_cache(tile(torch.zeros(2, 2, 64, 64)), tile(torch.randn(1, 2, 32, 64)),
                                                  update_idxs=[64, 0]), ValueError, "position 64 is outside"),
    (lambda: ttnn.experimental.paged_fill_cache(tile(torch.zeros(2, 2, 32, 64)), tile(X),
                                                ttnn.from_torch(torch.tensor([[0, 9]], dtype=torch.int32),
                                                                dtype=ttnn.int32)), ValueError, "names block 9"),
])
def test_bad_inputs_are_errors_naming_the_problem(call, error, message):
    with pytest.raises(error, match=message):
        call()
