"""Shared by the emission benchmarks: run a script with a hook that collects its programs."""

from __future__ import annotations

import contextlib
import io
import runpy
import sys
from pathlib import Path

from tilecraft import options, session
from tilecraft.scripts import install_modules
from tilecraft.ir.program_ir import ProgramIR


def programs_of(script: Path) -> list[ProgramIR]:
    """Every kernel program ``script`` launches (the script runs normally, output discarded)."""
    found: list[ProgramIR] = []
    install_modules()
    argv, path = sys.argv, list(sys.path)
    sys.argv, sys.path = [str(script)], [str(script.parent), *sys.path]
    try:
        with session.using(options.RunOptions(), program_hooks=[found.append]), \
                contextlib.redirect_stdout(io.StringIO()):
            runpy.run_path(str(script), run_name="__main__")
    finally:
        sys.argv, sys.path = argv, path
    return found
