"""The precompiled prefix of the Tensix machine's TRISC compiles (tilecraft/emu/tensix_prefix.py):
g++ uses it, and reads the header text instead when a macro defined before it (a kernel's define)
is one the prefix tests, so such a kernel compiles as it would without the prefix.

Checked on a small prefix of our own (the standard library and a header testing a macro), in a
cache of its own: one precompiled header and three compiles, about 2 s CPU cold; nothing is
cached across runs."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tilecraft.emu import tensix_prefix
from tilecraft.emu.tensix_build import TensixBuildError, run_compiler
from tilecraft.emu.toolchain import compiler

FLAGS = ("-std=c++20", "-O2", "-fPIC")


@pytest.fixture
def prefix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TILECRAFT_CACHE_DIR", str(tmp_path / "cache"))
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "knob.h").write_text("#pragma once\n#ifdef KNOB\nconstexpr int knob = KNOB;\n#else\n"
                                   "constexpr int knob = 1;\n#endif\n")
    text = "#include <vector>\n#include \"knob.h\"\n"
    return tensix_prefix.precompiled([*compiler().command(), *FLAGS, f"-I{shared}"], text, "test", "the test prefix",
                                     run_compiler)


def _compile(prefix: Path, tmp_path: Path, *defines: str) -> tuple[str, int]:
    """g++ -H's line for the prefix ('!' precompiled form used, 'x' rejected, '.' text) and the
    program's exit code (knob)."""
    unit = tmp_path / "unit.cpp"
    unit.write_text("int main() { std::vector<int> v{knob}; return v[0]; }\n")
    exe = tmp_path / "unit"
    done = subprocess.run([*compiler().command(), *FLAGS, *defines, "-H", "-include", str(prefix),
                           f"-I{tmp_path / 'shared'}", str(unit), "-o", str(exe)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    marks = [line for line in done.stderr.splitlines() if tensix_prefix.HEADER in line]
    return marks[0], subprocess.run([str(exe)]).returncode


def test_the_precompiled_prefix_is_used(prefix: Path, tmp_path: Path) -> None:
    mark, code = _compile(prefix, tmp_path, "-DUNRELATED=3")
    assert mark.startswith("! ") and mark.endswith(".gch"), mark
    assert code == 1
    assert (prefix.parent / f"{tensix_prefix.HEADER}.gch").is_file()


def test_a_define_the_prefix_tests_makes_gcc_read_its_text(prefix: Path, tmp_path: Path) -> None:
    mark, code = _compile(prefix, tmp_path, "-DKNOB=7")
    assert mark.startswith("x ") and mark.endswith(".gch"), mark  # rejected: knob.h tests KNOB
    assert code == 7  # and the define took effect, as without a prefix


def test_a_prefix_that_does_not_compile_names_its_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TILECRAFT_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(TensixBuildError) as info:
        tensix_prefix.precompiled([*compiler().command(), *FLAGS], "#include \"absent.h\"\n", "test-absent",
                                  "the test prefix", run_compiler)
    assert info.value.diagnostic.code == "E5872" and "absent.h" in info.value.diagnostic.message
