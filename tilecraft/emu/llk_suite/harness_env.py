"""What the harness and the suite agree on through the environment (architecture, the `llk` extra).

The suite chooses its architecture from ``CHIP_ARCH`` (helpers/chip_architecture.py) before any
device is opened, at import time of its plugin; the harness sets it the same way.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

#: the suite's spelling of each architecture the machine models -> tilecraft's
ARCHES = {"wormhole": "wormhole", "wormhole_b0": "wormhole", "blackhole": "blackhole"}
DEFAULT_ARCH = "wormhole"
#: the stand-in ``ttexalens``/``tt_umd`` packages, put on ``sys.path`` by the plugin only
STANDINS = Path(__file__).resolve().parent / "standins"

#: third-party modules the suite's Python imports when its conftest loads (tests/requirements.txt
#: in the suite), provided by ``pip install 'tilecraft[llk]'``
SUITE_MODULES = ("ml_dtypes", "loguru", "pydantic", "pandas", "filelock", "yaml", "typing_extensions", "xdist")
EXTRA = "llk"


class SuiteDependencyMissing(RuntimeError):
    """A Python package the suite imports is not installed."""


def chip_arch() -> str:
    """tilecraft's name for the architecture the suite targets (``CHIP_ARCH``, default Wormhole)."""
    raw = os.environ.get("CHIP_ARCH", DEFAULT_ARCH).strip().lower()
    if raw not in ARCHES:
        raise ValueError(f"CHIP_ARCH={raw!r} is not an architecture tilecraft's Tensix machine models; "
                         f"use one of {sorted(set(ARCHES))}")
    return ARCHES[raw]


def missing_suite_modules() -> list[str]:
    return [name for name in SUITE_MODULES if importlib.util.find_spec(name) is None]


def require_suite_modules() -> None:
    """Raise with the install command when a package the suite imports is missing."""
    missing = missing_suite_modules()
    if missing:
        raise SuiteDependencyMissing(
            f"the LLK test suite needs Python packages that are not installed: {', '.join(missing)}. "
            f"Install tilecraft's '{EXTRA}' extra: pip install -e '.[{EXTRA}]' (or pip install 'tilecraft[{EXTRA}]')")
