"""``tilecraft run --numerics device`` computes bit for bit what ``--level cpp`` computes.

The language level with the device's arithmetic (tilecraft/sim/device_math.py over
tilecraft/device_arith.py) against the emitted C++ on the kernel emulator, on the examples: every
output tensor must have the same bytes. The default numerics (ideal fp32) gives different bits on
the same programs (the FPU's grouped accumulation and the packer's ties away from zero), which is
checked too, so that the equality is not a coincidence of exact inputs.

Three examples are in the default run (one matmul and one eltwise program, whose emitted kernels
test_examples_cpp.py builds too, and an attention: the LLK's exp, a row max of Float32 scores)
and a program of SFPU sums, products and comparisons at the edges of Float32 on both architectures;
every other example, and a program of SFPU functions whose LLK algorithms are not correctly
rounded, are marked slow.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
import torch

from tilecraft import session
from tilecraft.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: examples whose emitted program differs from the language level by an emitter defect
#: (tests/emu/test_examples_cpp.py XFAIL; none today)
DEFECT: set[str] = set()

pytestmark = pytest.mark.usefixtures("fresh_process_state")


def outputs(path: Path, *options: str) -> list[torch.Tensor]:
    """Every program's tensors after it ran, as raw bytes."""
    seen: list[torch.Tensor] = []
    err = io.StringIO()
    with session.using(result_hooks=[lambda program, tensors: seen.extend(t.storage.clone() for t in tensors)]), \
            contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["run", str(path), *options])
    assert code == 0, err.getvalue()[-3000:]
    return [t.contiguous().view(-1).view(torch.uint8) for t in seen]


def differing_bytes(a: list[torch.Tensor], b: list[torch.Tensor]) -> int:
    assert len(a) == len(b)
    return sum(int((x != y).sum()) for x, y in zip(a, b))


def check_bit_equal(path: Path, *options: str) -> None:
    emulated = outputs(path, "--level", "cpp", *options)
    assert differing_bytes(outputs(path, "--numerics", "device", *options), emulated) == 0
    assert differing_bytes(outputs(path, *options), emulated) > 0  # the ideal arithmetic is not the device's


@pytest.mark.parametrize("name", ["matmul_1_single_tile", "elementwise_1_single_tile", "fuse_attention"])
def test_device_numerics_equal_the_emulator_bit_for_bit(name: str) -> None:
    check_bit_equal(EXAMPLES / f"{name}.py")


@pytest.mark.parametrize("arch, dtype", [("wormhole_b0", "float32"), ("blackhole", "float32"), ("wormhole_b0", "bfloat16")])
def test_block_math_at_the_edges_of_the_format_equals_the_emulator(arch: str, dtype: str) -> None:
    # denormals, signed zeros, infinities and NaNs: the SFPU flushes denormals and each architecture
    # writes NaNs and zeros its own way; the matrix unit has neither NaNs nor denormals
    check_bit_equal(Path(__file__).parent / "sfpu_chains" / "edge_values.py", dtype, "--arch", arch)


@pytest.mark.slow
def test_sfpu_functions_equal_the_llks_algorithms() -> None:
    # tanh, selu, exp, sigmoid, softplus, log2, mish, rsqrt, elu, x ** 3, hardswish, log10 on fp32 data:
    # the Tensix machine runs the LLK's algorithms, which are not correctly rounded; the ideal
    # float64-rounded-once values differ in many elements
    check_bit_equal(Path(__file__).parent / "sfpu_chains" / "llk_functions.py")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.py") if p.stem not in DEFECT))
def test_every_device_exact_example(name: str) -> None:
    path = EXAMPLES / f"{name}.py"
    assert differing_bytes(outputs(path, "--numerics", "device"), outputs(path, "--level", "cpp")) == 0
