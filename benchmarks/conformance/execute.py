"""Running one conformance program on one simulator, in a child process, and what came out.

Both simulators run with ``OMP_NUM_THREADS=1`` (the published one is 3-10x slower and noisy
without it on a small machine), with ``support/`` on ``PYTHONPATH`` so that the program can
import ``conformance_io``, with ``$CONFORMANCE_OUTPUT`` naming the file its outputs go to, and
with ``$CONFORMANCE_COVERAGE`` naming the file where the reference launcher lists the names of
the published API the program called (tilecraft ignores it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import numpy as np
import torch

from .catalogue import SUPPORT, Program

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_REFERENCE = "/tmp/ref/venv/bin/python"  # the interpreter tt-lang-sim 1.1.6 is installed in
OUTPUT_VARIABLE = "CONFORMANCE_OUTPUT"  # conformance_io.OUTPUT_VARIABLE
COVERAGE_VARIABLE = "CONFORMANCE_COVERAGE"  # reference_launcher.COVERAGE_VARIABLE
STDERR_TAIL_LINES = 15
_OUTPUT = "output:"  # prefix of the outputs in a golden archive


@dataclass
class Run:
    """What one run of a program produced: its exit status, its text, its saved outputs."""

    returncode: int
    stdout: str
    stderr: str
    outputs: Optional[dict[str, dict[str, Any]]] = field(default=None)
    coverage: list[str] = field(default_factory=list)  # names of the published API the program called

    def save_golden(self, path: Path) -> None:
        """Store the run (all but the middle of a long stderr) as a compressed numpy archive."""
        arrays = {"returncode": np.array(self.returncode), "stdout": np.array(self.stdout),
                  "stderr": np.array(stderr_tail(self.stderr)), "coverage": np.array(json.dumps(self.coverage))}
        for name, output in (self.outputs or {}).items():
            arrays[f"{_OUTPUT}{name}"] = output["values"].numpy()
            arrays[f"{_OUTPUT}{name}:format"] = np.array(output["format"])
        with open(path, "wb") as file:
            np.savez_compressed(file, **arrays)

    @classmethod
    def load_golden(cls, path: Path) -> "Run":
        with np.load(path) as archive:
            stored = {key: archive[key] for key in archive.files}
        outputs = _outputs({k[len(_OUTPUT):]: v for k, v in stored.items() if k.startswith(_OUTPUT)})
        return cls(int(stored["returncode"]), str(stored["stdout"]), str(stored["stderr"]), outputs or None,
                   json.loads(str(stored["coverage"])))


def stderr_tail(text: str) -> str:
    return "\n".join(text.rstrip().splitlines()[-STDERR_TAIL_LINES:])


def reference_command(program: Program, reference: str) -> list[str]:
    """tt-lang-sim, through the launcher that restores its error messages (reference_launcher.py)."""
    return [reference, "-m", "benchmarks.conformance.reference_launcher", str(program.path),
            *program.simulator_args()]


def tilecraft_command(program: Program, python: str = sys.executable) -> list[str]:
    return [python, "-m", "tilecraft", "run", str(program.path), *program.simulator_args()]


def run(command: list[str], timeout: float) -> Run:
    """Run ``command`` with the conformance environment; a timeout is a failed run, not an exception."""
    with tempfile.TemporaryDirectory(prefix="conformance-") as scratch:
        output, coverage = Path(scratch) / "outputs.npz", Path(scratch) / "coverage.json"
        env = dict(os.environ, OMP_NUM_THREADS="1", **{OUTPUT_VARIABLE: str(output), COVERAGE_VARIABLE: str(coverage)})
        env["PYTHONPATH"] = os.pathsep.join([str(SUPPORT), str(REPO_ROOT), env.get("PYTHONPATH", "")]).rstrip(
            os.pathsep)
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env,
                                  cwd=scratch)
        except subprocess.TimeoutExpired as expired:
            return Run(-1, _text(expired.stdout), _text(expired.stderr) + f"\n(timed out after {timeout:.0f} s)")
        outputs = load_outputs(output) if done.returncode == 0 else None
        called = json.loads(coverage.read_text()) if coverage.exists() else []
        return Run(done.returncode, done.stdout, done.stderr, outputs, called)


def load_outputs(path: Path) -> Optional[dict[str, dict[str, Any]]]:
    """What ``conformance_io.save_outputs`` wrote: ``{name: {"values": tensor, "format": str}}``."""
    if not path.exists():
        return None
    with np.load(path) as archive:
        return _outputs({key: archive[key] for key in archive.files})


def _outputs(arrays: dict[str, np.ndarray]) -> dict[str, dict[str, Any]]:
    return {name: {"values": torch.from_numpy(values.copy()), "format": str(arrays[f"{name}:format"])}
            for name, values in arrays.items() if not name.endswith(":format")}


def _text(data: Any) -> str:
    return data.decode(errors="replace") if isinstance(data, bytes) else (data or "")
