"""Kernel-emulator tests need a host C++ compiler (the emulator's one requirement); without one
they are skipped here and tests/emu/test_build.py checks the error a user would get."""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

import pytest

import tilecraft.ttnn as ttnn
from tilecraft import session
from tilecraft.emu import wheel_kernels


def pytest_collection_modifyitems(config, items):
    if shutil.which("g++") is None:
        skip = pytest.mark.skip(reason="no g++: the kernel emulator compiles kernels with the host C++ compiler")
        for item in items:
            if "tests/emu/" in str(item.fspath) and "test_build.py::test_no_compiler" not in item.nodeid:
                item.add_marker(skip)


@pytest.fixture
def device(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    """An open Wormhole device under the default session; parametrized indirectly with
    ``"blackhole"`` (harness.arch_cases), a Blackhole device whose compute kernels run on the Tensix
    machine built for Blackhole (the real 0.81.1 Blackhole compute API and LLK)."""
    monkeypatch.setattr(session, "_default", None)
    with contextlib.ExitStack() as scope:
        if getattr(request, "param", "wormhole_b0") == "blackhole":
            scope.enter_context(session.using(arch="blackhole"))
        dev = ttnn.open_device(0)
        yield dev
        ttnn.close_device(dev)


@pytest.fixture(scope="module")
def ops() -> Path:
    """The wheel's ``ttnn/cpp/ttnn/operations`` directory."""
    try:
        return wheel_kernels.operations(wheel_kernels.ensure_kernels())
    except wheel_kernels.KernelsUnavailable as error:
        if os.environ.get("TILECRAFT_REQUIRE_HEADERCHECK") == "1":
            pytest.fail(f"TILECRAFT_REQUIRE_HEADERCHECK=1 but the ttnn wheel's kernels cannot be had: {error}",
                        pytrace=False)
        pytest.skip(f"the ttnn 0.81.1 wheel's kernels are unavailable: {error}")
