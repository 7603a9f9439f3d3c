"""Whether tilecraft's run of a program agrees with the published simulator's.

Outputs are compared in the format the program declared for them. The published simulator
keeps bfloat16 tensors in float32 and never rounds them; the device, and tilecraft, store
bfloat16. So the reference's values are rounded once to the declared format (by torch, round
to nearest even) and then compared bit for bit (NaNs equal to NaNs, the sign of zero counts),
unless the program states a tolerance and why. A format torch cannot round to (the block
floats) therefore needs a stated tolerance.

An error program agrees when both simulators reject it and tilecraft reports the expected
diagnostic code at the marked line, without a Python traceback.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import torch

from .catalogue import Program, Tolerance
from .execute import Run

ROUNDABLE = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16,
             "scalar": torch.float64}
_DIAGNOSTIC = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>E\d{4})\]", re.M)
_HARNESS_FAILURE = "No module named 'conformance_io'"
_REFERENCE_ERROR = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error: (?P<message>.*)$", re.M)
_DURING_HANDLING = "During handling of the above exception"
_MISSING_DIAGNOSTICS = "ttl/ttl/diagnostics.py"
_EXCEPTION = re.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit)\b.*$", re.M)
_FRAME = re.compile(r'^  File "(.+?)", line (\d+)', re.M)


@dataclass(frozen=True)
class Verdict:
    agree: bool
    detail: str


def describe(run: Run, program: Program) -> str:
    """A short account of a run: ``ran``, ``E0203 at line 12``, ``internal error: ...``,
    ``ValueError at line 30: ...`` (a Python exception, at the program's innermost line)."""
    if run.returncode == 0:
        return "ran"
    diagnostic = _DIAGNOSTIC.search(run.stderr)
    if diagnostic:
        return f"{diagnostic['code']} at line {diagnostic['line']}"
    reported = _REFERENCE_ERROR.search(run.stdout + run.stderr)  # the published simulator's diagnostic
    if reported:
        return f"error at line {reported['line']}: {reported['message'][:160]}"
    # the published simulator's own error, when printing it failed in turn (its wheel lacks a file)
    text = run.stderr.split(_DURING_HANDLING)[0]
    exception = _EXCEPTION.findall(text)
    message = exception[-1].strip()[:160] if exception else _last_line(text)
    if _MISSING_DIAGNOSTICS in message:  # its headline ("Deadlock detected: ...") came first
        message = next(line.strip() for line in text.splitlines() if line.strip())
    lines = [m for m in _FRAME.findall(text) if Path(m[0]).name == program.path.name]
    where = f" at line {lines[-1][1]}" if lines else ""
    if "internal error" in run.stderr:
        return f"internal error{where}: {message}"
    return f"failed{where}: {message}"


def judge(program: Program, reference: Run, ours: Run) -> Verdict:
    if _HARNESS_FAILURE in reference.stderr or _HARNESS_FAILURE in ours.stderr:
        return Verdict(False, "conformance_io is not importable: run through the harness")
    if program.expects_error:
        return judge_error(program, reference, ours)
    return judge_outputs(program, reference, ours)


def judge_error(program: Program, reference: Run, ours: Run) -> Verdict:
    if reference.returncode == 0:
        return Verdict(False, "the reference accepts this program")
    expected = f"{program.error_code} at line {program.error_line}"
    got = describe(ours, program)
    if got != expected:
        return Verdict(False, f"expected {expected}, tilecraft: {got}")
    if "Traceback" in ours.stderr:
        return Verdict(False, "tilecraft's diagnostic comes with a Python traceback")
    theirs = re.search(r" at line (\d+)", describe(reference, program))
    where = "" if theirs and int(theirs[1]) == program.error_line else \
        f" (the reference at line {theirs[1]})" if theirs else " (the reference names no line)"
    return Verdict(True, f"both reject; tilecraft {expected}{where}")


def judge_outputs(program: Program, reference: Run, ours: Run) -> Verdict:
    if reference.returncode != 0 or reference.outputs is None:
        return Verdict(False, f"the reference {describe(reference, program)}")
    if ours.returncode != 0 or ours.outputs is None:
        return Verdict(False, f"tilecraft {describe(ours, program)}" if ours.returncode
                       else "tilecraft saved no outputs")
    if set(reference.outputs) != set(ours.outputs):
        return Verdict(False, f"outputs differ: reference {sorted(reference.outputs)}, "
                              f"tilecraft {sorted(ours.outputs)}")
    for name in sorted(reference.outputs):
        expected = reference.outputs[name]
        if program.reference_format:
            expected = dict(expected, format=program.reference_format)
        problem = compare_output(expected, ours.outputs[name], program.tolerance)
        if problem:
            return Verdict(False, f"{name}: {problem}")
    if program.compare_stdout and _printed(reference.stdout) != _printed(ours.stdout):
        return Verdict(False, f"printed lines differ: reference {_printed(reference.stdout)!r}, "
                              f"tilecraft {_printed(ours.stdout)!r}")
    how = "bit for bit" if program.tolerance is None else f"within atol={program.tolerance.atol:g} " \
                                                          f"rtol={program.tolerance.rtol:g}"
    return Verdict(True, f"{len(reference.outputs)} output(s) equal {how}")


def compare_output(reference: dict[str, Any], ours: dict[str, Any], tolerance: Optional[Tolerance]) -> Optional[str]:
    """None when the two agree, else what differs."""
    if reference["format"] != ours["format"]:
        return f"declared format {ours['format']}, the reference {reference['format']}"
    expected, got = reference["values"], ours["values"]
    if tuple(expected.shape) != tuple(got.shape):
        return f"shape {list(got.shape)}, the reference {list(expected.shape)}"
    if tolerance is not None:
        close = torch.isclose(got.double(), expected.double(), atol=tolerance.atol, rtol=tolerance.rtol,
                              equal_nan=True)
        return None if bool(close.all()) else _mismatch(expected.double(), got.double(), ~close)
    if reference["format"] not in ROUNDABLE:
        return f"{reference['format']} cannot be rounded here: the program must state a Tolerance"
    dtype = ROUNDABLE[reference["format"]]
    expected, got = expected.to(dtype).double(), got.to(dtype).double()
    differs = _differs_bitwise(expected, got)
    return None if not bool(differs.any()) else _mismatch(expected, got, differs)


def _differs_bitwise(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    nan_a, nan_b = torch.isnan(a), torch.isnan(b)
    both = nan_a & nan_b
    return (nan_a != nan_b) | (~both & ((a != b) | (torch.signbit(a) != torch.signbit(b))))


def _mismatch(expected: torch.Tensor, got: torch.Tensor, where: torch.Tensor) -> str:
    count = int(where.sum())
    first = tuple(int(i) for i in where.nonzero()[0])
    gap = (got - expected).abs()[where & ~torch.isnan(got - expected)]
    worst = f", max |diff| {float(gap.max()):.3g}" if gap.numel() else ""
    return (f"{count} of {where.numel()} values differ{worst}; first at {list(first)}: "
            f"tilecraft {float(got[first]):.9g}, reference {float(expected[first]):.9g}")


def _printed(stdout: str) -> list[str]:
    """The printed lines as a sorted list: the simulators interleave nodes and threads differently."""
    return sorted(line.rstrip() for line in stdout.splitlines() if line.strip())


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip()[:160] if lines else "(no message)"
