"""The kernel-level and the language-level model on every TT-Lang example (docs/performance-model.md,
"Calibration").

    .venv/bin/python -m benchmarks.level_agreement [EXAMPLE.py ...]

Runs each example (default: every ``examples/*.py``) with its launches emitted as C++ and run on the
emulator (``--level cpp``), times every launch at both levels (:func:`tilecraft.perf.both_levels.both_levels`)
and prints one markdown row per launch: language-level cycles, kernel-level cycles and their ratio.
Examples that fail to run at the C++ level are listed with their error.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import runpy
import sys
from pathlib import Path

from tilecraft.perf.both_levels import LevelPair, both_levels

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def pairs_of(script: Path) -> list[LevelPair]:
    """Every launch of ``script``, timed at both levels (its own output is swallowed). The script
    sees ``sys.argv`` as ``tilecraft run SCRIPT`` gives it (examples parse their options)."""
    argv = sys.argv
    sys.argv = [str(script)]
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            return both_levels(lambda: runpy.run_path(str(script), run_name="__main__"))
    finally:
        sys.argv = argv


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scripts", nargs="*", type=Path)
    args = parser.parse_args(argv)
    scripts = args.scripts or sorted(EXAMPLES.glob("*.py"))
    print("| example | launch | language | kernel (`--level cpp`) | kernel / language |")
    print("|---|---|---:|---:|---:|")
    worst = 0.0
    for script in scripts:
        try:
            found = pairs_of(script)
        except BaseException as exc:  # an example that does not run at the C++ level: say why, go on
            print(f"| {script.name} | (did not run: {type(exc).__name__}: {str(exc).splitlines()[0][:80] if str(exc) else ''}) | | | |")
            continue
        for i, pair in enumerate(found):
            worst = max(worst, abs(pair.ratio - 1))
            print(f"| {script.name} | {i} | {pair.language.cycles:,.0f} | {pair.kernel.cycles:,.0f} | {pair.ratio:.3f} |",
                  flush=True)
    print(f"\nlargest |kernel / language - 1|: {worst:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
