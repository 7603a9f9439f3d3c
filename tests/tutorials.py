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
import zipfile
from pathlib import Path

from tilecraft.user_cache import cache_root
from tilecraft.wheels import WheelUnavailable, download_wheel, unpack_once

PACKAGE = "tt-lang-sim"
VERSION = "1.1.6"
# The wheel declares Requires-Python >=3.11; pinning the target version lets
# `pip download` fetch it from any interpreter the project supports (>=3.10).
WHEEL_PYTHON_VERSION = "3.11"
TUTORIALS_PREFIX = "ttl/tutorials/"


class TutorialsUnavailable(WheelUnavailable):
    """`pip download` could not fetch the wheel (typically: no network)."""


@functools.cache
def tutorials_dir() -> Path:
    """Return the directory holding `elementwise/`, `matmul/`, `broadcast/` tutorials.

    Downloads and unpacks on first use, then serves the cache. Raises
    TutorialsUnavailable (with pip's own error) when the download fails, and
    RuntimeError when the wheel does not have the expected layout.
    """
    target = cache_root() / f"{PACKAGE}-{VERSION}"
    unpack_once(target, _download_wheel, _extract_tutorials)
    return target / TUTORIALS_PREFIX


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
