"""Shared pytest fixtures.

The published tutorials are fetched from PyPI (see tests/tutorials.py). A
developer offline should still be able to run the rest of the suite, so a
failed download skips the tutorial tests. CI must never skip them silently:
`.ci/run` sets TILECRAFT_REQUIRE_TUTORIALS=1, which turns the skip into an error.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.tutorials import PACKAGE, VERSION, TutorialsUnavailable, tutorials_dir


@pytest.fixture(scope="session")
def tutorials() -> Path:
    """Directory of the tt-lang-sim tutorials (`elementwise/`, `matmul/`, `broadcast/`)."""
    try:
        return tutorials_dir()
    except TutorialsUnavailable as error:
        if os.environ.get("TILECRAFT_REQUIRE_TUTORIALS") == "1":
            pytest.fail(
                f"TILECRAFT_REQUIRE_TUTORIALS=1 but the {PACKAGE}=={VERSION} wheel "
                f"could not be downloaded from the package index: {error}",
                pytrace=False,
            )
        pytest.skip(f"TT-Lang tutorials unavailable (offline?): {error}")
