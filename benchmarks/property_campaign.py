"""The property campaign: thousands of generated programs, mistakes and bad host inputs, counted.

The test suite runs a few examples of each property (tests/property); this runs many and
counts the outcomes per kind instead of stopping at the first failure: passed, or failed by
class ("golden mismatch", "metal differs", "wrong line", "internal error", ...). Checks that an
open item breaks (``tests/property/known_issues.py``) are left out as in the tests and counted
as "unchecked (item)"; ``--all-checks`` makes them anyway, to measure how often each item trips.

    .venv/bin/python -m benchmarks.property_campaign                      # ~3,000 examples
    .venv/bin/python -m benchmarks.property_campaign --programs 100 --mutants 20 --host 10 --seed 7
    .venv/bin/python -m benchmarks.property_campaign --section programs --kind matmul --json out.json
    .venv/bin/python -m benchmarks.property_campaign --section cpp --programs 20   # the emitted C++

``--programs N`` is per program kind, ``--mutants N`` per kind of mistake, ``--host N`` per bad
host input. Every failing example's script stays in $TILECRAFT_PROPERTY_DIR (default
/tmp/tilecraft-property); the report lists a few per class. Run with OMP_NUM_THREADS=1.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Callable, Iterable

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from tests.property import known_issues
from tests.property.harness import Outcome, check_host_script, check_mutant, check_program, check_program_cpp
from tests.property.host_inputs import HOST_MISTAKES
from tests.property.mutations import MUTATIONS
from tests.property.strategies import KINDS, host_scripts, mutants

LEVELS = ("exact", "metal")
SHOWN_PER_CLASS = 3


@dataclass
class Tally:
    """Outcomes of one row (a program kind, a mutation, a host mistake)."""

    examples: int = 0
    classes: Counter = field(default_factory=Counter)
    notes: Counter = field(default_factory=Counter)
    scripts: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def add(self, outcome: Outcome) -> None:
        self.examples += 1
        self.classes[outcome.klass] += 1
        self.notes.update(outcome.notes)
        if not outcome.passed and len(self.scripts[outcome.klass]) < SHOWN_PER_CLASS:
            self.scripts[outcome.klass].append(f"{outcome.script}: {outcome.detail}"[:300])


def draw_and_check(strategy: st.SearchStrategy, check: Callable[[object], Outcome], examples: int,
                   seed_value: int) -> Tally:
    """``examples`` draws of ``strategy``, each checked; no shrinking, no example database."""
    tally = Tally()

    @seed(seed_value)
    @settings(max_examples=examples, database=None, deadline=None, phases=(Phase.generate,),
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def run(value: object) -> None:
        try:
            tally.add(check(value))
        except Exception as exc:  # noqa: BLE001 - a harness or generator bug: count it, go on
            tally.add(Outcome("harness error", f"{type(exc).__name__}: {exc}"))

    run()
    return tally


def program_check(all_checks: bool) -> Callable[[object], Outcome]:
    def check(program) -> Outcome:
        skipped = {} if all_checks else known_issues.unchecked(program.features)
        outcome = check_program(program, [level for level in LEVELS if level not in skipped])
        if all_checks and not outcome.passed:
            tripped = known_issues.unchecked(program.features)
            items = sorted(set(tripped.values()))
            if items:
                return Outcome(f"{outcome.klass} [{', '.join(items)}]", outcome.detail, outcome.script)
        notes = tuple(f"unchecked {level} ({item})" for level, item in skipped.items())
        return Outcome(outcome.klass, outcome.detail, outcome.script, outcome.notes + notes)
    return check


def known_label(outcome: Outcome, item: str | None) -> Outcome:
    """Failures of a case that carries an open item are counted under that item."""
    if outcome.passed or item is None or not known_issues.is_open(item):
        return outcome
    return Outcome(f"{outcome.klass} [{item}]", outcome.detail, outcome.script)


def sections(args: argparse.Namespace) -> Iterable[tuple[str, str, st.SearchStrategy, Callable, int]]:
    if args.section in (None, "programs"):
        for kind in args.kind or sorted(KINDS):
            yield "programs", kind, KINDS[kind](), program_check(args.all_checks), args.programs
    if args.section == "cpp":
        for kind in args.kind or sorted(KINDS):
            yield "cpp", kind, KINDS[kind](), check_program_cpp, args.programs
    if args.section in (None, "mutants"):
        for mutation in MUTATIONS:
            yield ("mutants", mutation.name, mutants((mutation,)),
                   lambda mutant, item=mutation.known: known_label(check_mutant(mutant), item), args.mutants)
    if args.section in (None, "host"):
        for mistake in HOST_MISTAKES:
            yield ("host", mistake.name, host_scripts(mistake),
                   lambda script, item=mistake.known: known_label(check_host_script(script), item), args.host)


def report(section: str, rows: dict[str, Tally], seconds: float) -> None:
    total = sum(t.examples for t in rows.values())
    passed = sum(t.classes["passed"] for t in rows.values())
    print(f"\n{section}: {total} examples, {passed} passed, {total - passed} failed, {seconds:.0f} s")
    print(f"  {'name':34} {'examples':>8} {'passed':>7}  failed by class")
    for name, tally in rows.items():
        failures = ", ".join(f"{k}: {v}" for k, v in tally.classes.most_common() if k != "passed")
        print(f"  {name:34} {tally.examples:>8} {tally.classes['passed']:>7}  {failures}")
    notes = Counter()
    for tally in rows.values():
        notes.update(tally.notes)
    if notes:
        print("  notes on passing examples (checks not made; for --section cpp, how close to --numerics device):")
        for note, count in notes.most_common():
            print(f"    {count:>6}  {note}")
    shown = [(name, klass, scripts) for name, t in rows.items() for klass, scripts in t.scripts.items()]
    if shown:
        print("  failing examples (a few per class):")
        for name, klass, scripts in shown:
            for line in scripts:
                print(f"    {name} / {klass}: {line}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--programs", type=int, default=120, help="examples per program kind")
    parser.add_argument("--mutants", type=int, default=25, help="examples per kind of mistake")
    parser.add_argument("--host", type=int, default=8, help="examples per bad host input")
    parser.add_argument("--section", choices=("programs", "mutants", "host", "cpp"),
                        help="cpp (only when named): the valid programs at --level cpp, each matching its golden "
                             "or stopped by a diagnostic ('diagnosed E...')")
    parser.add_argument("--kind", action="append", choices=sorted(KINDS), help="only these program kinds")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--all-checks", action="store_true",
                        help="also make the checks that open items break (counted under the item)")
    parser.add_argument("--json", help="write the counts and failing scripts here")
    args = parser.parse_args(argv)
    if os.environ.get("OMP_NUM_THREADS") != "1":
        print("note: OMP_NUM_THREADS is not 1; torch may use every core", file=sys.stderr)
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    results: dict[str, dict[str, Tally]] = defaultdict(dict)
    started: dict[str, float] = {}
    elapsed: dict[str, float] = defaultdict(float)
    for section, name, strategy, check, examples in sections(args):
        started.setdefault(section, time.time())
        begin = time.time()
        results[section][name] = draw_and_check(strategy, check, examples, args.seed)
        elapsed[section] += time.time() - begin
        tally = results[section][name]
        print(f"  {section}/{name}: {tally.classes['passed']}/{tally.examples} passed", file=sys.stderr, flush=True)
    for section, rows in results.items():
        report(section, rows, elapsed[section])
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({section: {name: {"examples": t.examples, "classes": dict(t.classes), "notes": dict(t.notes),
                                        "failing": dict(t.scripts)} for name, t in rows.items()}
                       for section, rows in results.items()}, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
