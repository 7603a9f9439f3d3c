"""Compile and run C++ unit tests of the Tensix machine (tilecraft/emu/tensix).

A unit test is a C++ ``main`` that builds a ``tc_tensix::Machine``, executes instruction words
(encoded with the wheel's own ``TT_OP_*`` macros from ``ckernel_ops.h``) and prints results the
Python test checks. Every machine source is linked in, so a unit's opcodes are registered.
"""

from __future__ import annotations

import hashlib
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from tilecraft.wheel_headers import HeadersUnavailable, ensure_headers

MACHINE_DIR = Path(__file__).resolve().parents[3] / "tilecraft" / "emu" / "tensix"
ARCH_DIRS = {"wormhole": ("wormhole", "wormhole_b0"), "blackhole": ("blackhole", "blackhole")}


def _include_flags(tt_metal: Path, arch: str) -> list[str]:
    hw_arch, llk_arch = ARCH_DIRS[arch]
    hw = tt_metal / "hw" / "inc" / "internal" / "tt-1xx" / hw_arch
    # sfpi/ holds our SFPI (sfpi.h), which SFPU kernels include; it comes first as in kernel builds.
    flags = [f"-I{MACHINE_DIR / 'sfpi'}", f"-I{MACHINE_DIR}", f"-I{hw}",
             f"-I{tt_metal / 'tt-llk' / f'tt_llk_{llk_arch}' / 'common' / 'inc'}"]
    if arch == "wormhole":
        flags.append(f"-I{hw / 'wormhole_b0_defines'}")
    return flags


@pytest.fixture(scope="session")
def tensix_unit_test(tmp_path_factory):
    """``run(cpp_source, arch="wormhole", stdin="") -> stdout``: compile the test with the machine and
    run it with `stdin` on its standard input (a script-driven test compiles one main for all cases)."""
    try:
        tt_metal = ensure_headers() / "tt_metal"
    except HeadersUnavailable as exc:
        pytest.skip(f"tt-metal headers unavailable: {exc}")
    out_dir = tmp_path_factory.mktemp("tensix_unit")

    objects: dict[tuple[str, str], Path] = {}

    def machine_object(source: Path, arch: str) -> Path:
        """Each machine source is compiled once per session and arch (tests only differ in ``main``)."""
        key = (str(source), arch)
        if key not in objects:
            digest = hashlib.sha256(source.read_bytes() + b"".join(
                h.read_bytes() for h in sorted(MACHINE_DIR.glob("*.h")))).hexdigest()[:16]
            obj = out_dir / f"{source.stem}_{arch}_{digest}.o"
            _compile(["-c", str(source), "-o", str(obj)], arch)
            objects[key] = obj
        return objects[key]

    def _compile(args: list[str], arch: str) -> None:
        cmd = ["g++", "-std=c++20", "-O1", "-w", f"-DTC_ARCH_{arch.upper()}", *_include_flags(tt_metal, arch), *args]
        built = subprocess.run(cmd, capture_output=True, text=True)
        assert built.returncode == 0, built.stderr[-4000:]

    def run(cpp_source: str, arch: str = "wormhole", stdin: str = "", extra_flags: Sequence[str] = ()) -> str:
        """``extra_flags``: more g++ flags for the test's own source (include dirs, defines)."""
        machine = [machine_object(p, arch) for p in sorted(MACHINE_DIR.glob("*.cpp"))]
        key = hashlib.sha256(cpp_source.encode() + "\0".join(extra_flags).encode()
                             + b"".join(p.name.encode() for p in machine)).hexdigest()[:16]
        test_cpp = out_dir / f"t_{key}.cpp"
        exe = out_dir / f"t_{key}"
        if not exe.exists():
            test_cpp.write_text(cpp_source)
            _compile([*extra_flags, str(test_cpp), *map(str, machine), "-o", str(exe)], arch)
        ran = subprocess.run([str(exe)], input=stdin, capture_output=True, text=True, timeout=60)
        assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
        return ran.stdout

    return run
