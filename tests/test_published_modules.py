"""The published module names (``import ttl``, ``import ttnn``, ``pykernel.*``) are served from one
table by one function (tilecraft/published_modules.py), which every tool that runs a script, and
the loading of an emitted host, goes through."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

import tilecraft
from tilecraft import published_modules
from tilecraft.published_modules import PUBLISHED, serve_published

PACKAGE = Path(tilecraft.__file__).parent


@pytest.fixture
def clean_modules(monkeypatch: pytest.MonkeyPatch):
    """sys.modules as it was, whatever a test serves."""
    monkeypatch.setattr(sys, "modules", dict(sys.modules))


def test_every_published_name_imports_its_tilecraft_module(clean_modules) -> None:
    for name in PUBLISHED:
        sys.modules.pop(name, None)
    serve_published()
    import ttl
    import ttnn
    from pykernel.op import PyKernelOp

    assert ttl is tilecraft and ttnn is importlib.import_module("tilecraft.ttnn")
    assert PyKernelOp is importlib.import_module("tilecraft.pykernel.op").PyKernelOp
    assert importlib.import_module("pykernel.ast") is importlib.import_module("tilecraft.pykernel.kernel_ast")


def test_serving_is_undone_name_by_name(clean_modules) -> None:
    """What ``run_cpp`` does while it loads an emitted host: a user's own ``ttnn`` comes back, a
    name that was not there goes again."""
    users = ModuleType("ttnn")
    sys.modules["ttnn"] = users
    sys.modules.pop("ttl", None)
    restore = serve_published(("ttnn", "ttl"))
    assert sys.modules["ttnn"] is not users and sys.modules["ttl"] is tilecraft
    restore()
    assert sys.modules["ttnn"] is users and "ttl" not in sys.modules


def test_an_unpublished_name_is_refused(clean_modules) -> None:
    with pytest.raises(KeyError, match="not a published module name: numpy"):
        serve_published(("ttnn", "numpy"))


def test_nothing_else_writes_the_published_names_into_sys_modules() -> None:
    writes = re.compile(r"sys\.modules\[[^\]]+\]\s*=")
    writers = sorted(str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
                     if writes.search(path.read_text()) and path != Path(published_modules.__file__))
    assert writers == ["lsp/runner.py"]  # the script it runs, as __main__
