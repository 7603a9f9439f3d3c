"""A self-unicast pipe whose receive is started before the send and waited first (issue 22,
defect 5b): the send's side effect begins at its ``ttl.copy``, as in the published simulator, so
the block is in the landing slot when the receive is waited. Four rounds, each adding the round
number to the tile it sends itself."""
import torch

import ttl
import ttnn

ROUNDS = 4


@ttl.operation(grid=(1, 1))
def loop_back(s, y):
    net = ttl.PipeNet([ttl.Pipe(src=(0, 0), dst=(0, 0))])
    s_dfb = ttl.make_dataflow_buffer_like(s, shape=(1, 1), block_count=2)
    r_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)
    o_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def add_round():
        for i in range(ROUNDS):
            with r_dfb.wait() as got, o_dfb.reserve() as out:
                out.store(got + ttl.block.fill(float(i), shape=(1, 1)))

    @ttl.datamovement()
    def move():
        for i in range(ROUNDS):
            with s_dfb.reserve() as blk:
                ttl.copy(s[0, 0], blk).wait()
            with s_dfb.wait() as src, r_dfb.reserve() as dst:
                def receive(rpipe):
                    rx = ttl.copy(rpipe, dst)

                    def send(spipe):
                        tx = ttl.copy(src, spipe)
                        rx.wait()
                        tx.wait()

                    net.if_src(send)

                net.if_dst(receive)

    @ttl.datamovement()
    def write():
        for i in range(ROUNDS):
            with o_dfb.wait() as blk:
                ttl.copy(blk, y[0, i]).wait()


s_host = torch.arange(32 * 32, dtype=torch.float32).reshape(32, 32)
s = ttnn.from_torch(s_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(32, 32 * ROUNDS), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
loop_back(s, y)
assert torch.equal(ttnn.to_torch(y), torch.cat([s_host + i for i in range(ROUNDS)], dim=1))
