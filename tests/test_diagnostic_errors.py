"""Errors and warnings that carry diagnostics cross process boundaries whole: ``tilecraft tune``
evaluates candidates on Dask workers and the test suite may run on pytest-xdist workers; both
pickle what a worker raised or warned and rebuild it from its ``args``."""

from __future__ import annotations

import pickle

from tilecraft.diagnostics import Diagnostic, DiagnosticWarning, KernelError, Span


def _diagnostic(code: str, severity: str = "error") -> Diagnostic:
    return Diagnostic(code, "the message", Span("kernel.py", 7, 3, 9), (), "the hint", severity)


def test_a_kernel_error_survives_pickling_with_all_its_diagnostics() -> None:
    error = KernelError(_diagnostic("E0101"), _diagnostic("E0102"))
    back = pickle.loads(pickle.dumps(error))
    assert [d.code for d in back.diagnostics] == ["E0101", "E0102"]
    assert str(back) == str(error) and "kernel.py:7:3" in str(back) and "E0101" in str(back)


def test_a_diagnostic_warning_survives_pickling_and_renders_as_before() -> None:
    warning = DiagnosticWarning(_diagnostic("W3001", "warning"))
    back = pickle.loads(pickle.dumps(warning))
    assert back.diagnostic.code == "W3001" and str(back) == warning.diagnostic.render()
