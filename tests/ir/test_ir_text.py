"""The IR's text form: print -> parse -> print is the identity on every program we have, the
verifier accepts every one of them, and ``tilecraft opt`` runs passes and the lowering on IR files
(tests/ir/*.ir: ``// RUN:`` options, ``// CHECK:`` lines, and more ``// RUN: ... --check-prefix P``
lines whose output the ``// P:`` lines check; invalid IR split by ``// -----`` with the ``// ERROR:``
each chunk must be rejected with). The metal dialect ``--to metal`` prints reads back unchanged."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.paths import EXAMPLES, TESTS
from benchmarks.emit_tools import programs_of
from tests.filecheck import filecheck
from tilecraft.cli import main
from tilecraft.ir import ops as ir
from tilecraft.ir.parser import parse_program
from tilecraft.ir.printer import print_program
from tilecraft.ir.verify import IRVerificationError, verify_program

PROGRAMS = sorted(EXAMPLES.glob("*.py")) + sorted((TESTS / "published").glob("*.py")) + \
    sorted((TESTS / "frontend" / "kernels").glob("*.py"))
IR_FILES = sorted((TESTS / "ir").glob("*.ir"))

pytestmark = [pytest.mark.usefixtures("fresh_process_state"),
              pytest.mark.filterwarnings("ignore::tilecraft.diagnostics.DiagnosticWarning")]


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_print_parse_print_is_the_identity(path: Path) -> None:
    for program in programs_of(path):
        text = print_program(program)
        again = parse_program(text)
        verify_program(again, "parsing")
        assert print_program(again) == text


def test_the_verifier_names_the_stage_and_the_operation() -> None:
    program = programs_of(EXAMPLES / "compare_eltwise_add.py")[0]
    compute = next(t for t in program.threads if t.kind == "compute")
    store = next(op for op in ir.walk(compute.body) if isinstance(op, ir.BlockStore))
    store.value = next(op for op in ir.walk(compute.body) if isinstance(op, ir.CBWait)).result  # a bf16 block
    store.block = ir.Reg("nowhere", store.block.type)  # a register nothing defines: a broken pass
    with pytest.raises(IRVerificationError) as info:
        verify_program(program, "pass planted-bug")
    message = str(info.value)
    assert "after pass planted-bug" in message and "%nowhere is read before it is defined" in message
    assert "block.store %nowhere" in message and "compare_eltwise_add.py" in message


def chunks(path: Path) -> list[tuple[int, str]]:
    """(first line, text) of each ``// -----``-separated chunk."""
    out, first, lines = [], 1, []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip() == "// -----":
            out.append((first, "\n".join(lines)))
            first, lines = number + 1, []
        else:
            lines.append(line)
    out.append((first, "\n".join(lines)))
    return out


def runs_of(text: str) -> list[tuple[list[str], str]]:
    """(opt arguments, check prefix) of each ``// RUN:`` line; ``--check-prefix P`` picks ``// P:`` lines."""
    out = []
    for line in text.splitlines():
        if "// RUN:" not in line:
            continue
        args = line.split("RUN:", 1)[1].split()
        prefix = "CHECK"
        if "--check-prefix" in args:
            at = args.index("--check-prefix")
            prefix = args[at + 1]
            del args[at:at + 2]
        out.append((args, prefix))
    return out or [([], "CHECK")]


@pytest.mark.parametrize("path", IR_FILES, ids=lambda p: p.stem)
def test_opt_on_ir_files(path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for first, text in chunks(path):
        source = tmp_path / "input.ir"
        source.write_text(text)
        expected_errors = [line.split("ERROR:", 1)[1].strip() for line in text.splitlines() if "// ERROR:" in line]
        for run, prefix in runs_of(text):
            code = main(["opt", str(source), *run])
            out, err = capsys.readouterr()
            if expected_errors:
                assert code == 1, out
                for expected in expected_errors:
                    assert expected in err, f"{path.name}:{first}: '{expected}' not in {err!r}"
                continue
            assert code == 0, err
            filecheck(path, out, text=text, first_line=first, prefix=prefix)


LOWERED_FILES = [p for p in IR_FILES if p.stem.startswith("lower_")]


@pytest.mark.parametrize("path", LOWERED_FILES, ids=lambda p: p.stem)
def test_the_metal_dialect_text_reads_back(path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for _, text in chunks(path):
        if "// ERROR:" in text:  # a program the lowering rejects: no metal text to read back
            continue
        source = tmp_path / "input.ir"
        source.write_text(text)
        assert main(["opt", str(source), "--to", "metal"]) == 0
        printed = capsys.readouterr().out.rstrip("\n")
        again = verify_program(parse_program(printed), "parsing")
        program_text = printed[printed.index("program @"):]
        assert print_program(again) == program_text


def lowering_texts() -> tuple[str, str]:
    """The IR the FileCheck files lower (chunks with a ``--to cpp`` or ``--to metal`` run, errors
    included), and the metal dialect text their ``--to metal`` runs' check lines hold."""
    inputs, metal = [], []
    for path in IR_FILES:
        for _, text in chunks(path):
            targets = {prefix: dict(zip(args, args[1:])).get("--to") for args, prefix in runs_of(text)}
            if not any(targets.values()):
                continue
            lines = text.splitlines()
            inputs += [line for line in lines if not line.lstrip().startswith("//")]
            metal += [line for line in lines for p, to in targets.items() if to == "metal" and f"// {p}:" in line]
    return "\n".join(inputs), "\n".join(metal)


#: operations no lowering makes, so no FileCheck file can show one lowered: ``metal.aggregate`` is
#: PyKernel's (a C++ aggregate initialiser it writes; tests/pykernel checks its C++)
NOT_LOWERED = {"metal.aggregate"}


def test_every_operation_of_every_dialect_is_lowered_in_a_filecheck_file() -> None:
    """Each language-level operation appears in the input of a FileCheck file that lowers it, and
    each kernel-level (metal) operation the lowering makes appears in a metal-dialect check."""
    from tilecraft.metal import kir
    inputs, metal = lowering_texts()
    spelt = lambda name, text: re.search(rf"(?<![\w.]){re.escape(name)}(_src|_dst)?(?![\w.])", text)  # noqa: E731
    unlowered = [op.name for d in ir.DIALECTS for op in d.ops if not spelt(op.name, inputs)]
    unchecked = [op.name for op in kir.DIALECT.ops if op.name not in NOT_LOWERED and not spelt(op.name, metal)]
    assert unlowered == [] and unchecked == []
