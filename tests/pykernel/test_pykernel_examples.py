"""The seed's PyKernel examples (examples/pykernel): they run on the kernel emulator and pass their
goldens; ``tilecraft emit`` writes the same artifacts as for TT-Lang programs; the emitted kernels
pass the header check against the real 0.81.1 headers; and the emitted program.py, run on the
emulator with the same inputs, gives the same bits as the PyKernel op did."""

from __future__ import annotations

import json
import runpy
import shutil
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import torch

from tests.metal.test_headercheck import headers  # noqa: F401 - the fixture (skips without g++-multilib)
from tilecraft import options, session
from tests.outputs import emit_script
from tilecraft.cli import main
from tilecraft.scripts import install_modules
from tilecraft.metal.check_emitted import check_emitted
from tilecraft.metal.emit import render_program
from tilecraft.pykernel import pykernel_program
from tilecraft.run_cpp import load_host

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples" / "pykernel").glob("*.py"))
NAMES = [p.stem for p in EXAMPLES]
pytestmark = pytest.mark.skipif(shutil.which("g++") is None,
                                reason="no g++: the kernel emulator compiles kernels with the host C++ compiler")


def test_the_seeds_four_examples_are_there():
    assert NAMES == ["eltwise_sfpu", "matmul_multicore", "matmul_singlecore", "vecadd_multicore"]


@pytest.mark.parametrize("example", EXAMPLES, ids=NAMES)
def test_example_passes_its_golden(example, capsys):
    """Each example asserts its golden itself; `tilecraft run` exits 0 only if it held."""
    assert main(["run", str(example)]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "Tensors are matching: True" in out or ">= 0.99" in out


class Launches:
    """Every PyKernel program an example launches: its kernel-level program, its tensors' values
    before the run, and the tensors (whose storages hold the results after it)."""

    def __init__(self):
        self.seen: list[tuple] = []

    def __call__(self, program, tensors):
        before = [t.storage.clone() for t in tensors]
        self.seen.append((program.metal(tensors), before, list(tensors)))


def run_example(example: Path) -> Launches:
    launches = Launches()
    install_modules()
    with session.using(options.RunOptions(), kernel_hooks=[launches]), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        runpy.run_path(str(example), run_name="__main__")
    return launches


@pytest.fixture(scope="module")
def launched() -> dict[str, Launches]:
    return {example.stem: run_example(example) for example in EXAMPLES}


@pytest.mark.parametrize("name", NAMES)
def test_emitted_program_gives_the_same_bits(name, launched, tmp_path):
    import tilecraft.ttnn as ttnn

    ((metal, before, tensors),) = launched[name].seen
    directory = tmp_path / metal.name
    render_program(metal, None).write(directory)
    host = load_host(directory)
    device = ttnn.open_device(0)
    try:
        fresh = [ttnn.from_torch(values, dtype=t.dtype, layout=t.layout, device=device,
                                 memory_config=ttnn.DRAM_MEMORY_CONFIG) for values, t in zip(before, tensors)]
        # the same options as the original run (run_example): whatever session an earlier test
        # left in force, both runs pick their engines from the environment as it is now
        with session.using(options.RunOptions()), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            host.run(device, fresh)
    finally:
        ttnn.close_device(device)
    for original, emitted in zip(tensors, fresh):
        assert torch.equal(original.storage, emitted.storage)
    assert not torch.equal(before[-1], tensors[-1].storage)  # the op wrote its output


def test_tilecraft_emit_writes_every_artifact(tmp_path, capsys):
    example = EXAMPLES[NAMES.index("vecadd_multicore")]
    emit_script(example, tmp_path)
    directory = tmp_path / "VecAddMulticorePyKernelOp"
    files = sorted(p.name for p in directory.iterdir())
    assert files == ["CMakeLists.txt", "add_multicore.cpp", "main.cpp", "manifest.json", "program.py",
                     "reader_binary_interleaved.cpp", "writer_multicore.cpp"]
    manifest = json.loads((directory / "manifest.json").read_text())
    kernels = {k["thread"]: k for k in manifest["kernels"]}
    assert kernels["reader_binary_interleaved"]["compile_time_args"] == [0, 1]
    assert kernels["reader_binary_interleaved"]["common_runtime_args"] == [
        {"label": "src_addr0", "value": ["buffer_address", 0]}, {"label": "src_addr1", "value": ["buffer_address", 1]},
        {"label": "num_tiles", "value": 1}]
    assert kernels["writer_multicore"]["runtime_args"] == [{"label": "start_id", "per_core": [0, 1, 2, 3]}]
    assert manifest["core_order"] == [[0, 0], [0, 1], [1, 0], [1, 1]]
    main_cpp = (directory / "main.cpp").read_text()
    assert "std::vector<uint32_t> k_add_multicore_ct{0, 1, 2};" in main_cpp
    assert "SetCommonRuntimeArgs(program, k_writer_multicore, k_writer_multicore_common);" in main_cpp
    assert "uint32_t flat = x * 2 + y;" in main_cpp


@pytest.mark.parametrize("arch", ["wormhole_b0", pytest.param("blackhole", marks=pytest.mark.slow)])
def test_emitted_kernels_pass_the_header_check(arch, launched, headers):  # noqa: F811
    programs = [metal for name in NAMES for metal, _, _ in launched[name].seen]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda metal: check_emitted(render_program(metal, None), arch, jobs=1), programs))
    failed = {f"{metal.name}/{file}": result.diagnostics
              for metal, checked in zip(programs, results) for file, result in checked if not result.ok}
    assert not failed, "\n".join(f"{k}:\n{v}" for k, v in failed.items())
    assert sum(len(checked) for checked in results) == 12


def test_profile_times_a_pykernel_program_at_the_kernel_level(capsys):
    """The PyKernel op runs on the emulator as its printed C++; profile times its calls and prints
    the line table at the kernels' Python lines, the SFPU exp line carrying the compute kernel's time
    (exp: (2 + 12) x 32 = 448 cycles per tile, 4 tiles per core)."""
    example = EXAMPLES[NAMES.index("eltwise_sfpu")]
    assert main(["profile", str(example)]) == 0
    out = capsys.readouterr().out
    assert "program 'kernels " in out and "predicted time" in out
    number = next(i for i, line in enumerate(example.read_text().splitlines(), 1) if line.strip() == "exp_tile(0)")
    exp_row = next(line for line in out.splitlines() if line.strip().startswith(f"eltwise_sfpu.py:{number} "))
    assert exp_row.rstrip().endswith("exp_tile(0)")
    assert int(exp_row.split()[1].replace(",", "")) == 4 * 448
    assert ".cpp:" not in out  # every row is a Python line


def test_profile_of_a_generic_op_host_prints_its_line_table(capsys):
    host = Path(__file__).resolve().parents[2] / "examples" / "metal" / "eltwise_binary" / "eltwise_binary.py"
    assert main(["profile", str(host)]) == 0
    out = capsys.readouterr().out
    assert "program 'kernels reader_binary.cpp, compute_add.cpp, writer_tiles.cpp' on wormhole_b0 (64 cores" in out
    assert "compute_add.cpp:" in out and "add_tiles(cb_a, cb_b, 0, 0, dst);" in out
