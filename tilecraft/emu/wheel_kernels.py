"""The kernel sources of ttnn 0.81.1's own operations, taken from the ``ttnn`` wheel on PyPI.

They are the emulator's corpus of real, Tenstorrent-written kernels (tests/emu/test_wheel_kernels.py
runs some of them unchanged). Like the kernel headers (tilecraft/wheel_headers.py), they
are fetched at test time into the per-user cache and never committed: the wheel's
``ttnn/ttnn/cpp`` tree (kernels and the headers they include) is unpacked under
``<cache>/ttnn-0.81.1-kernels/``, whose ``ttnn/`` child plays TT_METAL_HOME. Kernels include
ttnn's headers relative to three roots, which :func:`include_roots` gives.
"""

from __future__ import annotations

import functools
import zipfile
from pathlib import Path

from .. import user_cache, wheels
from ..wheels import WheelUnavailable

PACKAGE = wheels.TTNN_PACKAGE
VERSION = wheels.TTNN_VERSION
WHEEL_PYTHON_VERSION = wheels.TTNN_WHEEL_PYTHON_VERSION
# Bump when the extracted set changes, so stale caches are rebuilt.
LAYOUT_VERSION = "1"
PREFIX = "ttnn/ttnn/cpp/"
SUFFIXES = (".cpp", ".hpp", ".h", ".inl")


class KernelsUnavailable(WheelUnavailable):
    """The ttnn wheel could not be downloaded (typically: no network)."""


def kernels_dir() -> Path:
    return user_cache.cache_root() / f"{PACKAGE}-{VERSION}-kernels"


@functools.cache
def ensure_kernels() -> Path:
    """The unpacked tree's ``ttnn/`` directory (TT_METAL_HOME), fetching the wheel once."""
    target = kernels_dir()
    wheels.unpack_once(target, _download, _unpack, stamp=f"layout {LAYOUT_VERSION}")
    return target / "ttnn"


def operations(root: Path) -> Path:
    """Where the kernels of ttnn's operations live (``<op>/device/kernels/...``)."""
    return root / "ttnn" / "cpp" / "ttnn" / "operations"


def include_roots(root: Path) -> tuple[Path, ...]:
    """The -I roots ttnn kernels need, as the JIT build gives them (tt-metal's
    ``jit_build/build.cpp``): TT_METAL_HOME (``ttnn/cpp/ttnn/kernel_lib/...``), ``ttnn``
    (``cpp/ttnn/operations/...``, e.g. sdpa's compute_common.hpp) and ``ttnn/cpp``
    (``ttnn/operations/...``)."""
    return root, root / "ttnn", root / "ttnn" / "cpp"


def _download(dest: Path) -> Path:
    return wheels.download_wheel(PACKAGE, VERSION, WHEEL_PYTHON_VERSION, dest,
                                 "its kernels are the emulator's corpus", KernelsUnavailable)


def _unpack(wheel: Path, staging: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        members = [n for n in archive.namelist() if n.startswith(PREFIX) and n.endswith(SUFFIXES)]
        if not any("/kernels/" in n for n in members):
            raise KernelsUnavailable(f"{wheel.name} has no kernels under {PREFIX}; not the expected layout")
        archive.extractall(staging, members=members)
