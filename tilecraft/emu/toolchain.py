"""The host C++ compiler the emulator builds kernels with.

Only the kernel emulator needs one; everything else in tilecraft runs without it. ``$CXX`` names
it when set, else ``g++`` from the PATH. It must speak C++20 (GCC 11 or newer: the runtime and the
machine use ``__builtin_bit_cast`` and requires-clauses).
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from dataclasses import dataclass

from ..diagnostics import error

MIN_GCC = 11


@dataclass(frozen=True)
class Compiler:
    path: str
    version: str  # `g++ --version`'s first line: part of every cache key

    def command(self) -> list[str]:
        return [self.path]


@functools.cache
def compiler() -> Compiler:
    """The C++ compiler, or a KernelError (E5004) saying what to install."""
    name = os.environ.get("CXX", "g++")
    path = shutil.which(name)
    if path is None:
        raise error("E5004", f"the kernel emulator needs a C++20 compiler and found none ('{name}' is not on PATH)",
                    hint="install GCC 11 or newer (Debian/Ubuntu: apt-get install g++; Fedora: dnf install "
                         "gcc-c++; macOS is not supported) or set CXX to a g++ that is")
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise error("E5004", f"the C++ compiler '{path}' does not run: {exc}",
                    hint="install g++ 11 or newer, or set CXX to a working one") from None
    first = (out.stdout or out.stderr).splitlines()[0] if (out.stdout or out.stderr) else ""
    match = re.search(r"(\d+)\.\d+", first)
    if "clang" not in first.lower() and (match is None or int(match.group(1)) < MIN_GCC):
        raise error("E5004", f"the kernel emulator needs GCC {MIN_GCC} or newer for C++20; '{path}' is '{first}'",
                    hint="install a newer g++ (apt-get install g++-12) and set CXX to it")
    return Compiler(path, first)


def version_line(path: str) -> str:
    """The first line ``path --version`` prints ("" when it does not run): what identifies an
    optional compiler and goes into its cache keys."""
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return out.stdout.splitlines()[0] if out.stdout else ""


#: the oldest clang the Tensix machine's kernel builds accept (measured with Debian bookworm's): clang 14 has
#: no ``__builtin_source_location`` (libstdc++ 12's ``std::source_location`` is empty under it), clang 16
#: rejects 0.81.1's ``#pragma GCC unroll 0``; clang 19 (``apt-get install clang-19``) compiles them
MIN_CLANG = 19
#: the clang++ names looked for on the PATH, newest first, when ``$TILECRAFT_CLANG`` does not name one
CLANG_NAMES = (*(f"clang++-{v}" for v in range(30, MIN_CLANG - 1, -1)), "clang++")


@functools.cache
def clang() -> Compiler | None:
    """An optional second compiler for the Tensix machine's kernel builds, or None when none is installed.

    Host g++ 12 cannot compile some of 0.81.1's kernels (tensix_build.GXX_LIMITS: an internal
    compiler error on kernel_lib's ``chain.hpp``, a ``#pragma GCC unroll`` of a template parameter);
    those compiles are retried with clang (``$TILECRAFT_CLANG``, else the newest ``clang++-N`` of at
    least MIN_CLANG on the PATH). Nothing else uses it, and nothing needs it."""
    named = os.environ.get("TILECRAFT_CLANG")
    for name in (named,) if named else CLANG_NAMES:
        path = shutil.which(name)
        if path is None:
            continue
        first = version_line(path)
        match = re.search(r"clang version (\d+)\.", first)
        if match and int(match.group(1)) >= MIN_CLANG:
            return Compiler(path, first)
    return None
