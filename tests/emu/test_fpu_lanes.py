"""The matmul's eight-lane FPU path (``fpu::dot8``: eight DST elements per call, the fidelity
phases sharing one alignment of each group's products) gives the same bits as the one-element
path (``fpu::dot``) that test_device_arithmetic.py holds to the device model: a C++ driver over
random and edge-case operands, every fidelity and both DST modes, built with the runtime's flags."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tilecraft.emu import build

DRIVER = Path(__file__).parent / "native" / "dot8_vs_dot.cpp"


def test_dot8_is_bit_identical_to_dot(tmp_path: Path) -> None:
    exe = tmp_path / "dot8_vs_dot"
    flags = [f for f in build.FLAGS if f not in ("-fPIC", "-shared")]
    subprocess.run([*build.compiler().command(), *flags, "-I", str(build.RUNTIME), str(DRIVER),
                    str(build.RUNTIME / "fpu.cpp"), "-o", str(exe)], check=True, capture_output=True, text=True,
                   timeout=300)
    result = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout
    assert result.stdout.strip().endswith("0 of 614400 elements differ")
