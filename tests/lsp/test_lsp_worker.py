"""The warm worker (tilecraft/lsp/worker.py) as the language server drives it: a run per request in
a forked child, from the editor's text, in the three modes, and stopped by its time limit, its
memory limit or a cancellation (the child is really gone)."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import AsyncIterator

import pytest
import pytest_asyncio

pytest.importorskip("pygls", reason="the language server needs the lsp extra: pip install -e '.[lsp]'")

from tests.paths import EXAMPLES, ROOT, TESTS
from tilecraft.lsp.runner import RunRequest  # noqa: E402
from tilecraft.lsp.workerclient import RunLimits, RunResult, WorkerClient  # noqa: E402

MISUSE = TESTS / "misuse"
LIMITS = RunLimits(timeout_s=20, memory_mb=4096)


def marker_line(path: Path, marker: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if line.endswith(f"# {marker}"))


pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def worker() -> AsyncIterator[WorkerClient]:
    """One worker for the module, as the language server keeps one for its lifetime."""
    client = WorkerClient()
    yield client
    await client.close()


async def run(worker: WorkerClient, path: Path, mode: str, text: str | None = None,
              limits: RunLimits = LIMITS) -> RunResult:
    return await worker.run(RunRequest(str(path), path.read_text() if text is None else text, mode), limits)


def codes(result: RunResult) -> list[str]:
    return [e["diagnostic"]["code"] for e in result.of_kind("diagnostic")]


async def test_compile_mode_reports_a_compile_error_at_its_span(worker: WorkerClient) -> None:
    text = (EXAMPLES / "elementwise_1_single_tile.py").read_text()
    broken = text.replace("* c_blk)", "* c_blk + d)")
    result = await run(worker, EXAMPLES / "elementwise_1_single_tile.py", "compile", broken)
    assert result.status == "done"
    (diag,) = [e["diagnostic"] for e in result.of_kind("diagnostic")]
    line = next(i for i, s in enumerate(broken.splitlines(), 1) if "c_blk + d)" in s)
    assert diag["code"] == "E0102" and "'d'" in diag["message"]
    # the buffer, not the file on disk, is what ran: the span points at the edit
    assert (diag["span"]["line"], diag["span"]["col"]) == (line, broken.splitlines()[line - 1].index("d)") + 1)


async def test_deadlocks_are_found_by_the_sanitizer_not_by_the_compile_check(worker: WorkerClient) -> None:
    path = MISUSE / "deadlock_circular.py"
    assert codes(await run(worker, path, "compile")) == []
    sanitized = await run(worker, path, "sanitize")
    assert codes(sanitized) == ["E2110"]
    (diag,) = [e["diagnostic"] for e in sanitized.of_kind("diagnostic")]
    assert diag["span"]["line"] == marker_line(path, "BLOCKED-COMPUTE")
    assert {n["span"]["line"] for n in diag["notes"] if n["span"]} == {
        marker_line(path, "BLOCKED-COMPUTE"), marker_line(path, "BLOCKED-READER")}


async def test_the_profile_reports_the_per_line_costs_of_the_file(worker: WorkerClient) -> None:
    result = await run(worker, EXAMPLES / "matmul_2_multitile_block.py", "profile")
    (profile,) = result.of_kind("profile")
    assert profile["program"] == "matmul_bias" and profile["cycles"] > 0 and profile["source"].startswith("@ttl.")
    assert profile["lines"] and all(c["busy"] >= 0 and 0 <= c["critical"] <= 1 for c in profile["lines"])


async def test_a_syntax_error_is_reported_at_its_column(worker: WorkerClient) -> None:
    text = "import ttl\ny = 'é' + )\n"
    result = await run(worker, ROOT / "scratch.py", "compile", text)
    (diag,) = [e["diagnostic"] for e in result.of_kind("diagnostic")]
    assert diag["code"] == "E0601" and diag["message"] == "syntax error: unmatched ')'"
    # spans count UTF-8 bytes, as the AST does: ')' is the 11th character and the 12th byte
    assert (diag["span"]["line"], diag["span"]["col"]) == (2, 12)


async def test_script_errors_before_a_launch_are_reported_and_after_it_only_by_the_sanitizer(
        worker: WorkerClient, tmp_path: Path) -> None:
    before = "import ttl\nvalue = {}['missing']\n"
    result = await run(worker, tmp_path / "s.py", "compile", before)
    (diag,) = [e["diagnostic"] for e in result.of_kind("diagnostic")]
    assert diag["code"] == "E0601" and "KeyError" in diag["message"] and diag["span"]["line"] == 2
    # after the launch the compile check computed no values: the script's own check means nothing
    text = (EXAMPLES / "elementwise_1_single_tile.py").read_text()
    assert codes(await run(worker, EXAMPLES / "elementwise_1_single_tile.py", "compile", text)) == []
    failing = text.replace("torch.relu(", "1 + torch.relu(")
    sanitized = await run(worker, EXAMPLES / "elementwise_1_single_tile.py", "sanitize", failing)
    assert codes(sanitized) == ["E0601"]
    assert "AssertionError" in sanitized.of_kind("diagnostic")[0]["diagnostic"]["message"]


async def test_a_run_past_its_time_limit_is_stopped_and_keeps_what_it_found(worker: WorkerClient) -> None:
    path = TESTS / "lsp" / "slow_when_simulated.py"
    result = await run(worker, path, "sanitize", limits=RunLimits(timeout_s=2))
    # stopped at its 2 s limit, not at the 20 s default (the margin is for a loaded machine)
    assert result.status == "timeout" and 2000 <= result.elapsed_ms < 15000
    assert [e["program"] for e in result.of_kind("launch")] == ["copy_tile"]


async def test_a_run_past_its_memory_limit_is_stopped(worker: WorkerClient, tmp_path: Path) -> None:
    text = "import ttl\nhog = bytearray(8 * 2**30)\n"
    result = await run(worker, tmp_path / "hog.py", "compile", text, RunLimits(timeout_s=20, memory_mb=512))
    assert result.status == "memory"


def worker_children(worker: WorkerClient) -> list[int]:
    assert worker.process is not None
    pid = worker.process.pid
    out = []
    for entry in os.listdir("/proc"):
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except (OSError, ValueError):
            continue
        if entry.isdigit() and int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.append(int(entry))
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
async def test_cancelling_a_run_kills_its_child(worker: WorkerClient) -> None:
    path = TESTS / "lsp" / "slow_when_simulated.py"
    task = asyncio.create_task(run(worker, path, "sanitize"))
    for _ in range(600):  # until the child exists (bounds are generous: CI's two cores run the suite beside)
        await asyncio.sleep(0.05)
        if worker.process is not None and worker_children(worker):
            break
    await asyncio.sleep(1.0)  # the child is in the script's sleep now (it would sleep a minute)
    assert len(worker_children(worker)) == 1
    task.cancel()
    for _ in range(200):  # killed at once; reaped as soon as the worker runs again
        await asyncio.sleep(0.05)
        if not worker_children(worker):
            break
    assert worker_children(worker) == []


def process_state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
async def test_a_cancel_that_meets_the_end_of_its_run_leaves_the_worker_serving(worker: WorkerClient) -> None:
    """The worker sees a run's end and its cancellation in one wake-up: it must drop the run once
    (it once read the closed pipe again and died). Stopping the worker makes that happen for sure."""
    process = await worker.ensure_started()
    task = asyncio.create_task(run(worker, ROOT / "s.py", "compile", "import ttl, time\ntime.sleep(1.0)\n"))
    for _ in range(200):
        await asyncio.sleep(0.02)
        if children := worker_children(worker):
            break
    os.kill(process.pid, signal.SIGSTOP)
    try:
        for _ in range(250):  # the child finishes while the worker is stopped: its end waits to be read
            if process_state(children[0]) == "Z":
                break
            await asyncio.sleep(0.02)
        assert process_state(children[0]) == "Z"
        task.cancel()  # and now the cancellation waits beside it
        await asyncio.sleep(0.2)
    finally:
        os.kill(process.pid, signal.SIGCONT)
    after = await run(worker, TESTS / "lsp" / "helper_kernel.py", "compile")
    assert after.status == "done" and worker.process is process and process.returncode is None


async def test_the_sanitizer_computes_with_the_numerics_it_is_given(worker: WorkerClient) -> None:
    # the example's check made exact against the ideal arithmetic's bits: it holds with the default
    # numerics and fails with the device's (the FPU's subtraction and the packer's ties away from zero)
    path = EXAMPLES / "elementwise_1_single_tile.py"
    text = path.read_text().replace("assert torch.allclose(got, want, rtol=1e-2, atol=1e-2)",
                                    "assert torch.equal(got, want.bfloat16().float())")
    assert "torch.equal(got" in text

    async def sanitized(numerics: str) -> list[str]:
        return codes(await worker.run(RunRequest(str(path), text, "sanitize", numerics=numerics), LIMITS))

    assert await sanitized("ideal") == []
    assert await sanitized("device") == ["E0601"]


async def test_a_single_threaded_operation_is_checked_at_its_own_lines(worker: WorkerClient) -> None:
    """The threads the compiler writes for it are compiled from the editor's text, and a mistake in the
    single-threaded body is reported where it is written (docs/language.md section 15)."""
    path = EXAMPLES / "single_thread_eltwise.py"
    broken = path.read_text().replace("ttl.math.sqrt(x * x + z * z)", "ttl.math.sqrt(x * x + w)")
    result = await run(worker, path, "compile", broken)
    assert result.status == "done"
    (diag,) = [e["diagnostic"] for e in result.of_kind("diagnostic")]
    line = next(i for i, s in enumerate(broken.splitlines(), 1) if "+ w)" in s)
    assert diag["code"] == "E0102" and "'w'" in diag["message"]
    assert (diag["span"]["line"], diag["span"]["col"]) == (line, broken.splitlines()[line - 1].index("w)") + 1)


async def test_the_l1_budget_is_the_launchs_own(worker: WorkerClient) -> None:
    """The editor's L1 check is the one the launch makes (``metal/lower.program_l1_need``, issue 22):
    the same code, the same byte count and the same line as ``tilecraft run`` reports in
    tests/end_to_end/test_misuse.py."""
    path = MISUSE / "l1_overflow.py"
    result = await run(worker, path, "compile")
    (diag,) = [e["diagnostic"] for e in result.of_kind("diagnostic")]
    assert diag["code"] == "E0401" and "4198400 B" in diag["message"] and "wormhole_b0" in diag["message"]
    assert path.read_text().splitlines()[diag["span"]["line"] - 1].lstrip().startswith("@ttl.kernel")
