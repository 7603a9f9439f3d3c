"""Python operators on blocks in the compute thread, one per run.

``a + b``, ``a - b``, ``a * b``, ``a / b``, ``a // b``, ``a % b``, ``a ** b`` (blocks),
``a ** 2`` (an int exponent), ``-a``, ``abs(a)`` and ``2.0 + a`` (a number on the left, the
only mixed form the published simulator defines).

Variants: add sub mul div floordiv mod pow pow_int neg abs radd
"""

import sys

import torch
import ttl
import ttnn

from conformance_io import bf16_exact, save_outputs

NAME = sys.argv[1]
UNARY = NAME in ("pow_int", "neg", "abs", "radd")  # these leave b unread


@ttl.operation(grid=(1, 1))
def operator_kernel(a: ttnn.Tensor, b: ttnn.Tensor, y: ttnn.Tensor):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    b_dfb = ttl.make_dataflow_buffer_like(b, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def apply():
        def binary():
            with a_dfb.wait() as p, b_dfb.wait() as q, y_dfb.reserve() as out:
                if NAME == "add":
                    out.store(p + q)
                elif NAME == "sub":
                    out.store(p - q)
                elif NAME == "mul":
                    out.store(p * q)
                elif NAME == "div":
                    out.store(p / q)
                elif NAME == "floordiv":
                    out.store(p // q)
                elif NAME == "mod":
                    out.store(p % q)
                else:
                    out.store(p ** q)

        if UNARY:
            with a_dfb.wait() as p, y_dfb.reserve() as out:
                if NAME == "pow_int":
                    out.store(p ** 2)
                elif NAME == "neg":
                    out.store(-p)
                elif NAME == "abs":
                    out.store(abs(p))
                else:
                    out.store(2.0 + p)
        else:
            binary()

    @ttl.datamovement()
    def read():
        with a_dfb.reserve() as a_blk:
            ttl.copy(a[0, 0], a_blk).wait()
        if not UNARY:
            with b_dfb.reserve() as b_blk:
                ttl.copy(b[0, 0], b_blk).wait()

    @ttl.datamovement()
    def write():
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, 0]).wait()


device = ttnn.open_device(device_id=0)
a_host = bf16_exact((32, 32), seed=9, low=0.25, high=4.0)  # positive: a ** b stays real
b_host = bf16_exact((32, 32), seed=10, low=0.25, high=2.0)


def to_device(t):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)


a, b, y = to_device(a_host), to_device(b_host), to_device(torch.zeros(32, 32))
operator_kernel(a, b, y)
assert torch.isfinite(ttnn.to_torch(y).float()).all()
save_outputs(y=y)
ttnn.close_device(device)
