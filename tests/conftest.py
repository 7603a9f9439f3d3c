"""Shared pytest fixtures.

The published tutorials are fetched from PyPI (see tests/tutorials.py). A
developer offline should still be able to run the rest of the suite, so a
failed download skips the tutorial tests. CI must never skip them silently:
`.ci/run` sets TILECRAFT_REQUIRE_TUTORIALS=1, which turns the skip into an error.

Tests that run the CLI in-process use `fresh_process_state`, so each run sees
what a new `tilecraft` process would and leaves nothing behind for the next.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.tutorials import PACKAGE, VERSION, TutorialsUnavailable, tutorials_dir
from tilecraft import session
from tilecraft.tune import options as tune_options


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


@pytest.fixture(autouse=True, scope="session")
def tuning_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Tuning results the suite produces (examples with @ttl.autotune) go to a cache of its own,
    never to the user's ~/.cache/tilecraft/tune."""
    cache = tmp_path_factory.mktemp("tune-cache")
    os.environ[tune_options.CACHE_VARIABLE] = str(cache)  # scripts the tests start as processes too
    return cache


@pytest.fixture
def fresh_process_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default session, and sys.argv / sys.path / the `ttl`, `ttnn` aliases restored afterwards.

    The CLI sets all of these (tilecraft/cli.py); a test that calls it in-process
    must not see the previous test's settings nor leak its own.
    """
    monkeypatch.setattr(session, "_default", None)
    monkeypatch.setattr(sys, "argv", list(sys.argv))
    monkeypatch.setattr(sys, "path", list(sys.path))
    for name in ("ttl", "ttnn"):
        monkeypatch.delitem(sys.modules, name, raising=False)
