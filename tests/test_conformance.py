"""Every conformance program on tilecraft, against the published simulator's stored results.

The programs (benchmarks/conformance/programs/) run unchanged on tt-lang-sim 1.1.6 and on
tilecraft; ``python -m benchmarks.conformance`` runs both side by side and ``--update-goldens``
stores the reference's results in benchmarks/conformance/goldens/. Here each program runs on
tilecraft only, in process (torch is imported once), and is judged against its golden with the
harness's own rules (benchmarks/conformance/verdict.py): outputs equal in their declared format,
or within the program's stated tolerance; error programs rejected with the expected diagnostic
at the marked line.

Programs that fail today are marked ``xfail(strict=True)`` with the reason: once a fix makes one
pass, the test fails as XPASS until its entry below is removed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.conformance import catalogue
from benchmarks.conformance.execute import OUTPUT_VARIABLE, Run, load_outputs
from benchmarks.conformance.verdict import judge
from tilecraft.cli import main

pytestmark = pytest.mark.usefixtures("fresh_process_state")

ITEM = "issue 7 item"
#: case -> why it fails on tilecraft today (the item of issue 7, or the finding of the conformance run)
KNOWN_FAILURES: dict[str, str] = {
    "pipe_net_queries.is_active": f"{ITEM} 5: PipeNet.is_active()",
    "pipe_net_queries.is_src": f"{ITEM} 5: PipeNet.is_src()",
    "pipe_net_queries.is_dst": f"{ITEM} 5: PipeNet.is_dst()",
    "pipe_active_early_return": f"{ITEM} 5: is_active() and return before the end of a thread",
    "pipe_identity": f"{ITEM} 5/9: SrcPipeIdentity.dst and DstPipeIdentity.src",
    "error_too_many_threads": f"{ITEM} 21: E0204 points at the decorator, not the extra thread",
    "ttnn_core_ranges.split_even": f"{ITEM} 9: ttnn.split_work_to_cores",
    "ttnn_core_ranges.split_uneven": f"{ITEM} 9: ttnn.split_work_to_cores",
    "ttnn_core_ranges.split_row_wise": f"{ITEM} 9: ttnn.split_work_to_cores",
    "ttnn_core_ranges.split_range_set": f"{ITEM} 9: ttnn.split_work_to_cores",
    "ttnn_core_ranges.num_cores": f"{ITEM} 9: ttnn.num_cores_to_corerangeset",
    "ttnn_core_ranges.core_grid": f"{ITEM} 9: ttnn.CoreGrid, ttnn.core_range_set_to_core_grid",
    "ttnn_tensor_info.ttl_constants": f"{ITEM} 9: ttl.TILE_LAYOUT, ttl.ROW_MAJOR_LAYOUT",
    "ttnn_tensor_info.rand": f"{ITEM} 9: ttnn.rand rounds uniform floats to bfloat16 and can return 1.0",
    "ttnn_sharded_memory.height": f"{ITEM} 9: ttnn.create_sharded_memory_config, ShardStrategy, CoreGrid",
    "ttnn_sharded_memory.width": f"{ITEM} 9: ttnn.create_sharded_memory_config, ShardStrategy, CoreGrid",
    "ttnn_sharded_memory.block": f"{ITEM} 9: ttnn.create_sharded_memory_config, ShardStrategy, CoreGrid",
    "block_functions.where": f"{ITEM} 9: ttl.block.where",
    "block_functions.mask": f"{ITEM} 9: ttl.block.mask",
    "block_functions.mask_posinf": f"{ITEM} 9: ttl.block.mask_posinf",
    "block_squeeze.squeeze": f"{ITEM} 9: ttl.block.squeeze",
    "block_squeeze.unsqueeze": f"{ITEM} 9: ttl.block.unsqueeze",
    "block_operators.floordiv": f"{ITEM} 9: // on blocks",
    "block_operators.mod": f"{ITEM} 9: % on blocks",
    "math_parameters.threshold": f"{ITEM} 9: ttl.math.threshold replaces values <= threshold here, > there",
    "copy_bare_statement": f"{ITEM} 9: a bare ttl.copy(...) statement is waited at once in 1.1.6",
    "block_auto_release": f"{ITEM} 9: 1.1.6 pushes/pops a block on the next reserve/wait and at thread end",
    "signpost": f"{ITEM} 9: with ttl.signpost(...)",
    "print_objects": f"{ITEM} 9: print() of a block or a dataflow buffer",
    "object_members.pipe_attributes": f"{ITEM} 9: ttl.Pipe has no .dst attribute here",
    "object_members.block_len": f"{ITEM} 9: len(blk) in a thread",
    "object_members.dfb_block_count": f"{ITEM} 9: dfb.block_count in a thread",
    "object_members.dfb_capacity_tiles": f"{ITEM} 9: dfb.capacity_tiles in a thread",
    "pipe_linear_range": f"{ITEM} 4/9: 1-D pipe coordinates (linear node indices) on a 2-D grid",
    "thread_early_return": f"{ITEM} 9: return before the end of a thread",
    "ttnn_torch_dtypes.empty": f"{ITEM} 15: a torch dtype for ttnn.empty is an internal error (1.1.6 accepts it)",
    "ttnn_torch_dtypes.from_torch": f"{ITEM} 15: a torch dtype for from_torch is an internal error (1.1.6 accepts it)",
}


def _cases() -> list:
    params = []
    for program in catalogue.all_programs():
        marks = []
        if program.name in KNOWN_FAILURES:
            marks.append(pytest.mark.xfail(reason=KNOWN_FAILURES[program.name], strict=True))
        if program.slow:
            marks.append(pytest.mark.slow)
        params.append(pytest.param(program, id=program.name, marks=marks))
    return params


def run_tilecraft(program: catalogue.Program, scratch: Path, monkeypatch: pytest.MonkeyPatch,
                  capsys: pytest.CaptureFixture[str]) -> Run:
    """``tilecraft run PROGRAM`` in this process, as the harness runs it in a child."""
    output = scratch / "outputs.npz"
    monkeypatch.setenv(OUTPUT_VARIABLE, str(output))
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    monkeypatch.syspath_prepend(str(catalogue.SUPPORT))
    capsys.readouterr()
    code = main(["run", str(program.path), *program.simulator_args()])
    printed = capsys.readouterr()
    return Run(code, printed.out, printed.err, load_outputs(output) if code == 0 else None)


def test_every_known_failure_names_a_case() -> None:
    names = {p.name for p in catalogue.all_programs()}
    assert sorted(set(KNOWN_FAILURES) - names) == []


def test_every_case_has_a_golden_and_every_golden_a_case() -> None:
    cases = catalogue.all_programs()
    missing = [p.name for p in cases if not p.golden.exists()]
    assert missing == [], "run `python -m benchmarks.conformance --update-goldens` for these"
    stale = {path.stem for path in catalogue.GOLDENS.glob("*.npz")} - {p.name for p in cases}
    assert sorted(stale) == [], "these goldens belong to no case: delete them"


@pytest.mark.parametrize("program", _cases())
def test_conformance(program: catalogue.Program, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                     capsys: pytest.CaptureFixture[str]) -> None:
    reference = Run.load_golden(program.golden)
    ours = run_tilecraft(program, tmp_path, monkeypatch, capsys)
    verdict = judge(program, reference, ours)
    assert verdict.agree, f"{verdict.detail}\n{ours.stderr[-3000:]}"
