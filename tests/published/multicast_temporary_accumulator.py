"""A multicast matmul that sums into a temporary accumulator, as 1.1.6 programs write it (issue 22,
defect 5e): node (0, 0) reads each block of ``a`` and multicasts it to the row, every node reads
its own ``b`` columns, and ``acc = acc + a_blk @ b_blk`` sums the K blocks in a local float32 block
that is copied out once final. The compiler keeps ``acc`` in L1: in two 8x8 float32 blocks it
would not fit beside the program's own buffers and the pipe's landing slot (E0401); its value
rotates through one block and one DST chunk instead, each K step packing the next value's chunk
behind the current one and popping the chunk it replaced."""
import torch

import ttl
import ttnn

TILE = 32
BM, BK, BN = 8, 4, 8
K_BLOCKS = 2


@ttl.operation(grid=(2, 1))
def matmul(a, b, y):
    grid_n, _ = ttl.grid_size(dims=2)
    net = ttl.PipeNet([ttl.Pipe(src=(0, 0), dst=(slice(0, grid_n), 0))])
    fetch_dfb = ttl.make_dataflow_buffer_like(a, shape=(BM, BK), block_count=2)
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(BM, BK), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(BK, BN), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(BM, BN), block_count=2)

    @ttl.datamovement()
    def load():
        nx, _ = ttl.node(dims=2)
        for kb in range(K_BLOCKS):
            k0 = kb * BK

            def send(pipe):
                with fetch_dfb.reserve() as blk:
                    ttl.copy(a[0:BM, k0:k0 + BK], blk).wait()
                with fetch_dfb.wait() as blk:
                    ttl.copy(blk, pipe).wait()

            def receive(pipe):
                with a_dfb.reserve() as blk:
                    ttl.copy(pipe, blk).wait()

            net.if_src(send)
            net.if_dst(receive)
            with b_dfb.reserve() as blk:
                ttl.copy(b[k0:k0 + BK, nx * BN:(nx + 1) * BN], blk).wait()

    @ttl.compute()
    def mac():
        acc = ttl.block.fill(0.0, shape=(BM, BN))
        for _ in range(K_BLOCKS):
            with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk:
                acc = acc + a_blk @ b_blk
        with y_dfb.reserve() as out:
            out.store(acc)

    @ttl.datamovement()
    def save():
        nx, _ = ttl.node(dims=2)
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0:BM, nx * BN:(nx + 1) * BN]).wait()


torch.manual_seed(5)
a_host = torch.randn(BM * TILE, K_BLOCKS * BK * TILE).bfloat16().float()
b_host = torch.randn(K_BLOCKS * BK * TILE, 2 * BN * TILE).bfloat16().float()
a = ttnn.from_torch(a_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
b = ttnn.from_torch(b_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(BM * TILE, 2 * BN * TILE), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
matmul(a, b, y)
got, want = ttnn.to_torch(y), a_host @ b_host
# float32 sums of exact bfloat16 products; on the device (--level cpp) the unpacker reads the float32
# partial sum through SrcA as TF32 (docs/numerics.md), about 1e-3 of the largest sum
error = float((got - want).abs().max())
assert error <= 2e-3 * float(want.abs().max()), error
