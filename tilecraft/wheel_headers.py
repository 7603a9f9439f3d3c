"""The kernel-side headers of tt-metal 0.81.1, taken from the ``ttnn`` wheel on PyPI.

Why a wheel and not a clone: the wheel is the released artifact users install, so it pins
exactly the headers their JIT compiles kernels against, and pip can fetch it anywhere. It is
~100 MB (mostly shared libraries); only the kernel-side header trees (~30 MB) are unpacked, into
a per-user cache, and nothing from it is ever imported or executed.

Two mechanical rewrites are applied to the unpacked copy (listed in ``PATCHES.txt`` there),
because the headers are written for the SFPI toolchain's newer GCC and host Debian 12 has g++ 12:

* ``static_assert(false, ...)`` in discarded ``if constexpr`` branches (C++23 P2593, GCC >= 13):
  g++ 12 fires it while parsing the template. It becomes a dependent-false assertion that still
  fires if the branch is ever instantiated.
* ``#pragma GCC unroll N`` with ``N`` a template parameter, which g++ 12 rejects: ``N`` becomes 8.
  Unrolling has no bearing on a syntax check.
"""

from __future__ import annotations

import functools
import re
import zipfile
from pathlib import Path

from . import user_cache, wheels
from .wheels import WheelUnavailable

PACKAGE = wheels.TTNN_PACKAGE
VERSION = wheels.TTNN_VERSION
WHEEL_PYTHON_VERSION = wheels.TTNN_WHEEL_PYTHON_VERSION
# Bump when the extracted set or the rewrites change, so stale caches are rebuilt.
LAYOUT_VERSION = "1"

# Member prefixes (inside the wheel) that kernel compiles reach; found with `g++ -M` over the
# firmware wrappers for every kernel kind, both architectures, all compute API headers included.
HEADER_PREFIXES = (
    "ttnn/tt_metal/hw/",
    "ttnn/tt_metal/hostdevcommon/",
    "ttnn/tt_metal/api/",
    "ttnn/tt_metal/tt-llk/common/",
    "ttnn/tt_metal/tt-llk/tools/include/",
    "ttnn/tt_metal/tt-llk/tt_llk_wormhole_b0/",
    "ttnn/tt_metal/tt-llk/tt_llk_blackhole/",
    "ttnn/tt_metal/sfpi-version",
)
# Documentation and test trees under the prefixes above are not needed.
EXCLUDED_PARTS = ("/docs/", "/tests/", "/perf/")

PATCH_LOG = "PATCHES.txt"

_STATIC_ASSERT_FALSE = re.compile(r"static_assert\s*\(\s*(?:false|0)\s*(?=[,)])")
_UNROLL_BY_NAME = re.compile(r"^([ \t]*#[ \t]*pragma[ \t]+GCC[ \t]+unroll[ \t]+)([A-Za-z_]\w*)[ \t]*$", re.M)
_REWRITTEN_SUFFIXES = (".h", ".hpp", ".inl", ".cc", ".cpp", ".c")


class HeadersUnavailable(WheelUnavailable):
    """The ttnn wheel could not be downloaded (typically: no network) or has an unexpected layout."""


def headers_dir() -> Path:
    """The cache directory for this version; its ``ttnn/`` child plays TT_METAL_HOME."""
    return user_cache.cache_root() / f"{PACKAGE}-{VERSION}-headers"


@functools.cache
def ensure_headers() -> Path:
    """Return the unpacked tree's root (the directory holding ``tt_metal/``), fetching it once.

    Idempotent: a completed cache (marker written last) is reused without touching the network.
    Raises HeadersUnavailable with pip's own message when the download fails.
    """
    target = headers_dir()
    wheels.unpack_once(target, download_wheel, _unpack, stamp=f"layout {LAYOUT_VERSION}")
    return target / "ttnn"


def _unpack(wheel: Path, staging: Path) -> None:
    """The header trees, rewritten for g++ 12, with the rewrites listed in ``PATCH_LOG``."""
    extract_headers(wheel, staging)
    patched = apply_gcc12_rewrites(staging / "ttnn")
    (staging / PATCH_LOG).write_text("".join(f"{line}\n" for line in patched))


def download_wheel(dest: Path) -> Path:
    """Fetch the pinned wheel into ``dest``; return its path."""
    return wheels.download_wheel(PACKAGE, VERSION, WHEEL_PYTHON_VERSION, dest,
                                 "its kernel headers are needed to check TT-Metalium kernels", HeadersUnavailable)


def _wanted(name: str) -> bool:
    return name.startswith(HEADER_PREFIXES) and not any(part in name for part in EXCLUDED_PARTS)


def extract_headers(wheel: Path, dest: Path) -> None:
    """Unpack only the kernel-side header trees of ``wheel`` under ``dest``."""
    with zipfile.ZipFile(wheel) as archive:
        members = [name for name in archive.namelist() if _wanted(name)]
        for required in ("ttnn/tt_metal/hw/firmware/src/tt-1xx/brisck.cc",
                         "ttnn/tt_metal/hw/firmware/src/tt-1xx/trisck.cc",
                         "ttnn/tt_metal/hw/inc/api/dataflow/dataflow_api.h"):
            if required not in members:
                raise HeadersUnavailable(f"{wheel.name} has no {required}; not the expected layout")
        archive.extractall(dest, members=members)


def apply_gcc12_rewrites(root: Path) -> list[str]:
    """Rewrite the two GCC >= 13 idioms (see the module docstring); return ``file: what`` lines."""
    log: list[str] = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in _REWRITTEN_SUFFIXES or not path.is_file():
            continue
        text = path.read_text(errors="surrogateescape")
        new, n_assert = _STATIC_ASSERT_FALSE.subn(
            "static_assert(::tilecraft_deferred_false<decltype([] {})>", text)
        new, n_unroll = _UNROLL_BY_NAME.subn(lambda m: f"{m.group(1)}8", new)
        if new != text:
            path.write_text(new, errors="surrogateescape")
            rel = path.relative_to(root).as_posix()
            if n_assert:
                log.append(f"{rel}: {n_assert} x static_assert(false) -> dependent false")
            if n_unroll:
                log.append(f"{rel}: {n_unroll} x #pragma GCC unroll <template parameter> -> 8")
    return log


def sfpi_version(root: Path) -> str:
    """The SFPI release the wheel was built against (informational; its headers are not shipped)."""
    path = root / "tt_metal" / "sfpi-version"
    if not path.is_file():
        return "unknown"
    match = re.search(r"sfpi_version='([^']+)'", path.read_text())
    return match.group(1) if match else "unknown"
