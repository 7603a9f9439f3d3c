"""ttnn host operations of the published simulator's ttnn, one per run: ``add``, ``multiply``,
``matmul``, ``relu``, ``squeeze`` (with and without ``dim``), and the ``ttnn.Tensor`` operators.

Inputs are multiples of 1/4 (every result exact in float32). The published simulator returns
these results declared float32 whatever their inputs; they are compared as bfloat16, the format
of their inputs, which is what ttnn gives.

Variants: add multiply matmul relu squeeze squeeze_dim op_add op_sub op_mul op_div op_matmul
Variants: op_neg op_abs op_pow op_floordiv op_mod op_scalars op_reflected
Format: bfloat16; the published simulator's host ops declare their results float32
"""

import sys

import ttnn

from conformance_io import bf16_exact, save_outputs

OP = sys.argv[1]
device = ttnn.open_device(device_id=0)
a_host = bf16_exact((64, 64), seed=46, low=0.25, high=4.0, step=0.25)
b_host = bf16_exact((64, 64), seed=47, low=0.25, high=2.0, step=0.25)


def to_device(t):
    return ttnn.from_torch(t, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)


a, b = to_device(a_host), to_device(b_host)
if OP == "add":
    y = ttnn.add(a, b)
elif OP == "multiply":
    y = ttnn.multiply(a, b)
elif OP == "matmul":
    y = ttnn.matmul(a, b)
elif OP == "relu":
    y = ttnn.relu(a - b)
elif OP == "squeeze":
    y = ttnn.squeeze(to_device(a_host.reshape(1, 64, 64)))
elif OP == "squeeze_dim":
    y = ttnn.squeeze(to_device(a_host.reshape(1, 64, 64)), 0)
elif OP == "op_add":
    y = a + b
elif OP == "op_sub":
    y = a - b
elif OP == "op_mul":
    y = a * b
elif OP == "op_div":
    y = a / b
elif OP == "op_matmul":
    y = a @ b
elif OP == "op_neg":
    y = -a
elif OP == "op_abs":
    y = abs(a - b)
elif OP == "op_pow":
    y = a ** 2
elif OP == "op_floordiv":
    y = a // b
elif OP == "op_mod":
    y = a % b
elif OP == "op_scalars":
    y = 2 * a + 1 - b / 4
else:  # a number on the left of each operator, one result each
    results = {"radd": 1 + a, "rsub": 3 - a, "rtruediv": 2 / a, "rfloordiv": 10 // a, "rmod": 10 % a,
               "rpow": 2 ** b}
    save_outputs(**results)
    y = results["radd"]
assert tuple(y.shape) == (64, 64), y.shape
if OP != "op_reflected":
    save_outputs(y=y)
ttnn.close_device(device)
