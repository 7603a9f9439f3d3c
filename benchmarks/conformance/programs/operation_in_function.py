"""An operation defined inside a function, ending as tt-lang's own simulator tests end one:
``return ttl.Program(compute, dm0, dm1, grid=grid)()`` with no ``grid`` of its own (the published
simulator gives an operation's body the name ``grid``); its tensors are made with
``ttnn.Tensor(torch_tensor)`` (issue 22, defect 5d).
"""

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs


def run_double(a_host):
    @ttl.operation(grid=(1, 2))
    def double(a: ttnn.Tensor, out: ttnn.Tensor):
        a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
        o_dfb = ttl.make_dataflow_buffer_like(out, shape=(1, 1), block_count=2)

        @ttl.compute()
        def compute():
            with a_dfb.wait() as x, o_dfb.reserve() as o:
                o.store(x + x)

        @ttl.datamovement()
        def dm0():
            row, col = ttl.node(dims=2)
            with a_dfb.reserve() as x:
                ttl.copy(a[row, col], x).wait()

        @ttl.datamovement()
        def dm1():
            row, col = ttl.node(dims=2)
            with o_dfb.wait() as o:
                ttl.copy(o, out[row, col]).wait()

        return ttl.Program(compute, dm0, dm1, grid=grid)()

    a = ttnn.Tensor(a_host)
    out = ttnn.Tensor(torch.zeros(32, 64))
    double(a, out)
    return out


a_host = bf16_exact((32, 64), seed=41, step=0.25)
out = run_double(a_host)
assert torch.equal(ttnn.to_torch(out), a_host + a_host)
save_outputs(out=out)
