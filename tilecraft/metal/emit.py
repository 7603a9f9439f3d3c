"""Emission entry point: ProgramIR -> a directory of C++ kernels, hosts and a manifest.

``emit_program`` is the Python API; ``tilecraft emit SCRIPT.py -o DIR`` calls it for every
kernel program the script launches (one subdirectory per program).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..ir.program_ir import ProgramIR
from . import hosts
from .cpp import print_kernel_mapped
from .kir import MetalProgram
from .lower import lower_program


@dataclass
class Emitted:
    program: MetalProgram
    files: dict[str, str]

    def write(self, directory: Path) -> list[Path]:
        directory.mkdir(parents=True, exist_ok=True)
        paths = []
        for name, text in self.files.items():
            path = directory / name
            path.write_text(text)
            paths.append(path)
        return paths


def emit_program(program: ProgramIR, arch: str = "wormhole_b0") -> Emitted:
    """Lower ``program`` and render every file (kernels, program.py, main.cpp, CMake, manifest)."""
    metal = lower_program(program, arch)
    return render_program(metal, program.span.file if program.span is not None else None)


def render_program(metal: MetalProgram, source: str | None) -> Emitted:
    """Every file of a kernel-level program (lowered from TT-Lang, or written with PyKernel)."""
    files, spans = {}, {}
    for k in metal.kernels:
        files[hosts.kernel_file(k)], spans[hosts.kernel_file(k)] = print_kernel_mapped(metal, k)
    files["program.py"] = hosts.python_host(metal)
    files["main.cpp"] = hosts.cpp_host(metal)
    files["CMakeLists.txt"] = hosts.cmake(metal)
    files["manifest.json"] = hosts.manifest_json(metal, source, spans)
    return Emitted(metal, files)
