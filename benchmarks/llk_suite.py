"""Tenstorrent's LLK test suite on tilecraft's Tensix machine: passed/failed/skipped per test file.

Runs the suite's own pytest files (from the ttnn 0.81.1 wheel, fetched into the cache) with their
own parametrization, stimuli and golden generators, through the harness plugin
(tilecraft/emu/llk_suite/plugin.py): the files are collected in one pytest process, then each runs
in a pytest process of its own so that one file cannot take the others down. Each file's JUnit XML is kept; the per-file counts are printed as a table and
written to ``summary.json``, with the most frequent failure messages (what the machine lacks).

    python -m benchmarks.llk_suite [--arch wormhole] [-k EXPR] [--files test_x.py ...] [--focus]
                                   [--max-per-file N] [--jobs N] [--out DIR] [--file-timeout S]

Without ``--files``, every file the harness runs is run (all but the exclusions in
tilecraft/emu/llk_suite/selection.py); ``--focus`` runs the first slice's six target files. The
suite's parametrization has about 260,000 cases (151,000 in test_math_matmul.py alone), so by
default each file runs 40 of its cases spread evenly over its parametrization (``--max-per-file
0``: all of them); the table shows how many each file has and how many ran.
Needs ``pip install -e '.[llk]'``.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tilecraft.emu.llk_suite import selection, suite_tree
from tilecraft.emu.llk_suite.harness_env import SuiteDependencyMissing, require_suite_modules

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = "tilecraft.emu.llk_suite.plugin"
CACHED_PATH = re.compile(r"/\S*?/(tt_metal/|tt-llk/tests/)")


@dataclass
class FileResult:
    """One suite file's outcome, counted from its JUnit XML (or why there is none)."""

    file: str
    collected: int = 0
    passed: int = 0
    failed: int = 0
    errors: int = 0
    skipped: int = 0
    seconds: float = 0.0
    note: str = ""
    messages: list[str] = field(default_factory=list)
    failed_cases: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.passed + self.failed + self.errors + self.skipped


def pytest_command(files: list[str], junit: Path | None, keyword: str | None, jobs: int) -> list[str]:
    """The pytest command line for ``files`` of the suite, run from its python_tests directory."""
    command = [sys.executable, "-m", "pytest", "-p", PLUGIN, "-q", "-p", "no:cacheprovider", *files]
    if junit is not None:
        command += [f"--junitxml={junit}", "-o", "junit_logging=no"]
    if keyword:
        command += ["-k", keyword]
    if jobs > 1:
        command += ["-n", str(jobs)]
    return command


def harness_env(arch: str) -> dict[str, str]:
    """The subprocess environment: this checkout importable, the suite's architecture chosen."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    env["CHIP_ARCH"] = arch
    return env


def collect(python_tests: Path, names: list[str], arch: str, keyword: str | None) -> dict[str, list[str]]:
    """The node ids of each file's cases under the suite's own parametrization (and ``-k``), in one
    pytest process for all the files (a file that does not collect gets none)."""
    command = pytest_command(names, None, keyword, 1) + ["--collect-only", "--continue-on-collection-errors"]
    completed = subprocess.run(command, cwd=python_tests, env=harness_env(arch), capture_output=True, text=True)
    cases: dict[str, list[str]] = {name: [] for name in names}
    for line in completed.stdout.splitlines():
        name = line.split("::", 1)[0]
        if "::" in line and name in cases:
            cases[name].append(line.strip())
    return cases


def evenly_spaced(items: list[str], count: int) -> list[str]:
    """``count`` items spread over the whole list (the first included), in order; all if fewer."""
    if count <= 0 or count >= len(items):
        return items
    return [items[index * len(items) // count] for index in range(count)]


def run_file(python_tests: Path, name: str, out: Path, arch: str, keyword: str | None = None, jobs: int = 1,
             timeout_s: float = 3600, targets: list[str] | None = None, collected: int = 0) -> FileResult:
    """Run one suite file in its own pytest process and count its outcomes from JUnit XML.

    ``targets``: node ids of the file to run instead of the whole file (``-k`` then does not
    apply: it chose them); ``collected``: how many cases the file has, when known.
    """
    junit = out / f"{Path(name).stem}.xml"
    junit.unlink(missing_ok=True)
    started = time.monotonic()
    try:
        completed = subprocess.run(pytest_command(targets or [name], junit, None if targets else keyword, jobs),
                                   cwd=python_tests, env=harness_env(arch), capture_output=True, text=True,
                                   timeout=timeout_s)
        note = "" if completed.returncode in (0, 1, 5) else _tail(completed.stdout + completed.stderr)
    except subprocess.TimeoutExpired:
        note = f"timed out after {timeout_s:.0f} s"
    result = read_junit(junit, name) if junit.exists() else FileResult(name, note=note or "no JUnit XML written")
    result.collected = collected or result.total
    result.seconds = time.monotonic() - started
    result.note = result.note or note
    return result


def read_junit(junit: Path, name: str) -> FileResult:
    """Counts and failure messages of one JUnit XML file."""
    result = FileResult(name)
    for case in ElementTree.parse(junit).getroot().iter("testcase"):
        outcome = next((child for child in case if child.tag in ("failure", "error", "skipped")), None)
        if outcome is None:
            result.passed += 1
            continue
        if outcome.tag == "skipped":
            result.skipped += 1
            continue
        if outcome.tag == "failure":
            result.failed += 1
        else:
            result.errors += 1
        result.messages.append(failure_reason(outcome.text or outcome.get("message") or ""))
        result.failed_cases.append(f"{case.get('name')}: {result.messages[-1]}")
    return result


def failure_reason(message: str) -> str:
    """What went wrong in a failure message, without the variant's parameters.

    The suite's plugin rewrites each failure as ``⨯ <file>::<test>[<params>] <message>`` (or
    ``... Error type: <Exception>`` and the message on the next line); the parameters, which
    differ per variant, are cut so that equal causes count together. A test without parameters
    has no ``[...]`` after its id (a bracket further on belongs to the message).
    """
    text = message.strip()
    prefix = next((p for p in ("⨯", "LLK ASSERT HIT", "TENSIX TIMED OUT") if text.startswith(p)), None)
    opening = text.find("[")
    if prefix is not None and (opening < 0 or any(c.isspace() for c in text[len(prefix):opening].strip())):
        # A test without parameters (``<file>::<test>None <message>``): cut only its id.
        text = text[len(prefix):].strip().partition(" ")[2]
    elif prefix is not None:
        depth = 0
        for index in range(opening, len(text)):
            depth += {"[": 1, "]": -1}.get(text[index], 0)
            if depth == 0:
                text = text[index + 1:]
                break
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if lines and lines[0].startswith("Error type:"):
        lines = [" ".join(lines[:2])]
    # Paths into a cache (the machine's include tree, the suite's copy) read from tt_metal/ or tests/.
    reason = CACHED_PATH.sub(r"\1", lines[0] if lines else "(no message)")
    return reason[:300]


def _tail(text: str, lines: int = 6) -> str:
    return " | ".join(text.strip().splitlines()[-lines:])[:400]


def print_table(results: list[FileResult], arch: str) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"LLK test suite on tilecraft's Tensix machine ({arch})")
    table.add_column("file", no_wrap=True)
    for column in ("cases", "ran", "passed", "failed", "errors", "skipped", "s"):
        table.add_column(column, justify="right")
    table.add_column("note")
    totals = FileResult("total")
    for result in results:
        table.add_row(result.file, str(result.collected), str(result.total), str(result.passed), str(result.failed),
                      str(result.errors), str(result.skipped), f"{result.seconds:.0f}", result.note[:60])
        for counter in ("collected", "passed", "failed", "errors", "skipped", "seconds"):
            setattr(totals, counter, getattr(totals, counter) + getattr(result, counter))
    table.add_row("total", str(totals.collected), str(totals.total), str(totals.passed), str(totals.failed),
                  str(totals.errors), str(totals.skipped), f"{totals.seconds:.0f}", "", style="bold")
    console = Console()
    if not console.is_terminal:  # a log file or pipe: do not squeeze the table into 80 columns
        console.width = 160
    console.print(table)
    ran = totals.passed + totals.failed + totals.errors
    if ran:
        console.print(f"passed {totals.passed} of {ran} cases that ran ({100 * totals.passed / ran:.1f}%); "
                      f"{totals.skipped} skipped by the suite's own conditions")
    reasons = collections.Counter(message for result in results for message in result.messages)
    if reasons:
        console.print("most frequent failure messages:")
        for message, count in reasons.most_common(10):
            console.print(f"  {count:6d}  {message}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.llk_suite", description=__doc__.splitlines()[0])
    parser.add_argument("--arch", default="wormhole", choices=["wormhole", "blackhole"])
    parser.add_argument("-k", dest="keyword", help="pytest -k expression applied to every file")
    parser.add_argument("--files", nargs="+", help="suite files to run (default: every file not excluded)")
    parser.add_argument("--focus", action="store_true", help="run the first slice's six target files")
    parser.add_argument("--max-per-file", type=int, default=40,
                        help="cases per file, spread evenly over its parametrization (default 40; 0: every case)")
    parser.add_argument("--jobs", type=int, default=1, help="pytest-xdist workers per file (default 1)")
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "llk_suite", help="where JUnit XML goes")
    parser.add_argument("--file-timeout", type=float, default=3600, help="seconds before a file is stopped")
    args = parser.parse_args(argv)
    try:
        require_suite_modules()
    except SuiteDependencyMissing as error:
        parser.error(str(error))
    python_tests = suite_tree.python_tests_dir(suite_tree.ensure_llk_root())
    files = args.files or (list(selection.FOCUS) if args.focus else selection.included_files(python_tests))
    unknown = [name for name in files if not (python_tests / name).is_file()]
    if unknown:
        parser.error(f"not files of the suite: {', '.join(unknown)} (they live in {python_tests})")
    out = args.out / args.arch
    out.mkdir(parents=True, exist_ok=True)
    cases = collect(python_tests, files, args.arch, args.keyword) if args.max_per_file else {}
    results = []
    for name in files:
        targets = evenly_spaced(cases[name], args.max_per_file) if cases.get(name) else None
        results.append(run_file(python_tests, name, out, args.arch, args.keyword, args.jobs, args.file_timeout,
                                targets, len(cases.get(name, ()))))
        print(f"{name}: {results[-1].total} of {results[-1].collected} cases: {results[-1].passed} passed, {results[-1].failed} failed, {results[-1].errors} errors, "
              f"{results[-1].skipped} skipped ({results[-1].seconds:.0f} s) {results[-1].note}", flush=True)
    (out / "summary.json").write_text(json.dumps([asdict(result) for result in results], indent=1))
    print_table(results, args.arch)
    return 0


if __name__ == "__main__":
    sys.exit(main())
