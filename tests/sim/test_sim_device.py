"""The evaluation device: ``--device`` / ``$TILECRAFT_DEVICE`` reach the evaluator; a device that
cannot be used is a clear one-line error (exit status 2), never a traceback.

This machine's torch is a CPU build, so the CUDA comparisons below run only where CUDA is present
(they compare a GPU run's bits with the CPU's on the matmul tutorials and the examples).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from benchmarks.tutorial_sources import Resize, elementwise_size, matmul_size, resize_source
from tests.paths import EXAMPLES
from tests.outputs import assert_same_bits, launch_outputs
from tilecraft import options
from tilecraft.cli import main
from tilecraft.sim.dataflow import level_evaluator

ALL_EXAMPLES = sorted(EXAMPLES.glob("*.py"))
#: the single-chip tutorials, resized so that the CPU side of each comparison takes about a second
TUTORIALS = [*((f"matmul/step_{i}", matmul_size(256, 1024, 256)) for i in (
                 "1_single_node_single_tile_block.py", "2_single_node_multitile_block.py")),
             *((f"matmul/step_{i}", matmul_size(512, 1024, 512)) for i in (
                 "3_multinode.py", "4_multinode_grid_full.py")),
             *((f"elementwise/step_{i}", elementwise_size(512)) for i in (
                 "1_single_node_single_tile_block.py", "2_single_node_multitile_block.py", "3_multinode.py",
                 "4_multinode_grid_full.py")),
             *((f"broadcast/single_node_broadcast_{i}", elementwise_size(512)) for i in (
                 "multitile_blocks.py", "single_tile_block.py"))]
NO_CUDA = not torch.cuda.is_available()

pytestmark = pytest.mark.usefixtures("fresh_process_state")


def test_device_reaches_the_evaluator(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    devices: list[torch.device] = []
    real = level_evaluator.LevelEvaluator.__init__

    def spy(self, rec, device=None):
        devices.append(device)
        real(self, rec, device)

    monkeypatch.setattr(level_evaluator.LevelEvaluator, "__init__", spy)
    default = launch_outputs(EXAMPLES / "matmul_4_grid_full.py", capsys)
    explicit = launch_outputs(EXAMPLES / "matmul_4_grid_full.py", capsys, "--device", "cpu")
    assert_same_bits(default, explicit)
    assert devices and all(d == torch.device("cpu") for d in devices)


def test_environment_sets_the_device(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(options.DEVICE_VARIABLE, "cpu")
    assert options.RunOptions().device == "cpu"
    monkeypatch.delenv(options.DEVICE_VARIABLE)
    assert options.RunOptions().device == "cpu"


@pytest.mark.skipif(not NO_CUDA, reason="this torch has CUDA")
@pytest.mark.parametrize("how", ["flag", "environment"])
def test_cuda_without_cuda_is_a_clear_error(how: str, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    script = str(EXAMPLES / "matmul_1_single_tile.py")
    if how == "flag":
        code = main(["run", script, "--device", "cuda"])
        source = "--device"
    else:
        monkeypatch.setenv(options.DEVICE_VARIABLE, "cuda")
        code = main(["run", script])
        source = "$TILECRAFT_DEVICE"
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"tilecraft: error: {source} 'cuda': torch {torch.__version__}")
    assert "use --device cpu" in err and "Traceback" not in err


@pytest.mark.parametrize("name, says", [("tpu", "not 'tpu'"), ("meta", "cpu or cuda, not meta")])
def test_unknown_device_is_a_clear_error(name: str, says: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(EXAMPLES / "matmul_1_single_tile.py"), "--device", name]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


@pytest.mark.skipif(NO_CUDA, reason="needs a CUDA build of torch and a GPU")
@pytest.mark.parametrize("path", ALL_EXAMPLES, ids=[p.stem for p in ALL_EXAMPLES])
def test_cuda_gives_the_cpu_bits_on_examples(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_same_bits(launch_outputs(path, capsys, "--device", "cpu"), launch_outputs(path, capsys, "--device", "cuda"))


@pytest.mark.skipif(NO_CUDA, reason="needs a CUDA build of torch and a GPU")
@pytest.mark.parametrize("tutorial, resize", TUTORIALS, ids=[t for t, _ in TUTORIALS])
def test_cuda_gives_the_cpu_bits_on_the_tutorials(tutorial: str, resize: Resize, tutorials: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Long K chains (step 1: 1x1-tile blocks) and the full grid, through the chain evaluator's
    GPU-sized chunks."""
    script = tmp_path / Path(tutorial).name
    script.write_text(resize_source((tutorials / tutorial).read_text(), resize))
    assert_same_bits(launch_outputs(script, capsys, "--device", "cpu"),
                     launch_outputs(script, capsys, "--device", "cuda"))


def test_the_cpu_needs_no_warm_up() -> None:
    assert options.warm_up("cpu") is None


@pytest.mark.skipif(NO_CUDA, reason="needs a CUDA build of torch and a GPU")
def test_the_cuda_context_is_created_in_the_background() -> None:
    thread = options.warm_up("cuda")
    assert thread is not None and thread.daemon
    thread.join(timeout=120)
    assert not thread.is_alive() and torch.cuda.is_initialized()


@pytest.mark.parametrize("error, says", [
    (torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB\nmore text"),
     "out of GPU memory (CUDA out of memory. Tried to allocate 2.00 GiB)"),
    (MemoryError(), "out of host memory;")])
def test_running_out_of_memory_is_one_clear_line(error: Exception, says: str, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The machine's limit, not a tilecraft bug: no traceback, and what to do."""
    def out_of_memory(self):
        raise error

    monkeypatch.setattr(level_evaluator.LevelEvaluator, "run", out_of_memory)
    assert main(["run", str(EXAMPLES / "matmul_4_grid_full.py")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("tilecraft: error: the simulation ran out of") and says in err, err
    assert "--device cpu" in err and "Traceback" not in err and "internal error" not in err
    assert len(err.strip().splitlines()) == 1
