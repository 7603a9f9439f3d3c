# A 1D multicast matmul in the spelling tt-lang-sim 1.1.6 accepts (a benchmark program of
# benchmarks/bench_vs_reference.py; tilecraft runs it unchanged).
#
# The shape of the published repository's multicast matmul test: the nodes are numbered along
# one dimension and node j computes the output column strip j. Every node reads its own `b`
# blocks; node 0 alone reads each `a` block from DRAM and multicasts it over one pipe to the other
# working nodes, which all walk the same (m, k) blocks in the same order. The accumulator is a
# local block started from `ttl.block.fill` (1.1.6 has no `ttl.math.fill`), with `+=` per K block.
#
# The host code follows the matmul tutorials: bfloat16 inputs from torch.randn, an fp32 golden and
# the PCC check, plus a bound on the largest error so that a wrong block cannot hide in the PCC.

import torch
import ttnn

import ttl

TILE_SIZE = 32
GRANULARITY_M = 4
GRANULARITY_N = 4
GRANULARITY_K = 4


def from_torch(tensor: torch.Tensor):
    return ttnn.from_torch(
        tensor,
        dtype=ttnn.bfloat16,
        layout=ttnn.TILE_LAYOUT,
        device=device,
        memory_config=ttnn.DRAM_MEMORY_CONFIG,
    )


@ttl.operation(grid="full")
def matmul_1d_multicast(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor) -> None:
    m_blocks = a.shape[0] // TILE_SIZE // GRANULARITY_M
    k_blocks = a.shape[1] // TILE_SIZE // GRANULARITY_K
    n_blocks = b.shape[1] // TILE_SIZE // GRANULARITY_N

    # Node j owns output column strips j * per_node ... ; the trailing nodes may own none.
    n_blocks_per_node = -(-n_blocks // ttl.grid_size(dims=1))
    working_nodes = -(-n_blocks // n_blocks_per_node)

    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(GRANULARITY_M, GRANULARITY_K), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(GRANULARITY_K, GRANULARITY_N), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(GRANULARITY_M, GRANULARITY_N), block_count=2)

    # node 0 sends every `a` block to nodes 1 .. working_nodes - 1
    a_multicast = ttl.PipeNet([ttl.Pipe((0,), (slice(1, working_nodes),))])

    def tiles(block: int, granularity: int) -> slice:
        return slice(block * granularity, (block + 1) * granularity)

    @ttl.datamovement()
    def read():
        node = ttl.node(dims=1)
        if node < working_nodes:
            for m_block in range(m_blocks):
                for local_n_block in range(n_blocks_per_node):
                    n_block = node * n_blocks_per_node + local_n_block
                    if n_block < n_blocks:
                        for k_block in range(k_blocks):
                            with a_dfb.reserve() as a_blk, b_dfb.reserve() as b_blk:
                                tx_b = ttl.copy(
                                    b[tiles(k_block, GRANULARITY_K), tiles(n_block, GRANULARITY_N)],
                                    b_blk,
                                )

                                def send(pipe):
                                    ttl.copy(
                                        a[tiles(m_block, GRANULARITY_M), tiles(k_block, GRANULARITY_K)],
                                        a_blk,
                                    ).wait()
                                    ttl.copy(a_blk, pipe).wait()

                                def receive(pipe):
                                    ttl.copy(pipe, a_blk).wait()

                                a_multicast.if_src(send)
                                a_multicast.if_dst(receive)
                                tx_b.wait()

    @ttl.compute()
    def compute():
        node = ttl.node(dims=1)
        if node < working_nodes:
            for m_block in range(m_blocks):
                for local_n_block in range(n_blocks_per_node):
                    n_block = node * n_blocks_per_node + local_n_block
                    if n_block < n_blocks:
                        with y_dfb.reserve() as y_blk:
                            acc = ttl.block.fill(0, shape=y_blk.shape)
                            for _ in range(k_blocks):
                                with a_dfb.wait() as a_blk, b_dfb.wait() as b_blk:
                                    acc += a_blk @ b_blk
                            y_blk.store(acc)

    @ttl.datamovement()
    def write():
        node = ttl.node(dims=1)
        if node < working_nodes:
            for m_block in range(m_blocks):
                for local_n_block in range(n_blocks_per_node):
                    n_block = node * n_blocks_per_node + local_n_block
                    if n_block < n_blocks:
                        with y_dfb.wait() as y_blk:
                            ttl.copy(
                                y_blk,
                                y[tiles(m_block, GRANULARITY_M), tiles(n_block, GRANULARITY_N)],
                            ).wait()


torch.manual_seed(42)

device = ttnn.open_device(device_id=0)

try:
    M, K, N = 4096, 4096, 4096

    a = torch.randn((M, K), dtype=torch.bfloat16)
    b = torch.randn((K, N), dtype=torch.bfloat16)
    expected_y = a.float() @ b.float()

    y = from_torch(torch.zeros((M, N), dtype=torch.bfloat16))
    matmul_1d_multicast(from_torch(a), from_torch(b), y)
    y = ttnn.to_torch(y).float()

    pcc = torch.corrcoef(torch.stack([y.flatten(), expected_y.flatten()]))[0, 1].item()
    worst = ((y - expected_y).abs().max() / expected_y.abs().max()).item()
    print(f"PCC {pcc:.6f}, largest error {worst:.2e} of the largest value")

    assert pcc > 0.99
    assert worst < 0.05

finally:
    ttnn.close_device(device)
