"""The published TT-Lang 1.1 tutorials run unchanged under ``tilecraft run``.

They come from the ``tt-lang-sim==1.1.6`` wheel at test time (tests/tutorials.py). Each script
asserts its own result against torch (allclose or PCC). The elementwise and broadcast ones run
at their published size; the matmul ones set their size in one line (8192^3, ~40 minutes in the
published simulator), which is the only line changed, to keep the suite fast.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.emit_tools import programs_of
from benchmarks.tutorial_sources import elementwise_size, matmul_size, resize_source
from tests.outputs import assert_same_bits, launch_outputs
from tilecraft import session
from tilecraft.cli import main
from tilecraft.ir.parser import parse_program
from tilecraft.ir.printer import print_program
from tilecraft.ir.verify import verify_program

NATIVE = [
    "elementwise/step_0_ttnn_base.py",
    "elementwise/step_1_single_node_single_tile_block.py",
    "elementwise/step_2_single_node_multitile_block.py",
    "elementwise/step_3_multinode.py",
    "elementwise/step_4_multinode_grid_full.py",
    "broadcast/single_node_broadcast_single_tile_block.py",
    "broadcast/single_node_broadcast_multitile_blocks.py",
]
#: matmul steps at a reduced size: (tutorial, M, K, N)
RESIZED = [
    ("matmul/step_0_ttnn_base.py", 256, 256, 256),
    ("matmul/step_1_single_node_single_tile_block.py", 256, 256, 256),
    ("matmul/step_2_single_node_multitile_block.py", 512, 512, 512),
    ("matmul/step_3_multinode.py", 1024, 512, 1024),
    ("matmul/step_4_multinode_grid_full.py", 1024, 512, 1024),
    ("matmul/step_5_multidevice_shard_m.py", 1024, 512, 1024),
    ("matmul/step_6_multidevice_shard_k.py", 1024, 1024, 512),
    ("matmul/step_7_multidevice_shard_k_all_reduce.py", 1024, 1024, 512),
]


pytestmark = pytest.mark.usefixtures("fresh_process_state")


def run(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    code = main(["run", str(path)])
    out, err = capsys.readouterr()
    assert code == 0, f"{path.name} failed:\n{err[-3000:]}"
    return out


@pytest.mark.parametrize("tutorial", NATIVE)
def test_tutorial_native_size(tutorials: Path, tutorial: str, capsys: pytest.CaptureFixture[str]) -> None:
    run(tutorials / tutorial, capsys)


@pytest.mark.parametrize("tutorial, m, k, n", RESIZED)
def test_matmul_tutorial_resized(tutorials: Path, tmp_path: Path, tutorial: str, m: int, k: int, n: int,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / Path(tutorial).name
    script.write_text(resize_source((tutorials / tutorial).read_text(), matmul_size(m, k, n)))
    out = run(script, capsys)
    if "PCC" in out:
        pcc = float(out.split("PCC")[-1].split()[0])
        assert pcc > 0.999, out


def test_grid_option_changes_full_grid(tutorials: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--grid`` sets the grid of ``grid="full"`` programs; the result must not change."""
    launched: list = []
    with session.using(program_hooks=[launched.append]):
        assert main(["run", str(tutorials / NATIVE[4]), "--grid", "4,2"]) == 0, capsys.readouterr().err
    assert launched and {program.grid for program in launched} == {(4, 2)}


#: every tutorial at a size small enough to evaluate one value at a time and call by call
SMALL = [(t, elementwise_size(512)) for t in NATIVE] + [(t, matmul_size(m, k, n)) for t, m, k, n in RESIZED]


#: the multi-device steps take 10-17 s each at three levels; the default run keeps steps 0-4, and the
#: multi-device ones still run at the language level in test_matmul_tutorial_resized
MULTIDEVICE_SLOW = {"matmul/step_5_multidevice_shard_m.py", "matmul/step_6_multidevice_shard_k.py",
                    "matmul/step_7_multidevice_shard_k_all_reduce.py"}


@pytest.mark.parametrize("tutorial, size", [pytest.param(t, size, id=t, marks=[pytest.mark.slow] if t in MULTIDEVICE_SLOW else [])
                                            for t, size in SMALL])
def test_modes_and_levels_agree(tutorials: Path, tmp_path: Path, tutorial: str, size,
                                capsys: pytest.CaptureFixture[str]) -> None:
    """Batched, --exact and the Metalium-call level store the same bits in every tensor."""
    script = tmp_path / Path(tutorial).name
    script.write_text(resize_source((tutorials / tutorial).read_text(), size))
    fast = launch_outputs(script, capsys)
    if not fast:
        pytest.skip("the ttnn-only step launches no kernel")
    assert_same_bits(fast, launch_outputs(script, capsys, "--exact"))
    assert_same_bits(fast, launch_outputs(script, capsys, "--level", "metal"))


@pytest.mark.parametrize("tutorial, size", SMALL, ids=[t for t, _ in SMALL])
def test_ir_text_round_trips(tutorials: Path, tmp_path: Path, tutorial: str, size) -> None:
    """print -> parse -> print is the identity on every program a tutorial launches, and the
    verifier accepts the parsed program (as tests/ir/test_ir_text.py checks for our examples)."""
    script = tmp_path / Path(tutorial).name
    script.write_text(resize_source((tutorials / tutorial).read_text(), size))
    for program in programs_of(script):
        text = print_program(program)
        again = parse_program(text)
        verify_program(again, "parsing")
        assert print_program(again) == text
