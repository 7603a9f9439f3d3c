"""Fetching a pinned wheel from the package index with ``pip download`` (never installed).

tilecraft reads files out of two published wheels: the kernel headers and kernels of ``ttnn``
(to check emitted C++; the emulator's corpus) and the tutorials of ``tt-lang-sim`` (tests and
benchmarks). Both go through here.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from .user_cache import fill

# Written last into an unpacked cache entry, so a half-finished extraction is never a cache hit.
COMPLETE_MARKER = ".complete"

#: the ttnn release whose kernel API tilecraft targets: its headers check emitted C++
#: (wheel_headers.py) and its kernels are the emulator's corpus (emu/wheel_kernels.py)
TTNN_PACKAGE = "ttnn"
TTNN_VERSION = "0.81.1"
#: the wheel is published for cp310 and cp312; any interpreter can fetch one
TTNN_WHEEL_PYTHON_VERSION = "3.12"


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


def is_unpacked(target: Path, stamp: str = "") -> bool:
    """Whether ``target`` is a finished cache entry whose marker carries ``stamp``."""
    try:
        return stamp in (target / COMPLETE_MARKER).read_text()
    except OSError:  # no marker yet (or the entry was just moved aside)
        return False


def unpack_once(target: Path, fetch: Callable[[Path], Path], unpack: Callable[[Path, Path], None],
                stamp: str = "") -> None:
    """Fill the cache entry ``target`` unless it is already finished.

    ``fetch(dest)`` downloads the wheel into ``dest`` and returns it; ``unpack(wheel, staging)``
    extracts what the caller needs. Both run in a scratch directory beside ``target``; the marker
    (the wheel's name and ``stamp``, e.g. a layout version whose change must rebuild the entry) is
    written last and the staging tree renamed into place (user_cache.fill: concurrent processes
    wait for one download), so an interrupted fetch leaves no entry.
    """
    def fetch_and_unpack(staging: Path) -> None:
        wheel = fetch(staging.parent / "wheel")
        unpack(wheel, staging)
        (staging / COMPLETE_MARKER).write_text("".join(f"{line}\n" for line in (wheel.name, stamp) if line))

    fill(target, lambda entry: is_unpacked(entry, stamp), fetch_and_unpack)
