"""What the kernel API does not have stops the build with its name and the kernel's file:line,
never with a result the device would not compute (issue 21, item 6): a call the 0.81.1 API does
not declare (E5002 at compile time, tests/emu/test_build.py) and a kernel API header it does not
have (E5002, here). What the Tensix machine does not model stops the run where the kernel
reaches it (E5861: tests/emu/test_dataflow_real.py, E5871: tests/emu/test_tensix_compute.py).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.emu.harness import cb, compute, line_of, output, run, write_kernel
from tilecraft.diagnostics import KernelError


def test_a_kernel_api_header_0_81_1_does_not_have(device, tmp_path: Path) -> None:
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
    assert diag.message == ("header 'api/dataflow/no_such_object_api.h' is not part of the TT-Metalium 0.81.1 "
                            "kernel API: the wheel's headers have no such file")
