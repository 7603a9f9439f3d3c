"""A Llama-style decoder block: ttnn ops around two custom TT-Lang kernels, checked against torch.

    tokens -> ttnn.embedding -> x
    h = x + Wo . attention(rope(q), rope(k), v)     q, k, v = split_heads(RMSNorm(x) . Wqkv)
    y = h + W2 . (silu(RMSNorm(h) . W1) * (RMSNorm(h) . W3))

The RMSNorms are a TT-Lang kernel (``rmsnorm``: one band of 32 rows per step, the bands shared by the
cores), and the attention is the flash-attention kernel of examples/flash_attention.py made causal
and grouped-query (``causal_attention``: every query head of a group reads its key/value head; key
blocks past the diagonal are skipped and the diagonal block is masked). Everything else is ttnn:
``embedding``, the fused QKV ``linear``, ``experimental.nlp_create_qkv_heads``,
``experimental.rotary_embedding`` (rotate-half, as Hugging Face's Llama), ``reshape``,
``experimental.nlp_concat_heads``, the output projection, the residual ``add``s, and the gated MLP
(``linear``, ``silu``, ``mul``).

    tilecraft run examples/models/decoder_block.py                  # small sizes (about 3 s of CPU)
    tilecraft run --level cpp examples/models/decoder_block.py      # the kernels as their emitted C++
    tilecraft profile examples/models/decoder_block.py              # ttnn ops and kernels, one table
    tilecraft profile --no-values examples/models/decoder_block.py --llama-3.2-1b --grid 8,8 --no-check

``--llama-3.2-1b`` takes the published Llama 3.2 1B dims (hidden 2048, 32 query and 8 key/value
heads of 64, MLP 8192, vocabulary 128256, RoPE theta 500000); its values take minutes on a CPU, so
profile it with ``--no-values`` and ``--no-check`` (the ttnn ops still compute; the kernels are only timed).
"""

import argparse
import math
from dataclasses import dataclass

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32
BQ, BK = 1, 2  # query and key/value rows per attention block, in tiles
EPS = 1e-5


@dataclass(frozen=True)
class Dims:
    vocab: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    mlp: int
    rope_theta: float


SMALL = Dims(vocab=64, hidden=128, heads=4, kv_heads=2, head_dim=32, mlp=256, rope_theta=10000.0)
LLAMA_3_2_1B = Dims(vocab=128256, hidden=2048, heads=32, kv_heads=8, head_dim=64, mlp=8192, rope_theta=500000.0)

options = argparse.ArgumentParser(description="a Llama-style decoder block")
options.add_argument("--llama-3.2-1b", dest="llama", action="store_true", help="Llama 3.2 1B's dims")
options.add_argument("--seq", type=int, default=64, help="sequence length (a multiple of 64)")
options.add_argument("--grid", default="2,1", help="the kernels' core grid C,R")
options.add_argument("--no-check", action="store_true",
                     help="skip the torch comparison (profile --no-values: the kernels compute no values)")
config = options.parse_args()
DIMS = LLAMA_3_2_1B if config.llama else SMALL
SEQ = config.seq
GRID = tuple(int(n) for n in config.grid.split(","))
assert SEQ % (TILE * BK) == 0, "the sequence length must be a multiple of 64"


@ttl.operation(grid=GRID)
def rmsnorm(x: ttnn.Tensor, g: ttnn.Tensor, y: ttnn.Tensor) -> None:
    """y = x / sqrt(mean(x^2) + eps) * g along rows; each core takes a share of the 32-row bands."""
    bands = x.shape[0] // TILE
    C = x.shape[1] // TILE
    per_core = -(-bands // ttl.grid_size(dims=1))
    inv_width = 1.0 / x.shape[1]
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, C), block_count=2)
    g_dfb = ttl.make_dataflow_buffer_like(g, shape=(1, C), block_count=1)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, C), block_count=2)

    @ttl.datamovement()
    def read():
        first = ttl.node(dims=1) * per_core
        with g_dfb.reserve() as g_blk:
            ttl.copy(g[0, 0:C], g_blk).wait()
        for r in range(first, min(first + per_core, bands)):
            with x_dfb.reserve() as x_blk:
                ttl.copy(x[r, 0:C], x_blk).wait()

    @ttl.compute()
    def normalize():
        first = ttl.node(dims=1) * per_core
        with g_dfb.wait() as g_blk:
            for _ in range(first, min(first + per_core, bands)):
                with x_dfb.wait() as x_blk, y_dfb.reserve() as y_blk:
                    inv_rms = ttl.math.rsqrt(ttl.math.reduce_sum(x_blk * x_blk, dims=[-1]) * inv_width + EPS)
                    y_blk.store(x_blk * ttl.block.broadcast(inv_rms, dims=[-1], shape=(1, C))
                                * ttl.block.broadcast(g_blk, dims=[-2], shape=(1, C)))

    @ttl.datamovement()
    def write():
        first = ttl.node(dims=1) * per_core
        for r in range(first, min(first + per_core, bands)):
            with y_dfb.wait() as y_blk:
                ttl.copy(y_blk, y[r, 0:C]).wait()


@ttl.operation(grid=GRID)
def causal_attention(q: ttnn.Tensor, k: ttnn.Tensor, v: ttnn.Tensor, mask: ttnn.Tensor, out: ttnn.Tensor) -> None:
    """Flash attention over heads stacked along the rows: q and out ``[heads * s, d]``, k and v
    ``[kv_heads * s, d]``; ``mask`` is the ``[s, s]`` causal mask (0 on and below the diagonal)."""
    D = q.shape[1] // TILE
    seq_blocks = mask.shape[0] // TILE // BQ  # query blocks of one head
    kv_blocks = mask.shape[1] // TILE // BK  # key/value blocks of one head
    q_blocks = q.shape[0] // TILE // BQ  # query blocks of all heads
    group = (q.shape[0] // mask.shape[0]) // (k.shape[0] // mask.shape[1])  # query heads per key/value head
    per_core = -(-q_blocks // ttl.grid_size(dims=1))
    scale = 1.0 / math.sqrt(q.shape[1])

    q_dfb = ttl.make_dataflow_buffer_like(q, shape=(BQ, D), block_count=2)
    k_dfb = ttl.make_dataflow_buffer_like(k, shape=(BK, D), block_count=2)
    v_dfb = ttl.make_dataflow_buffer_like(v, shape=(BK, D), block_count=2)
    m_dfb = ttl.make_dataflow_buffer_like(mask, shape=(BQ, BK), block_count=2)
    o_dfb = ttl.make_dataflow_buffer_like(out, shape=(BQ, D), block_count=2)

    @ttl.datamovement()
    def read():
        first = ttl.node(dims=1) * per_core
        for qb in range(first, min(first + per_core, q_blocks)):
            row = qb % seq_blocks  # the query block within its head
            kv_base = (qb // seq_blocks // group) * kv_blocks  # its key/value head's first block
            with q_dfb.reserve() as q_blk:
                ttl.copy(q[qb * BQ:(qb + 1) * BQ, 0:D], q_blk).wait()
            for kb in range((row * BQ) // BK + 1):  # the blocks up to the diagonal
                with k_dfb.reserve() as k_blk, v_dfb.reserve() as v_blk, m_dfb.reserve() as m_blk:
                    src = (kv_base + kb) * BK
                    k_xf = ttl.copy(k[src:src + BK, 0:D], k_blk)
                    v_xf = ttl.copy(v[src:src + BK, 0:D], v_blk)
                    m_xf = ttl.copy(mask[row * BQ:(row + 1) * BQ, kb * BK:(kb + 1) * BK], m_blk)
                    k_xf.wait()
                    v_xf.wait()
                    m_xf.wait()

    @ttl.compute()
    def attend():
        first = ttl.node(dims=1) * per_core
        for qb in range(first, min(first + per_core, q_blocks)):
            row = qb % seq_blocks
            with q_dfb.wait() as q_blk, o_dfb.reserve() as o_blk:
                m = ttl.block.fill(-1e30, shape=(BQ, 1))
                l = ttl.block.fill(0.0, shape=(BQ, 1))
                acc = ttl.block.fill(0.0, shape=(BQ, D))
                for _ in range((row * BQ) // BK + 1):
                    with k_dfb.wait() as k_blk, v_dfb.wait() as v_blk, m_dfb.wait() as m_blk:
                        s = q_blk @ ttl.block.transpose(k_blk) * scale + m_blk
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


def rope_tables(seq: int, head_dim: int, theta: float) -> tuple[torch.Tensor, torch.Tensor]:
    """cos and sin of Hugging Face Llama's rotate-half form, ``[seq, head_dim]``."""
    inv_freq = 1.0 / theta ** (torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim)
    angles = torch.outer(torch.arange(seq, dtype=torch.float64), inv_freq)
    angles = torch.cat([angles, angles], dim=-1)
    return angles.cos(), angles.sin()


def bf16(t: torch.Tensor) -> torch.Tensor:
    return t.to(torch.bfloat16)


torch.manual_seed(11)
d = DIMS
qkv_width = (d.heads + 2 * d.kv_heads) * d.head_dim
weights = {
    "embed": bf16(torch.randn(d.vocab, d.hidden)),
    "attn_norm": bf16(torch.rand(1, d.hidden) + 0.5),
    "wqkv": bf16(torch.randn(d.hidden, qkv_width) / math.sqrt(d.hidden)),
    "wo": bf16(torch.randn(d.heads * d.head_dim, d.hidden) / math.sqrt(d.heads * d.head_dim)),
    "mlp_norm": bf16(torch.rand(1, d.hidden) + 0.5),
    "w1": bf16(torch.randn(d.hidden, d.mlp) / math.sqrt(d.hidden)),
    "w3": bf16(torch.randn(d.hidden, d.mlp) / math.sqrt(d.hidden)),
    "w2": bf16(torch.randn(d.mlp, d.hidden) / math.sqrt(d.mlp)),
}
tokens = torch.randint(0, d.vocab, (1, SEQ))
cos, sin = rope_tables(SEQ, d.head_dim, d.rope_theta)
causal = torch.zeros(SEQ, SEQ).masked_fill(torch.ones(SEQ, SEQ, dtype=torch.bool).triu(1), -1e4)

device = ttnn.open_device(device_id=0)


def on_device(t: torch.Tensor, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT) -> ttnn.Tensor:
    return ttnn.from_torch(t, dtype=dtype, layout=layout, device=device)


tt = {name: on_device(w, layout=ttnn.ROW_MAJOR_LAYOUT if name == "embed" else ttnn.TILE_LAYOUT)
      for name, w in weights.items()}
tt_cos, tt_sin = (on_device(t.reshape(1, 1, SEQ, d.head_dim)) for t in (cos, sin))
tt_mask = on_device(causal)
tt_tokens = on_device(tokens, dtype=ttnn.uint32, layout=ttnn.ROW_MAJOR_LAYOUT)


def norm(x: ttnn.Tensor, gain: ttnn.Tensor) -> ttnn.Tensor:
    """The TT-Lang RMSNorm of ``[1, 1, s, hidden]`` activations."""
    y = ttnn.zeros((SEQ, d.hidden), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
    rmsnorm(ttnn.reshape(x, (SEQ, d.hidden)), gain, y)
    return ttnn.reshape(y, (1, 1, SEQ, d.hidden))


def attention(x: ttnn.Tensor) -> ttnn.Tensor:
    fused = ttnn.linear(norm(x, tt["attn_norm"]), tt["wqkv"])
    q, k, v = ttnn.experimental.nlp_create_qkv_heads(fused, num_heads=d.heads, num_kv_heads=d.kv_heads)
    q = ttnn.experimental.rotary_embedding(q, tt_cos, tt_sin)
    k = ttnn.experimental.rotary_embedding(k, tt_cos, tt_sin)
    out = ttnn.zeros((d.heads * SEQ, d.head_dim), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
    causal_attention(ttnn.reshape(q, (d.heads * SEQ, d.head_dim)), ttnn.reshape(k, (d.kv_heads * SEQ, d.head_dim)),
                     ttnn.reshape(v, (d.kv_heads * SEQ, d.head_dim)), tt_mask, out)
    heads = ttnn.experimental.nlp_concat_heads(ttnn.reshape(out, (1, d.heads, SEQ, d.head_dim)))
    return ttnn.linear(heads, tt["wo"])


def mlp(x: ttnn.Tensor) -> ttnn.Tensor:
    h = norm(x, tt["mlp_norm"])
    gate = ttnn.silu(ttnn.linear(h, tt["w1"]))
    return ttnn.linear(ttnn.mul(gate, ttnn.linear(h, tt["w3"])), tt["w2"])


x = ttnn.embedding(tt_tokens, tt["embed"], layout=ttnn.TILE_LAYOUT)  # [1, s, hidden]
x = ttnn.reshape(x, (1, 1, SEQ, d.hidden))
h = ttnn.add(x, attention(x))
y = ttnn.add(h, mlp(h))
got = ttnn.to_torch(y).double().reshape(SEQ, d.hidden)
ttnn.close_device(device)


def reference() -> torch.Tensor:
    """The block in float64 on the same bfloat16 weights."""
    w = {name: t.double() for name, t in weights.items()}

    def rms(t: torch.Tensor, gain: torch.Tensor) -> torch.Tensor:
        return t / torch.sqrt(t.pow(2).mean(-1, keepdim=True) + EPS) * gain

    def rope(t: torch.Tensor) -> torch.Tensor:
        half = t.shape[-1] // 2
        return t * cos + torch.cat([-t[..., half:], t[..., :half]], dim=-1) * sin

    x = w["embed"][tokens[0]]
    qkv = rms(x, w["attn_norm"]) @ w["wqkv"]
    hd, nq, nkv = d.head_dim, d.heads, d.kv_heads
    q = qkv[:, :nq * hd].reshape(SEQ, nq, hd).transpose(0, 1)
    k = qkv[:, nq * hd:(nq + nkv) * hd].reshape(SEQ, nkv, hd).transpose(0, 1)
    v = qkv[:, (nq + nkv) * hd:].reshape(SEQ, nkv, hd).transpose(0, 1)
    k, v = (t.repeat_interleave(nq // nkv, dim=0) for t in (k, v))
    attn = torch.nn.functional.scaled_dot_product_attention(rope(q), rope(k), v, is_causal=True)
    h = x + attn.transpose(0, 1).reshape(SEQ, nq * hd) @ w["wo"]
    g = rms(h, w["mlp_norm"])
    return h + (torch.nn.functional.silu(g @ w["w1"]) * (g @ w["w3"])) @ w["w2"]


if not config.no_check:
    want = reference()
    pcc = torch.corrcoef(torch.stack([got.flatten(), want.flatten()]))[0, 1].item()
    # bfloat16 activations between the ops; the block's output is O(1)
    assert pcc > 0.999 and torch.allclose(got, want, rtol=0.05, atol=0.1), (pcc, (got - want).abs().max())
    print(f"decoder_block: OK (PCC {pcc:.5f}, max |error| {(got - want).abs().max():.3g})")
