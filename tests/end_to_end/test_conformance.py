"""Every conformance program on tilecraft, against the published simulator's stored results.

The programs (benchmarks/conformance/programs/) run unchanged on tt-lang-sim 1.1.6 and on
tilecraft; ``python -m benchmarks.conformance`` runs both side by side and ``--update-goldens``
stores the reference's results in benchmarks/conformance/goldens/. Here each program runs on
tilecraft only, in process (torch is imported once), and is judged against its golden with the
harness's own rules (benchmarks/conformance/verdict.py): outputs equal in their declared format,
or within the program's stated tolerance; error programs rejected with the expected diagnostic
at the marked line.

Programs that fail today are marked ``xfail(strict=True)`` with the reason: once a fix makes one
pass, the test fails as XPASS until its entry below is removed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.conformance import catalogue
from benchmarks.conformance.execute import OUTPUT_VARIABLE, Run, load_outputs
from benchmarks.conformance.verdict import judge
from tilecraft.cli import main

pytestmark = pytest.mark.usefixtures("fresh_process_state")

#: case -> why it fails on tilecraft today (the item of issue 7, or the finding of the conformance run)
KNOWN_FAILURES: dict[str, str] = {
    "ttnn_core_ranges.split_range_set": "deliberate: split_work_to_cores' all_cores holds the cores that get "
                                        "work, as in ttnn (1.1.6: the whole grid); tilecraft warns W0503",
}


def _cases() -> list:
    params = []
    for program in catalogue.all_programs():
        marks = []
        if program.name in KNOWN_FAILURES:
            marks.append(pytest.mark.xfail(reason=KNOWN_FAILURES[program.name], strict=True))
        if program.slow:
            marks.append(pytest.mark.slow)
        params.append(pytest.param(program, id=program.name, marks=marks))
    return params


def run_tilecraft(program: catalogue.Program, scratch: Path, monkeypatch: pytest.MonkeyPatch,
                  capsys: pytest.CaptureFixture[str]) -> Run:
    """``tilecraft run PROGRAM`` in this process, as the harness runs it in a child."""
    output = scratch / "outputs.npz"
    monkeypatch.setenv(OUTPUT_VARIABLE, str(output))
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    monkeypatch.syspath_prepend(str(catalogue.SUPPORT))
    capsys.readouterr()
    code = main(["run", str(program.path), *program.simulator_args()])
    printed = capsys.readouterr()
    return Run(code, printed.out, printed.err, load_outputs(output) if code == 0 else None)


def test_every_known_failure_names_a_case() -> None:
    names = {p.name for p in catalogue.all_programs()}
    assert sorted(set(KNOWN_FAILURES) - names) == []


def test_every_case_has_a_golden_and_every_golden_a_case() -> None:
    cases = catalogue.all_programs()
    missing = [p.name for p in cases if not p.golden.exists()]
    assert missing == [], "run `python -m benchmarks.conformance --update-goldens` for these"
    stale = {path.stem for path in catalogue.GOLDENS.glob("*.npz")} - {p.name for p in cases}
    assert sorted(stale) == [], "these goldens belong to no case: delete them"


@pytest.mark.parametrize("program", _cases())
def test_conformance(program: catalogue.Program, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                     capsys: pytest.CaptureFixture[str]) -> None:
    reference = Run.load_golden(program.golden)
    ours = run_tilecraft(program, tmp_path, monkeypatch, capsys)
    verdict = judge(program, reference, ours)
    assert verdict.agree, f"{verdict.detail}\n{ours.stderr[-3000:]}"
