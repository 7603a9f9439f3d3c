"""``--level cpp``: run a TT-Lang program as the C++ that ``tilecraft emit`` writes for it.

The program is lowered and printed exactly as ``tilecraft emit`` does; the files go to a
content-addressed directory of the cache (so diagnostics point at kernel files that stay), and
the emitted ``program.py`` host runs unchanged against tilecraft's ttnn: it builds the
ProgramDescriptor and calls ``ttnn.generic_op``, which runs the kernels on the emulator. The
script's tensors are placed on a device of the run's own, sharing their storage (whether the
script made them on a device or on the host), so the results land where the language-level
simulator would have put them.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

from . import ttnn
from .arch import get as get_arch
from .diagnostics import error
from .emu.cache import digest, emu_cache
from .emu.cache_budget import mark_used
from .ir.program_ir import ProgramIR
from .metal.lowered import LoweredProgram
from .published_modules import serve_published
from .user_cache import fill


def emitted_directory(lowered: LoweredProgram) -> Path:
    """Write the launch's emitted files into the cache (once per distinct text) and return the directory."""
    emitted, program = lowered.emitted(), lowered.program
    key = digest(*(f"{name}\0{text}" for name, text in sorted(emitted.files.items())))
    directory = emu_cache() / "emitted" / f"{program.name.strip('_') or 'program'}-{key[:16]}"
    # Another process (a pytest-xdist worker) may emit the same program at once: user_cache.fill
    # lets one write it and publishes the whole directory by one rename. Marked used first, so the
    # cache's bound does not remove it before the host is loaded (a removed one is written again).
    mark_used(directory)
    fill(directory, lambda entry: (entry / "program.py").is_file(), emitted.write)
    return directory


def load_host(directory: Path) -> ModuleType:
    """The emitted program.py, importing ttnn as tilecraft's ttnn."""
    restore = serve_published(("ttnn",))
    try:
        spec = importlib.util.spec_from_file_location(f"tilecraft_emitted_{directory.name}", directory / "program.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        restore()
    return module


def run_emitted(lowered: LoweredProgram, tensors: list[Any]) -> None:
    """Run the launch's program through its emitted C++ on the kernel emulator, results into ``tensors``."""
    check_grid_fits(lowered.program, lowered.arch)
    host = load_host(emitted_directory(lowered))
    device = ttnn.open_device(0)
    try:
        host.run(device, placed_on(device, tensors))
    finally:
        ttnn.close_device(device)


def check_grid_fits(program: ProgramIR, arch: str) -> None:
    """The emulator runs the kernels on the chip's cores; the language level simulates any grid
    (``--grid 11,1`` on Wormhole's 8x8), so a grid past the chip is said here, at the program,
    before the emitted host would stop on it with a bare RuntimeError."""
    cols, rows = (tuple(program.grid) + (1,))[:2]
    chip_cols, chip_rows = get_arch(arch).compute_grid
    if len(program.grid) <= 2 and cols <= chip_cols and rows <= chip_rows:
        return
    shape = "x".join(map(str, program.grid))
    raise error("E5102", f"program '{program.name}' runs on a {shape} grid of cores, outside the {chip_cols}x"
                f"{chip_rows} compute grid of {arch}: --level cpp runs the emitted kernels on the chip's cores",
                program.span, hint=f"use a grid within {chip_cols}x{chip_rows} (--grid {chip_cols},{chip_rows} for a "
                                   "grid=\"auto\" or \"full\" program), or run at the language level, which "
                                   "simulates any grid")


def placed_on(device: ttnn.Device, tensors: list[Any]) -> list[Any]:
    """Every tensor of the launch on ``device``, a device of the run's own, sharing its storage.

    The language level reads a tensor's values wherever it lives: on the host (made without
    ``device=``), on the script's device, or on another device the script opened. The emitted
    program reads buffers at addresses, and each ``ttnn.open_device`` hands out addresses from
    its own allocator: a host tensor placed on a fresh device next to a tensor of the script's
    device would share its DRAM address and read or overwrite the other's bytes. Placing all of
    them on one device with one allocator gives every buffer its own range, as ttnn would; a
    tensor passed twice (the same storage) keeps one buffer, so in-place programs still alias.
    """
    placed: dict[int, Any] = {}
    for tensor in tensors:
        if id(tensor.storage) not in placed:
            placed[id(tensor.storage)] = tensor.to(device)
    return [placed[id(t.storage)] for t in tensors]
