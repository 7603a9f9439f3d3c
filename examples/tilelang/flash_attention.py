"""Flash attention in TileLang's spelling on tilecraft (one head, after TileLang's
``example_mha_fwd``): online softmax over key/value blocks in a ``T.Pipelined`` loop, scores with
``T.gemm(..., transpose_B=True)``, the running maximum with ``T.reduce_max(..., clear=False)``, the
rescaling in ``T.Parallel`` bodies over per-row fragments.

Each program instance of ``T.Kernel`` takes ``block_M`` query rows; tilecraft translates the prim_func
into a single-threaded operation (docs/tilelang.md). Checked against
``torch.nn.functional.scaled_dot_product_attention``.
"""

import torch

import tilecraft.tilelang as T
from tilecraft.tilelang import jit


@jit(out_idx=[-1])
def flash_attention(seq_len, dim, block_M, block_N, dtype="bfloat16", accum_dtype="float"):
    scale = (1.0 / dim) ** 0.5 * 1.44269504  # log2(e): the softmax is taken with exp2

    @T.prim_func
    def attention(Q: T.Tensor((seq_len, dim), dtype), K: T.Tensor((seq_len, dim), dtype),
                  V: T.Tensor((seq_len, dim), dtype), Output: T.Tensor((seq_len, dim), dtype)):
        with T.Kernel(T.ceildiv(seq_len, block_M), threads=128) as bx:
            Q_shared = T.alloc_shared((block_M, dim), dtype)
            K_shared = T.alloc_shared((block_N, dim), dtype)
            V_shared = T.alloc_shared((block_N, dim), dtype)
            acc_s = T.alloc_fragment((block_M, block_N), accum_dtype)
            acc_s_cast = T.alloc_fragment((block_M, block_N), dtype)
            acc_o = T.alloc_fragment((block_M, dim), accum_dtype)
            scores_max = T.alloc_fragment((block_M,), accum_dtype)
            scores_max_prev = T.alloc_fragment((block_M,), accum_dtype)
            scores_scale = T.alloc_fragment((block_M,), accum_dtype)
            scores_sum = T.alloc_fragment((block_M,), accum_dtype)
            logsum = T.alloc_fragment((block_M,), accum_dtype)

            T.copy(Q[bx * block_M, 0], Q_shared)
            T.fill(acc_o, 0)
            T.fill(logsum, 0)
            T.fill(scores_max, -T.infinity(accum_dtype))
            for k in T.Pipelined(T.ceildiv(seq_len, block_N), num_stages=2):
                T.copy(K[k * block_N, 0], K_shared)
                T.clear(acc_s)
                T.gemm(Q_shared, K_shared, acc_s, transpose_B=True)
                T.copy(scores_max, scores_max_prev)
                T.reduce_max(acc_s, scores_max, dim=1, clear=False)
                for i in T.Parallel(block_M):
                    scores_scale[i] = T.exp2(scores_max_prev[i] * scale - scores_max[i] * scale)
                for i, j in T.Parallel(block_M, dim):
                    acc_o[i, j] *= scores_scale[i]
                for i, j in T.Parallel(block_M, block_N):
                    acc_s[i, j] = T.exp2(acc_s[i, j] * scale - scores_max[i] * scale)
                T.copy(acc_s, acc_s_cast)
                T.copy(V[k * block_N, 0], V_shared)
                T.gemm(acc_s_cast, V_shared, acc_o)
                T.reduce_sum(acc_s, scores_sum, dim=1)
                for i in T.Parallel(block_M):
                    logsum[i] = logsum[i] * scores_scale[i] + scores_sum[i]
            for i, j in T.Parallel(block_M, dim):
                acc_o[i, j] /= logsum[i]
            T.copy(acc_o, Output[bx * block_M, 0])

    return attention


SEQ, DIM = 128, 64
kernel = flash_attention(SEQ, DIM, 32, 64)
torch.manual_seed(7)
q, k, v = (torch.randn(SEQ, DIM).to(torch.bfloat16) for _ in range(3))
out = kernel(q, k, v)

want = torch.nn.functional.scaled_dot_product_attention(q.float()[None], k.float()[None], v.float()[None])[0]
assert torch.allclose(out.float(), want, rtol=3e-2, atol=3e-2), (out.float() - want).abs().max()
print("tilelang flash_attention: OK")
