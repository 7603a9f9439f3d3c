"""``while`` loops whose condition is only known at run time, and helpers with computed defaults.

The compute thread counts its blocks with ``while n < count`` (``count`` from the node's
index), picks a scale by ``n % 3`` in an ``if``/``elif`` chain and calls module-level helpers
whose defaults are module constants (``k=SCALE``) and a helper of the operation body whose default
is one of the body's values. The reader walks its columns with ``while True`` and ``break``, the
writer with a nested ``while`` that skips nothing and ``continue``s past its last column.
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

ROWS = 2
SCALE = 2.0


def scaled(blk, k=SCALE):
    return blk * ttl.block.fill(k, shape=(1, 1))


@ttl.operation(grid=(1, 2))
def while_kernel(x: ttnn.Tensor, y: ttnn.Tensor):
    cols = x.shape[1] // ttl.TILE_SHAPE[1]
    half = cols // 2
    offset = 0.5
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    def shifted(blk, by=offset):
        return blk + ttl.block.fill(by, shape=(1, 1))

    @ttl.compute()
    def compute():
        _, node_x = ttl.node(dims=2)
        count = ROWS * (half + node_x - node_x)
        n = 0
        while n < count:
            with x_dfb.wait() as blk, y_dfb.reserve() as out:
                if n % 3 == 0:
                    out.store(scaled(blk))
                elif n % 3 == 1:
                    out.store(scaled(blk, 3.0))
                else:
                    out.store(shifted(blk))
            n += 1

    @ttl.datamovement()
    def read():
        _, node_x = ttl.node(dims=2)
        r = 0
        while True:
            if r >= ROWS:
                break
            c = node_x * half
            while c < (node_x + 1) * half:
                with x_dfb.reserve() as blk:
                    ttl.copy(x[r, c], blk).wait()
                c += 1
            r += 1

    @ttl.datamovement()
    def write():
        _, node_x = ttl.node(dims=2)
        for r in range(ROWS):
            c = node_x * half - 1
            while c < (node_x + 1) * half:
                c += 1
                if c == (node_x + 1) * half:
                    continue
                with y_dfb.wait() as blk:
                    ttl.copy(blk, y[r, c]).wait()


device = ttnn.open_device(device_id=0)
x_host = bf16_exact((32 * ROWS, 32 * 4), seed=41)
x = ttnn.from_torch(x_host, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.from_torch(torch.zeros(x_host.shape), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
while_kernel(x, y)
expected = x_host.clone()
for r in range(ROWS):
    for c in range(4):
        n = r * 2 + c % 2
        tile = expected[r * 32:(r + 1) * 32, c * 32:(c + 1) * 32]
        tile.copy_(tile * 2.0 if n % 3 == 0 else tile * 3.0 if n % 3 == 1 else tile + 0.5)
assert torch.allclose(ttnn.to_torch(y).float(), expected, rtol=1e-2, atol=1e-2)
save_outputs(y=y)
ttnn.close_device(device)
