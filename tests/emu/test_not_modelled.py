"""What the emulator does not model stops the run with its name and the kernel's file:line,
never with a result the device would not compute (issue 21, item 6).

Three ways a kernel reaches for it: a call the emulated API does not declare (E5002 at compile
time, tests/emu/test_build.py), a kernel API header the emulator does not have (E5002, here), and
an argument of a declared call whose effect is not modelled (a VectorMode other than RC, a
transposed ``matmul_init``, a broadcast row index): E5009 when the call runs.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import torch

import tilecraft.ttnn as ttnn
from tests.emu.harness import KERNELS, cb, compute, dram, line_of, output, reader, run, write_kernel, writer
from tilecraft.diagnostics import KernelError

#: these are the emulator engine's own findings; the Tensix machine runs the LLK's code instead
pytestmark = pytest.mark.usefixtures("emulator_engine")

#: an SFPU_OPS define for tests/emu/kernels/compute_unary.cpp -> what the finding names
UNMODELLED_ARGUMENTS = {
    "recip_tile_init(); recip_tile(0, VectorMode::R);": "recip_tile with a VectorMode other than VectorMode::RC",
    "exp_tile_init(); exp_tile(0, VectorMode::C);": "exp_tile with a VectorMode other than VectorMode::RC",
    "sigmoid_tile_init(); sigmoid_tile<VectorMode::R>(0);": "sigmoid_tile with a VectorMode other than VectorMode::RC",
}


@pytest.mark.parametrize("call", list(UNMODELLED_ARGUMENTS), ids=lambda c: c.split("(")[0])
def test_an_argument_the_emulator_does_not_model_stops_at_the_call(device, call: str) -> None:
    x = dram(device, torch.rand(32, 32) + 0.5)
    out = output(device, (32, 32))
    path = KERNELS / "compute_unary.cpp"
    k = compute(path, rt=[1], defines=[("SFPU_OPS", call)])
    with pytest.raises(KernelError) as info:
        run([x, out], [reader(x, 0, 1), k, writer(out, 16, 1)], [cb(0), cb(16)])
    diag = info.value.diagnostic
    assert diag.code == "E5009"
    assert diag.message == f"{UNMODELLED_ARGUMENTS[call]} is not modelled by the emulator"
    sfpu_line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if text.strip() == "SFPU_OPS")
    assert diag.span.file.endswith("compute_unary.cpp") and diag.span.line == sfpu_line
    assert torch.equal(ttnn.to_torch(out), torch.zeros(32, 32, dtype=torch.bfloat16))  # nothing was read back


def test_a_transposed_matmul_init_stops_at_the_init(device, tmp_path: Path) -> None:
    path = write_kernel(tmp_path, "matmul_transposed.cpp", textwrap.dedent("""\
        #include <cstdint>
        #include "api/compute/compute_kernel_hw_startup.h"
        #include "api/compute/matmul.h"

        void kernel_main() {
            compute_kernel_hw_startup<SrcOrder::Reverse>(0, 1, 16);
            matmul_init(0, 1, 1);  // FINDING-HERE
        }
        """))
    out = output(device, (32, 32))
    with pytest.raises(KernelError) as info:
        run([out], [compute(path)], [cb(0), cb(1), cb(16)])
    diag = info.value.diagnostic
    assert diag.code == "E5009" and diag.span.line == line_of(path)
    assert diag.message == ("matmul_init with transpose (matmul_tiles of a transposed in1) is not modelled by the "
                            "emulator")


def test_a_threshold_relu_of_the_packer_stops_at_its_config(device, tmp_path: Path) -> None:
    """pack_relu_config models none() and zero(); a threshold mode stops at the call."""
    path = write_kernel(tmp_path, "relu_threshold.cpp", textwrap.dedent("""\
        #include <cstdint>
        #include "api/compute/compute_kernel_hw_startup.h"
        #include "api/compute/pack.h"

        void kernel_main() {
            compute_kernel_hw_startup(0, 16);
            pack_relu_config(ReluConfig::zero());
            pack_relu_config(ReluConfig::min_threshold(0x3f80));  // FINDING-HERE
        }
        """))
    out = output(device, (32, 32))
    with pytest.raises(KernelError) as info:
        run([out], [compute(path)], [cb(0), cb(16)])
    diag = info.value.diagnostic
    assert diag.code == "E5009" and diag.span.line == line_of(path)
    assert diag.message == "pack_relu_config with a threshold ReLU mode is not modelled by the emulator"


def test_a_kernel_api_header_the_emulator_does_not_have(device, tmp_path: Path) -> None:
    path = write_kernel(tmp_path, "object_api.cpp", textwrap.dedent("""\
        #include <cstdint>
        #include "api/dataflow/no_such_object_api.h"  // FINDING-HERE

        void kernel_main() {}
        """))
    out = output(device, (32, 32))
    with pytest.raises(KernelError) as info:
        run([out], [compute(path)], [cb(0), cb(16)])
    diag = info.value.diagnostic
    assert diag.code == "E5002" and diag.span.line == line_of(path)
    assert diag.message == ("header 'api/dataflow/no_such_object_api.h' is not modelled by the emulator: the emulated "
                            "TT-Metalium 0.81.1 kernel API has no such header")
