"""Flash attention as a single-threaded operation: the online-softmax loop of
``examples/flash_attention.py`` with no threads, buffers or waits written.

An output block is ``BQ`` tile rows of the result across the whole head (``block=(BQ, None)``);
the blocks are spread over the grid in runs (the contiguous schedule, as the hand-threaded
version spreads them). For each one the body loads the query rows once and walks the key/value
blocks, keeping the running row maximum ``m``, the running sum ``l`` and the rescaled
accumulator ``acc`` in local blocks. A load bound to a name (``k_blk = k[...]``) is held until the
next load of the same statement, so the named expressions built on it (``s``, ``p``) may read it
anywhere in the step. The compiler writes the reader (the query block, then a key and a value
block per step), the compute thread and the writer.

    python examples/single_thread_attention.py [--seq S] [--head D] [--grid C,R]
"""

import argparse
import math

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32
BQ, BK = 1, 2  # query and key/value rows per block, in tiles

options = argparse.ArgumentParser(description="single-head flash attention, single-threaded")
options.add_argument("--seq", type=int, default=4 * TILE, help="sequence length S (a multiple of 64)")
options.add_argument("--head", type=int, default=2 * TILE, help="head size D (a multiple of 32)")
options.add_argument("--grid", default="2,1", help="core grid C,R (the query blocks are shared among its cores)")
config = options.parse_args()
GRID = tuple(int(n) for n in config.grid.split(","))


@ttl.operation(grid=GRID, block=(BQ, None))
def flash_attention(q: ttnn.Tensor, k: ttnn.Tensor, v: ttnn.Tensor, out: ttnn.Tensor) -> None:
    qb, _ = ttl.block_index()
    D = q.shape[1] // TILE
    scale = 1.0 / math.sqrt(q.shape[1])
    q_blk = q[qb * BQ:(qb + 1) * BQ, 0:D]
    m = ttl.block.fill(-1e30, shape=(BQ, 1))
    l = ttl.block.fill(0.0, shape=(BQ, 1))
    acc = ttl.block.fill(0.0, shape=(BQ, D))
    for kb in range(k.shape[0] // TILE // BK):
        k_blk = k[kb * BK:(kb + 1) * BK, 0:D]
        v_blk = v[kb * BK:(kb + 1) * BK, 0:D]
        s = q_blk @ ttl.block.transpose(k_blk) * scale
        m_new = ttl.math.max(m, ttl.math.reduce_max(s, dims=[-1]))
        p = ttl.math.exp(s - ttl.block.broadcast(m_new, dims=[-1], shape=(BQ, BK)))
        alpha = ttl.math.exp(m - m_new)
        l = alpha * l + ttl.math.reduce_sum(p, dims=[-1])
        acc = acc * ttl.block.broadcast(alpha, dims=[-1], shape=(BQ, D)) + p @ v_blk
        m = m_new
    out[qb * BQ:(qb + 1) * BQ, 0:D] = acc * ttl.block.broadcast(ttl.math.recip(l), dims=[-1], shape=(BQ, D))


torch.manual_seed(7)
S, HEAD = config.seq, config.head
q_host, k_host, v_host = (torch.randn(S, HEAD).to(torch.bfloat16) for _ in range(3))
tensors = [ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT) for t in (q_host, k_host, v_host)]
out = ttnn.zeros((S, HEAD), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
flash_attention(*tensors, out)

want = torch.nn.functional.scaled_dot_product_attention(*(t.float()[None] for t in (q_host, k_host, v_host)))[0]
got = ttnn.to_torch(out).float()
# fp32 throughout (local blocks), one rounding to bfloat16 at the end
assert torch.allclose(got, want, rtol=2e-2, atol=1e-2), (got - want).abs().max()
print("single_thread_attention: OK")
