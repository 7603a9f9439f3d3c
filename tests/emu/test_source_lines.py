"""Findings in emitted C++ are reported at the TT-Lang line that produced the C++ line.

``tilecraft emit`` writes, per kernel, a ``source_map`` into manifest.json (C++ line -> TT-Lang
file:line:col); the emulator reports a compile error, sanitizer finding or deadlock in a kernel
that has one at the TT-Lang line, with the C++ line as the first note (docs/emulator.md,
section 6). The misuse programs of tests/misuse, run at ``--level cpp``, are caught by the
emulator in the emitted C++ (not by the language level, which ``--level cpp`` does not run).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.emu.test_defects import run_cpp, source_line
from tilecraft.diagnostics import Diagnostic, Note, Span
from tilecraft.emu.source_map import at_source, source_maps
from tilecraft.emu.program_spec import KernelSpec
from tilecraft.metal.emit import emit_program

ROOT = Path(__file__).resolve().parents[2]
MISUSE = ROOT / "tests" / "misuse"

pytestmark = pytest.mark.usefixtures("fresh_process_state")


def marked_line(path: Path, marker: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if line.rstrip().endswith(f"# {marker}"))


def test_a_sanitizer_finding_is_reported_at_the_tt_lang_line() -> None:
    script = MISUSE / "push_before_copy_waited.py"
    code, diagnostics, _ = run_cpp(script)
    assert code == 1
    first = diagnostics[0]
    assert first["code"] == "E5205"
    assert (first["span"]["file"], first["span"]["line"]) == (str(script), marked_line(script, "ERROR-HERE"))
    generated = first["notes"][0]
    assert generated["message"] == "in the generated C++" and generated["span"]["file"].endswith("reader.cpp")
    assert "cb_push_back(" in source_line(generated)
    # the read the message names is the ttl.copy line, with its C++ line beside it
    assert re.search(rf"issued at {re.escape(str(script))}:12 \(generated C\+\+: \S+reader\.cpp:\d+\)",
                     first["message"]), first["message"]


def test_a_deadlock_names_the_blocked_tt_lang_lines() -> None:
    script = MISUSE / "deadlock_circular.py"
    code, diagnostics, _ = run_cpp(script)
    assert code == 1 and diagnostics[0]["code"] == "E5501"
    blocked = [n for n in diagnostics[0]["notes"] if "blocked in" in n["message"]]
    assert blocked and all(n["span"]["file"] == str(script) for n in blocked)
    assert {n["span"]["line"] for n in blocked} == {marked_line(script, "BLOCKED-READER"),
                                                    marked_line(script, "BLOCKED-COMPUTE")}
    assert all(re.search(r"\(generated C\+\+: \S+\.cpp:\d+:\d+\)$", n["message"]) for n in blocked)


def test_the_source_map_agrees_with_the_source_comments() -> None:
    """Every statement after a ``// file.py:N: ...`` comment maps to line N of that file."""
    from tilecraft import session
    from tilecraft.cli import main

    programs = []
    with session.using(program_hooks=[programs.append], simulate=False):
        assert main(["run", str(ROOT / "examples" / "matmul_1_single_tile.py")]) == 0
    emitted = emit_program(programs[0])
    manifest = json.loads(emitted.files["manifest.json"])
    assert manifest["source_files"] == [str(ROOT / "examples" / "matmul_1_single_tile.py")]
    checked = 0
    for kernel in manifest["kernels"]:
        lines = {cpp: (manifest["source_files"][f], line) for first, last, f, line, _ in kernel["source_map"]
                 for cpp in range(first, last + 1)}
        text = emitted.files[kernel["file"]].splitlines()
        for n, line in enumerate(text, 1):
            comment = re.match(r"\s*// matmul_1_single_tile\.py:(\d+):", line)
            if comment and n + 1 <= len(text) and not text[n].strip().startswith("//"):
                assert lines[n + 1][1] == int(comment[1]), (kernel["file"], n + 1, text[n])
                checked += 1
    assert checked >= 10


def test_kernels_without_a_manifest_keep_their_own_lines(tmp_path: Path) -> None:
    kernel = tmp_path / "reader.cpp"
    kernel.write_text("void kernel_main() {}\n")
    (tmp_path / "manifest.json").write_text('{"kernels": "not ours"}')
    spec = KernelSpec("k", kernel, kernel.read_text(), str(kernel), 0, 0, [(0, 0)])
    maps = source_maps([spec])
    assert maps == {}
    diag = Diagnostic("E5202", "x", Span(str(kernel), 1, 1), (Note("on core (0, 0)"),))
    assert at_source(diag, maps) == diag
