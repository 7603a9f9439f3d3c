"""The conformance harness's own rules: how a program states its expectations, and when two runs
agree (benchmarks/conformance/catalogue.py, verdict.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from benchmarks.conformance import catalogue
from benchmarks.conformance.execute import Run
from benchmarks.conformance.verdict import compare_output, describe, judge


def write_program(tmp_path: Path, docstring: str, body: str = "x = 1  # ERROR-HERE\n") -> Path:
    path = tmp_path / "case.py"
    path.write_text(f'"""{docstring}"""\n\n{body}')
    return path


def test_key_lines_with_variants_and_a_tolerance_for_one_of_them(tmp_path: Path):
    path = write_program(tmp_path, "What it tests.\n\nVariants: a b\nVariants: c\n"
                                   "Tolerance(b): atol=0.5 rtol=0; because\n  b differs\nGrid: 2,2\n")
    cases = catalogue.load(path)
    assert [c.name for c in cases] == ["case.a", "case.b", "case.c"]
    assert cases[0].tolerance is None and cases[1].tolerance == catalogue.Tolerance(0.5, 0.0, "because b differs")
    assert cases[2].simulator_args() == ["c", "--grid", "2,2"]


def test_error_program_names_its_code_and_marked_line(tmp_path: Path):
    (case,) = catalogue.load(write_program(tmp_path, "Rejected.\n\nExpect: error E0105\n"))
    assert case.expects_error and case.error_code == "E0105"
    assert case.path.read_text().splitlines()[case.error_line - 1] == "x = 1  # ERROR-HERE"


@pytest.mark.parametrize(("docstring", "message"), [
    ("T.\n\nTolerance: atol=1 rtol=0\n", "'Tolerance:' is 'atol=A rtol=R; reason'"),
    ("T.\n\nExpect: error\n", "'Expect:' takes 'outputs' or 'error ECODE'"),
    ("T.\n\nTolerance(z): atol=1 rtol=0; why\n", "a Tolerance names no variant of the program: z"),
    ("T.\n\nFormat: bfloat16\n", "'Format:' is 'NAME; reason'"),
])
def test_malformed_key_lines_are_errors_naming_the_file(tmp_path: Path, docstring: str, message: str):
    with pytest.raises(ValueError, match=message):
        catalogue.load(write_program(tmp_path, docstring))


def output(values, fmt: str = "bfloat16") -> dict:
    return {"values": torch.tensor(values, dtype=torch.float32), "format": fmt}


def test_reference_values_are_rounded_once_into_the_declared_format():
    # 1 + 2**-9 is not a bfloat16; rounded to nearest even it is 1.0, which is what tilecraft stores
    assert compare_output(output([1 + 2**-9]), output([1.0]), None) is None
    assert "1 of 1 values differ" in compare_output(output([1 + 2**-7]), output([1.0]), None)


def test_bitwise_comparison_counts_the_sign_of_zero_and_equates_nans():
    assert compare_output(output([float("nan"), 0.0]), output([float("nan"), 0.0]), None) is None
    assert compare_output(output([0.0]), output([-0.0]), None) is not None


def test_tolerance_formats_and_shapes():
    tolerance = catalogue.Tolerance(0.1, 0.0, "why")
    assert compare_output(output([1.0]), output([1.05]), tolerance) is None
    assert "format float32" in compare_output(output([1.0]), output([1.0], "float32"), None)
    assert "shape [2]" in compare_output(output([1.0]), output([1.0, 2.0]), None)
    assert "must state a Tolerance" in compare_output(output([1.0], "bfloat8_b"), output([1.0], "bfloat8_b"), None)


def test_describe_reads_diagnostics_tracebacks_and_the_references_own_errors(tmp_path: Path):
    (case,) = catalogue.load(write_program(tmp_path, "T.\n\nExpect: error E0105\n"))
    line = case.error_line
    ours = Run(1, "", f"{case.path}:{line}:1: error[E0105]: shapes differ\n")
    theirs = Run(1, f"{case.path}:{line}:5: error: Shape mismatch\n", "")
    crash = Run(1, "", f'Traceback (most recent call last):\n  File "{case.path}", line {line}, in <module>\n'
                       "ValueError: bad\n")
    assert describe(ours, case) == f"E0105 at line {line}"
    assert describe(theirs, case) == f"error at line {line}: Shape mismatch"
    assert describe(crash, case) == f"failed at line {line}: ValueError: bad"
    assert judge(case, theirs, ours).agree
    assert not judge(case, Run(0, "", ""), ours).agree  # the reference accepted it


def test_goldens_round_trip(tmp_path: Path):
    run = Run(0, "printed\n", "warning\n", {"y": output([1.5, -2.0])}, ["ttl.copy"])
    run.save_golden(tmp_path / "g.npz")
    back = Run.load_golden(tmp_path / "g.npz")
    assert (back.returncode, back.stdout, back.coverage) == (0, "printed\n", ["ttl.copy"])
    assert torch.equal(back.outputs["y"]["values"], run.outputs["y"]["values"])
    assert back.outputs["y"]["format"] == "bfloat16"
