"""Fetching a pinned wheel from the package index with ``pip download`` (never installed).

tilecraft reads files out of two published wheels: the kernel headers of ``ttnn`` (to check
emitted C++) and the tutorials of ``tt-lang-sim`` (tests and benchmarks). Both go through here.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


class WheelUnavailable(RuntimeError):
    """The wheel could not be downloaded (no index, no network): callers decide to skip or fail."""


def download_wheel(package: str, version: str, python_version: str, dest: Path, purpose: str,
                   error: type[WheelUnavailable] = WheelUnavailable) -> Path:
    """``pip download`` ``package==version`` (binary only, for ``python_version``) into ``dest``."""
    command = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
        "--python-version", python_version, "--retries", "2", "--dest", str(dest), f"{package}=={version}",
    ]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        output = (result.stderr or result.stdout).strip().splitlines()
        tail = "\n".join(output[-8:]) or "(pip printed nothing)"
        raise error(f"could not download {package}=={version} ({purpose}): `{' '.join(command)}` exited with "
                    f"{result.returncode}. Is the package index reachable from here? pip said:\n{tail}")
    wheels = sorted(dest.glob("*.whl"))
    if len(wheels) != 1:
        raise error(f"expected one wheel in {dest} after pip download, found {wheels}")
    return wheels[0]
