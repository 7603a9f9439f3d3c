"""Run a script through ``tilecraft run`` in-process and keep every launch's tensors (or through
``tilecraft emit``: :func:`emit_script`).

The tests that compare simulation modes (batched vs ``--exact``) and levels (language vs Metalium
calls) bit for bit share this; each returns, per kernel launch, a copy of every tensor's storage.
:func:`op_table` reads the op-by-op table ``tilecraft profile`` prints, and
:func:`show_threads` gives the program ``tilecraft show-threads`` prints, to run the same way.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
import torch

from tilecraft import session
from tilecraft.cli import main


def show_threads(path: Path, out: Path) -> str:
    """``tilecraft show-threads path`` in-process: the printed program, also written to ``out``."""
    text = io.StringIO()
    with contextlib.redirect_stdout(text), contextlib.redirect_stderr(io.StringIO()):
        assert main(["show-threads", str(path)]) == 0
    out.write_text(text.getvalue())
    return text.getvalue()


def launch_outputs(path: Path, capsys: pytest.CaptureFixture[str], *flags: str,
                   must_pass: bool = True) -> list[list[torch.Tensor]]:
    return launch_with_messages(path, capsys, *flags, must_pass=must_pass)[0]


def launch_with_messages(path: Path, capsys: pytest.CaptureFixture[str], *flags: str,
                         must_pass: bool = True) -> tuple[list[list[torch.Tensor]], str]:
    """``tilecraft run path``: every launch's tensors as they are after it, and what it wrote to stderr."""
    seen: list[list[torch.Tensor]] = []
    with session.using(result_hooks=[lambda program, tensors: seen.append([t.storage.clone() for t in tensors])]):
        code = main(["run", str(path), *flags])
    err = capsys.readouterr().err
    assert code == 0 or not must_pass, err[-4000:]
    return seen, err


def assert_same_bits(a: list[list[torch.Tensor]], b: list[list[torch.Tensor]]) -> None:
    """The same launches, each tensor holding exactly the same bits (NaNs included)."""
    assert len(a) == len(b) > 0
    for launch_a, launch_b in zip(a, b):
        for x, y in zip(launch_a, launch_b):
            assert x.dtype == y.dtype and torch.equal(_bits(x), _bits(y)), (x.float() - y.float()).abs().max()


def _bits(t: torch.Tensor) -> torch.Tensor:
    """A float tensor's bit patterns (so that NaN equals the same NaN), other tensors as they are."""
    if not t.is_floating_point():
        return t
    return t.view({2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()])


def emit_script(path: Path, out: Path) -> str:
    """``tilecraft emit path -o out`` in-process: its stderr, once the files are written.

    Emission computes no values, so a script that checks its results then fails; the command says
    so with ``E0710``, which it raises only after every program it launched was emitted.
    """
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["emit", str(path), "-o", str(out)])
    text = err.getvalue()
    assert code == 0 or (code == 1 and "error[E0710]" in text), text[-4000:]
    return text


def op_table(out: str) -> list[list[str]]:
    """The cells of ``tilecraft profile``'s op-by-op table in ``out``, cut at the columns its dashed
    rule marks (cells hold spaces: bounds such as "reader (a DRAM round trip per page)")."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("#  op"))
    spans, pos = [], 0
    for dashes in lines[start + 1].split("  "):
        spans.append((pos, pos + len(dashes)))
        pos += len(dashes) + 2
    return [[line[a:b].strip() for a, b in spans] for line in lines[start + 2:] if line.strip()[:1].isdigit()]
