"""Compile and run C++ unit tests of the Tensix machine (tilecraft/emu/tensix).

A unit test is a C++ ``main`` that builds a ``tc_tensix::Machine``, executes instruction words
(encoded with the wheel's own ``TT_OP_*`` macros from ``ckernel_ops.h``) and prints results the
Python test checks. Every machine source is linked in, so a unit's opcodes are registered.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tilecraft import wheel_headers
from tilecraft.emu import cache, cache_budget
from tilecraft.emu.build import compiler
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
    gxx = compiler()
    out_dir = tmp_path_factory.mktemp("tensix_unit")
    machines: dict[str, Path] = {}

    def machine(arch: str) -> Path:
        """Every machine source compiled and joined (``g++ -r``) into one object, in the emulator's
        cache: built once per content, shared by the xdist workers and by later sessions (tests
        only differ in ``main``); built again if the cache's bound removed it during the session."""
        if arch not in machines or not cache_budget.mark_used(machines[arch].parent):
            sources = sorted(MACHINE_DIR.glob("*.cpp"))
            key = cache.digest("tensix-unit-machine", arch, gxx.version, *_flags(arch),
                               _machine_tree_digest(), wheel_headers.VERSION, wheel_headers.LAYOUT_VERSION)

            def make(directory: Path) -> Path:
                def compile_one(source: Path) -> str:
                    obj = directory / f"{source.stem}.o"
                    _compile(["-c", str(source), "-o", str(obj)], arch)
                    return str(obj)

                with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
                    objects = list(pool.map(compile_one, sources))
                joined = directory / "joined_machine.o"  # machine.cpp has machine.o
                _compile(["-r", "-nostdlib", *objects, "-o", str(joined)], arch)
                for obj in objects:  # only the joined object is kept
                    Path(obj).unlink()
                return joined

            machines[arch] = cache.build("tensix-unit-machine", key, make)[0]
        return machines[arch]

    def _flags(arch: str) -> list[str]:
        return ["-std=c++20", "-O1", "-w", f"-DTC_ARCH_{arch.upper()}", *_include_flags(tt_metal, arch)]

    def _compile(args: list[str], arch: str) -> None:
        built = subprocess.run([*gxx.command(), *_flags(arch), *args], capture_output=True, text=True)
        assert built.returncode == 0, built.stderr[-4000:]

    def run(cpp_source: str, arch: str = "wormhole", stdin: str = "", extra_flags: Sequence[str] = ()) -> str:
        """``extra_flags``: more g++ flags for the test's own source (include dirs, defines)."""
        joined = machine(arch)
        key = hashlib.sha256(cpp_source.encode() + "\0".join(extra_flags).encode()
                             + str(joined).encode()).hexdigest()[:16]
        test_cpp = out_dir / f"t_{key}.cpp"
        exe = out_dir / f"t_{key}"
        if not exe.exists():
            test_cpp.write_text(cpp_source)
            _compile([*extra_flags, str(test_cpp), str(joined), "-o", str(exe)], arch)
        ran = subprocess.run([str(exe)], input=stdin, capture_output=True, text=True, timeout=60)
        assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
        return ran.stdout

    return run


def _machine_tree_digest() -> str:
    """The machine's sources and headers (sfpi/, kernel_include/ too): what its objects are made of."""
    files = sorted(p for p in MACHINE_DIR.rglob("*") if p.is_file() and p.suffix in (".h", ".hpp", ".cpp"))
    return cache.digest(*(part for p in files for part in (p.relative_to(MACHINE_DIR).as_posix(), p.read_bytes())))
