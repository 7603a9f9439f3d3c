"""Single-threaded operations against the hand-threaded examples, by the cost model (issue 24 item 5).

For each hand-threaded example (``examples/elementwise_*``, ``matmul_*``, ``row_softmax``,
``flash_attention``, and ``autotune_matmul`` -- the multicast matmul -- at fixed blocks) a
single-threaded twin computes the same function on the same shapes, grid and block shape; both are
timed with ``tilecraft profile`` (values computed, so each twin checks itself against torch) on
Wormhole and Blackhole, and the table gives the predicted time of each and their ratio.

    python benchmarks/single_thread_vs_threads.py            # prints the markdown table

The twins differ from their examples only where the single-threaded spelling does: the output
blocks are spread as the compiler's schedule says (a rectangle per core on a 2-D grid unless runs
of consecutive blocks leave the busiest core fewer blocks), a bias is added after the K loop
instead of seeding the accumulator with it, and sums go to a local block instead of the output's
buffer.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARCHES = ("wormhole_b0", "blackhole")

HEAD = '''\
import torch
import tilecraft as ttl
import tilecraft.ttnn as ttnn

TILE = 32
torch.manual_seed(0)


def tensor(rows, cols):
    return ttnn.from_torch(torch.randn(rows, cols).to(torch.bfloat16), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)


def host(t):
    return ttnn.to_torch(t).float()

'''

ELTWISE = '''
BR, BC = {block}


@ttl.operation(grid={grid}, block=(BR, BC))
def relu_diff_scale(a, b, c, y):
    r, q = ttl.block_index()
    y[r * BR:(r + 1) * BR, q * BC:(q + 1) * BC] = ttl.math.relu(
        a[r * BR:(r + 1) * BR, q * BC:(q + 1) * BC] - b[r * BR:(r + 1) * BR, q * BC:(q + 1) * BC]
    ) * c[r * BR:(r + 1) * BR, q * BC:(q + 1) * BC]


a, b, c, y = (tensor(*{shape}) for _ in range(4))
relu_diff_scale(a, b, c, y)
assert torch.allclose(host(y), torch.relu(host(a) - host(b)) * host(c), rtol=1e-2, atol=1e-2)
'''

MATMUL = '''
BM, BK, BN = {block}


@ttl.operation(grid={grid}, block=(BM, BN))
def matmul_bias(a, b, c, y):
    m, n = ttl.block_index()
    acc = ttl.block.fill(0, shape=(BM, BN))
    for kb in range(a.shape[1] // TILE // BK):
        acc += a[m * BM:(m + 1) * BM, kb * BK:(kb + 1) * BK] @ b[kb * BK:(kb + 1) * BK, n * BN:(n + 1) * BN]
    y[m * BM:(m + 1) * BM, n * BN:(n + 1) * BN] = {epilogue}


M, K, N = {shape}
a, b, c, y = tensor(M, K), tensor(K, N), tensor(M, N), tensor(M, N)
matmul_bias(a, b, c, y)
want = {golden}
assert (host(y) - want).abs().max() <= 2e-2 * want.abs().max()
'''



MULTICAST = '''
BM, BK, BN = 2, 2, 2


@ttl.operation(grid=(4, 4), block=(BM, BN), multicast=True)
def matmul(a, b, y):
    m, n = ttl.block_index()
    acc = ttl.block.fill(0, shape=(BM, BN))
    for kb in range(a.shape[1] // TILE // BK):
        acc += a[m * BM:(m + 1) * BM, kb * BK:(kb + 1) * BK] @ b[kb * BK:(kb + 1) * BK, n * BN:(n + 1) * BN]
    y[m * BM:(m + 1) * BM, n * BN:(n + 1) * BN] = acc


a, b, y = tensor(512, 256), tensor(256, 512), tensor(512, 512)
matmul(a, b, y)
want = host(a) @ host(b)
assert (host(y) - want).abs().max() <= 2e-2 * want.abs().max()
'''


def multicast_hand() -> str:
    """examples/autotune_matmul.py (a reads multicast along grid rows, b down grid columns) with the
    blocks fixed at 2 x 2 x 2 tiles on a 4x4 grid, 512 x 256 @ 256 x 512: the twin's launch."""
    text = (ROOT / "examples" / "autotune_matmul.py").read_text()
    for old, new in (('@ttl.autotune(configs=ttl.SearchSpace(BM=BLOCKS, BK=BLOCKS, BN=BLOCKS), key=["a", "b"], '
                      'fidelity="HiFi2")\n@ttl.operation(grid="full")', "@ttl.operation(grid=(4, 4))"),
                     ("a_host, b_host = torch.randn(size, size), torch.randn(size, size)",
                      "a_host, b_host = torch.randn(512, 256), torch.randn(256, 512)"),
                     ("y = ttnn.zeros((size, size)", "y = ttnn.zeros((512, 512)"),
                     ("    matmul(a, b, y)\n", "    matmul(a, b, y, BM=2, BK=2, BN=2)\n")):
        assert old in text, f"examples/autotune_matmul.py no longer says {old!r}"
        text = text.replace(old, new)
    return text


def softmax_twin() -> str:
    """examples/single_thread_softmax.py on row_softmax's grid and shape (one core, 2 x 4 tiles)."""
    text = (ROOT / "examples" / "single_thread_softmax.py").read_text()
    for old, new in (('grid=(2, 1), block=(1, None), schedule="strided"', "grid=(1, 1), block=(1, None)"),
                     ("M, N = 4 * 32, 4 * 32", "M, N = 2 * 32, 4 * 32")):
        assert old in text, f"examples/single_thread_softmax.py no longer says {old!r}"
        text = text.replace(old, new)
    return text


PLAIN = "acc + c[m * BM:(m + 1) * BM, n * BN:(n + 1) * BN]"
GELU = "ttl.math.gelu(acc + c[m * BM:(m + 1) * BM, n * BN:(n + 1) * BN])"

#: (hand-threaded example, its single-threaded twin); the hand-threaded program is examples/NAME.py
#: unless HAND_WRITTEN gives its text
PAIRS = [
    ("elementwise_2_multitile_block", ELTWISE.format(grid=(1, 1), block=(2, 4), shape=(2 * 2 * 32, 2 * 4 * 32))),
    ("elementwise_3_multinode", ELTWISE.format(grid=(2, 2), block=(2, 2), shape=(2 * 2 * 2 * 32, 2 * 2 * 2 * 32))),
    ("elementwise_4_grid_full", ELTWISE.format(grid='"full"', block=(1, 2), shape=(5 * 32, 3 * 2 * 32))),
    ("matmul_2_multitile_block", MATMUL.format(grid=(1, 1), block=(2, 2, 2), epilogue=PLAIN,
                                               shape=(2 * 2 * 32, 3 * 2 * 32, 2 * 2 * 32),
                                               golden="host(a) @ host(b) + host(c)")),
    ("matmul_3_multinode", MATMUL.format(grid=(2, 2), block=(1, 2, 2), epilogue=PLAIN,
                                         shape=(2 * 2 * 32, 2 * 2 * 32, 2 * 2 * 32),
                                         golden="host(a) @ host(b) + host(c)")),
    ("matmul_4_grid_full", MATMUL.format(grid='"full"', block=(1, 2, 1), epilogue=GELU,
                                         shape=(9 * 32, 2 * 2 * 32, 3 * 32),
                                         golden='torch.nn.functional.gelu(host(a) @ host(b) + host(c), '
                                                'approximate="tanh")')),
    ("matmul_local_accumulator", (ROOT / "examples" / "single_thread_matmul.py").read_text()),
    ("row_softmax", softmax_twin()),
    ("matmul_multicast", MULTICAST),
    ("flash_attention", (ROOT / "examples" / "single_thread_attention.py").read_text()),
]

HAND_WRITTEN = {"matmul_multicast": multicast_hand()}

_CYCLES = re.compile(r"predicted time\s+([\d.]+) us \(([\d,]+) cycles")


def predicted_cycles(script: Path, arch: str) -> int:
    done = subprocess.run([sys.executable, "-m", "tilecraft", "profile", str(script), "--arch", arch],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    if done.returncode != 0:
        raise RuntimeError(f"{script} on {arch}:\n{done.stderr[-3000:]}")
    found = _CYCLES.search(done.stdout)
    if found is None:
        raise RuntimeError(f"no predicted time for {script} on {arch}:\n{done.stdout[-2000:]}")
    return int(found.group(2).replace(",", ""))


def main() -> None:
    rows = ["| example | arch | hand-threaded (cycles) | single-threaded (cycles) | single / hand |",
            "|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for name, twin in PAIRS:
            script = Path(tmp) / f"single_{name}.py"
            script.write_text(twin if twin.startswith('"""') else HEAD + textwrap.dedent(twin))
            hand_script = ROOT / "examples" / f"{name}.py"
            if name in HAND_WRITTEN:
                hand_script = Path(tmp) / f"hand_{name}.py"
                hand_script.write_text(HAND_WRITTEN[name])
            for arch in ARCHES:
                hand = predicted_cycles(hand_script, arch)
                single = predicted_cycles(script, arch)
                rows.append(f"| {name} | {arch} | {hand:,} | {single:,} | {single / hand:.2f} |")
                print(rows[-1], file=sys.stderr)
    print("\n".join(rows))


if __name__ == "__main__":
    main()
