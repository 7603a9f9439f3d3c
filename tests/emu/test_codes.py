"""The emulator's codes as Python reads them (tilecraft/emu/codes.py) are the C++ runtime's: each
``enum class`` the trace's readers decode, member by member."""

from __future__ import annotations

import re
from enum import IntEnum
from pathlib import Path

import pytest

from tilecraft.emu import codes

EMU = Path(codes.__file__).parent


def cpp_enum(path: Path, name: str) -> dict[str, int]:
    """The members of ``enum class name`` in ``path``, with their values (implicit ones counted on)."""
    body = re.search(rf"enum class {name}\b[^{{]*\{{(.*?)\}};", path.read_text(), re.S)
    assert body is not None, f"no enum class {name} in {path}"
    members, value = {}, -1
    for item in re.sub(r"//[^\n]*", "", body.group(1)).split(","):
        item = item.strip()
        if not item:
            continue
        label, _, explicit = item.partition("=")
        value = int(explicit) if explicit else value + 1
        members[label.strip()] = value
    return members


def plain(label: str) -> str:
    return label.replace("_", "").lower()


@pytest.mark.parametrize("python, header, name", [
    (codes.Ev, "runtime/trace.h", "Ev"),
    (codes.Fpu, "include/tc_emu/runtime.h", "Fpu"),
    (codes.Mode, "include/tc_emu/runtime.h", "Mode"),
    (codes.Bcast, "include/tc_emu/runtime.h", "Bcast"),
    (codes.Barrier, "include/tc_emu/runtime.h", "Barrier"),
])
def test_python_codes_are_the_runtimes(python: type[IntEnum], header: str, name: str):
    cpp = {plain(label): value for label, value in cpp_enum(EMU / header, name).items()}
    assert {plain(m.name): m.value for m in python} == cpp


def test_sfpu_operations_are_the_headers_in_code_order():
    assert codes.SfpuUnary.Exp.value == 0 and codes.SfpuUnary(0) is codes.SfpuUnary.Exp
    assert codes.SfpuBinary(codes.SfpuBinary.Pow.value).name == "Pow"
    assert [m.name for m in codes.SfpuTernary] == ["Where", "Lerp"]
    # the two kinds number their operations independently: equal codes, different operations
    assert codes.SfpuUnary(0) != codes.SfpuBinary(0)


def test_the_parser_reads_the_cpp_enum_it_checks(tmp_path):
    header = tmp_path / "e.h"
    header.write_text("enum class Ev : int {\n  A = 1, B,  // two\n  C = 20, D,\n};\n")
    assert cpp_enum(header, "Ev") == {"A": 1, "B": 2, "C": 20, "D": 21}
