"""Python's division operators on run-time values, negative ones included (issue 22, defect 2).

``//`` floors and ``%`` takes the sign of the divisor, as in Python and the published simulator
(C++'s ``/`` and ``%`` truncate: ``(i - 1) // 2`` at ``i == 0`` is -1 here and was 0 in the emitted
kernel); ``/`` of two integers is a float (the emitted kernel once divided them as integers).
Floats floor-divide and take remainders the same way. Each tile of the output is filled with one
value, so the program checks every operator on six dividends from -3 to 2."""
import torch

import ttl
import ttnn

COLS, ROWS = 6, 8


@ttl.operation(grid=(1, 1))
def divide(y):
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    def put(value):
        with y_dfb.reserve() as out:
            out.store(ttl.block.fill(value, shape=(1, 1)))

    @ttl.compute()
    def compute():
        _, node = ttl.node(dims=2)
        two = node + 2  # known at run time only
        for i in range(COLS):
            a = i - 3 + node
            put(float((a - 1) // 2))
            put(float(a % 3))
            put(float(a // -two))
            put(float(a % -two))
            put(float(a / two))
            x = a * 0.75
            put(x // 1.0)
            put(x % 1.0)
            put(float(-7 // two + a % -4))

    @ttl.datamovement()
    def write():
        for c in range(COLS):
            for r in range(ROWS):
                with y_dfb.wait() as blk:
                    ttl.copy(blk, y[r, c]).wait()


y = ttnn.from_torch(torch.zeros(ROWS * 32, COLS * 32), dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT)
divide(y)
expected = torch.zeros(ROWS, COLS)
for i in range(COLS):
    a = i - 3
    x = a * 0.75
    column = [(a - 1) // 2, a % 3, a // -2, a % -2, a / 2, x // 1.0, x % 1.0, -7 // 2 + a % -4]
    expected[:, i] = torch.tensor(column, dtype=torch.float32)
got = ttnn.to_torch(y)[::32, ::32]
assert torch.equal(got, expected), (got, expected)
