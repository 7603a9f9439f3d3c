"""``while`` loops on run-time conditions, and locals whose names a temporary would take.

In the published spelling a thread counts with ``while n < count`` (``count`` from the node), walks
columns with ``while True`` / ``break`` and ``continue``, and keeps counters named ``c`` and ``t``:
the compiler's own temporaries (a condition, a sum) must not take those names. A module-level
helper takes ``k=SCALE``, a module constant, as its default."""
import torch

import ttl
import ttnn

ROWS, SCALE = 2, 2.0


def scaled(blk, k=SCALE):
    return blk * ttl.block.fill(k, shape=(1, 1))


@ttl.operation(grid=(1, 2))
def walk(x, y):
    half = x.shape[1] // ttl.TILE_SHAPE[1] // 2
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def compute():
        _, node = ttl.node(dims=2)
        count = ROWS * half + node - node
        n = 0
        t = 0
        while n < count:
            with x_dfb.wait() as blk, y_dfb.reserve() as out:
                if t % 2 == 0:
                    out.store(scaled(blk))
                else:
                    out.store(scaled(blk, 3.0))
            n += 1
            t = t + 1

    @ttl.datamovement()
    def read():
        _, node = ttl.node(dims=2)
        r = 0
        while True:
            if r >= ROWS:
                break
            c = node * half
            while c < (node + 1) * half:
                with x_dfb.reserve() as blk:
                    ttl.copy(x[r, c], blk).wait()
                c += 1
            r += 1

    @ttl.datamovement()
    def write():
        _, node = ttl.node(dims=2)
        for r in range(ROWS):
            c = node * half - 1
            while c < (node + 1) * half:
                c += 1
                if c == (node + 1) * half:
                    continue
                with y_dfb.wait() as blk:
                    ttl.copy(blk, y[r, c]).wait()


torch.manual_seed(5)
x_host = torch.randn(ROWS * 32, 4 * 32)
x = ttnn.from_torch(x_host, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(x_host.shape), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
walk(x, y)
expected = x_host.clone()
for r in range(ROWS):
    for col in range(4):
        k = 2.0 if (r * 2 + col % 2) % 2 == 0 else 3.0
        expected[r * 32:(r + 1) * 32, col * 32:(col + 1) * 32] *= k
assert torch.equal(ttnn.to_torch(y), expected), (ttnn.to_torch(y) - expected).abs().max()
