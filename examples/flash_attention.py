"""Flash attention, written as a Triton user would: one head, online softmax, named expressions.

Each core takes a share of the query blocks (``BQ`` tiles of rows each); for every one it walks
the key/value blocks (``BK`` tiles of rows each), keeping a running row maximum ``m``, a running
sum ``l`` and a rescaled accumulator ``acc`` (local blocks, fp32), exactly as the online-softmax
recurrence is written in Triton:

    s = q @ k^T * scale;  m_new = max(m, rowmax(s));  p = exp(s - m_new)
    alpha = exp(m - m_new);  l = alpha * l + rowsum(p);  acc = acc * alpha + p @ v;  m = m_new

``s``, ``m_new``, ``p`` and ``alpha`` are named expressions used by several statements; the
compiler computes each once per key/value block (docs/emit.md, "Evaluate once").
The result is checked against ``torch.nn.functional.scaled_dot_product_attention``.

    python examples/flash_attention.py [--seq S] [--head D] [--grid C,R]

picks the sequence length and head size (multiples of 32) and the core grid (default: S=128,
D=64 on 2 cores; benchmarks/emit_vs_hand.py times S=2048, D=128 on 8x8 cores).
"""

import argparse
import math

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32
BQ, BK = 1, 2  # query and key/value rows per block, in tiles

options = argparse.ArgumentParser(description="single-head flash attention")
options.add_argument("--seq", type=int, default=4 * TILE, help="sequence length S (a multiple of 64)")
options.add_argument("--head", type=int, default=2 * TILE, help="head size D (a multiple of 32)")
options.add_argument("--grid", default="2,1", help="core grid C,R (the query blocks are shared among its cores)")
config = options.parse_args()
GRID = tuple(int(n) for n in config.grid.split(","))


@ttl.operation(grid=GRID)
def flash_attention(q: ttnn.Tensor, k: ttnn.Tensor, v: ttnn.Tensor, out: ttnn.Tensor) -> None:
    D = q.shape[1] // TILE
    q_blocks = q.shape[0] // TILE // BQ
    kv_blocks = k.shape[0] // TILE // BK
    per_core = -(-q_blocks // ttl.grid_size(dims=1))
    scale = 1.0 / math.sqrt(q.shape[1])

    q_dfb = ttl.make_dataflow_buffer_like(q, shape=(BQ, D), block_count=2)
    k_dfb = ttl.make_dataflow_buffer_like(k, shape=(BK, D), block_count=2)
    v_dfb = ttl.make_dataflow_buffer_like(v, shape=(BK, D), block_count=2)
    o_dfb = ttl.make_dataflow_buffer_like(out, shape=(BQ, D), block_count=2)

    @ttl.datamovement()
    def read():
        first = ttl.node(dims=1) * per_core
        for qb in range(first, min(first + per_core, q_blocks)):
            with q_dfb.reserve() as q_blk:
                ttl.copy(q[qb * BQ:(qb + 1) * BQ, 0:D], q_blk).wait()
            for kb in range(kv_blocks):
                with k_dfb.reserve() as k_blk, v_dfb.reserve() as v_blk:
                    k_xf = ttl.copy(k[kb * BK:(kb + 1) * BK, 0:D], k_blk)
                    v_xf = ttl.copy(v[kb * BK:(kb + 1) * BK, 0:D], v_blk)
                    k_xf.wait()
                    v_xf.wait()

    @ttl.compute()
    def attend():
        first = ttl.node(dims=1) * per_core
        for _ in range(first, min(first + per_core, q_blocks)):
            with q_dfb.wait() as q_blk, o_dfb.reserve() as o_blk:
                m = ttl.block.fill(-1e30, shape=(BQ, 1))
                l = ttl.block.fill(0.0, shape=(BQ, 1))
                acc = ttl.block.fill(0.0, shape=(BQ, D))
                for _ in range(kv_blocks):
                    with k_dfb.wait() as k_blk, v_dfb.wait() as v_blk:
                        s = q_blk @ ttl.block.transpose(k_blk) * scale
                        m_new = ttl.math.max(m, ttl.math.reduce_max(s, dims=[-1]))
                        p = ttl.math.exp(s - ttl.block.broadcast(m_new, dims=[-1], shape=(BQ, BK)))
                        alpha = ttl.math.exp(m - m_new)
                        l = alpha * l + ttl.math.reduce_sum(p, dims=[-1])
                        acc = acc * ttl.block.broadcast(alpha, dims=[-1], shape=(BQ, D)) + p @ v_blk
                        m = m_new
                o_blk.store(acc * ttl.block.broadcast(ttl.math.recip(l), dims=[-1], shape=(BQ, D)))

    @ttl.datamovement()
    def write():
        first = ttl.node(dims=1) * per_core
        for qb in range(first, min(first + per_core, q_blocks)):
            with o_dfb.wait() as o_blk:
                ttl.copy(o_blk, out[qb * BQ:(qb + 1) * BQ, 0:D]).wait()


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
print("flash_attention: OK")
