"""EmitMetal: every example lowers, its kernels pass the real 0.81.1 headers, and the lowered
program simulated call by call gives the same bits as the program as written."""

from __future__ import annotations

import importlib.util
import json
import py_compile
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import torch

from benchmarks.emit_tools import programs_of
from tests import paths
from tests.paths import TESTS
from tests.outputs import assert_same_bits, emit_script, launch_outputs
from tests.metal.test_headercheck import headers  # noqa: F401 - the fixture (skips without g++-multilib)
from tilecraft.cli import main
from tilecraft.diagnostics import KernelError
from tilecraft.ir import ops as ir
from tilecraft.metal import kir, lower_compute
from tilecraft.metal.check_emitted import check_emitted
from tilecraft.metal.emit import Emitted, emit_program
from tilecraft.metal.lowered import LoweredProgram
from tilecraft.metal.hosts import kernel_file
from tilecraft.metal.optable import CB_ARGUMENTS
from tilecraft.scripts import install_modules

EXAMPLES = sorted(paths.EXAMPLES.glob("*.py"))
#: examples with constructs not lowered yet, and the code that says so
NOT_EMITTED: dict[str, str] = {}
#: lowered, but not simulated at the metal level
NOT_SIMULATED: dict[str, str] = {}


pytestmark = pytest.mark.usefixtures("fresh_process_state")


def ids(path: Path) -> str:
    return path.stem


@pytest.mark.parametrize("example", EXAMPLES, ids=ids)
def test_example_emits_and_kernels_pass_header_check(example: Path, headers: Path) -> None:  # noqa: F811
    programs = programs_of(example)
    if example.stem in NOT_EMITTED:
        with pytest.raises(KernelError) as info:
            emit_program(programs[0])
        assert info.value.code == NOT_EMITTED[example.stem]
        return
    for program in programs:
        for name, result in check_emitted(emit_program(program)):
            assert result.ok, f"{example.stem}/{name}:\n{result.diagnostics}"


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.stem not in NOT_EMITTED], ids=ids)
def test_both_levels_give_identical_bits(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if example.stem in NOT_SIMULATED:
        assert main(["run", str(example), "--level", "metal"]) == 1
        assert f"error[{NOT_SIMULATED[example.stem]}]" in capsys.readouterr().err
        return
    assert_same_bits(launch_outputs(example, capsys), launch_outputs(example, capsys, "--level", "metal"))


def test_planted_lowering_bug_is_caught(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A lowering that swaps the operands of FPU binaries (a - b emitted as b - a): the two
    simulation levels then disagree, so the comparison above would catch it."""
    example = next(e for e in EXAMPLES if e.stem == "elementwise_1_single_tile")  # relu(a - b) * c
    language = launch_outputs(example, capsys)
    original = lower_compute.ComputeLowering.emit_fpu

    def swapped(self, node, *args):
        node.children.reverse()
        return original(self, node, *args)

    monkeypatch.setattr(lower_compute.ComputeLowering, "emit_fpu", swapped)
    planted = launch_outputs(example, capsys, "--level", "metal", must_pass=False)
    assert len(planted) == len(language)
    assert any(not torch.equal(a, b) for ra, rb in zip(language, planted) for a, b in zip(ra, rb))


def test_emit_command_simulates_nothing_and_says_why_checks_fail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``tilecraft emit`` builds and lowers each program but computes no values (neither level's
    simulator runs); the example's own check on its result then fails: the command says so in one
    diagnostic at the check's line, not a traceback, and exits 1 (it once exited 0)."""
    from tilecraft import driver

    def no_simulation(*args: object, **kwargs: object) -> None:
        raise AssertionError("tilecraft emit simulated a program")

    monkeypatch.setattr(driver.ProgramRuntime, "run", no_simulation)
    monkeypatch.setattr(driver.MetalRuntime, "run", no_simulation)
    example = next(e for e in EXAMPLES if e.stem == "compare_matmul")
    assert main(["emit", str(example), "-o", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    line = next(i for i, text in enumerate(example.read_text().splitlines(), 1) if text.startswith("assert "))
    assert (f"{example}:{line}:1: error[E0710]: the script raised AssertionError after its programs were emitted "
            "by tilecraft emit, which computes no values, so checks on results fail") in err
    assert "hint: tilecraft run computes the values and runs the checks" in err and "Traceback" not in err
    assert sorted(p.name for p in (tmp_path / "tiled_matmul").iterdir()) == [
        "CMakeLists.txt", "compute.cpp", "main.cpp", "manifest.json", "program.py", "reader.cpp", "writer.cpp"]


def test_emit_command_header_checks_what_it_wrote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str],
                                                  headers: Path) -> None:  # noqa: F811
    """A kernel that does not compile against the 0.81.1 headers (planted: a misspelt call) is
    an E3004 at the program, with the compiler's message, and the command fails."""
    rendered = LoweredProgram.emitted

    def misspelt(lowered: LoweredProgram) -> Emitted:
        emitted = rendered(lowered)
        emitted.files["writer.cpp"] = emitted.files["writer.cpp"].replace("cb_pop_front(", "cb_pop_frontt(")
        return emitted

    monkeypatch.setattr(LoweredProgram, "emitted", misspelt)
    example = next(e for e in EXAMPLES if e.stem == "compare_matmul")
    assert main(["emit", str(example), "-o", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "error[E3004]: the emitted kernel writer.cpp of program 'tiled_matmul' does not compile" in err
    assert "cb_pop_frontt" in err and "compare_matmul.py:" in err


def test_emit_command_writes_every_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    example = next(e for e in EXAMPLES if e.stem == "hypot_block_expression")
    emit_script(example, tmp_path)
    (program_dir,) = tmp_path.iterdir()
    manifest = json.loads((program_dir / "manifest.json").read_text())
    assert manifest["tt_metal_version"] == "0.81.1"
    for kernel in manifest["kernels"]:
        text = (program_dir / kernel["file"]).read_text()
        assert "void kernel_main()" in text and "hypot_block_expression.py:" in text  # source-line comments
    py_compile.compile(str(program_dir / "program.py"), doraise=True)
    assert "EnqueueMeshWorkload" in (program_dir / "main.cpp").read_text()
    assert "find_package(TT-Metalium REQUIRED)" in (program_dir / "CMakeLists.txt").read_text()


def load_host(program_dir: Path) -> Any:
    """The emitted program.py as a module (its ``import ttnn`` served by tilecraft)."""
    install_modules()
    spec = importlib.util.spec_from_file_location(f"emitted_host_{program_dir.name}", program_dir / "program.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class FakeDevice:
    def __init__(self, cols: int, rows: int):
        self.grid = SimpleNamespace(x=cols, y=rows)

    def compute_with_storage_grid_size(self) -> SimpleNamespace:
        return self.grid


def test_grid_full_programs_are_checked_against_the_device(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A grid="full" program is emitted for the compute grid of the architecture (docs/emit.md,
    "Grids" says why it cannot follow the device by itself); its hosts check the device: fewer
    cores is an error that says how to emit for it, more cores a note; a program whose grid is
    written in it only needs its cores to exist."""
    full = next(e for e in EXAMPLES if e.stem == "elementwise_4_grid_full")
    emit_script(full, tmp_path / "full")
    (program_dir,) = (tmp_path / "full").iterdir()
    assert json.loads((program_dir / "manifest.json").read_text())["grid_from_device"] is True
    assert "device_grid.x < 8 || device_grid.y < 8" in (program_dir / "main.cpp").read_text()
    host = load_host(program_dir)
    with pytest.raises(RuntimeError, match=r"8x8 grid of cores, but this device's compute grid is 4x8; emit it again "
                                           r"for this device: tilecraft emit SCRIPT.py --grid 4,8"):
        host.check_grid(FakeDevice(4, 8))
    capsys.readouterr()
    host.check_grid(FakeDevice(13, 10))
    assert "emitted for the full 8x8 grid of wormhole_b0" in capsys.readouterr().out

    fixed = next(e for e in EXAMPLES if e.stem == "compare_matmul")
    emit_script(fixed, tmp_path / "fixed")
    (program_dir,) = (tmp_path / "fixed").iterdir()
    host = load_host(program_dir)
    capsys.readouterr()
    host.check_grid(FakeDevice(13, 10))
    assert capsys.readouterr().out == ""


def test_data_movement_arguments_are_split_by_what_differs(tmp_path: Path) -> None:
    """Buffer ids are compile-time args, tensor addresses and the NoC table common runtime args,
    and per-core runtime args hold only values that differ between cores or pipe tables."""
    example = next(e for e in EXAMPLES if e.stem == "matmul_row_multicast")
    emit_script(example, tmp_path)
    (program_dir,) = tmp_path.iterdir()
    manifest = json.loads((program_dir / "manifest.json").read_text())
    load = next(k for k in manifest["kernels"] if k["thread"] == "load")
    assert load["compile_time_args"][:5] == [5, 0, 4, 1, 2]  # flags, fetch, landing, a, b buffers
    assert [a["label"] for a in load["common_runtime_args"]] == [
        "noc_x[0]", "noc_x[1]", "noc_x[2]", "noc_y[0]", "noc_y[1]", "a_addr", "b_addr"]
    for arg in load["runtime_args"]:
        assert arg["label"].startswith("pipenet") or len({json.dumps(v) for v in arg["per_core"]}) > 1, arg
    source = (program_dir / "load.cpp").read_text()
    assert "constexpr uint32_t cb_a_dfb = get_compile_time_arg_val(3);" in source
    assert "TensorAccessorArgs<5>()" in source and "get_common_arg_val<uint32_t>(5);  // a_addr" in source


def test_too_many_ready_semaphores_is_an_error_at_the_program(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """One core sending 16 pipes of one net needs 16 ready semaphores, and the remote writes a
    scratch word: 17, more than tt-metal's 16 per core (E3003 at the kernel)."""
    planted = TESTS / "emu" / "defects" / "two_pipes_one_sender.py"
    source = planted.read_text()
    for old, new in (("grid=(3, 1)", "grid=(17, 1)"), ("(32, 64)", "(32, 512)"), ("repeat(1, 2)", "repeat(1, 16)"),
                     ("pipes = [ttl.Pipe(src_core=(0, 0), dst_core=(1, 0)), ttl.Pipe(src_core=(0, 0), dst_core=(2, 0))]",
                      "pipes = [ttl.Pipe(src_core=(0, 0), dst_core=(x, 0)) for x in range(1, 17)]")):
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    script = tmp_path / "sixteen_pipes.py"
    script.write_text(source)
    line = source.splitlines().index("@ttl.kernel(grid=(17, 1))") + 1
    assert main(["emit", str(script), "-o", str(tmp_path / "out")]) == 1
    assert (f"sixteen_pipes.py:{line}:1: error[E3003]: a program that needs 17 semaphores per core, more than "
            "tt-metal's 16 (0 of its own, 16 ready semaphores for pipe net 0, a scratch word)") in capsys.readouterr().err


@pytest.mark.parametrize("name, count", [("too_many_buffers", 41), ("too_many_buffers_with_pipe", 33)])
def test_more_circular_buffers_than_the_core_has_is_not_emitted(name: str, count: int, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A Wormhole core has 32 circular buffers: a program that needs more (its own, or with those
    the lowering adds for a pipe) is E0410, and nothing is written."""
    script = TESTS / "misuse" / f"{name}.py"
    assert main(["emit", str(script), "-o", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert f"error[E0410]: program 'kern' needs {count} circular buffers per core" in err, err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


@pytest.mark.parametrize("stem, reconfigures", [("row_reduce", True), ("broadcast_center_rows", True),
                                                ("matmul_multicore_accumulate", False)])
def test_compute_kernels_take_buffer_ids_as_compile_time_args(stem: str, reconfigures: bool) -> None:
    """Compute kernels name their circular buffers as the data-movement kernels do: every buffer
    argument of a call is a ``constexpr uint32_t`` read with get_compile_time_arg_val, whose word
    the host passes (the kernel's compile_args); no call takes a literal buffer id. Formats are
    still tracked per buffer: the first two examples mix fp32 and bf16 buffers and need reconfigs."""
    example = next(e for e in EXAMPLES if e.stem == stem)
    for program in programs_of(example):
        emitted = emit_program(program)
        buffers = {cb.index: cb.name for cb in emitted.program.cbs}
        for kernel in (k for k in emitted.program.kernels if k.processor == "compute"):
            args = {op.result.name: op.index for op in ir.walk(kernel.body) if isinstance(op, kir.Arg)
                    and op.source == "ct"}
            assert args and set(kernel.compile_args) <= set(buffers)
            calls = [op for op in ir.walk(kernel.body) if isinstance(op, kir.Call)]
            for op in calls:
                for position in CB_ARGUMENTS.get(op.fn, ()):
                    assert isinstance(op.args[position], ir.Reg) and op.args[position].name in args, (op.fn, op.args)
            source = emitted.files[kernel_file(kernel)]
            for name, index in args.items():
                buffer = buffers[kernel.compile_args[index]]
                assert f"constexpr uint32_t {name} = get_compile_time_arg_val({index});  // buffer '{buffer}'" \
                    in source
            assert not re.search(r"\b(cb_(wait|pop)_front|cb_(reserve|push)_back|copy_tile|\w*reconfig_data_format\w*)\(\d"
                                 r"|\bpack_tile\(\w+, \d", source)
            assert any(op.fn.startswith(("reconfig_data_format", "pack_reconfig")) for op in calls) == reconfigures


def test_a_float32_buffer_read_through_src_and_into_dst_is_copied_through_a_second_index() -> None:
    """broadcast_center_rows's compute kernel reads ``x`` (Float32) through the FPU (reduce_sum:
    SrcB, TF32) and copies it into DST for the subtraction, right after unary_bcast of ``mean``
    (Float32, only moved into DST, so UnpackToDestFp32). The copy reads ``x`` through a second
    index on its pages, ``x_dfb_to_dst``, in UnpackToDestFp32 mode as ``mean`` is (metal/dst_view.py):
    one unpacker configuration, so no reconfig between them, and all 32 bits of ``x`` in DST; the
    reduce still reads ``cb_x_dfb``. Once the unpacker copied ``x`` with the TF32 configuration
    (E5411), after a reconfig this test used to demand (without it, Float32 into SrcA: E5871)."""
    example = next(e for e in EXAMPLES if e.stem == "broadcast_center_rows")
    (program,) = programs_of(example)
    emitted = emit_program(program)
    compute = next(k for k in emitted.program.kernels if k.processor == "compute")
    source = emitted.files[kernel_file(compute)]
    assert "reduce_tile<PoolType::SUM, ReduceDim::REDUCE_ROW>(cb_x_dfb, cb_reduce_scaler," in source
    bcast_mean = source.index("unary_bcast<BroadcastType::COL>(")
    copy_x = source.index("copy_tile(cb_x_dfb_to_dst,", bcast_mean)
    assert "reconfig" not in source[bcast_mean:copy_x], source[bcast_mean:copy_x]
    assert "copy_tile(cb_x_dfb," not in source
    views = {cb.name: cb.shares for cb in emitted.program.cbs if cb.shares is not None}
    x = next(cb.index for cb in emitted.program.cbs if cb.name == "x_dfb")
    assert views == {"x_dfb_to_dst": x}
    view = next(cb.index for cb in emitted.program.cbs if cb.name == "x_dfb_to_dst")
    assert view in emitted.program.unpack_to_dest_fp32 and x not in emitted.program.unpack_to_dest_fp32


def test_a_wormhole_row_broadcast_into_an_fp32_dst_runs_on_the_fpu() -> None:
    """fuse_mlp_epilogue's bias row (bfloat16) is broadcast in a kernel with an fp32 DST (the
    matmul's): ``unary_bcast<ROW>`` is wrong there on Wormhole (tests/emu/test_unary_bcast.py), so
    the kernel adds the row onto a tile of zeros it fills once, with ``add_tiles_bcast_rows``."""
    example = next(e for e in EXAMPLES if e.stem == "fuse_mlp_epilogue")
    (program,) = programs_of(example)
    emitted = emit_program(program)
    compute = next(k for k in emitted.program.kernels if k.processor == "compute")
    source = emitted.files[kernel_file(compute)]
    assert "unary_bcast" not in source
    assert "fill_tile(0, 0.0f);" in source and "pack_tile(0, cb_zero_tile);" in source
    assert re.search(r"add_bcast_rows_init\(cb_zero_tile, cb_b_in\);\s+add_tiles_bcast_rows\(cb_zero_tile, cb_b_in, 0, ",
                     source), source
