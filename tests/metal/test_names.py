"""User variable names that look like the compiler's temporaries (``t_1`` next to ``%t.1``), C++
keywords (``int``, ``new``, ``auto``) and Python builtins (``sum``, ``max``) keep their meaning at
every level: the simulator, the Metalium-level simulation and the emitted C++ (which must compile)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.metal.test_headercheck import headers  # noqa: F401 - the fixture (skips without g++-multilib)
from tilecraft.cli import main
from tilecraft.metal.check_emitted import check_emitted
from tilecraft.metal.emit import emit_program
from benchmarks.emit_tools import programs_of

pytestmark = pytest.mark.usefixtures("fresh_process_state")

BODY = """\
t_1 = 300
c_1 = 2
for i in range(3):
    int = i * 2 + 1
    new = int + c_1
    t_1 += new + 1 + i
    auto = t_1 % 7
    e_2 = auto * 3
    sum = e_2 + 1
    max = sum - auto
    c_1 = max if max > c_1 else c_1 + 1
"""

SCRIPT = """\
import torch
import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(1, 1))
def names(a):
    @ttl.datamovement()
    def dm():
{body}
        print(t_1, c_1, sum)


names(ttnn.from_torch(torch.zeros(32, 32), layout=ttnn.TILE_LAYOUT))
"""


def python_answer() -> str:
    scope: dict = {}
    exec(BODY, scope)  # noqa: S102 - our own test program, run as plain Python for the expected answer
    return f"{scope['t_1']} {scope['c_1']} {scope['sum']}\n"


@pytest.fixture
def script(tmp_path: Path) -> Path:
    path = tmp_path / "names.py"
    path.write_text(SCRIPT.format(body=textwrap.indent(BODY, " " * 8)))
    return path


@pytest.mark.parametrize("level", ["language", "metal"])
def test_every_level_computes_what_python_does(script: Path, level: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(script), "--level", level]) == 0
    assert capsys.readouterr().out == python_answer()


def test_the_emitted_kernel_compiles(script: Path, headers: Path) -> None:  # noqa: F811
    (program,) = programs_of(script)
    emitted = emit_program(program)
    for name, result in check_emitted(emitted):
        assert result.ok, f"{name}:\n{result.diagnostics}"
    source = next(text for path, text in emitted.files.items() if path.endswith("dm.cpp"))
    code = [line for line in source.splitlines() if not line.lstrip().startswith("//")]
    for keyword in ("int", "new", "auto"):
        assert not any(f" {keyword} = " in line for line in code)  # renamed: a C++ keyword is no variable


CORE_NAMES = """\
import torch
import tilecraft as ttl
import tilecraft.ttnn as ttnn


@ttl.operation(grid=(2, 1))
def names(a, y):
    a_dfb = ttl.make_dataflow_buffer_like(a, shape=(1, 1), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, 1), block_count=2)

    @ttl.compute()
    def compute():
        for ALWI in range(1):
            for FORCE_INLINE in range(1):
                with a_dfb.wait() as x, y_dfb.reserve() as out:
                    out.store(ttl.math.abs(x))

    @ttl.datamovement()
    def reader():
        get_arg_val, _ = ttl.core(dims=2)
        with a_dfb.reserve() as blk:
            ttl.copy(a[0, get_arg_val], blk).wait()

    @ttl.datamovement()
    def writer():
        get_arg_val, _ = ttl.core(dims=2)
        with y_dfb.wait() as blk:
            ttl.copy(blk, y[0, get_arg_val]).wait()


a = ttnn.from_torch(torch.arange(-1024.0, 1024.0).reshape(32, 64), layout=ttnn.TILE_LAYOUT)
y = ttnn.from_torch(torch.zeros(32, 64), layout=ttnn.TILE_LAYOUT)
names(a, y)
assert torch.equal(ttnn.to_torch(y), torch.arange(-1024.0, 1024.0).reshape(32, 64).abs())
"""


def test_names_of_the_headers_macros_and_argument_reads_are_renamed(
        tmp_path: Path, headers: Path) -> None:  # noqa: F811
    """Loop variables named ``ALWI`` and ``FORCE_INLINE`` (macros of the compute API headers) made the
    emitted kernel fail to compile (E5001 in the cpp property campaign, as did ``get_arg_val``, which
    the printer reads core coordinates with): they are renamed as C++ keywords are."""
    path = tmp_path / "core_names.py"
    path.write_text(CORE_NAMES)
    (program,) = programs_of(path)
    for name, result in check_emitted(emit_program(program)):
        assert result.ok, f"{name}:\n{result.diagnostics}"
    assert main(["run", str(path), "--level", "metal"]) == 0
