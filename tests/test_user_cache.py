"""user_cache.fill under concurrency: processes that want the same cache entry at once (pytest-xdist
workers, two tilecraft runs) build it once, all get the whole entry, and a damaged one is replaced."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

import pytest

from tilecraft import user_cache

MARKER = "done"


def complete(entry: Path) -> bool:
    return (entry / MARKER).is_file()


def fill_slowly(entry: str, log: str, start: float) -> bool:
    """One racer: waits for the common start, then fills ``entry`` with a build that takes a while."""
    def make(staging: Path) -> None:
        with open(log, "a") as out:
            out.write("built\n")
        (staging / "payload").write_text("x" * 100_000)
        time.sleep(0.3)  # long enough for every other racer to look while this build runs
        (staging / MARKER).write_text("")

    time.sleep(max(0.0, start - time.time()))
    return user_cache.fill(Path(entry), complete, make)


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "cache"
    monkeypatch.setenv("TILECRAFT_CACHE_DIR", str(root))
    return root


def race(entry: Path, log: Path, racers: int = 4) -> list[bool]:
    context = multiprocessing.get_context("fork")
    with context.Pool(racers) as pool:
        start = time.time() + 0.5
        return pool.starmap(fill_slowly, [(str(entry), str(log), start)] * racers)


def test_racing_processes_build_an_entry_once_and_all_see_it_whole(cache, tmp_path) -> None:
    entry, log = cache / "thing", tmp_path / "builds.log"
    built = race(entry, log)
    assert sorted(built) == [False, False, False, True]
    assert log.read_text() == "built\n"
    assert (entry / "payload").read_text() == "x" * 100_000
    assert sorted(p.name for p in cache.iterdir()) == ["locks", "thing"]  # no scratch left behind


def test_an_incomplete_entry_is_replaced_once(cache, tmp_path) -> None:
    entry, log = cache / "thing", tmp_path / "builds.log"
    entry.mkdir(parents=True)
    (entry / "payload").write_text("half")  # an interrupted writer of an older layout, no marker
    built = race(entry, log)
    assert sorted(built) == [False, False, False, True]
    assert log.read_text() == "built\n"
    assert (entry / "payload").read_text() == "x" * 100_000 and complete(entry)


def test_a_failed_build_leaves_no_entry_and_the_next_one_builds(cache) -> None:
    entry = cache / "thing"

    def broken(staging: Path) -> None:
        (staging / "payload").write_text("partial")
        raise RuntimeError("the download failed")

    with pytest.raises(RuntimeError, match="the download failed"):
        user_cache.fill(entry, complete, broken)
    assert not entry.exists() and [p.name for p in cache.iterdir()] == ["locks"]
    assert user_cache.fill(entry, complete, lambda staging: (staging / MARKER).write_text(""))
    assert complete(entry)


def test_an_entry_outside_the_cache_locks_beside_itself(cache, tmp_path) -> None:
    outside = tmp_path / "elsewhere" / "thing"
    assert user_cache.lock_path(outside).parent == outside.parent
    assert user_cache.lock_path(cache / "emu" / "kernels" / "k").parent == cache / "locks"
