"""pytest setup for the micro-op tests (``pytest examples/microops``).

On a machine with a Tenstorrent device and ttnn 0.81.1 the tests run on the device. Anywhere
else ``import ttnn`` is served by tilecraft, whose kernel emulator compiles and runs the C++
kernels on the CPU; while tilecraft's ttnn has no ``generic_op`` (the emulator has not landed)
the tests that need a device are skipped with that reason.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# The op packages (rmsnorm/, gather/, matmul/) are imported by their directory names.
sys.path.insert(0, str(Path(__file__).resolve().parent))

try:
    import ttnn
except ImportError:  # no ttnn wheel: tilecraft's, as `tilecraft run` serves it
    from tilecraft.scripts import install_modules

    install_modules()
    import ttnn


@pytest.fixture
def device():
    if not hasattr(ttnn, "generic_op"):
        pytest.skip("this ttnn has no generic_op: tilecraft's kernel emulator (tilecraft.emu) is not installed")
    opened = ttnn.open_device(device_id=0)
    yield opened
    ttnn.close_device(opened)

