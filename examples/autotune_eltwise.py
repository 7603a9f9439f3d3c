"""``y = sigmoid(a) * tanh(b)`` streamed from DRAM, with blocks sized relative to L1, tuned per board.

Nothing in the kernel names a byte count: the input blocks are ``ROWS`` tiles high and as wide as
``WIDTH`` of the core's L1 allows (``shape=(ROWS, "4%")``: the widest block that divides the
row and fits ``COUNT`` blocks in 4% of L1), and the output buffer holds as many blocks as the rest
of L1 does (``block_count="max"``). The compiler resolves both per architecture; ``@ttl.autotune``
searches ``ROWS``, ``WIDTH`` and ``COUNT``, and with ``verify=True`` simulates the winner with
values and checks it against torch before accepting it. Blocks are dealt round-robin to the
nodes of the grid (64 on an n150, 130 on a p150), so the best block also depends on how evenly
the blocks spread over the grid. This gated activation (an LSTM cell's output, ``h = sigmoid(o) *
tanh(c)``) is compute-bound on an n150 (64 cores at 1 GHz) and DRAM-bound on a p150 (130 cores at
1.35 GHz), so the two boards prefer different blocks.

    tilecraft run examples/autotune_eltwise.py                 # 256 x 256: tunes, runs, checks
    tilecraft tune examples/autotune_eltwise.py --arch n150 -- --size 4096
    tilecraft tune examples/autotune_eltwise.py --arch p150 -- --size 4096
"""

import argparse

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32


def expected(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor) -> dict:
    return {"y": torch.sigmoid(ttnn.to_torch(a).float()) * torch.tanh(ttnn.to_torch(b).float())}


@ttl.autotune(configs=ttl.SearchSpace(ROWS=[1, 2, 4], WIDTH=["1%", "2%", "4%", "8%"], COUNT=[2, 3, 4]),
              key=["a"], verify=True, reference=expected)
@ttl.operation(grid="full")
def gated(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor, *, ROWS: int, WIDTH: str, COUNT: int):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(ROWS, WIDTH), block_count=COUNT)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=a_dfb.shape, block_count=COUNT)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=a_dfb.shape, block_count="max")
    br, bc = a_dfb.shape
    assert a.shape[0] // TILE % br == 0, "ROWS must divide the tile rows"
    col_blocks = a.shape[1] // TILE // bc
    total = a.shape[0] // TILE // br * col_blocks
    nodes = ttl.grid_size(dims=1)
    per_node = -(-total // nodes)

    @ttl.datamovement()
    def load():
        me = ttl.node(dims=1)
        for i in range(per_node):
            n = i * nodes + me
            if n < total:
                r0, c0 = n // col_blocks * br, n % col_blocks * bc
                with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
                    a_xf = ttl.copy(a[r0:r0 + br, c0:c0 + bc], a_blk)
                    b_xf = ttl.copy(b[r0:r0 + br, c0:c0 + bc], b_blk)
                    a_xf.wait()
                    b_xf.wait()

    @ttl.compute()
    def compute():
        me = ttl.node(dims=1)
        for i in range(per_node):
            if i * nodes + me < total:
                with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk, y_dfb.reserve() as y_blk:
                    y_blk.store(ttl.math.sigmoid(a_blk) * ttl.math.tanh(b_blk))

    @ttl.datamovement()
    def save():
        me = ttl.node(dims=1)
        for i in range(per_node):
            n = i * nodes + me
            if n < total:
                r0, c0 = n // col_blocks * br, n % col_blocks * bc
                with y_dfb.wait() as y_blk:
                    ttl.copy(y_blk, y[r0:r0 + br, c0:c0 + bc]).wait()


def main() -> None:
    parser = argparse.ArgumentParser(description="tune and run the streaming sigmoid(a) * tanh(b)")
    parser.add_argument("--size", type=int, default=256, help="rows = columns")
    size = parser.parse_args().size
    torch.manual_seed(3)
    a = ttnn.from_torch(torch.randn(size, size), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
    b = ttnn.from_torch(torch.randn(size, size), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
    y = ttnn.zeros((size, size), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
    gated(a, b, y)
    if size <= 512:  # larger sizes are for `tilecraft tune` (no values; verify=True checks the winner)
        want = expected(a, b, y)["y"]
        got = ttnn.to_torch(y).float()
        assert torch.allclose(got, want, rtol=2e-2, atol=2e-2), (got - want).abs().max()
        print("autotune_eltwise: OK")


if __name__ == "__main__":
    main()
