"""The conformance programs and what each one expects, read from its own docstring.

A program is a script in ``programs/`` that runs unchanged on the published simulator and on
tilecraft. Its docstring says what it tests and ends with optional ``Key: value`` lines:

``Expect: outputs``
    (the default) the program runs, checks itself against torch and saves its outputs with
    ``conformance_io.save_outputs``; both simulators must produce the same values.
``Expect: error E0203``
    both simulators must reject the program; tilecraft with this diagnostic code, at the line
    marked ``# ERROR-HERE``.
``Tolerance: atol=A rtol=R; why``
    outputs are compared with ``|ours - reference| <= atol + rtol * |reference|`` instead of
    bit for bit, for the reason given (required, so every inexact comparison is explained).
    ``Tolerance(word): ...`` applies to one variant only.
``Format: NAME; why``
    the reference's outputs are taken to be in format ``NAME`` whatever it declares (for the
    few host ops of the published simulator that drop a tensor's declared dtype).
``Stdout: compare``
    the printed lines are compared too.
``Grid: C,R``
    passed to both simulators as ``--grid C,R`` (the tuple a ``grid="full"`` program gets).
``Slow: why``
    the program takes seconds; the CI test marks it slow.
``Variants: a b c``
    (may be repeated) the program is run once per word, given as its first argument
    (``sys.argv[1]``); each run is a case of its own, named ``program.word`` (one ``ttl.math``
    function per run, say).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent
PROGRAMS = ROOT / "programs"
GOLDENS = ROOT / "goldens"
SUPPORT = ROOT / "support"
ERROR_MARKER = "# ERROR-HERE"

_KEY_LINE = re.compile(r"^(Expect|Tolerance|Format|Stdout|Grid|Slow|Variants)(?:\((\w+)\))?:\s*(.*)$")
_TOLERANCE = re.compile(r"^atol=(?P<atol>\S+)\s+rtol=(?P<rtol>\S+)\s*;\s*(?P<why>\S.*)$")
_ERROR = re.compile(r"^error\s+(?P<code>E\d{4})$")


@dataclass(frozen=True)
class Tolerance:
    atol: float
    rtol: float
    reason: str


@dataclass(frozen=True)
class Program:
    """One conformance program and its expectations."""

    path: Path
    summary: str
    error_code: Optional[str] = None  # set for programs both simulators must reject
    tolerance: Optional[Tolerance] = None  # None: bit for bit in the declared format
    reference_format: Optional[str] = None  # overrides the format the reference declares
    compare_stdout: bool = False
    grid: Optional[str] = None
    slow: Optional[str] = None
    variant: Optional[str] = None  # the script's first argument

    @property
    def name(self) -> str:
        return self.path.stem if self.variant is None else f"{self.path.stem}.{self.variant}"

    @property
    def expects_error(self) -> bool:
        return self.error_code is not None

    @property
    def golden(self) -> Path:
        return GOLDENS / f"{self.name}.npz"

    @property
    def error_line(self) -> int:
        """The 1-based line marked ``# ERROR-HERE`` (exactly one in an error program)."""
        lines = [i for i, text in enumerate(self.path.read_text().splitlines(), 1) if ERROR_MARKER in text]
        if len(lines) != 1:
            raise ValueError(f"{self.path}: an error program marks exactly one line with '{ERROR_MARKER}'")
        return lines[0]

    def simulator_args(self) -> list[str]:
        """What both simulators take after the script path: the variant, then options."""
        return ([self.variant] if self.variant else []) + (["--grid", self.grid] if self.grid else [])


def load(path: Path) -> list[Program]:
    """The cases of one program (one per variant); a malformed key line is an error naming the file."""
    docstring = ast.get_docstring(ast.parse(path.read_text(), str(path)))
    if not docstring:
        raise ValueError(f"{path}: a conformance program starts with a docstring saying what it tests")
    fields: dict[str, object] = {}
    variants: list[str] = []
    tolerances: dict[Optional[str], Tolerance] = {}
    for key, only, value in _key_lines(docstring):
        if only is not None and key != "Tolerance":
            raise ValueError(f"{path}: only 'Tolerance' can be given for one variant, not {key!r}")
        if key == "Expect":
            fields["error_code"] = _expect(path, value)
        elif key == "Tolerance":
            tolerances[only] = _tolerance(path, value)
        elif key == "Format":
            fields["reference_format"] = _format(path, value)
        elif key == "Stdout":
            if value != "compare":
                raise ValueError(f"{path}: 'Stdout:' takes 'compare', not {value!r}")
            fields["compare_stdout"] = True
        elif key == "Grid":
            fields["grid"] = value
        elif key == "Variants":
            variants += value.split()
        else:
            fields["slow"] = value
    unknown = set(tolerances) - {None, *variants}
    if unknown:
        raise ValueError(f"{path}: a Tolerance names no variant of the program: {', '.join(sorted(unknown))}")
    summary = docstring.splitlines()[0]
    return [Program(path=path, summary=summary, variant=variant,  # type: ignore[arg-type]
                    tolerance=tolerances.get(variant, tolerances.get(None)), **fields)
            for variant in (variants or [None])]


def _key_lines(docstring: str) -> list[tuple[str, Optional[str], str]]:
    """``(key, variant, value)`` of every key line; a non-blank line after one continues it."""
    entries: list[list] = []
    for line in docstring.splitlines():
        match = _KEY_LINE.match(line.strip())
        if match:
            entries.append(list(match.groups()))
        elif entries and line.strip():
            entries[-1][2] += " " + line.strip()
        elif entries:
            break
    return [(key, only, value) for key, only, value in entries]


def _expect(path: Path, value: str) -> Optional[str]:
    if value == "outputs":
        return None
    match = _ERROR.match(value)
    if not match:
        raise ValueError(f"{path}: 'Expect:' takes 'outputs' or 'error ECODE', not {value!r}")
    return match["code"]


def _format(path: Path, value: str) -> str:
    name, _, why = value.partition(";")
    if not name.strip() or not why.strip():
        raise ValueError(f"{path}: 'Format:' is 'NAME; reason', not {value!r}")
    return name.strip()


def _tolerance(path: Path, value: str) -> Tolerance:
    match = _TOLERANCE.match(value)
    if not match:
        raise ValueError(f"{path}: 'Tolerance:' is 'atol=A rtol=R; reason', not {value!r}")
    return Tolerance(float(match["atol"]), float(match["rtol"]), match["why"])


def all_programs() -> list[Program]:
    return [case for path in sorted(PROGRAMS.glob("*.py")) for case in load(path)]


def select(names: Optional[list[str]]) -> list[Program]:
    """The cases named (all when ``names`` is empty; a program's name selects all its variants)."""
    programs = all_programs()
    if not names:
        return programs
    chosen = [p for p in programs if p.name in names or p.path.stem in names]
    unknown = [n for n in names if not any(n in (p.name, p.path.stem) for p in programs)]
    if unknown:
        raise ValueError(f"no conformance program named {', '.join(unknown)}")
    return chosen
