"""The misuse catalogue: one small broken kernel per mistake, each with its exact diagnostic.

Every kernel lives in ``tests/misuse/NAME.py`` (a real file: the front end reads thread source
with ``inspect``) and launches itself at import. The line of the primary span is the line that
carries the case's marker comment (``# ERROR-HERE`` unless said otherwise), so no line number is
written down here; the column is where the case's ``at`` text starts on that line.

Each case is checked twice: in-process (the :class:`KernelError` and its diagnostic) and through
``tilecraft run`` (status 1, ``file:line:col: error[CODE]`` on stderr, no Python traceback).
"""

from __future__ import annotations

import json
import re
import runpy
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.paths import TESTS
import tilecraft
from tilecraft.cli import main
from tilecraft.diagnostics import Diagnostic, KernelError

MISUSE = TESTS / "misuse"
TILECRAFT_DIR = str(Path(tilecraft.__file__).parent)
TWO_CORES = ((0, 0), (1, 0))


@dataclass(frozen=True)
class Case:
    name: str  # tests/misuse/<name>.py
    code: str
    at: str  # the primary span starts where this text starts on the marker line
    names: tuple[str, ...] = ()  # the message names these (buffer, tensor, core, ...)
    hints: tuple[str, ...] = ()  # the hint says these (the fix it suggests)
    marker: str = "ERROR-HERE"
    #: (thread, marker) of every thread a deadlock leaves blocked, on each core in ``cores``
    blocked: tuple[tuple[str, str], ...] = ()
    cores: tuple[tuple[int, int], ...] = TWO_CORES

    @property
    def path(self) -> Path:
        return MISUSE / f"{self.name}.py"

    def line(self, marker: str | None = None) -> int:
        return line_of(self.path, marker or self.marker)

    def col(self) -> int:
        text = source_line(self.path, self.line())
        assert text.count(self.at) == 1, f"'{self.at}' must occur once on the marker line"
        return text.index(self.at) + 1


def source_line(path: Path, line: int) -> str:
    return path.read_text().splitlines()[line - 1]


def line_of(path: Path, marker: str) -> int:
    """The 1-based line carrying ``# MARKER`` (exactly one in the file)."""
    lines = [i for i, text in enumerate(path.read_text().splitlines(), 1) if text.endswith(f"# {marker}")]
    assert len(lines) == 1, f"{path.name}: expected one '# {marker}' line, found {lines}"
    return lines[0]


CASES = [
    # ---------------------------------------------------------------- buffer protocol
    Case("pop_without_wait", "E1101", "cb.pop()", ("pop()", "'cb'", "core (0, 0)")),
    Case("push_without_reserve", "E1102", "cb.push()", ("push()", "'cb'", "core (0, 0)")),
    Case("store_after_with", "E1103", "blk.store", ("released", "'out'")),
    Case("store_after_push", "E1103", "blk.store", ("released", "'out'")),
    Case("push_before_copy_waited", "E1104", "blk.push()", ("pushed", "copy", "'cb'")),
    Case("copy_unwaited_at_with_end", "E1104", "with", ("pushed", "copy", "'cb'")),
    Case("copy_never_waited", "E1104", "ttl.copy", ("never waited", "'cb'", "core (0, 0)")),
    Case("block_held_at_end", "E1105", "cb.reserve()", ("never pushed", "'cb'", "core (0, 0)")),
    # pushing an unwritten block only warns (W1108); reading it is the error
    Case("push_unwritten", "E1109", "ttl.copy", ("before anything was written", "'cb'")),
    Case("read_unwritten", "E1109", "o.store", ("before anything was written", "'scratch'")),
    # ---------------------------------------------------------------- deadlocks
    Case("deadlock_circular", "E2110", "a.wait()", ("2 threads", "in a cycle", "on each of 2 cores"), marker="BLOCKED-COMPUTE",
         blocked=(("compute", "BLOCKED-COMPUTE"), ("reader", "BLOCKED-READER"))),
    # the notes count the cores instead of naming each (see the test below)
    Case("deadlock_every_core", "E2110", "a.wait()", ("on each of 64 cores",), marker="BLOCKED-COMPUTE"),
    Case("deadlock_over_reserve", "E2110", "cb.reserve()", ("2 threads", "in a cycle"), marker="BLOCKED-READER",
         hints=("holds 2 blocks (block_count)", "raise block_count"),
         blocked=(("reader", "BLOCKED-READER"), ("writer", "BLOCKED-WRITER"))),
    Case("deadlock_starvation", "E2111", "cb.wait()", ("'writer'", "'cb'", "no thread will push"),
         marker="BLOCKED-WRITER", blocked=(("writer", "BLOCKED-WRITER"),)),
    Case("deadlock_producer_starves", "E2111", "cb.reserve()", ("'reader'", "'cb'", "no thread will pop"),
         marker="BLOCKED-READER", blocked=(("reader", "BLOCKED-READER"),)),
    # ---------------------------------------------------------------- copies and slices
    Case("copy_shape_static", "E0106", "ttl.copy", ("(2, 1)", "(1, 1)")),
    Case("copy_shape_dynamic", "E0106", "ttl.copy", ("[0:2, 0:1]", "(2, 1)", "(1, 1)")),
    Case("slice_out_of_bounds", "E1107", "ttl.copy", ("[2:3, 0:1]", "'x'", "(2, 2)")),
    Case("float_tensor_index", "E0104", "1 / 2", ("integers", "0.5")),
    # ---------------------------------------------------------------- thread kinds
    Case("copy_in_compute", "E0003", "ttl.copy", ("ttl.copy", "data movement")),
    Case("store_in_datamovement", "E0003", "blk.store", ("store()", "compute")),
    Case("semaphore_in_compute", "E0003", "sem.wait_for", ("wait_for()", "data movement")),
    # ---------------------------------------------------------------- pipes and semaphores
    Case("pipe_never_received_static", "E0107", "ttl.copy", ("pipe", "out of")),
    Case("pipe_block_shapes_differ", "E0108", "ttl.copy", ("(1, 1)", "(1, 2)")),
    Case("pipe_receiver_starves", "E2112", "ttl.copy", ("core (0, 0)", "'mover'", "(1, 0) -> (0, 0)"),
         marker="RECEIVE-HERE", blocked=(("mover", "RECEIVE-HERE"),), cores=((0, 0),)),
    Case("pipe_sender_blocked", "E2112", "ttl.copy", ("core (1, 0)", "'mover'", "(1, 0) -> (0, 0)"),
         marker="SEND-HERE", blocked=(("mover", "SEND-HERE"),), cores=((1, 0),)),
    # a self-unicast pipe whose receive is waited before the send is started (issue 22, 5b; the
    # receive started first and waited after the send's copy runs: tests/published/self_pipe_*)
    Case("pipe_self_receive_before_send", "E2110", "ttl.copy", ("1 thread waits for itself", "in a cycle"),
         blocked=(("mover", "ERROR-HERE"),), cores=((0, 0),)),
    Case("pipe_message_never_received", "E2114", "ttl.Pipe", ("core (0, 0)", "(1, 0) -> (0, 0)"),
         marker="PIPE-HERE"),
    Case("semaphore_never_satisfied", "E2113", "sem.wait_for", ("'sem'", "core (0, 0)", "stays 3"),
         blocked=(("barrier", "ERROR-HERE"),), cores=((0, 0),)),
    # ---------------------------------------------------------------- allocation
    Case("l1_overflow", "E0401", "@ttl.kernel", ("'kern'", "4198400 B", "wormhole_b0"), hints=("lower block_count",)),
    Case("l1_fits_blackhole_only", "E0401", "@ttl.kernel", ("1433600 B", "wormhole_b0")),
    # at the first buffer beyond the count (the 33rd, made on the marked line)
    Case("too_many_buffers", "E0410", "ttl.make_dataflow_buffer_like",
         ("'kern'", "41 circular buffers", "wormhole_b0 core has 32")),
    # the buffers the compiler adds count too, and the message names them
    Case("too_many_buffers_with_pipe", "E0410", "@ttl.operation",
         ("'kern'", "33 circular buffers", "2 of them added by the compiler", "pipenet0_landing", "pipenet0_flags",
          "wormhole_b0 core has 32")),
    # ---------------------------------------------------------------- the Python subset
    Case("unsupported_listcomp", "E0101", "[i for", ("ListComp",)),
    Case("unsupported_try", "E0101", "try:", ("Try",)),
    Case("unsupported_lambda", "E0101", "lambda", ("Lambda",)),
    Case("unsupported_import", "E0101", "import math", ("Import",)),
    Case("undefined_name", "E0102", "column", ("'column'",)),
    Case("matmul_batch_dims_differ", "E0105", "x @ w", ("batch dimensions", "(2, 1, 1) @ (3, 1, 1)")),
    Case("block_shape_mismatch", "E0105", "a + b", ("(1, 1)", "(2, 2)")),
    # a rounding point (.to) names a format it rounds to: bfloat16 only
    Case("round_to_float32", "E0130", "ttnn.float32", ("bfloat16 only", "float32"), ("already fp32",)),
    Case("round_to_not_a_format", "E0130", "16", ("data format", "16"), ("ttnn.bfloat16",)),
    Case("grid_size_zero_dims", "E0201", "ttl.grid_size", ("dims", "0")),
    Case("division_by_zero", "E1199", "1 // cx", ("ZeroDivisionError", "core (0, 0)", "'reader'")),
    Case("division_by_zero_unused", "E1199", "10 // node", ("ZeroDivisionError", "core (0, 0)", "'reader'")),
    Case("while_never_ends", "E2115", "while", ("never ends", "iteration")),
    # ---------------------------------------------------------------- blocks and their units
    Case("store_tiles_into_row_major", "E0105", "out.store", ("(1, 1) tiles", "(1, 1) elements (row-major)")),
    Case("row_major_with_tiles", "E0105", "x + s", ("(1, 1) tiles", "(1, 1) elements (row-major)", "'add'")),
    Case("local_block_changes_shape", "E0105", "acc = x * 2", ("'acc'", "(1, 1)", "(1, 2)")),
    Case("elu_without_alpha", "E0104", "ttl.math.elu", ("elu", "alpha")),
    # Python's max/min compare numbers; the elementwise ones are ttl.math's
    Case("python_max_of_blocks", "E0104", "max(x, z)", ("max()", "block"), hints=("ttl.math.max",)),
    Case("math_misspelt", "E0104", "ttl.math.expp", ("ttl.math", "'expp'"), hints=("did you mean 'exp'",)),
    Case("fill_of_wrong_shape_into_row_major", "E0105", "out.store", ("(9, 9)", "(5, 6)")),
    # ---------------------------------------------------------------- kernel scope
    Case("pipe_outside_grid_unused", "E0203", "ttl.Pipe", ("(2, 0)", "outside the grid (2, 2)")),
    Case("remote_semaphore_wrong_rank", "E0203", "sem.get_remote", ("2 integers", "(1, 0, 0)")),
    Case("return_in_helper_loop", "E0101", "return i", ("loop",)),
    Case("return_on_some_paths", "E0101", "def share", ("share()", "some paths")),
    Case("print_two_blocks", "E0104", "b)", ("one block",)),
    Case("pipe_dst_of_multicast", "E0104", "pipe.dst", ("multicast",)),
    Case("squeeze_wide_dim", "E0105", "ttl.block.squeeze", ("dim 1", "(1, 2)")),
    Case("too_many_threads", "E0204", "@ttl.datamovement()", ("3 datamovement threads", "'first'", "'second'", "'third'")),
    Case("copy_from_pipe_net", "E0107", "ttl.copy", ("net.if_src",)),
    # ---------------------------------------------------------------- what 1.1.6 also rejects (tt-lang's own tests)
    Case("copy_block_into_itself", "E0104", "ttl.copy", ("into itself",)),
    Case("node_outside_operation", "E0301", "ttl.node", ("ttl.node", "inside a kernel function")),
    Case("thread_helper_default_not_literal", "E0101", "SCALE", ("defined in a thread", "literals")),
    Case("assert_at_run_time", "E0101", "node < 2", ("assert", "run time")),
    Case("assert_fails", "E0104", "blk.shape == (1, 1)", ("assertion failed", "one tile per block")),
    # 1.1.6 runs it; tilecraft compiled the first iteration's `acc is None` into every iteration
    Case("loop_reads_none_accumulator", "E0102", "acc is None", ("'acc'", "None before this loop")),
    Case("loop_carries_buffer_block", "E0102", "blk)", ("'blk'", "carried", "block of a dataflow buffer")),
    Case("broadcast_dims_as_written", "E0105", "ttl.block.broadcast", ("(2, 1)", "dims [0]", "(2, 2)")),
]
BY_NAME = {case.name: case for case in CASES}


pytestmark = pytest.mark.usefixtures("fresh_process_state")


def diagnose(case: Case) -> Diagnostic:
    """Run the case in-process; it must fail with one diagnostic."""
    with pytest.raises(KernelError) as info:
        runpy.run_path(str(case.path), run_name="__main__")
    assert len(info.value.diagnostics) == 1
    return info.value.diagnostic


def run_cli(capsys, *args: str) -> tuple[int, str]:
    status = main(["run", *args])
    return status, capsys.readouterr().err


def assert_no_traceback(stderr: str) -> None:
    assert "Traceback (most recent call last)" not in stderr
    assert TILECRAFT_DIR not in stderr, "an internal tilecraft path leaked into the report"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_misuse_is_diagnosed_at_its_line(case: Case, capsys) -> None:
    diag = diagnose(case)
    assert diag.code == case.code, diag.render()
    assert (diag.span.file, diag.span.line, diag.span.col) == (str(case.path), case.line(), case.col()), \
        diag.render()
    for name in case.names:
        assert name in diag.message, f"{name!r} missing from: {diag.message}"
    for text in case.hints:
        assert text in (diag.hint or ""), f"{text!r} missing from the hint: {diag.hint}"

    status, stderr = run_cli(capsys, str(case.path))
    assert status == 1
    assert f"{case.path}:{case.line()}:{case.col()}: error[{case.code}]: " in stderr
    assert source_line(case.path, case.line()) in stderr  # the excerpt with the caret
    assert_no_traceback(stderr)


DEADLOCKS = [c for c in CASES if c.blocked]


@pytest.mark.parametrize("case", DEADLOCKS, ids=[c.name for c in DEADLOCKS])
def test_deadlock_notes_list_every_blocked_thread(case: Case) -> None:
    diag = diagnose(case)
    expected = {(core, thread, case.line(marker)) for core in case.cores for thread, marker in case.blocked}
    assert blocked_threads(diag) == expected, diag.render()


def cores_in(text: str) -> list[tuple[int, int]]:
    return [(int(x), int(y)) for x, y in re.findall(r"\((\d+), (\d+)\)", text)]


def blocked_threads(diag: Diagnostic) -> set[tuple[tuple[int, int], str, int]]:
    """(core, thread, line) of every blocked thread a deadlock diagnostic names: the steps of a
    cycle (and the other cores the same cycle stands on) and the notes grouping threads by state."""
    found: set[tuple[tuple[int, int], str, int]] = set()
    cycle: list[tuple[str, int]] = []
    for note in diag.notes:
        step = re.match(r"cycle, step \d+: core (\(\d+, \d+\)) \w+ thread '(\w+)' waits in ", note.message)
        same = re.match(r"the same cycle stands on (.*)", note.message)
        group = re.match(r"(\d+ )?cores? ([^']*) \w+ thread '(\w+)' waits in ", note.message)
        if step:
            cycle.append((step[2], note.span.line))
            found.add((cores_in(step[1])[0], step[2], note.span.line))
        elif same:
            found |= {(core, thread, line) for core in cores_in(same[1]) for thread, line in cycle}
        elif group:
            found |= {(core, group[3], note.span.line) for core in cores_in(group[2])}
    return found


def test_a_deadlock_on_many_cores_is_one_cycle_and_a_count() -> None:
    """Item 11 of the conformance issue: 64 nodes in the same circular wait read as one cycle."""
    diag = diagnose(BY_NAME["deadlock_every_core"])
    assert diag.code == "E2110" and "on each of 64 cores" in diag.message
    case = BY_NAME["deadlock_every_core"]
    assert [(n.message.split(":")[0], n.span and n.span.line) for n in diag.notes] == [
        ("cycle, step 1", case.line("BLOCKED-COMPUTE")), ("cycle, step 2", case.line("BLOCKED-READER")),
        ("the same cycle stands on 63 cores", None)]
    assert len(diag.render().splitlines()) < 15


def test_a_full_buffer_names_the_line_that_holds_its_blocks() -> None:
    case = BY_NAME["deadlock_over_reserve"]
    diag = diagnose(case)
    held = [n for n in diag.notes if "is full" in n.message]
    assert held and held[0].span.line == case.line("FIRST-RESERVE")
    assert "2 of its 2 blocks are reserved and not pushed yet" in held[0].message


def test_l1_overflow_notes_name_every_buffer_and_its_bytes() -> None:
    case = BY_NAME["l1_overflow"]
    notes = diagnose(case).notes
    assert [(n.message.split(":")[0], n.span.line) for n in notes] == [
        ("buffer 'big'", case.line("BIG-HERE")), ("buffer 'small'", case.line("SMALL-HERE"))]
    assert "2 x 2097152 B = 4194304 B" in notes[0].message
    assert "2 x 2048 B = 4096 B" in notes[1].message


def test_l1_limit_follows_the_arch_option(capsys) -> None:
    too_big, near_limit = BY_NAME["l1_overflow"], BY_NAME["l1_fits_blackhole_only"]
    status, stderr = run_cli(capsys, str(too_big.path), "--arch", "blackhole")
    assert status == 1
    assert f"{too_big.path}:{too_big.line()}:{too_big.col()}: error[E0401]" in stderr and "blackhole has" in stderr
    assert_no_traceback(stderr)
    # 1433600 B of buffers: over wormhole_b0's L1, within blackhole's (1536 KiB)
    assert run_cli(capsys, str(near_limit.path), "--arch", "blackhole") == (0, "")


@pytest.mark.parametrize("name", ["too_many_buffers", "too_many_buffers_with_pipe"])
def test_buffer_count_follows_the_arch_option(name: str, capsys) -> None:
    """A Blackhole core has 64 circular buffers: the same programs run there (and check their result)."""
    assert run_cli(capsys, str(BY_NAME[name].path), "--arch", "blackhole") == (0, "")


def test_pipe_shape_mismatch_points_at_the_receiver_too() -> None:
    case = BY_NAME["pipe_block_shapes_differ"]
    (note,) = diagnose(case).notes
    assert note.message == "received here" and note.span.line == case.line("RECEIVED-HERE")


def test_json_diagnostics(capsys) -> None:
    case = BY_NAME["deadlock_starvation"]
    status, stderr = run_cli(capsys, str(case.path), "--diagnostics-format", "json")
    assert status == 1
    (diag,) = json.loads(stderr)["diagnostics"]
    assert diag["code"] == "E2111" and diag["severity"] == "error"
    assert diag["span"] == {"file": str(case.path), "line": case.line(), "col": case.col(),
                            "end_col": case.col() + len("cb.wait()")}
    assert [(n["span"]["line"], n["message"].split(" waits")[0]) for n in diag["notes"]] == [
        (case.line(), "cores (0, 0), (1, 0) datamovement thread 'writer'")]
    assert "loop counts" in diag["hint"]


def test_every_kernel_file_is_a_case() -> None:
    assert {p.stem for p in MISUSE.glob("*.py")} == set(BY_NAME)


BUFFER_DEADLOCKS = [
    pytest.param(c, marks=pytest.mark.xfail(reason="the lowering gives several outstanding reserves of one buffer "
                                                   "the same pages (Metalium's cb_reserve_back does not accumulate); "
                                                   "the EmitMetal issue fixes it")) if c.name == "deadlock_over_reserve"
    else c for c in DEADLOCKS if c.code in ("E2110", "E2111")]


@pytest.mark.parametrize("case", BUFFER_DEADLOCKS)
def test_buffer_deadlocks_read_the_same_at_the_metal_level(case: Case, capsys) -> None:
    """Lowered to Metalium calls, the same deadlock is found at the same line, with the same kind."""
    status, stderr = run_cli(capsys, str(case.path), "--level", "metal")
    assert status == 1
    assert f"{case.path}:{case.line()}:{case.col()}: error[{case.code}]" in stderr, stderr
    assert_no_traceback(stderr)
