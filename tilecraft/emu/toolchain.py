"""The host C++ compiler the emulator builds kernels with.

Only the kernel emulator needs one; everything else in tilecraft runs without it. ``$CXX`` names
it when set, else ``g++`` from the PATH. It must speak C++20 (GCC 11 or newer: the emulated API
uses ``__builtin_bit_cast`` and requires-clauses).
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
