"""Flash attention written the natural way (issue 21): an online softmax over K/V tiles with
running max, sum and output held in local blocks (m, l, acc). At --level cpp the emitted compute
kernel read the local block m through an intermediate buffer before waiting for it (E5207), and
freed its last value without a wait (E5202); tests/emu/test_emitted_local_blocks.py."""

import torch
import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def attention(q, kt, v, o):
    N = kt.shape[1] // 32
    q_dfb = ttl.make_dataflow_buffer_like(q, shape=(1, 1), block_count=1)
    kt_dfb = ttl.make_dataflow_buffer_like(kt, shape=(1, 1), block_count=2)
    v_dfb = ttl.make_dataflow_buffer_like(v, shape=(1, 1), block_count=2)
    o_dfb = ttl.make_dataflow_buffer_like(o, shape=(1, 1), block_count=1)

    @ttl.datamovement()
    def read():
        with q_dfb.reserve() as qb:
            ttl.copy(q[0, 0], qb).wait()
        for j in range(N):
            with kt_dfb.reserve() as kb, v_dfb.reserve() as vb:
                ttl.copy(kt[0, j], kb).wait()
                ttl.copy(v[j, 0], vb).wait()

    @ttl.compute()
    def compute():
        with q_dfb.wait() as qb:
            m = ttl.block.fill(-1e30, shape=(1, 1))
            l = ttl.block.fill(0, shape=(1, 1))
            acc = ttl.block.fill(0, shape=(1, 1))
            for _ in range(N):
                with kt_dfb.wait() as kb, v_dfb.wait() as vb:
                    s = qb @ kb
                    m_new = ttl.math.max(m, ttl.block.broadcast(ttl.math.reduce_max(s, dims=[-1]), dims=[-1], shape=(1, 1)))
                    p = ttl.math.exp(s - m_new)
                    scale = ttl.math.exp(m - m_new)
                    l = l * scale + ttl.block.broadcast(ttl.math.reduce_sum(p, dims=[-1]), dims=[-1], shape=(1, 1))
                    acc = acc * scale + p @ vb
                    m = m_new
            with o_dfb.reserve() as ob:
                ob.store(acc / l)

    @ttl.datamovement()
    def write():
        with o_dfb.wait() as ob:
            ttl.copy(ob, o[0, 0]).wait()


torch.manual_seed(0)
N = 4
qv, kv, vv = torch.randn(32, 32) * 0.2, torch.randn(N * 32, 32) * 0.2, torch.randn(N * 32, 32)
mk = lambda t: ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
q, kt, v = mk(qv), mk(kv.T.contiguous()), mk(vv)
o = mk(torch.zeros(32, 32))
attention(q, kt, v, o)
Q, K, V = (ttnn.to_torch(t).float() for t in (q, kt, v))
want = torch.softmax(Q @ K, dim=-1) @ V
got = ttnn.to_torch(o).float()
assert torch.allclose(got, want, rtol=2e-2, atol=2e-2), (got - want).abs().max()
