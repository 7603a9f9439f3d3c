"""The autotuner on Dask: the same tables as a serial sweep, dead workers, unreachable schedulers.

One LocalCluster of two single-threaded worker processes serves the module (the machine is
shared: small clusters, short timeouts). The test whose candidate kills two workers in a row
waits for the nannies to restart them and is marked slow.
"""

from __future__ import annotations

import os
import runpy
import socket
import time
from pathlib import Path
from typing import Iterator

import pytest

pytest.importorskip("distributed")
pytest.importorskip("rich")

from tests.paths import TESTS  # noqa: E402
import tilecraft.ttnn as ttnn  # noqa: E402
from tilecraft import cli, options as run_options, session  # noqa: E402
from tilecraft.tune import options as tune_options  # noqa: E402
from tilecraft.tune.report import render_tables  # noqa: E402
from tilecraft.tune.runners import DaskRunner, SchedulerUnreachable, SerialRunner  # noqa: E402
from tilecraft.tune.sweep import run_sweep  # noqa: E402

CONNECT_TIMEOUT = 3.0


@pytest.fixture(scope="module")
def cluster() -> DaskRunner:
    runner = DaskRunner.start(workers=2, scheduler=None, timeout=30)
    yield runner
    runner.close()


@pytest.fixture(autouse=True)
def tuning(tmp_path: Path) -> Iterator[None]:
    with tune_options.using(dask=False, cache_dir=tmp_path), session.using(run_options.RunOptions()):
        yield


def sweep(op_name: str, runner, script: str = "scale_op.py", **kwargs):
    """Sweep the operation of a tests/tune script for a 128 x 256 tensor with ``runner``."""
    ns = runpy.run_path(str(TESTS / "tune" / script), run_name=f"dask_{op_name}")
    op = ns[op_name]
    x = ttnn.zeros((128, 256), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
    y = ttnn.zeros((128, 256), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT)
    request = op.setting((x, y), {}).request
    return run_sweep(request, op.candidates, runner, top=3, **kwargs)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_dask_sweep_gives_the_serial_tables(cluster: DaskRunner) -> None:
    serial = sweep("scale", SerialRunner())
    distributed = sweep("scale", cluster)
    assert distributed.runner.startswith("a Dask LocalCluster of 2 worker processes")
    assert render_tables(distributed) == render_tables(serial)
    for status in ("pruned", "failed"):
        assert [(o.params, o.reason) for o in distributed.with_status(status)] == \
            [(o.params, o.reason) for o in serial.with_status(status)]
    assert [(o.params, o.cycles) for o in distributed.kept] == [(o.params, o.cycles) for o in serial.kept]


def test_a_cluster_reached_by_address_gives_the_same_tables(cluster: DaskRunner) -> None:
    remote = DaskRunner.start(workers=None, scheduler=cluster.cluster.scheduler_address, timeout=CONNECT_TIMEOUT)
    try:
        assert remote.description.startswith(f"the Dask cluster at {cluster.cluster.scheduler_address}")
        assert render_tables(sweep("scale", remote)) == render_tables(sweep("scale", SerialRunner()))
    finally:
        remote.close()


def test_unreachable_scheduler_is_a_clear_error_not_a_hang() -> None:
    address = f"tcp://127.0.0.1:{free_port()}"
    start = time.monotonic()
    with pytest.raises(SchedulerUnreachable) as err:
        DaskRunner.start(workers=None, scheduler=address, timeout=2)
    assert time.monotonic() - start < 20
    assert err.value.code == "E0605" and f"cannot reach the Dask scheduler at {address} within 2 s" in str(err.value)


def test_unreachable_scheduler_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    address = f"tcp://127.0.0.1:{free_port()}"
    code = cli.main(["tune", str(TESTS / "tune" / "tune_script.py"), "--scheduler", address, "--connect-timeout", "2"])
    err = capsys.readouterr().err
    assert code == 1
    assert "error[E0605]: cannot reach the Dask scheduler at" in err and "tune_script.py" in err
    assert "hint: start one with `dask scheduler`" in err


def test_a_worker_killed_during_the_sweep_does_not_change_the_result(cluster: DaskRunner) -> None:
    pids = list(cluster.client.run(os.getpid).values())
    killed: list[int] = []
    original = cluster.run

    def run_and_kill(tasks, make_job, done):
        def done_then_kill(task, outcome):
            if not killed:
                os.kill(pids[0], 9)
                killed.append(pids[0])
            done(task, outcome)
        original(tasks, make_job, done_then_kill)

    cluster.run = run_and_kill
    try:
        distributed = sweep("scale", cluster)
    finally:
        del cluster.run
    assert killed
    assert not distributed.with_status("lost")
    assert render_tables(distributed) == render_tables(sweep("scale", SerialRunner()))


@pytest.mark.slow
def test_a_candidate_that_kills_its_worker_is_lost_and_the_sweep_finishes(cluster: DaskRunner) -> None:
    result = sweep("fragile", cluster, script="killer_op.py")
    by_w = {o.params["W"]: o for o in result.outcomes}
    assert by_w[2].status == "lost" and "the worker evaluating it died" in by_w[2].reason
    assert by_w[1].status == "ok" and by_w[4].status == "ok"
    assert "lost (worker died) (1)" in render_tables(result)


@pytest.mark.usefixtures("fresh_process_state")
def test_tune_command_starts_a_local_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["tune", str(TESTS / "tune" / "tune_script.py"), "--workers", "1", "--top", "2"])
    out, err = capsys.readouterr()
    assert code == 0, err
    heading = out.splitlines()[0]
    assert heading.startswith("scale(x=bfloat16[128x256]) on n150 at HiFi4: 18 candidates in ")
    assert heading.endswith("a Dask LocalCluster of 1 worker process")
    assert "best 2 configurations" in out


@pytest.mark.usefixtures("fresh_process_state")
def test_a_script_in_the_published_spelling_tunes_on_dask_workers(cluster: DaskRunner,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """The workers run the script's text with ``import ttl`` / ``import ttnn`` served as the
    command serves them (they once failed every candidate: No module named 'ttnn')."""
    script = TESTS / "tune" / "published_tune_script.py"
    code = cli.main(["tune", str(script), "--scheduler", cluster.cluster.scheduler_address, "--top", "2"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.splitlines()[0].startswith("doubled(x=bfloat16[128x256]) on n150 at HiFi4: 4 candidates in ")
    assert out.splitlines()[-1] == "4 candidates: 3 estimated (2 ranked, 1 slower than the top 2), 1 pruned, " \
        "0 failed, 0 lost"
    assert "W must divide the columns" in out and "ModuleNotFoundError" not in out + err
