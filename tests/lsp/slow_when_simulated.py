"""Quick to compile, slow to sanitize: after the launch the host code stalls only when the simulator
computed values (the editor's compile check computes none), then fails with a marker the tests
look for. Used to check that a sanitizer run that went stale is cancelled."""

import time

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.kernel(grid=(1, 1))
def copy_tile(x, y):
    cb = ttl.make_circular_buffer_like(x, shape=(1, 1), buffer_factor=2)

    @ttl.datamovement()
    def reader():
        with cb.reserve() as blk:
            ttl.copy(x[0, 0], blk).wait()

    @ttl.datamovement()
    def writer():
        with cb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()

    return ttl.Program(reader, writer)(x, y)


x = ttnn.ones((32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
y = ttnn.zeros((32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
copy_tile(x, y)
if ttnn.to_torch(y).sum() > 0:  # values were computed: this is the sanitizer's run
    time.sleep(60)
    raise AssertionError("STALE-SANITIZER-RESULT")
