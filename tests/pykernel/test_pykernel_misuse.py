"""The PyKernel misuse catalogue: one broken kernel or host per mistake, each with its exact diagnostic.

Every case is a script in ``tests/pykernel_misuse/NAME.py`` built on the one-core op of
``onecore.py`` (reader -> compute -> writer), with the broken kernel or ``invoke`` in the case's
own file. The primary span's line is the one carrying ``# ERROR-HERE``; its column is where the
case's ``at`` text starts on that line. Three kinds of mistake are covered:

* the front end's (E06xx, before anything runs): the Python subset, the 0.81.1 API table
  (unknown, removed and other-kind names, argument counts and kinds, templates, enums);
* the host's binding of ``create_kernel`` arguments (E062x, at the ``create_kernel`` call);
* what the kernel emulator finds while it runs the compiled C++ (E5xxx), reported at the
  kernel's Python line through the C++ -> Python line map.

Each case is checked in-process (the KernelError and its diagnostic) and through ``tilecraft
run`` (status 1, ``file:line:col: error[CODE]`` on stderr, no Python traceback).
"""

from __future__ import annotations

import runpy
import shutil
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.paths import TESTS
import tilecraft
from tilecraft.cli import main
from tilecraft.scripts import install_modules
from tilecraft.diagnostics import KernelError

MISUSE = TESTS / "pykernel_misuse"
TILECRAFT_DIR = str(Path(tilecraft.__file__).parent)
EMULATOR = pytest.mark.skipif(shutil.which("g++") is None,
                              reason="no g++: the kernel emulator compiles kernels with the host C++ compiler")


@dataclass(frozen=True)
class Case:
    name: str  # tests/pykernel_misuse/<name>.py
    code: str
    at: str  # the primary span starts where this text starts on the marker line
    says: tuple[str, ...] = ()  # the message (or hint) says these

    @property
    def path(self) -> Path:
        return MISUSE / f"{self.name}.py"

    def line(self) -> int:
        lines = [i for i, text in enumerate(self.path.read_text().splitlines(), 1) if text.endswith("# ERROR-HERE")]
        assert len(lines) == 1, f"{self.name}: expected one '# ERROR-HERE' line, found {lines}"
        return lines[0]

    def col(self) -> int:
        text = self.path.read_text().splitlines()[self.line() - 1]
        assert text.count(self.at) == 1, f"'{self.at}' must occur once on the marker line"
        return text.index(self.at) + 1


FRONT_END = [
    Case("while_loop", "E0602", "while", ("while loops",)),
    Case("unknown_api_call", "E0605", "cb_wiat_front(", ("'cb_wiat_front'", "did you mean 'cb_wait_front'")),
    Case("removed_binary_op_init_common", "E0603", "binary_op_init_common(",
         ("removed in TT-Metalium 0.81.1", "compute_kernel_hw_startup(icb0, icb1, ocb)")),
    Case("removed_add_tiles_init", "E0603", "add_tiles_init(", ("add_init(icb0, icb1",)),
    Case("removed_mm_init", "E0603", "mm_init(", ("compute_kernel_hw_startup<SrcOrder::Reverse>", "matmul_init")),
    Case("wrong_argument_count", "E0606", "add_tiles(", ("takes 5 arguments, but 4 were given",)),
    Case("matmul_tiles_six_arguments", "E0606", "matmul_tiles(", ("takes 5 arguments, but 6 were given",)),
    Case("missing_template_arguments", "E0606", "reduce_init(", ("takes 2 to 3 template arguments, but 0 were given",
                                                                 "reduce_init[A, B](...)")),
    Case("float_for_integer", "E0608", "1.0", ("argument 2 is a float", "integer (int32_t)")),
    Case("accessor_for_integer", "E0607", "s, i", ("argument 1 is an InterleavedAddrGenFast", "uint32_t")),
    Case("python_builtin_call", "E0604", "min(", ("Python function 'min'",)),
    Case("python_helper_call", "E0604", "tile_offset(", ("Python function 'tile_offset'",)),
    Case("compute_api_in_reader", "E0609", "pack_tile(", ("'pack_tile' is compute kernel API",
                                                           "'reader' is a data-movement kernel")),
    Case("float_arithmetic", "E0610", "0.5", ("float", "integers only")),
    Case("true_division", "E0610", "num_tiles / 1", ("'/' makes a float", "//")),
    Case("undefined_name", "E0611", "read_addr", ("'read_addr' is not defined",)),
    Case("accessor_in_loop", "E0612", "s =", ("create it once, at the top level",)),
    Case("accessor_args_not_passed", "E0613", "TensorAccessorArgs(1)",
         ("reads compile-time arguments 1 to 2", "the host passes 1", "tensor_accessor_configs")),
    Case("wrong_template_argument", "E0607", "compute_kernel_hw_startup[", ("PoolType::SUM", "SrcOrder")),
    Case("unknown_enum_member", "E0607", "SrcOrder.Reversed", ("no member 'Reversed'", "Regular, Reverse")),
    Case("unsupported_statement", "E0601", "try", ("unsupported statement", "Try")),
    Case("bad_parameter_annotation", "E0620", "int", ("'dst_addr'", "annotated int")),
]
HOST = [
    Case("missing_compile_time_value", "E0622", "self.create_kernel", ("'dst_is_dram'", "dst_is_dram=...")),
    Case("runtime_argument_count", "E0621", "self.create_kernel", ("takes 2 runtime arguments (dst_addr, num_tiles)",
                                                                   "passes 1")),
    Case("per_core_arguments_shape", "E0623", "self.create_kernel", ("3 columns", "2 x 1")),
]
RUNTIME = [
    Case("double_tile_regs_release", "E5403", "tile_regs_release()", ("without tile_regs_wait",)),
    Case("push_before_read_barrier", "E5205", "cb_push_back(", ("NoC read issued at", "push_before_read_barrier.py:10")),
    Case("pop_more_than_waited", "E5202", "cb_pop_front(", ("pops more pages than the 1 waited for",)),
    Case("dst_index_out_of_range", "E5404", "copy_tile(", ("DST tile 8", "DST holds 8 tiles")),
    Case("deadlock_never_pushed", "E5501", "cb_wait_front(", ("deadlock",)),
]
CASES = FRONT_END + HOST + [pytest.param(c, marks=EMULATOR) for c in RUNTIME]


def test_the_catalogue_is_complete():
    """Every script in the folder is a case (and there are at least 15)."""
    names = {p.stem for p in MISUSE.glob("*.py")} - {"onecore"}
    assert names == {c.name for c in FRONT_END + HOST + RUNTIME}
    assert len(names) >= 15


def run_case(case: Case) -> KernelError:
    install_modules()
    sys.path.insert(0, str(MISUSE))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # deprecated API names in passing kernels
            with pytest.raises(KernelError) as caught:
                runpy.run_path(str(case.path))
    finally:
        sys.path.remove(str(MISUSE))
    return caught.value


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_diagnostic_in_process(case: Case):
    diagnostic = run_case(case).diagnostic
    assert diagnostic.code == case.code, diagnostic.render()
    assert diagnostic.span is not None and Path(diagnostic.span.file) == case.path, diagnostic.render()
    assert (diagnostic.span.line, diagnostic.span.col) == (case.line(), case.col()), diagnostic.render()
    text = diagnostic.message + " " + (diagnostic.hint or "") + " " + " ".join(n.message for n in diagnostic.notes)
    for word in case.says:
        assert word in text, diagnostic.render()
    # nothing of tilecraft's own files is the user's place (the C++ note names the generated kernel)
    assert TILECRAFT_DIR not in diagnostic.render()


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_diagnostic_through_the_cli(case: Case, capsys):
    assert main(["run", str(case.path)]) == 1
    err = capsys.readouterr().err
    assert f"{case.path}:{case.line()}:{case.col()}: error[{case.code}]" in err, err
    assert "Traceback" not in err


@EMULATOR
def test_runtime_findings_name_the_generated_cpp_too():
    """A finding mapped to Python keeps the C++ place as a note (to read what ran)."""
    diagnostic = run_case(RUNTIME[0]).diagnostic
    cpp = [n.span for n in diagnostic.notes if n.message == "in the generated C++"]
    assert len(cpp) == 1 and cpp[0].file.endswith(".cpp")
    assert Path(cpp[0].file).read_text().splitlines()[cpp[0].line - 1].strip() == "tile_regs_release();"
