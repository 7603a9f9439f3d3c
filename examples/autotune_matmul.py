"""A multicast-reuse matmul whose block sizes are tuned per board by the cost model.

Node (0, r) reads the ``a`` blocks of grid row r from DRAM and multicasts them along the row;
node (c, 0) reads the ``b`` blocks of column c and multicasts them down the column; every node
accumulates its ``BM x BN``-tile output blocks over ``BK``-wide K blocks. Which blocks are best
depends on the board: its grid (8x8 on an n150, 13x10 on a p150), L1, DRAM and NoC bandwidth.
``@ttl.autotune`` chooses them from 125 candidates with the cost model; a candidate whose
blocks do not divide the matrix, or whose buffers overflow L1, is pruned before it is estimated.

    tilecraft run examples/autotune_matmul.py                 # 256^3: tunes, runs, checks
    tilecraft tune examples/autotune_matmul.py --arch n150 --fidelity HiFi2 -- --size 4096
    tilecraft tune examples/autotune_matmul.py --arch p150 --fidelity HiFi2 -- --size 4096

At 4096^3 and HiFi2 the n150 picks 8 x 4 x 8 blocks and the p150 16 x 4 x 2 (docs/autotune.md).
"""

import argparse

import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32
BLOCKS = [1, 2, 4, 8, 16]


@ttl.autotune(configs=ttl.SearchSpace(BM=BLOCKS, BK=BLOCKS, BN=BLOCKS), key=["a", "b"], fidelity="HiFi2")
@ttl.operation(grid="full")
def matmul(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor, *, BM: int, BK: int, BN: int):
    gx, gy = ttl.grid_size(dims=2)
    m_tiles, k_tiles, n_tiles = a.shape[0] // TILE, a.shape[1] // TILE, b.shape[1] // TILE
    assert m_tiles % BM == 0 and k_tiles % BK == 0 and n_tiles % BN == 0, "blocks must divide the matrices"
    m_blocks, k_blocks, n_blocks = m_tiles // BM, k_tiles // BK, n_tiles // BN
    m_sub = -(-m_blocks // gy)  # block rows per grid row; nodes past the end repeat the last one
    n_sub = -(-n_blocks // gx)
    row_net = ttl.PipeNet([ttl.Pipe(src=(0, r), dst=(slice(0, gx), r)) for r in range(gy)])
    col_net = ttl.PipeNet([ttl.Pipe(src=(c, 0), dst=(c, slice(0, gy))) for c in range(gx)])
    a_fetch = ttl.make_dataflow_buffer_like(a, shape=(BM, BK), block_count=2)
    b_fetch = ttl.make_dataflow_buffer_like(b, shape=(BK, BN), block_count=2)
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(BM, BK), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(BK, BN), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(BM, BN), block_count=2)

    @ttl.datamovement()
    def in0():
        nx, ny = ttl.node(dims=2)
        for mb in range(m_sub):
            m0 = min(ny * m_sub + mb, m_blocks - 1) * BM
            for _ in range(n_sub):
                for kb in range(k_blocks):
                    k0 = kb * BK

                    def send(pipe):
                        with a_fetch.reserve() as blk:
                            ttl.copy(a[m0:m0 + BM, k0:k0 + BK], blk).wait()
                        with a_fetch.wait() as blk:
                            ttl.copy(blk, pipe).wait()

                    def receive(pipe):
                        with a_dfb.reserve() as blk:
                            ttl.copy(pipe, blk).wait()

                    row_net.if_src(send)
                    row_net.if_dst(receive)

    @ttl.compute()
    def mac():
        for _ in range(m_sub * n_sub):
            with y_dfb.reserve() as y_blk:
                y_blk.store(ttl.block.fill(0.0, shape=y_blk.shape))
                for _ in range(k_blocks):
                    with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk:
                        y_blk += a_blk @ b_blk

    @ttl.datamovement()
    def in1_out():
        nx, ny = ttl.node(dims=2)
        for mb in range(m_sub):
            m0 = min(ny * m_sub + mb, m_blocks - 1) * BM
            for nb in range(n_sub):
                n0 = min(nx * n_sub + nb, n_blocks - 1) * BN
                for kb in range(k_blocks):
                    k0 = kb * BK

                    def send(pipe):
                        with b_fetch.reserve() as blk:
                            ttl.copy(b[k0:k0 + BK, n0:n0 + BN], blk).wait()
                        with b_fetch.wait() as blk:
                            ttl.copy(blk, pipe).wait()

                    def receive(pipe):
                        with b_dfb.reserve() as blk:
                            ttl.copy(pipe, blk).wait()

                    col_net.if_src(send)
                    col_net.if_dst(receive)
                with y_dfb.wait() as y_blk:
                    ttl.copy(y_blk, y[m0:m0 + BM, n0:n0 + BN]).wait()


def main() -> None:
    parser = argparse.ArgumentParser(description="tune and run the multicast-reuse matmul")
    parser.add_argument("--size", type=int, default=256, help="M = K = N (checked against torch up to 512)")
    size = parser.parse_args().size
    torch.manual_seed(7)
    a_host, b_host = torch.randn(size, size), torch.randn(size, size)
    a = ttnn.from_torch(a_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
    b = ttnn.from_torch(b_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
    y = ttnn.zeros((size, size), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
    matmul(a, b, y)
    if size <= 512:  # larger sizes are for `tilecraft tune` (no values)
        want = ttnn.to_torch(a).float() @ ttnn.to_torch(b).float()
        got = ttnn.to_torch(y).float()
        assert torch.allclose(got, want, rtol=2e-2, atol=2e-1), (got - want).abs().max()
        print("autotune_matmul: OK")


if __name__ == "__main__":
    main()
