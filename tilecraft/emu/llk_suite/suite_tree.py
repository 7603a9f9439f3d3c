"""The tt-llk tree of the ttnn 0.81.1 wheel (its LLK and its own test suite), unpacked once.

The suite's Python needs the whole ``tt-llk`` directory, not only ``tests/``: its pytest plugin
takes ``LLK_HOME`` to be the directory holding ``tests/`` and ``tt_llk_*``, and imports
``tt_llk_perf`` from ``tools/python``. So everything under ``ttnn/tt_metal/tt-llk/`` in the wheel
is extracted (about 1,400 files, 10 MB) into ``<cache>/ttnn-0.81.1-llk/``. Like the kernel
headers (tilecraft/wheel_headers.py) it is fetched at test time and never committed.
"""

from __future__ import annotations

import functools
import zipfile
from pathlib import Path

from ... import user_cache, wheels
from ...wheels import WheelUnavailable

PACKAGE = wheels.TTNN_PACKAGE
VERSION = wheels.TTNN_VERSION
# Bump when the extracted set changes, so stale caches are rebuilt.
LAYOUT_VERSION = "1"
PREFIX = "ttnn/tt_metal/tt-llk/"


class LlkSuiteUnavailable(WheelUnavailable):
    """The ttnn wheel could not be downloaded, or it has no LLK test suite where expected."""


def llk_dir() -> Path:
    """The cache entry for this version (its ``tt-llk`` child is the LLK root)."""
    return user_cache.cache_root() / f"{PACKAGE}-{VERSION}-llk"


@functools.cache
def ensure_llk_root() -> Path:
    """The unpacked ``tt-llk`` directory (the suite's ``LLK_HOME``), fetching the wheel once."""
    target = llk_dir()
    wheels.unpack_once(target, _download, _unpack, stamp=f"layout {LAYOUT_VERSION}")
    return target / "tt-llk"


def python_tests_dir(llk_root: Path) -> Path:
    """Where the suite's pytest files, conftest and ``helpers`` package live."""
    return llk_root / "tests" / "python_tests"


def sources_dir(llk_root: Path) -> Path:
    """The suite's C++ test kernels (``sources/*.cpp``, three TRISC sections each)."""
    return llk_root / "tests" / "sources"


def _download(dest: Path) -> Path:
    return wheels.download_wheel(PACKAGE, VERSION, wheels.TTNN_WHEEL_PYTHON_VERSION, dest,
                                 "its tt-llk/tests is the LLK's own test suite", LlkSuiteUnavailable)


def _unpack(wheel: Path, staging: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        members = [name for name in archive.namelist() if name.startswith(PREFIX) and not name.endswith("/")]
        if not any(name.startswith(PREFIX + "tests/python_tests/") for name in members):
            raise LlkSuiteUnavailable(f"{wheel.name} has no {PREFIX}tests/python_tests; not the expected layout")
        for name in members:
            relative = name[len(PREFIX):]
            target = staging / "tt-llk" / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(archive.read(name))
