"""The module names programs written for the published tools import, and the one function that
serves them from tilecraft.

Scripts written for the published TT-Lang simulator ``import ttl`` and ``import ttnn``; the seed's
PyKernel scripts import ``pykernel.kernel_ast``, ``pykernel.op``, ...; the hosts tilecraft emits
``import ttnn``. Each is answered by a tilecraft module, entered into ``sys.modules`` under the
published name by :func:`serve_published` and nowhere else: the CLI and the language server (every
name, for the script they run), every process that evaluates a tuning candidate (through
``tilecraft.scripts.install_modules``), and ``run_cpp`` while it loads an emitted host (``ttnn``
only, put back afterwards).

The modules are named by their dotted paths and imported when served: this module sits at the
base of the layers, below the packages it names.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import Callable, Iterable

#: published module name -> the tilecraft module that serves it
PUBLISHED: dict[str, str] = {
    "ttl": "tilecraft",
    "ttnn": "tilecraft.ttnn",
    "pykernel": "tilecraft.pykernel",
    "pykernel.kernel_ast": "tilecraft.pykernel.kernel_ast",
    "pykernel.ast": "tilecraft.pykernel.kernel_ast",  # the seed's older name
    "pykernel.op": "tilecraft.pykernel.op",
    "pykernel.kernel_types": "tilecraft.pykernel.kernel_types",
    "pykernel.types": "tilecraft.pykernel.kernel_types",  # the seed's older name
}


def serve_published(names: Iterable[str] = tuple(PUBLISHED)) -> Callable[[], None]:
    """Serve each published module name in ``names`` from its tilecraft module; returns the function
    that puts ``sys.modules`` back as it was for those names (a name that was not there is removed)."""
    names = tuple(names)
    unknown = [n for n in names if n not in PUBLISHED]
    if unknown:
        raise KeyError(f"not a published module name: {', '.join(unknown)}")
    saved: dict[str, ModuleType | None] = {name: sys.modules.get(name) for name in names}
    for name in names:
        sys.modules[name] = importlib.import_module(PUBLISHED[name])

    def restore() -> None:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module

    return restore
