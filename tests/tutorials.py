"""The published TT-Lang tutorials, fetched at run time from the `tt-lang-sim` wheel.

Why fetch instead of vendoring: the tutorials belong to another project, and
the point of running them is to show that tilecraft runs *their* unmodified
programs. So they are never copied into this repository; the wheel is fetched
with pip's ordinary `pip download` and only `ttl/tutorials/` is unpacked into a
per-user cache. Tests (through the `tutorials` fixture in conftest.py) and the
benchmarks (benchmarks/tutorial_sources.py) share this one implementation.
"""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
import zipfile
from pathlib import Path

from tilecraft.wheels import WheelUnavailable, download_wheel

PACKAGE = "tt-lang-sim"
VERSION = "1.1.6"
# The wheel declares Requires-Python >=3.11; pinning the target version lets
# `pip download` fetch it from any interpreter the project supports (>=3.10).
WHEEL_PYTHON_VERSION = "3.11"
TUTORIALS_PREFIX = "ttl/tutorials/"
# Written last, so a half-finished extraction is never mistaken for a cache hit.
COMPLETE_MARKER = ".complete"


class TutorialsUnavailable(WheelUnavailable):
    """`pip download` could not fetch the wheel (typically: no network)."""


def cache_root() -> Path:
    """Where fetched wheels are unpacked: $TILECRAFT_CACHE_DIR, else the XDG cache."""
    explicit = os.environ.get("TILECRAFT_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "tilecraft"


@functools.cache
def tutorials_dir() -> Path:
    """Return the directory holding `elementwise/`, `matmul/`, `broadcast/` tutorials.

    Downloads and unpacks on first use, then serves the cache. Raises
    TutorialsUnavailable (with pip's own error) when the download fails, and
    RuntimeError when the wheel does not have the expected layout.
    """
    target = cache_root() / f"{PACKAGE}-{VERSION}"
    tutorials = target / TUTORIALS_PREFIX
    if (target / COMPLETE_MARKER).is_file():
        return tutorials
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".fetch-") as tmp:
        wheel = _download_wheel(Path(tmp) / "wheel")
        staging = Path(tmp) / "unpacked"
        _extract_tutorials(wheel, staging)
        (staging / COMPLETE_MARKER).write_text(f"{wheel.name}\n")
        # A concurrent process (e.g. pytest-xdist workers) may have won the race.
        if not (target / COMPLETE_MARKER).is_file():
            shutil.rmtree(target, ignore_errors=True)
            staging.rename(target)
    return tutorials


def _download_wheel(dest: Path) -> Path:
    """Fetch the pinned wheel into `dest`; return its path."""
    return download_wheel(PACKAGE, VERSION, WHEEL_PYTHON_VERSION, dest, "needed for the TT-Lang tutorials",
                          TutorialsUnavailable)


def _extract_tutorials(wheel: Path, dest: Path) -> None:
    """Unpack only the `ttl/tutorials/` members of `wheel` under `dest`."""
    with zipfile.ZipFile(wheel) as archive:
        members = [name for name in archive.namelist() if name.startswith(TUTORIALS_PREFIX)]
        if not any(name.endswith(".py") for name in members):
            raise RuntimeError(f"{wheel.name} has no Python files under {TUTORIALS_PREFIX}")
        archive.extractall(dest, members=members)
