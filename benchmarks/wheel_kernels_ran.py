"""How many of ttnn 0.81.1's own kernel files run end to end on the emulator, counted, not claimed.

Runs the wheel-kernel test files (``tests/emu/test_wheel_*.py``, slow cases included) with a
pytest plugin that records, per test, every kernel source of the wheel the emulator compiles for it
(``tilecraft.emu.launch``'s ``compile_all`` sees each kernel of each launch, compute and data movement,
cached or not). A kernel
file counts as run when a test that compiled it passed; tests that expect a diagnostic (their
names say the run stops, is refused or reports a finding) do not count. Each file counts once, however
many tests run it. Prints the total, the count per test file and per op family.

    python -m benchmarks.wheel_kernels_ran [--default-only] [--json PATH]
"""

from __future__ import annotations

import argparse
import collections
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tilecraft.emu import build, launch

ROOT = Path(__file__).resolve().parents[1]
TESTS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "emu").glob("test_wheel_*.py")
               if p.name != "test_wheel_corpus_compile.py")
#: a test whose name says it expects a diagnostic rather than a result
EXPECTS_A_DIAGNOSTIC = re.compile(r"stop|not_modelled|unmodelled|finding|report|refus|reject|e5\d\d\d")
TREE = "ttnn/cpp/ttnn/"


class KernelRecorder:
    """A pytest plugin: the wheel kernels each test compiled, and whether the test passed."""

    def __init__(self) -> None:
        self.current: str | None = None
        self.kernels: dict[str, set[str]] = collections.defaultdict(set)
        self.passed: set[str] = set()
        self._compile_all = launch.compile_all

    def record(self, builds: list[build.KernelBuild], *engines: Any) -> list[tuple[Path, bool]]:
        for kernel_build in builds:
            source = kernel_build.source.as_posix()
            if TREE in source and self.current is not None:
                self.kernels[self.current].add(source.split(TREE, 1)[1])
        return self._compile_all(builds, *engines)

    def pytest_sessionstart(self) -> None:
        launch.compile_all = self.record

    def pytest_sessionfinish(self) -> None:
        launch.compile_all = self._compile_all

    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        self.current = item.nodeid

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call" and report.passed:
            self.passed.add(report.nodeid)

    def ran(self) -> dict[str, set[str]]:
        """Test file -> the kernel files its passing, result-checking tests ran."""
        by_file: dict[str, set[str]] = collections.defaultdict(set)
        for test, kernels in self.kernels.items():
            if test in self.passed and not EXPECTS_A_DIAGNOSTIC.search(test.split("::", 1)[1].lower()):
                by_file[test.split("::", 1)[0]].update(kernels)
        return by_file


def family(kernel: str) -> str:
    """``operations/eltwise/binary_ng/...`` -> ``eltwise/binary_ng``; other trees by their first folder."""
    parts = kernel.split("/")
    return "/".join(parts[1:3]) if parts[0] == "operations" else parts[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--default-only", action="store_true", help="the default suite's cases only (no slow ones)")
    parser.add_argument("--json", type=Path, help="write {test file: [kernel files]} here")
    args = parser.parse_args(argv)
    recorder = KernelRecorder()
    marks = "not slow" if args.default_only else "slow or not slow"
    code = pytest.main(["-q", "-m", marks, "-p", "no:cacheprovider", *TESTS], plugins=[recorder])
    by_file = recorder.ran()
    every = set().union(*by_file.values()) if by_file else set()
    print(f"\nwheel kernel files run end to end: {len(every)} (pytest exit status {int(code)})")
    for test_file, kernels in sorted(by_file.items()):
        print(f"  {test_file}: {len(kernels)}")
    for name, count in sorted(collections.Counter(map(family, every)).items()):
        print(f"  {name}: {count}")
    if args.json:
        args.json.write_text(json.dumps({f: sorted(k) for f, k in sorted(by_file.items())}, indent=1))
    return int(code)


if __name__ == "__main__":
    raise SystemExit(main())
