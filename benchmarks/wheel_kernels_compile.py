"""How many of ttnn 0.81.1's own kernels compile against the emulator's headers.

Each kernel source of the wheel (``<op>/device/kernels/**.cpp``, fetched by
tilecraft/emu/wheel_kernels.py) is compiled syntax-only (``g++ -fsyntax-only``) exactly as the
emulator builds it: the generated header, the firmware's implicit includes, the kernel, with
ttnn's two include roots. The arguments are not the op's: every kernel gets 64 compile-time args
of value 2 (an interleaved DRAM TensorAccessorArgs config) and no defines, so this is a coarse
count of the API the emulator lacks, not the corpus target of issue 21 (which compiles each
kernel with the arguments its program factory passes). The first error of each failure is
tallied by the name or header it reports.

A kernel written against Metal 2.0's named arguments (``experimental/kernel_args.h``) also
needs the constants the JIT generates from the host's schema (``kernel_args_generated.h``,
``kernel_bindings_generated.h``); the schemas live in program factories the wheel does not ship,
so the benchmark makes one from the names the kernel uses and gives it to the build as the
emulator's hosts do (``ttnn.KernelBindings`` -> tilecraft/emu/bindings.py): each ``args::NAME`` a
compile-time ``CtaVal`` of value 2 (usable wherever a runtime arg is), each ``dfb::NAME`` a
``DFBBindingToken`` of a distinct CB index, each ``tensor::NAME`` a ``TensorBindingToken`` over the
interleaved DRAM accessor args at compile-time arg 0. Semaphore and scratchpad bindings (``sem::``,
``scratch::``) are not generated: they are tallied as blockers.

A kernel counts as compute when it includes the compute API (``api/compute/...``), else as data
movement.

    python -m benchmarks.wheel_kernels_compile [--jobs N] [--limit N]
"""

from __future__ import annotations

import argparse
import collections
import re
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tilecraft.emu import build, wheel_kernels
from tilecraft.emu.bindings import NamedBindings, TensorBinding
from tilecraft.emu.toolchain import compiler

ARGS = tuple([2] * 64)
KERNEL_ARGS = "experimental/kernel_args.h"
#: the generated namespaces a failure is tallied under as a whole (``tensor::*``)
GENERATED = ("args", "dfb", "tensor", "sem", "scratch")
_REASON = re.compile(r"'(?P<name>[\w:]+)' is not a member of '(?P<ns>\w+)'"
                     r"|'(?P<name2>[\w:]+)' (?:was not declared|has not been declared|is not a member|has no member)"
                     r"|(?P<header>[\w./-]+\.h(?:pp)?): No such file"
                     r"|has no member named '(?P<member>\w+)'")


def kernels(root: Path) -> list[Path]:
    return sorted(p for p in wheel_kernels.operations(root).rglob("*.cpp") if "/kernels" in p.as_posix())


def is_compute(text: str) -> bool:
    return '"api/compute/' in text or "<api/compute/" in text


def generated_bindings(text: str) -> NamedBindings:
    """The bindings of a Metal 2.0 kernel, from the names it uses (see the module doc)."""
    def names(namespace: str) -> list[str]:
        return sorted(set(re.findall(rf"\b{namespace}::(\w+)", text)))

    return NamedBindings(compile_time=tuple((n, 2) for n in names("args")),
                         dfbs=tuple((n, i) for i, n in enumerate(names("dfb"))),
                         tensors=tuple(TensorBinding(n, 0, 0) for n in names("tensor")))


def _with_local_headers(path: Path) -> str:
    """The kernel's text and that of the headers it includes from ttnn (their accessors count too)."""
    return "".join(build._local_includes(path, path.read_text(errors="replace"))[1::2]) + path.read_text(
        errors="replace")


def compile_one(path: Path) -> str | None:
    """None when the kernel compiles, else the first error's reason."""
    text = path.read_text(errors="replace")
    compute = is_compute(text)
    slot = "COMPILE_FOR_TRISC" if compute else "COMPILE_FOR_NCRISC"
    bindings = generated_bindings(_with_local_headers(path)) if KERNEL_ARGS in text else None
    kb = build.KernelBuild(source=path, text=text, display=path.name, compute=compute, compile_args=ARGS,
                           bindings=bindings, arch_defines=(("TC_EMULATOR", "1"), ("KERNEL_BUILD", "1"), (slot, "1"),
                                                            ("ARCH_WORMHOLE", "1")))
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "tc_generated.h").write_text(kb.generated_header())
        (Path(tmp) / "w.cpp").write_text(kb.wrapper())
        roots = [f"-I{r}" for r in build.ttnn_include_roots(path)]  # as compile_kernel gives them
        result = subprocess.run([*compiler().command(), "-std=c++20", "-fsyntax-only", "-fmax-errors=1",
                                 f"-I{tmp}", f"-I{build.INCLUDE}", f"-I{path.parent}", *roots, f"{tmp}/w.cpp"],
                                capture_output=True, text=True, env=build.COMPILER_ENV)
    if result.returncode == 0:
        return None
    for line in result.stderr.splitlines():
        if "error" in line:
            m = _REASON.search(line)
            if m and m.group("ns") in GENERATED:
                return f"{m.group('ns')}::* (generated binding)"
            if m and m.group("name2") in GENERATED:
                return f"{m.group('name2')}::* (generated binding)"
            if m:
                return (m.group("name") or m.group("name2") or m.group("header")
                        or f"member {m.group('member')}")
            return re.sub(r"^.*?error: ", "", line)[:90]
    return "unknown"


ROLES = ("data movement", "compute")


def role(path: Path) -> str:
    return "compute" if is_compute(path.read_text(errors="replace")) else "data movement"


def measure(paths: list[Path], jobs: int = 2) -> list[str | None]:
    """Each kernel's first-error reason (None: it compiles), in the order of ``paths``."""
    with ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(compile_one, paths))


def by_role(paths: list[Path], reasons: list[str | None]) -> dict[str, list[str | None]]:
    grouped: dict[str, list[str | None]] = {r: [] for r in ROLES}
    for path, reason in zip(paths, reasons):
        grouped[role(path)].append(reason)
    return grouped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=0)
    options = parser.parse_args()
    root = wheel_kernels.ensure_kernels()
    paths = kernels(root)[:options.limit or None]
    for name, reasons in by_role(paths, measure(paths, options.jobs)).items():
        print(f"{name}: {sum(r is None for r in reasons)} of {len(reasons)} kernels compile")
        for reason, count in collections.Counter(r for r in reasons if r).most_common(20):
            print(f"{count:5d}  {reason}")


if __name__ == "__main__":
    main()
