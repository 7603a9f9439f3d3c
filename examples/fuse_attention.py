"""Single-head attention written with torch operations and compiled by ``@ttl.fuse`` into one kernel.

``k.T`` becomes the block transpose feeding the scores' matmul; the row max and row sum read whole
rows of the scores, so each output block's scores span the whole key length (fuse widens them by
itself), and the softmax's division is applied after ``@ v``, as flash attention applies it.
``tilecraft show-threads`` prints the reader, compute and writer threads it compiled to.
"""

import torch

import tilecraft as ttl

SEQ, HEAD = 64, 64
SCALE = HEAD ** -0.5


@ttl.fuse(grid=(2, 1))
def attention(q, k, v):
    s = (q @ k.transpose(0, 1)) * SCALE
    p = torch.exp(s - s.amax(dim=-1, keepdim=True))
    return (p @ v) / p.sum(dim=-1, keepdim=True)


torch.manual_seed(7)
q, k, v = (torch.randn(SEQ, HEAD).to(torch.bfloat16) for _ in range(3))
got = attention(q, k, v)
want = torch.nn.functional.scaled_dot_product_attention(*(t.float()[None] for t in (q, k, v)))[0]
assert got.shape == (SEQ, HEAD)
assert torch.allclose(got.float(), want, rtol=2e-2, atol=1e-2), (got.float() - want).abs().max()
print("fuse_attention: OK")
