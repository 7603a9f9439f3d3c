"""The autotuner in one process: the decorator, the cache, pruning, crashes, the cut-off, verify.

The tuned operations are in tests/tune/scale_op.py (small kernels with deliberately bad
candidates). Dask is tested in test_tune_dask.py.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import runpy
from pathlib import Path
from typing import Iterator

import pytest
import torch

import tilecraft as ttl
import tilecraft.ttnn as ttnn
from tests.paths import TESTS
from tilecraft import options as run_options
from tilecraft import session
from tilecraft.diagnostics import KernelError
from tilecraft.tune import options as tune_options
from tilecraft.tune import sweep as sweep_module
from tilecraft.tune.cache import TuneCache
from tilecraft.tune.report import render_tables, to_json
from tilecraft.tune.shipping import OperationSource, load_operation

SCALE = TESTS / "tune" / "scale_op.py"


@pytest.fixture(autouse=True)
def tuning(tmp_path: Path) -> Iterator[Path]:
    """Serial tuning, a fresh cache directory, default run options (nothing leaks between tests)."""
    cache = tmp_path / "cache"
    with tune_options.using(dask=False, cache_dir=cache), session.using(run_options.RunOptions()):
        yield cache


def line_of(text: str, path: Path = SCALE) -> int:
    """The (first) line of ``path`` that holds ``text``."""
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


SCALE_ASSERT = line_of('assert cols % W == 0, "W must divide the columns"')
UNBUILDABLE_ASSERT = line_of('assert x.shape[1] // TILE % W == 0')


def load(path: Path = SCALE) -> dict:
    return runpy.run_path(str(path), run_name=f"tune_{path.stem}")


def tensors(rows: int = 128, cols: int = 256, seed: int = 0) -> tuple:
    torch.manual_seed(seed)
    x = ttnn.from_torch(torch.randn(rows, cols), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
    y = ttnn.zeros((rows, cols), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
    return x, y


def count_sweeps(monkeypatch: pytest.MonkeyPatch) -> list:
    """Record every sweep the autotuner starts."""
    started: list = []
    real = sweep_module.run_sweep

    def counting(*args, **kwargs):
        started.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr("tilecraft.tune.autotuner.run_sweep", counting)
    return started


# ------------------------------------------------------------------------------ the decorator
def test_first_call_tunes_later_calls_reuse_and_the_winner_computes(monkeypatch: pytest.MonkeyPatch) -> None:
    ns = load()
    sweeps = count_sweeps(monkeypatch)
    x, y = tensors()
    ns["scale"](x, y)
    assert len(sweeps) == 1
    winner = ns["scale"].last.best.params
    assert winner == {"W": 8, "COUNT": 2}  # the whole row in one block, double-buffered
    torch.testing.assert_close(ttnn.to_torch(y).float(), ttnn.to_torch(x).float() * 2)
    x2, y2 = tensors(seed=1)
    ns["scale"](x2, y2)  # same key (shape and format): no second sweep
    assert len(sweeps) == 1
    torch.testing.assert_close(ttnn.to_torch(y2).float(), ttnn.to_torch(x2).float() * 2)
    x3, y3 = tensors(rows=64)  # another key
    ns["scale"](x3, y3)
    assert len(sweeps) == 2 and "x=bfloat16[64x256]" in sweeps[1].key


def test_pruning_reasons_and_a_crashing_candidate_do_not_stop_the_sweep() -> None:
    ns = load()
    x, y = tensors()
    result = ns["scale"].tune(x, y)
    by_params = {(o.params["W"], o.params["COUNT"]): o for o in result.outcomes}
    assert len(result.outcomes) == 18
    for count in (1, 2, 300):  # W=3 does not divide 8 columns: the kernel's assert prunes it
        o = by_params[(3, count)]
        assert o.status == "pruned"
        assert o.reason == f"assertion failed at {SCALE}:{SCALE_ASSERT}: W must divide the columns"
    for w in (4, 8):  # 300 blocks of 4 or 8 tiles (2048 B each) overflow L1
        o = by_params[(w, 300)]
        assert o.status == "pruned" and o.reason.startswith("E0401 the buffers of program 'scale' need "
                                                            f"{300 * w * 2048 + 2 * w * 2048} B of L1")
    for count in (1, 2, 300):  # W=0: cols % 0 raises in kernel scope: a crash, reported with its line
        o = by_params[(0, count)]
        assert o.status == "failed"
        assert o.reason == f"ZeroDivisionError: integer modulo by zero at {SCALE}:{SCALE_ASSERT}"
    assert by_params[(2, 300)].status in ("ok", "slower")  # 300 blocks of 2 tiles fit
    assert len(result.with_status("ok")) + len(result.with_status("slower")) == 10


def test_cut_off_ranking_equals_the_exhaustive_ranking() -> None:
    ns = load()
    x, y = tensors()
    cut = ns["scale"].tune(x, y)
    tune_options.tune_options(exhaustive=True)
    full = ns["scale"].tune(x, y)
    assert len(full.ranked) == 10 and not full.with_status("slower")
    assert cut.with_status("slower"), "the cut-off stopped no candidate: the test shows nothing"
    assert [(o.params, o.cycles) for o in cut.kept] == [(o.params, o.cycles) for o in full.ranked[:5]]


def test_verify_rejects_a_fast_wrong_winner() -> None:
    ns = load()
    x, y = tensors(rows=32)
    ns["scale_checked"](x, y)
    result = ns["scale_checked"].last
    fastest, second = result.ranked
    assert fastest.params == {"LOSE": True}  # skipping a block is faster...
    assert fastest.reason.startswith("rejected by verify: 'y' differs from the reference by up to ")
    assert second.reason == ""
    torch.testing.assert_close(ttnn.to_torch(y).float(), ttnn.to_torch(x).float() * 2)  # ...the winner is right


def test_tables_and_json_hold_only_what_does_not_depend_on_the_runner() -> None:
    ns = load()
    x, y = tensors()
    result = ns["scale"].tune(x, y)
    text = render_tables(result)
    assert "best 5 configurations" in text and "pruned at compile time (5)" in text and "failed (3)" in text
    assert "18 candidates: 10 estimated (5 ranked, 5 slower than the top 5), 5 pruned, 3 failed, 0 lost" in text
    record = to_json(result)
    assert record["best"] == {"W": 8, "COUNT": 2} and record["slower"] == 5
    assert [r["params"] for r in record["ranked"]][:1] == [{"W": 8, "COUNT": 2}]
    assert "wall_s" not in str(record)


# ------------------------------------------------------------------------------ the cache
SCRIPT = '''
import tilecraft as ttl
import tilecraft.ttnn as ttnn

FACTOR = {factor}


@ttl.autotune(configs=[ttl.Config(W=1), ttl.Config(W=2), ttl.Config(W=4)], key=["x"], arch="n150")
@ttl.operation(grid=(1, 1))
def scaled(x, y, *, W):
    blocks = x.shape[1] // 32 // W
    x_dfb = ttl.make_dataflow_buffer_like(x, shape=(1, W), block_count=2)
    y_dfb = ttl.make_dataflow_buffer_like(y, shape=(1, W), block_count=2)

    @ttl.datamovement()
    def load():
        for c in range(blocks):
            with x_dfb.reserve() as blk:
                ttl.copy(x[0:1, c * W:(c + 1) * W], blk).wait()

    @ttl.compute()
    def work():
        for _ in range(blocks):
            with x_dfb.wait() as a, y_dfb.reserve() as b:
                b.store(a * FACTOR)

    @ttl.datamovement()
    def save():
        for c in range(blocks):
            with y_dfb.wait() as blk:
                ttl.copy(blk, y[0:1, c * W:(c + 1) * W]).wait()

# {tail}
'''


def run_script(path: Path, sweeps: list) -> int:
    """Load the script as a new process would, call its operation once; returns the sweeps it started."""
    before = len(sweeps)
    ns = runpy.run_path(str(path), run_name="tune_cached_script")
    x, y = tensors(rows=32)
    ns["scaled"](x, y)
    return len(sweeps) - before


def test_cache_hit_miss_and_invalidation_on_source_change(tmp_path: Path, tuning: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    sweeps = count_sweeps(monkeypatch)
    script = tmp_path / "scaled.py"
    script.write_text(SCRIPT.format(factor=2.0, tail="first version"))
    assert run_script(script, sweeps) == 1  # miss: tunes and stores
    entries = TuneCache(tuning).entries()
    assert len(entries) == 1 and entries[0].winner in ({"W": 1}, {"W": 2}, {"W": 4})
    assert entries[0].question["arch"] == "n150" and entries[0].question["key"] == {"x": "bfloat16[32x256]"}
    assert run_script(script, sweeps) == 0  # hit: a new process reuses the winner
    script.write_text(SCRIPT.format(factor=2.0, tail="an edit outside the program keeps the entry"))
    assert run_script(script, sweeps) == 0
    script.write_text(SCRIPT.format(factor=3.0, tail="FACTOR is read by the kernel"))
    assert run_script(script, sweeps) == 1  # miss: the program changed
    assert len(TuneCache(tuning).entries()) == 2
    assert TuneCache(tuning).clear() == 2 and run_script(script, sweeps) == 1


def test_cache_key_holds_arch_and_fidelity(tmp_path: Path, tuning: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sweeps = count_sweeps(monkeypatch)
    script = tmp_path / "scaled.py"
    script.write_text(SCRIPT.format(factor=2.0, tail=""))
    for arch, fidelity, started in (("n150", None, 1), ("p150", None, 1), ("p150", "LoFi", 1), ("p150", "LoFi", 0)):
        ttl.tune_options(arch=arch, fidelity=fidelity)
        assert run_script(script, sweeps) == started
    assert sorted((e.question["arch"], e.question["fidelity"]) for e in TuneCache(tuning).entries()) == [
        ("n150", "HiFi4"), ("p150", "HiFi4"), ("p150", "LoFi")]


# ------------------------------------------------------------------------------ shipping
def test_a_worker_rebuilds_the_operation_from_source_without_running_the_script(tmp_path: Path) -> None:
    script = tmp_path / "unguarded.py"
    marker = tmp_path / "ran"
    script.write_text(SCRIPT.format(factor=2.0, tail="") + f'''
x = ttnn.zeros((32, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
scaled(x, ttnn.zeros((32, 64), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT))
open({str(marker)!r}, "w").write("the script body ran past its first kernel call")
''')
    source = OperationSource(str(script), script.read_text(), "scaled")
    kdef = load_operation(source)
    assert kdef.name == "scaled" and kdef.grid == (1, 1)
    assert not marker.exists()
    assert load_operation(source) is kdef  # loaded once per process


def test_an_operation_defined_in_a_function_cannot_be_shipped() -> None:
    def factory():
        @ttl.autotune(configs=[ttl.Config(W=1)])
        @ttl.operation(grid=(1, 1))
        def local(x, y, *, W):
            pass
        return local

    x, y = tensors(rows=32)
    with pytest.raises(KernelError) as err:
        factory()(x, y)
    assert err.value.code == "E0604" and "defined inside a function" in str(err.value)


# ------------------------------------------------------------------------------ misuse
def decorate(**kwargs):
    @ttl.autotune(**kwargs)
    @ttl.operation(grid=(1, 1))
    def op(x, y, *, W):
        pass
    return op


@pytest.mark.parametrize("kwargs, message", [
    (dict(configs=[ttl.Config(V=1)]), "op() has no keyword parameter 'V' for the tuned hyper-parameters"),
    (dict(configs=[ttl.Config(W=1)], key=["z"]), "key names 'z', which is not an argument of op()"),
    (dict(configs=[ttl.Config(W=1)], key=["W"]), "key names 'W'"),
    (dict(configs=[]), "configs must be a non-empty list of ttl.Config or a ttl.SearchSpace"),
    (dict(configs=[ttl.Config(W=1)], verify=True), "verify=True needs reference="),
    (dict(configs=[ttl.Config(W=1)], arch="n9000"), "unknown architecture 'n9000'"),
])
def test_declaration_mistakes_are_reported_at_the_decorator(kwargs: dict, message: str) -> None:
    with pytest.raises(KernelError) as err:
        decorate(**kwargs)
    assert err.value.code == "E0601" and message in err.value.diagnostic.message
    span = err.value.diagnostic.span
    assert span.file == __file__ and span.line == decorate.__code__.co_firstlineno + 1


def test_search_space_mistakes() -> None:
    with pytest.raises(KernelError, match="constraint reads 'C', which the space does not define"):
        ttl.SearchSpace(A=[1, 2], where=lambda A, C: A < C)
    with pytest.raises(KernelError, match="hyper-parameter 'A' has no choices"):
        ttl.SearchSpace(A=[])


def test_search_space_is_lazy_and_filtered() -> None:
    space = ttl.SearchSpace(A=range(10 ** 6), B=[1, 2], where=lambda A, B: A % 2 == 0 and B == 2)
    first = [c for _, c in zip(range(3), space)]
    assert first == [ttl.Config(A=0, B=2), ttl.Config(A=2, B=2), ttl.Config(A=4, B=2)]


def test_passing_a_tuned_parameter_is_an_error() -> None:
    ns = load()
    x, y = tensors()
    with pytest.raises(KernelError) as err:
        ns["scale"](x, y, W=2)
    assert err.value.code == "E0601" and "W of scale() is chosen by @ttl.autotune" in str(err.value)
    assert err.value.diagnostic.span.file == __file__


def test_no_surviving_candidate_is_an_error_with_the_reasons() -> None:
    ns = load()
    x, y = tensors(rows=32)
    with pytest.raises(KernelError) as err:
        ns["unbuildable"](x, y)
    diag = err.value.diagnostic
    assert diag.code == "E0602"
    assert diag.message == "no candidate of unbuildable() could be estimated: 1 pruned, 1 failed, 0 lost"
    assert [n.message for n in diag.notes] == [
        f"W=3: pruned: assertion failed at {SCALE}:{UNBUILDABLE_ASSERT}: W must divide the columns",
        f"W=0: failed: ZeroDivisionError: integer modulo by zero at {SCALE}:{UNBUILDABLE_ASSERT}"]


# ------------------------------------------------------------------------------ the command line
@pytest.mark.usefixtures("fresh_process_state")
def test_tune_command_prints_tables_and_writes_json_and_plot(tmp_path: Path, tuning: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("rich")
    pytest.importorskip("matplotlib")
    from tilecraft import cli
    out_json, out_png = tmp_path / "sweep.json", tmp_path / "sweep.png"
    code = cli.main(["tune", str(TESTS / "tune" / "tune_script.py"), "--serial", "--arch", "p150", "--top", "3",
                     "--json", str(out_json), "--plot", str(out_png)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.startswith("scale(x=bfloat16[128x256]) on p150 at HiFi4: 18 candidates in ")
    assert "serially in this process" in out.splitlines()[0]
    assert "best 3 configurations" in out and "pruned at compile time (5)" in out and "failed (3)" in out
    [record] = json.loads(out_json.read_text())
    assert record["arch"] == "p150" and record["grid"] == [13, 10] and len(record["ranked"]) == 3
    assert out_png.read_bytes()[:4] == b"\x89PNG"
    assert len(TuneCache(tuning).entries()) == 1  # the winner is stored for later runs
    assert cli.main(["tune", "--cache", "list", "--cache-dir", str(tuning)]) == 0
    listing = capsys.readouterr().out
    assert listing.startswith(f"1 cached tuning result in {tuning}") and "scale(x=bfloat16[128x256]) on p150" in listing
    assert cli.main(["tune", "--cache", "clear", "--cache-dir", str(tuning)]) == 0
    assert "removed 1 cached tuning results" in capsys.readouterr().out
    assert TuneCache(tuning).entries() == []


@pytest.mark.usefixtures("fresh_process_state")
def test_tune_command_without_tuned_operations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tilecraft import cli
    script = tmp_path / "plain.py"
    script.write_text("print('nothing to tune')\n")
    assert cli.main(["tune", str(script), "--serial"]) == 0
    assert "the script called no @ttl.autotune operation" in capsys.readouterr().err


@pytest.mark.usefixtures("fresh_process_state")
def test_tune_command_fails_when_the_scripts_check_fails_without_values(capsys: pytest.CaptureFixture[str],
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --values the winner's launch computes nothing, so the script's check fails after the
    sweep: one diagnostic at the check, exit 1 (it once exited 0). With --values the check passes."""
    from tilecraft import cli
    # the script imports scale_op: a fresh module here, taken away afterwards with the winners it
    # remembers (a later test's script must sweep again)
    monkeypatch.setitem(sys.modules, "scale_op", None)
    del sys.modules["scale_op"]
    script = TESTS / "tune" / "checked_tune_script.py"
    assert cli.main(["tune", str(script), "--serial"]) == 1
    err = capsys.readouterr().err
    assert (f"{script}:{line_of('assert torch.equal', script)}:1: error[E0710]: the script raised AssertionError: "
            "y is not 2 x after its operations were tuned by tilecraft tune without --values, which computes no "
            "values, so checks on results fail") in err
    assert "hint: pass --values to simulate the launches" in err and "Traceback" not in err
    assert cli.main(["tune", str(script), "--serial", "--values"]) == 0, capsys.readouterr().err


def test_without_dask_the_tuner_runs_serially_and_says_so(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    from tilecraft.tune.runners import SerialRunner, open_runner
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    runner = open_runner(tune_options.TuneOptions(dask=True, workers=2))
    assert isinstance(runner, SerialRunner)
    assert capsys.readouterr().err == ("tilecraft: dask.distributed is not installed: pip install 'tilecraft[tune]'; "
                                       "evaluating candidates serially in this process\n")


def test_tune_options_reject_unknown_names() -> None:
    with pytest.raises(TypeError, match="unknown tuning option\\(s\\) wokers; known: accuracy, arch, cache_dir"):
        ttl.tune_options(wokers=2)


# ------------------------------------------------------------------------------ accuracy
MATMUL = TESTS / "tune" / "matmul_op.py"


def matmul_tensors() -> tuple:
    torch.manual_seed(3)
    a = ttnn.from_torch(torch.randn(32, 128), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
    b = ttnn.from_torch(torch.randn(128, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
    return a, b, ttnn.zeros((32, 32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)


def measured_errors(fidelity: str | None = None) -> list[float]:
    ns = load(MATMUL)
    with tune_options.using(accuracy=True, fidelity=fidelity, use_cache=False):
        ns["matmul"](*matmul_tensors())
    result = ns["matmul"].last
    if importlib.util.find_spec("rich") is not None:
        assert f"error at {fidelity or 'LoFi'}" in render_tables(result)
    return [o.error for o in result.ranked]


def test_accuracy_measures_each_ranked_candidate_at_the_fidelity() -> None:
    lofi, hifi4 = measured_errors(), measured_errors("HiFi4")
    assert len(lofi) == len(hifi4) == 2
    assert all(e > 0.01 for e in lofi)  # LoFi products keep 4 and 6 fraction bits: percent-level errors
    assert all(h < lo / 4 for h, lo in zip(hifi4, lofi))  # HiFi4 is left with the bfloat16 stores' rounding



def test_max_error_rejects_candidates_above_the_bound() -> None:
    worst, best = sorted(measured_errors(), reverse=True)
    ns = load(MATMUL)
    with tune_options.using(max_error=(worst + best) / 2, use_cache=False):
        ns["matmul"](*matmul_tensors())
    ranked = ns["matmul"].last.ranked
    rejected = [o for o in ranked if o.reason.startswith("rejected by --max-error: error ")]
    assert [o.error for o in rejected] == [worst] and "at LoFi is above" in rejected[0].reason
    ns = load(MATMUL)
    with tune_options.using(max_error=best / 2, use_cache=False), pytest.raises(KernelError) as info:
        ns["matmul"](*matmul_tensors())
    assert info.value.diagnostics[0].code == "E0640"
    assert "none of the 2 best candidates of matmul() is within --max-error" in info.value.diagnostics[0].message
