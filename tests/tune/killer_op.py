"""A tuned operation with a candidate whose kernel scope kills the process evaluating it.

For the Dask tests only (in a serial sweep it would kill the test run): the worker that builds
``DIE=True`` dies, Dask retries the task once on another worker, which dies too, and the sweep
reports the candidate as lost and finishes the others on the restarted workers.
"""

import os
import signal

import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.autotune(configs=[ttl.Config(W=1, DIE=False), ttl.Config(W=2, DIE=True), ttl.Config(W=4, DIE=False)],
              key=["x"], arch="n150")
@ttl.operation(grid=(1, 1))
def fragile(x: ttnn.Tensor, y: ttnn.Tensor, *, W: int, DIE: bool):
    if DIE:
        os.kill(os.getpid(), signal.SIGKILL)
    blocks = x.shape[1] // 32 // W
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, W), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, W), block_count=2)

    @ttl.datamovement()
    def load():
        for c in range(blocks):
            with x_dfb.reserve() as blk:
                ttl.copy(x[0:1, c * W:(c + 1) * W], blk).wait()

    @ttl.compute()
    def work():
        for _ in range(blocks):
            with x_dfb.wait() as a, y_dfb.reserve() as b:
                b.store(a + a)

    @ttl.datamovement()
    def save():
        for c in range(blocks):
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[0:1, c * W:(c + 1) * W]).wait()
