"""Attention and its head reshuffles (ttnn.transformer.*, ttnn.experimental.nlp_*): exact moves,
attention against torch's scaled_dot_product_attention at the kernel's precision, ttnn's errors."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from tests.ttnn.values import bf16, tile, values
import tilecraft.ttnn as ttnn

torch.manual_seed(0)
B, S, NH, NKV, D = 1, 64, 4, 2, 32


FUSED = torch.randn(B, S, (NH + 2 * NKV) * D)


def reference_split(fused: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    heads = fused.reshape(B, S, NH + 2 * NKV, D).permute(0, 2, 1, 3)
    return heads[:, :NH], heads[:, NH:NH + NKV], heads[:, NH + NKV:]


def test_split_heads_and_concatenate_heads():
    q, k, v = ttnn.transformer.split_query_key_value_and_split_heads(tile(FUSED), num_heads=NH, num_kv_heads=NKV)
    rq, rk, rv = reference_split(bf16(FUSED))
    assert torch.equal(values(q), rq) and torch.equal(values(k), rk.transpose(-2, -1)) and torch.equal(values(v), rv)
    joined = ttnn.transformer.concatenate_heads(q)
    assert tuple(joined.shape) == (B, S, NH * D) and torch.equal(values(joined), rq.permute(0, 2, 1, 3).reshape(B, S, -1))


def test_nlp_create_qkv_heads_and_nlp_concat_heads_on_4d_activations():
    q, k, v = ttnn.experimental.nlp_create_qkv_heads(tile(FUSED.unsqueeze(1)), num_heads=NH, num_kv_heads=NKV)
    rq, rk, rv = reference_split(bf16(FUSED))
    assert torch.equal(values(k), rk) and torch.equal(values(v), rv)
    assert torch.equal(values(ttnn.experimental.nlp_concat_heads(q)), rq.permute(0, 2, 1, 3).reshape(B, 1, S, -1))


Q, K, V = torch.randn(B, NH, S, D), torch.randn(B, NKV, S, D), torch.randn(B, NKV, S, D)
EXACT = ttnn.WormholeComputeKernelConfig(math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=True)


def torch_attention(mask=None, causal=True) -> torch.Tensor:
    k, v = bf16(K).repeat_interleave(NH // NKV, 1), bf16(V).repeat_interleave(NH // NKV, 1)
    return F.scaled_dot_product_attention(bf16(Q), k, v, attn_mask=mask, is_causal=causal)


def test_causal_grouped_query_attention_at_full_precision_is_one_rounding():
    out = ttnn.transformer.scaled_dot_product_attention(tile(Q), tile(K), tile(V), compute_kernel_config=EXACT,
                                                        program_config=ttnn.SDPAProgramConfig(q_chunk_size=32,
                                                                                              k_chunk_size=64))
    assert tuple(out.shape) == (B, NH, S, D)
    assert torch.allclose(values(out), torch_attention(), rtol=2 ** -7, atol=2 ** -7)


def test_default_hifi2_with_bfloat16_intermediates_is_close_but_not_exact():
    out = values(ttnn.transformer.scaled_dot_product_attention(tile(Q), tile(K), tile(V)))
    error = (out - torch_attention()).abs()
    assert error.max() > 2 ** -7 and error.max() < 0.1


def test_masked_attention():
    mask = torch.zeros(1, 1, S, S).masked_fill(torch.rand(S, S) > 0.7, float("-inf"))
    mask[..., 0] = 0  # every row sees at least one position
    out = ttnn.transformer.scaled_dot_product_attention(tile(Q), tile(K), tile(V), attn_mask=tile(mask),
                                                        is_causal=False, compute_kernel_config=EXACT, scale=0.2)
    k, v = bf16(K).repeat_interleave(2, 1), bf16(V).repeat_interleave(2, 1)
    expected = F.scaled_dot_product_attention(bf16(Q), k, v, attn_mask=bf16(mask), scale=0.2)
    assert torch.allclose(values(out), expected, rtol=2 ** -7, atol=2 ** -7)


def test_decode_attends_to_each_users_cache_up_to_its_position():
    users, positions = 2, 64
    q = torch.randn(1, users, NH, D)
    k, v = torch.randn(users, NKV, positions, D), torch.randn(users, NKV, positions, D)
    cur_pos = [5, 40]
    out = ttnn.transformer.scaled_dot_product_attention_decode(tile(q), tile(k), tile(v), cur_pos=cur_pos,
                                                               compute_kernel_config=EXACT)
    assert tuple(out.shape) == (1, users, NH, D)
    for user, p in enumerate(cur_pos):
        kk = bf16(k[user, :, :p + 1]).repeat_interleave(2, 0)
        vv = bf16(v[user, :, :p + 1]).repeat_interleave(2, 0)
        expected = F.scaled_dot_product_attention(bf16(q[0, user])[:, None], kk, vv)[:, 0]
        assert torch.allclose(values(out)[0, user], expected, rtol=2 ** -7, atol=2 ** -7)
    positions_tensor = ttnn.from_torch(torch.tensor(cur_pos, dtype=torch.int32), dtype=ttnn.int32)
    again = ttnn.transformer.scaled_dot_product_attention_decode(tile(q), tile(k), tile(v),
                                                                 cur_pos_tensor=positions_tensor,
                                                                 compute_kernel_config=EXACT)
    assert torch.equal(values(again), values(out))


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: ttnn.transformer.scaled_dot_product_attention(tile(Q), tile(K), tile(V), attn_mask=tile(torch.zeros(S, S))),
     ValueError, "mutually exclusive"),
    (lambda: ttnn.transformer.scaled_dot_product_attention(tile(Q), tile(K[..., :16]), tile(V[..., :16])),
     ValueError, "share the head size"),
    (lambda: ttnn.transformer.scaled_dot_product_attention(tile(torch.randn(1, 3, S, D)), tile(K), tile(V)),
     ValueError, "split evenly"),
    (lambda: ttnn.transformer.scaled_dot_product_attention(tile(Q), tile(K[:, :, :32]), tile(V[:, :, :32])),
     ValueError, "causal attention needs as many query as key positions"),
    (lambda: ttnn.SDPAProgramConfig(q_chunk_size=48), ValueError, "multiple of 32"),
    (lambda: ttnn.transformer.scaled_dot_product_attention_decode(tile(torch.randn(1, 2, NH, D)), tile(K.expand(2, -1, -1, -1)),
                                                                  tile(V.expand(2, -1, -1, -1)), cur_pos=[3, 64]),
     ValueError, "within the cache's 64 positions"),
    (lambda: ttnn.transformer.split_query_key_value_and_split_heads(tile(FUSED), num_heads=3, num_kv_heads=2),
     ValueError, "do not share 2 key/value heads evenly|does not split"),
    (lambda: ttnn.experimental.nlp_create_qkv_heads(tile(FUSED), num_heads=NH), ValueError, r"\[b, 1, s, width\]"),
    (lambda: ttnn.transformer.not_an_op, AttributeError, "ttnn.transformer.not_an_op is not a ttnn function"),
])
def test_bad_inputs_are_errors_naming_the_problem(call, error, message):
    with pytest.raises(error, match=message):
        call()


HIFI4 = ttnn.WormholeComputeKernelConfig(math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=True)


def test_attn_matmul_multiplies_each_users_queries_by_its_key():
    a, b = torch.randn(1, 4, 32, 32), torch.randn(32, 1, 32, 64)
    out = ttnn.experimental.attn_matmul(tile(a), tile(b), compute_with_storage_grid_size=ttnn.CoreCoord(8, 8),
                                        compute_kernel_config=HIFI4)
    expected = torch.einsum("hum,umn->hun", bf16(a[0]), bf16(b[:, 0]))[None]
    assert tuple(out.shape) == (1, 4, 32, 64) and torch.allclose(values(out), expected, rtol=2 ** -7, atol=2e-2)


def test_group_attn_matmul_shares_each_kv_head_among_consecutive_query_heads():
    a, b = torch.randn(1, 4, 32, 32), torch.randn(32, 2, 32, 32)
    out = ttnn.experimental.group_attn_matmul(tile(a), tile(b), compute_with_storage_grid_size=ttnn.CoreCoord(8, 8),
                                              compute_kernel_config=HIFI4)
    expected = torch.einsum("hum,uhmn->hun", bf16(a[0]), bf16(b).repeat_interleave(2, dim=1))[None]
    assert torch.allclose(values(out), expected, rtol=2 ** -7, atol=2e-2)
    low = values(ttnn.experimental.group_attn_matmul(tile(a), tile(b), compute_with_storage_grid_size=(8, 8)))
    assert (low - expected).abs().mean() > 4 * (values(out) - expected).abs().mean()  # the LoFi default


@pytest.mark.parametrize(("call", "message"), [
    (lambda: ttnn.experimental.attn_matmul(tile(torch.randn(1, 4, 32, 64)), tile(torch.randn(32, 2, 64, 32)),
                                           compute_with_storage_grid_size=(8, 8)), "one key/value head"),
    (lambda: ttnn.experimental.group_attn_matmul(tile(torch.randn(1, 6, 32, 64)), tile(torch.randn(32, 4, 64, 32)),
                                                 compute_with_storage_grid_size=(8, 8)), "split evenly"),
    (lambda: ttnn.experimental.attn_matmul(tile(torch.randn(2, 4, 32, 64)), tile(torch.randn(32, 1, 64, 32)),
                                           compute_with_storage_grid_size=(8, 8)), "query length"),
    (lambda: ttnn.experimental.attn_matmul(tile(torch.randn(1, 4, 32, 64)), tile(torch.randn(32, 1, 32, 32)),
                                           compute_with_storage_grid_size=(8, 8)), "K .a dim 3, b dim 2. must match"),
])
def test_attn_matmul_shape_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_decode_with_a_sliding_window_attends_to_the_last_positions_only():
    q, k, v = torch.randn(1, 1, NH, D), torch.randn(1, NKV, 64, D), torch.randn(1, NKV, 64, D)
    out = ttnn.transformer.scaled_dot_product_attention_decode(tile(q), tile(k), tile(v), cur_pos=[40],
                                                               sliding_window_size=8, compute_kernel_config=EXACT)
    kk, vv = bf16(k[0, :, 33:41]).repeat_interleave(2, 0), bf16(v[0, :, 33:41]).repeat_interleave(2, 0)
    expected = F.scaled_dot_product_attention(bf16(q[0, 0])[:, None], kk, vv)[:, 0]
    assert torch.allclose(values(out)[0, 0], expected, rtol=2 ** -7, atol=2 ** -7)
