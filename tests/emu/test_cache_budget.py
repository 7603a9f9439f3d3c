"""The emulator cache's size bound (tilecraft/emu/cache_budget.py): least recently used entries go
first, recently used ones stay, two processes pruning at once leave a consistent cache, an evicted
entry is built again, and ``tilecraft cache`` shows and prunes it. Every test has a cache of its
own (``$TILECRAFT_CACHE_DIR`` in tmp_path) of small entries; nothing is compiled."""

from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path

import pytest

from tilecraft import user_cache
from tilecraft.cli import main
from tilecraft.emu import cache, cache_budget

HOUR = 3600.0
KIB = 1024
SIZE_ERROR = ("takes a size such as 5G, 500M or 2048 (bytes; K, M, G and T are powers of 1024, a trailing B or iB "
              "is allowed), not")


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The bounded part (``<cache>/emu``) of an empty cache of this test's own, at the default limit."""
    monkeypatch.setenv("TILECRAFT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv(cache_budget.MAX_SIZE_VARIABLE, raising=False)
    return cache_budget.bounded_root()


def add_entry(root: Path, kind: str, name: str, kib: int, age_s: float) -> Path:
    """An entry of ``kib`` KiB of data, last used ``age_s`` ago."""
    entry = root / kind / name
    entry.mkdir(parents=True)
    (entry / cache.OBJECT).write_bytes(name.encode() * (kib * KIB // len(name)))
    when = time.time() - age_s
    os.utime(entry, (when, when))
    return entry


def make_object(directory: Path) -> Path:
    """A build's ``make``: an object of 8 KiB."""
    (directory / cache.OBJECT).write_bytes(b"x" * 8192)
    return directory / cache.OBJECT


def names(root: Path) -> list[str]:
    return sorted(e.path.name for e in cache_budget.entries(root))


def size_of(root: Path, *keep: str) -> int:
    return sum(e.size for e in cache_budget.entries(root) if e.path.name in keep)


def test_the_least_recently_used_entries_go_first_until_the_cache_is_within_the_limit(root: Path) -> None:
    for hours, name in enumerate(["a", "b", "c", "d", "e"], 1):  # a used an hour ago, e five hours ago
        add_entry(root, "kernels" if hours % 2 else "tensix-prefix", name, 64, hours * HOUR)
    limit = size_of(root, "a", "b", "c") + 100  # d and e must go; c is the newest that fits
    pruned = cache_budget.prune(limit)
    assert names(root) == ["a", "b", "c"]
    assert pruned is not None and pruned.removed == 2 and pruned.size == size_of(root, "a", "b", "c") <= limit
    assert pruned.freed >= 2 * 64 * KIB
    assert cache_budget.prune(limit) == cache_budget.Pruned(0, 0, pruned.size)  # within it: nothing more goes
    assert not list((root / "kernels").glob(".*")) and not list((root / "tensix-prefix").glob(".*"))


def test_a_lookup_marks_its_entry_used_so_it_outlives_entries_built_after_it(root: Path) -> None:
    old, _ = cache.build("kernels", "old", make_object)
    new, _ = cache.build("kernels", "new", make_object)
    for entry, hours in ((old.parent, 3), (new.parent, 2)):
        os.utime(entry, (time.time() - hours * HOUR,) * 2)
    assert cache.lookup("kernels", "old") == old  # used now: "new" is now the least recently used
    assert time.time() - old.parent.stat().st_mtime < 5
    cache_budget.prune(size_of(root, "old"))
    assert names(root) == ["old"] and cache.lookup("kernels", "new") is None


def test_a_use_is_recorded_at_most_once_a_minute(root: Path) -> None:
    entry = add_entry(root, "kernels", "a", 4, 30)
    before = entry.stat().st_mtime
    assert cache_budget.mark_used(entry) and entry.stat().st_mtime == before  # marked 30 s ago: no write
    os.utime(entry, (time.time() - 90,) * 2)
    assert cache_budget.mark_used(entry) and time.time() - entry.stat().st_mtime < 5
    assert not cache_budget.mark_used(root / "kernels" / "absent")


def test_entries_used_in_the_last_minutes_are_kept_even_above_the_limit(root: Path) -> None:
    add_entry(root, "tensix-prefix", "old", 64, 2 * HOUR)
    add_entry(root, "tensix-prefix", "recent", 64, cache_budget.KEEP_RECENT_S - 60)
    add_entry(root, "kernels", "new", 64, 0)
    pruned = cache_budget.prune(0)
    assert names(root) == ["new", "recent"]
    assert pruned is not None and pruned.removed == 1 and pruned.size == size_of(root, "new", "recent") > 0


def test_an_entry_looked_up_between_the_scan_and_its_removal_is_put_back(root: Path) -> None:
    entry = add_entry(root, "kernels", "a", 4, HOUR)
    keep_after = time.time() - cache_budget.KEEP_RECENT_S  # the scan saw it an hour old ...
    assert cache_budget.mark_used(entry)  # ... then a process looked it up
    assert not cache_budget._evict(entry, keep_after)
    assert names(root) == ["a"] and (entry / cache.OBJECT).is_file()
    assert not [p for p in (root / "kernels").iterdir() if p.name.startswith(".")]


def test_an_entry_being_built_again_is_not_removed(root: Path) -> None:
    entry = add_entry(root, "kernels", "a", 4, HOUR)
    size = size_of(root, "a")
    with user_cache.locked(entry):  # user_cache.fill replacing a damaged "a"
        assert cache_budget.prune(0) == cache_budget.Pruned(0, 0, size)
    assert names(root) == ["a"]
    assert cache_budget.prune(0) == cache_budget.Pruned(1, size, 0) and names(root) == []


def test_an_evicted_entry_is_built_again_also_where_a_process_remembered_its_path(root: Path) -> None:
    builds: list[str] = []

    @cache_budget.memoized_entry(lambda path: path.parent)
    def prefix(name: str) -> Path:
        def make(directory: Path) -> Path:
            builds.append(name)
            (directory / cache.OBJECT).write_text(name)
            return directory / cache.OBJECT
        return cache.build("tensix-prefix", name, make)[0]

    first = prefix("p")
    assert prefix("p") == first and builds == ["p"]  # remembered: not looked up again
    cache_budget.clear("tensix-prefix")
    assert not first.exists()
    again = prefix("p")
    assert again == first and again.read_text() == "p" and builds == ["p", "p"]


def test_what_killed_processes_left_is_removed_and_scratch_and_linked_kinds_are_not_entries(
        root: Path, tmp_path: Path) -> None:
    add_entry(root, "kernels", "a", 4, HOUR)
    leftover = root / "kernels" / f"{cache_budget.EVICTING}b-123"
    (leftover / "sub").mkdir(parents=True)
    scratch, killed = root / "kernels" / ".build-c-xyz", root / "kernels" / ".build-d-xyz"
    scratch.mkdir()
    (killed / "entry").mkdir(parents=True)
    os.utime(killed, (time.time() - cache_budget.STALE_SCRATCH_S - 60,) * 2)
    elsewhere = add_entry(tmp_path / "other", "shared", "s", 4, HOUR)
    (root / "tensix-tree").symlink_to(elsewhere.parent, target_is_directory=True)
    assert names(root) == ["a"]
    cache_budget.prune(0)
    assert names(root) == [] and not leftover.exists() and not killed.exists()
    assert scratch.is_dir() and elsewhere.is_dir()  # a build may be using it; another cache's


def prune_at(start: float, limit: int) -> tuple[int, int] | None:
    time.sleep(max(0.0, start - time.time()))
    pruned = cache_budget.prune(limit)
    return None if pruned is None else (pruned.removed, pruned.size)


def test_two_processes_pruning_at_once_remove_each_entry_once_and_leave_a_consistent_cache(root: Path) -> None:
    for i in range(40):
        add_entry(root, f"kind{i % 3}", f"e{i:02}", 16 + i % 5, (i + 1) * 60 + cache_budget.KEEP_RECENT_S)
    newest = [f"e{i:02}" for i in range(12)]
    limit = size_of(root, *newest)
    context = multiprocessing.get_context("fork")
    with context.Pool(2) as pool:
        start = time.time() + 0.5
        results = pool.starmap(prune_at, [(start, limit)] * 2)
    assert sorted(removed for removed, _ in results) == [0, 28]  # one pruned, the other then found it within
    assert names(root) == newest
    for entry in cache_budget.entries(root):
        assert (entry.path / cache.OBJECT).read_bytes() == entry.path.name.encode() * (
            (16 + int(entry.path.name[1:]) % 5) * KIB // 3)
    assert not [p for kind in cache_budget.kinds(root) for p in kind.iterdir() if p.name.startswith(".")]


def test_a_build_prunes_at_most_once_a_minute_and_never_waits_for_another_pruner(
        root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache_budget.MAX_SIZE_VARIABLE, "1K")
    add_entry(root, "kernels", "old", 8, HOUR)
    cache.build("kernels", "new", make_object)
    assert names(root) == ["new"]  # the build checked the bound: "old" went
    add_entry(root, "kernels", "older", 8, HOUR)
    cache_budget.after_build()
    assert names(root) == ["new", "older"]  # checked a moment ago
    os.utime(root / cache_budget.CHECKED, (time.time() - cache_budget.CHECK_EVERY_S - 1,) * 2)
    with user_cache.locked(root) as held:  # another process is pruning
        assert held and cache_budget.prune(0, wait=False) is None
        cache_budget.after_build()
    assert names(root) == ["new", "older"]
    os.utime(root / cache_budget.CHECKED, (time.time() - cache_budget.CHECK_EVERY_S - 1,) * 2)
    cache_budget.after_build()
    assert names(root) == ["new"]


@pytest.mark.parametrize(("text", "size"), [("5G", 5 * 1024 ** 3), ("500M", 500 * 1024 ** 2),
                                            ("1.5g", 3 * 1024 ** 3 // 2), ("2048", 2048), ("64KiB", 65536),
                                            ("10 MB", 10 * 1024 ** 2), ("0", 0)])
def test_sizes_are_read_as_ccache_and_du_write_them(text: str, size: int) -> None:
    assert cache_budget.parse_size(text) == size


@pytest.mark.parametrize("text", ["5X", "", "G", "-1G", "5 G B", "1e9"])
def test_a_size_in_another_form_is_an_error_naming_the_accepted_ones(text: str) -> None:
    with pytest.raises(ValueError, match=r"^--max-size " + SIZE_ERROR.replace("(", r"\(").replace(")", r"\)")):
        cache_budget.parse_size(text)


# --- tilecraft cache ---------------------------------------------------------------------------------

def test_cache_info_shows_each_kind_the_total_the_limit_and_what_is_not_bounded(
        root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    add_entry(root, "tensix-prefix", "p1", 100, 2 * HOUR)
    add_entry(root, "tensix-prefix", "p2", 100, HOUR)
    add_entry(root, "kernels", "k", 20, HOUR)
    (root.parent / "ttnn-0.81.1-headers").mkdir()
    monkeypatch.setenv(cache_budget.MAX_SIZE_VARIABLE, "2G")
    assert main(["cache", "info"]) == 0
    out = capsys.readouterr().out
    total = cache_budget.format_size(sum(e.size for e in cache_budget.entries(root)))
    assert out.startswith(f"{root}: {total} of the 2.0G limit")
    rows = {line.split()[1]: line.split()[3:] for line in out.splitlines() if line.startswith("│")}
    prefix_size = cache_budget.format_size(size_of(root, "p1", "p2"))
    assert rows["tensix-prefix"][:3] == ["2", "│", prefix_size] and rows["kernels"][0] == "1"
    assert rows["total"][:3] == ["3", "│", total]
    assert "not bounded" in out and "ttnn-0.81.1-headers" in out


def test_cache_prune_and_clear_say_what_they_removed(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    add_entry(root, "tensix-prefix", "old", 100, 2 * HOUR)
    add_entry(root, "tensix-prefix", "recent", 100, 60)
    add_entry(root, "kernels", "k", 20, HOUR)
    freed, left = (cache_budget.format_size(size_of(root, *keep)) for keep in (("old", "k"), ("recent",)))
    assert main(["cache", "prune", "--max-size", "50K"]) == 0
    assert capsys.readouterr().out == (f"tilecraft: removed 2 entries ({freed}) from {root}; {left} left of the 50K "
                                       "limit (the rest was used in the last 10 minutes)\n")
    assert names(root) == ["recent"]
    add_entry(root, "kernels", "k2", 20, HOUR)
    freed, left = (cache_budget.format_size(size_of(root, keep)) for keep in ("recent", "k2"))
    assert main(["cache", "clear", "--kind", "tensix-prefix"]) == 0  # however recently used
    assert capsys.readouterr().out == f"tilecraft: removed 1 entry ({freed}) from {root}; {left} left\n"
    assert names(root) == ["k2"]
    assert main(["cache", "clear"]) == 0
    assert capsys.readouterr().out == f"tilecraft: removed 1 entry ({left}) from {root}; 0 left\n"
    assert names(root) == []


@pytest.mark.parametrize("argv", [["cache", "prune", "--max-size", "5X"], ["cache", "clear", "--kind", "nope"],
                                  ["cache", "info"]])
def test_cache_command_errors_are_one_line(argv: list[str], root: Path, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    add_entry(root, "kernels", "k", 4, HOUR)
    if argv[1] == "info":
        monkeypatch.setenv(cache_budget.MAX_SIZE_VARIABLE, "3Q")
    assert main(argv) == 2
    out, err = capsys.readouterr()
    expected = {"prune": f"tilecraft: error: --max-size {SIZE_ERROR} '5X'",
                "clear": f"tilecraft: error: --kind 'nope': the cache at {root} has the kinds kernels",
                "info": f"tilecraft: error: ${cache_budget.MAX_SIZE_VARIABLE} {SIZE_ERROR} '3Q'"}[argv[1]]
    assert out == "" and err == expected + "\n"
    assert names(root) == ["k"]


def test_a_run_with_a_bad_limit_stops_before_the_script(root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "script.py"
    script.write_text("print('ran')\n")
    monkeypatch.setenv(cache_budget.MAX_SIZE_VARIABLE, "lots")
    assert main(["run", str(script)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"tilecraft: error: ${cache_budget.MAX_SIZE_VARIABLE} {SIZE_ERROR} 'lots'\n"
