# Single-head flash attention in the spelling tt-lang-sim 1.1.6 accepts (a benchmark program of
# benchmarks/bench_vs_reference.py; tilecraft runs it unchanged).
#
# The online-softmax recurrence of examples/flash_attention.py, spelled for 1.1.6: the output
# starts from `ttnn.from_torch(torch.zeros(...))` (1.1.6 has no `ttnn.zeros`), the scale is a
# block filled with it (1.1.6 multiplies blocks only by blocks) and the row reductions name their
# result shape. Each node takes a share of the query blocks (BQ tiles of rows) and walks every
# key/value block (BK tiles of rows), keeping a running row maximum `m`, a running sum `l` and
# a rescaled accumulator `acc`:
#
#     s = q @ k^T * scale;  m_new = max(m, rowmax(s));  p = exp(s - m_new)
#     alpha = exp(m - m_new);  l = alpha * l + rowsum(p);  acc = acc * alpha + p @ v;  m = m_new
#
# The host code checks the result against torch's scaled_dot_product_attention in fp32.

import math

import torch
import ttnn

import ttl

TILE_SIZE = 32
BQ = 1  # query rows per block, in tiles
BK = 2  # key/value rows per block, in tiles


def from_torch(tensor: torch.Tensor):
    return ttnn.from_torch(
        tensor,
        dtype=ttnn.bfloat16,
        layout=ttnn.TILE_LAYOUT,
        device=device,
        memory_config=ttnn.DRAM_MEMORY_CONFIG,
    )


@ttl.operation(grid="full")
def flash_attention(q: ttnn.Tensor, k: ttnn.Tensor, v: ttnn.Tensor, out: ttnn.Tensor) -> None:
    head_tiles = q.shape[1] // TILE_SIZE
    q_blocks = q.shape[0] // TILE_SIZE // BQ
    kv_blocks = k.shape[0] // TILE_SIZE // BK
    q_blocks_per_node = -(-q_blocks // ttl.grid_size(dims=1))  # divceil
    scale = 1.0 / math.sqrt(q.shape[1])

    q_dfb = ttl.make_dataflow_buffer_like(q, shape=(BQ, head_tiles), block_count=2)
    k_dfb = ttl.make_dataflow_buffer_like(k, shape=(BK, head_tiles), block_count=2)
    v_dfb = ttl.make_dataflow_buffer_like(v, shape=(BK, head_tiles), block_count=2)
    out_dfb = ttl.make_dataflow_buffer_like(out, shape=(BQ, head_tiles), block_count=2)

    @ttl.datamovement()
    def read():
        first = ttl.node(dims=1) * q_blocks_per_node
        for q_block in range(first, min(first + q_blocks_per_node, q_blocks)):
            with q_dfb.reserve() as q_blk:
                ttl.copy(q[q_block * BQ:(q_block + 1) * BQ, 0:head_tiles], q_blk).wait()
            for kv_block in range(kv_blocks):
                with k_dfb.reserve() as k_blk, v_dfb.reserve() as v_blk:
                    tx_k = ttl.copy(k[kv_block * BK:(kv_block + 1) * BK, 0:head_tiles], k_blk)
                    tx_v = ttl.copy(v[kv_block * BK:(kv_block + 1) * BK, 0:head_tiles], v_blk)
                    tx_k.wait()
                    tx_v.wait()

    @ttl.compute()
    def attend():
        first = ttl.node(dims=1) * q_blocks_per_node
        for _ in range(first, min(first + q_blocks_per_node, q_blocks)):
            with q_dfb.wait() as q_blk, out_dfb.reserve() as out_blk:
                scale_blk = ttl.block.fill(scale, shape=(BQ, BK))
                m = ttl.block.fill(-1e30, shape=(BQ, 1))
                l = ttl.block.fill(0.0, shape=(BQ, 1))
                acc = ttl.block.fill(0.0, shape=(BQ, head_tiles))
                for _ in range(kv_blocks):
                    with k_dfb.wait() as k_blk, v_dfb.wait() as v_blk:
                        s = q_blk @ ttl.block.transpose(k_blk) * scale_blk
                        m_new = ttl.math.max(m, ttl.math.reduce_max(s, dims=[-1], shape=(BQ, 1)))
                        p = ttl.math.exp(s - ttl.block.broadcast(m_new, dims=[-1], shape=(BQ, BK)))
                        alpha = ttl.math.exp(m - m_new)
                        l = alpha * l + ttl.math.reduce_sum(p, dims=[-1], shape=(BQ, 1))
                        acc = acc * ttl.block.broadcast(alpha, dims=[-1], shape=(BQ, head_tiles)) + p @ v_blk
                        m = m_new
                out_blk.store(acc * ttl.block.broadcast(ttl.math.recip(l), dims=[-1], shape=(BQ, head_tiles)))

    @ttl.datamovement()
    def write():
        first = ttl.node(dims=1) * q_blocks_per_node
        for q_block in range(first, min(first + q_blocks_per_node, q_blocks)):
            with out_dfb.wait() as out_blk:
                ttl.copy(out_blk, out[q_block * BQ:(q_block + 1) * BQ, 0:head_tiles]).wait()


torch.manual_seed(7)

device = ttnn.open_device(device_id=0)

try:
    S, D = 4096, 128

    q, k, v = (torch.randn((S, D), dtype=torch.bfloat16) for _ in range(3))
    expected = torch.nn.functional.scaled_dot_product_attention(*(t.float()[None] for t in (q, k, v)))[0]

    out = from_torch(torch.zeros((S, D), dtype=torch.bfloat16))
    flash_attention(from_torch(q), from_torch(k), from_torch(v), out)
    out = ttnn.to_torch(out).float()

    worst = (out - expected).abs().max().item()
    print(f"largest error {worst:.2e}")
    assert torch.allclose(out, expected, rtol=2e-2, atol=1e-2), worst

finally:
    ttnn.close_device(device)
