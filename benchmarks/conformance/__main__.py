"""``python -m benchmarks.conformance``: run every conformance program on both simulators, compare.

    python -m benchmarks.conformance                      # all programs, side by side
    python -m benchmarks.conformance eltwise_add_operation pipe_positional_slice
    python -m benchmarks.conformance --goldens            # tilecraft against the stored goldens only
    python -m benchmarks.conformance --update-goldens     # store the reference's results as goldens
    python -m benchmarks.conformance --surface-table      # also rewrite the API table in docs/language.md

Exit status 0 when every program agrees, 1 otherwise. ``--json FILE`` writes the rows.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Optional

from . import catalogue, surface_table
from .catalogue import Program
from .execute import DEFAULT_REFERENCE, Run, reference_command, run, tilecraft_command
from .verdict import describe, judge


@dataclass
class Row:
    program: str
    expects: str
    reference: str
    tilecraft: str
    agree: bool
    detail: str
    seconds_reference: float
    seconds_tilecraft: float


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.conformance", description=__doc__.split("\n\n")[0])
    parser.add_argument("programs", nargs="*", help="program names (default: all)")
    parser.add_argument("--reference", default=DEFAULT_REFERENCE,
                        help="the Python interpreter tt-lang-sim 1.1.6 is installed in")
    parser.add_argument("--python", default=sys.executable, help="interpreter that runs `-m tilecraft`")
    parser.add_argument("--goldens", action="store_true", help="compare with the stored goldens, not a reference run")
    parser.add_argument("--update-goldens", action="store_true", help="store the reference's results as goldens")
    parser.add_argument("--surface-table", action="store_true",
                        help="rewrite the API table of docs/language.md from this run (needs all programs)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per run")
    parser.add_argument("--json", type=Path, help="write the rows to this file")
    args = parser.parse_args(argv)
    if args.goldens and args.update_goldens:
        parser.error("--goldens compares with the stored goldens; --update-goldens needs a reference run")
    if args.surface_table and args.programs:
        parser.error("--surface-table needs every program's result; name no programs")
    try:
        programs = catalogue.select(args.programs)
    except ValueError as error:
        parser.error(str(error))

    rows = [run_one(program, args) for program in programs]
    print_table(rows)
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=1))
    if args.surface_table:
        surface_table.write(programs, {r.program: r.agree for r in rows}, args.reference)
    return 0 if all(r.agree for r in rows) else 1


def run_one(program: Program, args: argparse.Namespace) -> Row:
    started = time.perf_counter()
    if args.goldens:
        reference = Run.load_golden(program.golden)
    else:
        reference = run(reference_command(program, args.reference), args.timeout)
    middle = time.perf_counter()
    ours = run(tilecraft_command(program, args.python), args.timeout)
    ended = time.perf_counter()
    verdict = judge(program, reference, ours)
    if args.update_goldens:
        store_golden(program, reference)
    return Row(program.name, f"error {program.error_code}" if program.expects_error else "outputs",
               describe(reference, program), describe(ours, program), verdict.agree, verdict.detail,
               round(middle - started, 2), round(ended - middle, 2))


def store_golden(program: Program, reference: Run) -> None:
    """Store the reference's run, if it did what the program expects of it (else say why not)."""
    usable = reference.returncode != 0 if program.expects_error else reference.outputs is not None
    if not usable:
        print(f"{program.name}: not stored, the reference {describe(reference, program)}", file=sys.stderr)
        return
    program.golden.parent.mkdir(exist_ok=True)
    reference.save_golden(program.golden)


def print_table(rows: list[Row]) -> None:
    header = ("program", "expects", "reference", "tilecraft", "agree", "detail")
    cells = [(r.program, r.expects, r.reference, r.tilecraft, "yes" if r.agree else "NO", r.detail) for r in rows]
    agreed = sum(r.agree for r in rows)
    caption = f"{agreed} of {len(rows)} programs agree"
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:  # rich is optional (the `conformance` extra): plain columns
        for line in [header, *cells]:
            print(" | ".join(line))
        print(caption)
        return
    table = Table(*header, caption=caption)
    for line in cells:
        table.add_row(*line, style=None if line[4] == "yes" else "red")
    Console(width=200).print(table)


if __name__ == "__main__":
    sys.exit(main())
