"""pytest plugin that runs Tenstorrent's LLK test suite on tilecraft's Tensix machine.

Load it with ``-p`` and point pytest at the suite's own files, from the suite's directory::

    cd <cache>/ttnn-0.81.1-llk/tt-llk/tests/python_tests
    CHIP_ARCH=wormhole pytest -p tilecraft.emu.llk_suite.plugin test_eltwise_unary_datacopy.py

(``python -m benchmarks.llk_suite`` does this and tabulates the outcome.) The suite's conftest,
its plugins, parametrization, stimuli and golden generators all run unchanged. This plugin:

1. puts the stand-in ``ttexalens``/``tt_umd`` packages (``standins/``) first on ``sys.path``
   before the suite's conftest imports them, so the suite's device is the in-process one of
   :mod:`.device`;
2. sets ``CHIP_ARCH`` (Wormhole unless given), which the suite reads at import time;
3. before the suite's own ``pytest_configure``, replaces ``TestConfig.build_elfs`` and
   ``TestConfig.run_elf_files`` with :mod:`.runner` (the Tensix machine's build and run), and
   gives the run its own artefact directory instead of the suite's shared ``/tmp/tt-llk-build``;
   under xdist (``-n``) the controller builds the machine's include tree before the workers start.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from . import runner
from .harness_env import DEFAULT_ARCH, STANDINS, SuiteDependencyMissing, chip_arch, require_suite_modules

#: the run's artefact directory, shared with xdist workers through the environment
ARTEFACTS_ENV = "TILECRAFT_LLK_ARTEFACTS"


def _prepare_process() -> None:
    # Before the suite's conftest is imported: a missing package or a bad CHIP_ARCH would otherwise
    # surface there as a bare ModuleNotFoundError or deep inside the suite.
    os.environ.setdefault("CHIP_ARCH", DEFAULT_ARCH)
    try:
        require_suite_modules()
        chip_arch()
    except (SuiteDependencyMissing, ValueError) as error:
        raise pytest.UsageError(str(error)) from None
    if str(STANDINS) not in sys.path:
        sys.path.insert(0, str(STANDINS))
    if ARTEFACTS_ENV not in os.environ:
        os.environ[ARTEFACTS_ENV] = tempfile.mkdtemp(prefix="tilecraft-llk-build-")


_prepare_process()


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    from helpers.test_config import TestConfig  # the suite's, imported by its conftest already

    artefacts = Path(os.environ[ARTEFACTS_ENV])
    TestConfig.resolve_artefacts_path = staticmethod(lambda: artefacts)
    TestConfig.build_elfs = runner.build_variant
    TestConfig.run_elf_files = runner.run_variant
    if config.getoption("numprocesses", None) and not hasattr(config, "workerinput"):
        # Build the machine's include tree once, here, rather than in every xdist worker at once.
        runner.prepare_machine(chip_arch())


def pytest_unconfigure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):
        shutil.rmtree(os.environ.get(ARTEFACTS_ENV, ""), ignore_errors=True)
