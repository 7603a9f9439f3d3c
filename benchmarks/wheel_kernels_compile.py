"""How many of ttnn 0.81.1's own kernels compile against the emulator's headers.

Each kernel source of the wheel (``<op>/device/kernels/**.cpp``, fetched by
tilecraft/emu/wheel_kernels.py) is compiled syntax-only (``g++ -fsyntax-only``) exactly as the
emulator builds it: the generated header, the firmware's implicit includes, the kernel, with
ttnn's two include roots. The arguments are not the op's: every kernel gets 64 compile-time args
of value 2 (an interleaved DRAM TensorAccessorArgs config) and no defines, so this is a coarse
count of the API the emulator lacks, not the corpus target of issue 21 (which compiles each
kernel with the arguments its program factory passes). The first error of each failure is
tallied by the name or header it reports.

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
from tilecraft.emu.toolchain import compiler

ARGS = tuple([2] * 64)
_REASON = re.compile(r"'(?P<name>[\w:]+)' (?:was not declared|has not been declared|is not a member|has no member)"
                     r"|(?P<header>[\w./-]+\.h(?:pp)?): No such file"
                     r"|has no member named '(?P<member>\w+)'")


def kernels(root: Path) -> list[Path]:
    return sorted(p for p in wheel_kernels.operations(root).rglob("*.cpp") if "/kernels" in p.as_posix())


def is_compute(text: str) -> bool:
    return '"api/compute/' in text or "<api/compute/" in text


def compile_one(path: Path) -> str | None:
    """None when the kernel compiles, else the first error's reason."""
    text = path.read_text(errors="replace")
    compute = is_compute(text)
    slot = "COMPILE_FOR_TRISC" if compute else "COMPILE_FOR_NCRISC"
    kb = build.KernelBuild(source=path, text=text, display=path.name, compute=compute, compile_args=ARGS,
                           arch_defines=(("TC_EMULATOR", "1"), ("KERNEL_BUILD", "1"), (slot, "1"),
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
            if m:
                return m.group("name") or m.group("header") or f"member {m.group('member')}"
            return re.sub(r"^.*?error: ", "", line)[:90]
    return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=0)
    options = parser.parse_args()
    root = wheel_kernels.ensure_kernels()
    paths = kernels(root)[:options.limit or None]
    with ThreadPoolExecutor(options.jobs) as pool:
        reasons = list(pool.map(compile_one, paths))
    roles = ["compute" if is_compute(p.read_text(errors="replace")) else "data movement" for p in paths]
    for role in ("data movement", "compute"):
        mine = [r for r, k in zip(reasons, roles) if k == role]
        print(f"{role}: {sum(r is None for r in mine)} of {len(mine)} kernels compile")
        for reason, count in collections.Counter(r for r in mine if r).most_common(20):
            print(f"{count:5d}  {reason}")


if __name__ == "__main__":
    main()
