"""ttnn compute kernels on the Tensix machine: how a run that cannot finish is reported, and what
the machine reports to the trace. The wheel's kernels running correctly on it are
tests/emu/test_wheel_kernels.py's.

Cost (2026-11-29, 2 loaded CPUs): cold, the machine's archive and the compute bridge (about 17 s
CPU once per machine change; the archive is shared with the LLK suite's runner) and the three
precompiled TRISC prefixes (about 5 s CPU), then three TRISC compiles per kernel (about 1.4 s CPU in
all); warm, each test runs in under a second except the
compile error, which g++ repeats every time (about 3 s CPU)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import torch

import tilecraft.ttnn as ttnn
from tests.emu.harness import KERNELS, arch_cases, cb, dram, kernel, line_of, output, run, writer
from tests.emu import test_wheel_kernels as wheel
from tests.emu.test_wheel_kernels import sfpu_compute, unary_reader, unary_writer
from tilecraft import session
from tilecraft.diagnostics import KernelError
from tilecraft.emu.codes import Ev, Mode, SfpuUnary
from tilecraft.emu.program_spec import TRISC

HERE = Path(__file__).parent / "tensix_compute"


def _failure(run_program) -> object:
    with pytest.raises(KernelError) as info:
        run_program()
    return info.value.diagnostic


@pytest.mark.parametrize("device", arch_cases([()], []), indirect=True)
def test_deadlock_across_engines_names_the_compute_kernels_wait(device, ops) -> None:
    """The reader pushes one tile, the compute kernel (test_wheel_kernels.py's exp chain, so its build
    is shared) waits for a second: the emulator's deadlock report lists the writer's blocked call
    and the compute kernel's, the cb_wait_front its UNPACK TRISC polls in, at the kernel's line."""
    x = dram(device, torch.randn(64, 32))
    out = output(device, (64, 32))
    chain = {"SFPU_OP_EXP_INCLUDE": "1", "SFPU_OP_CHAIN_0": "exp_tile_init<false>(); exp_tile<false>(0);"}
    diag = _failure(lambda: run([x, out], [unary_reader(ops, x, 1), sfpu_compute(ops, "unary", 2, chain),
                                           unary_writer(ops, out, 2, 2)], [cb(0), cb(2)]))
    assert diag.code == "E5501", diag.render()
    messages = [n.message for n in diag.notes]
    # the writer's dfb.wait_front: on the real dataflow API the note names the object API's member the kernel calls
    writer = [m for m in messages if "BRISC blocked in DataflowBuffer::wait_front:" in m]
    assert writer and "it waits for 1 pages in CB 2; 0 have been pushed and not popped" in writer[0], messages
    compute = [n for n in diag.notes if "compute (TRISC0-2) blocked in cb_wait_front" in n.message]
    assert compute and compute[0].message.endswith("it waits for 1 pages in CB 0; 0 have been pushed and not popped")
    assert compute[0].span is not None and compute[0].span.file.endswith("eltwise_sfpu.cpp"), messages


@pytest.mark.parametrize("device", arch_cases([()], [0]), indirect=True)
def test_unmodelled_instruction_stops_the_run_naming_it(device) -> None:
    path = HERE / "unmodelled_instruction.cpp"
    out = output(device, (32, 32))
    diag = _failure(lambda: run([out], [kernel(path, ttnn.ComputeConfigDescriptor())], []))
    assert diag.code == "E5871", diag.render()
    assert "CLREXPHIST" in diag.message and "TRISC MATH" in diag.message
    assert path.name in diag.message


@pytest.mark.parametrize("device", arch_cases([()], []), indirect=True)
def test_api_the_wheel_lacks_is_a_compile_error_at_its_line(device) -> None:
    """An error in the kernel's own source is the kernel's mistake: diagnosed at its line as the
    build diagnoses a data-movement kernel's (E5001; a removed or renamed name gets E5002-E5005, as
    tests/emu/test_build.py checks), not as the machine's E5872."""
    path = HERE / "missing_api.cpp"
    out = output(device, (32, 32))
    diag = _failure(lambda: run([out], [kernel(path, ttnn.ComputeConfigDescriptor())], []))
    assert diag.code == "E5001", diag.render()
    assert diag.span is not None and diag.span.line == line_of(path, "MISSING")
    assert "'not_a_compute_api_call' was not declared" in diag.message


@pytest.mark.parametrize("device", arch_cases([()], []), indirect=True)
def test_a_named_arg_the_host_did_not_pass_is_named_at_its_line(device) -> None:
    """A compute kernel's compile-time read of a named arg the host did not pass is the emulator's
    E5001 at the kernel's line naming the cause, as for a data-movement kernel; not the wheel's
    lookup running into __builtin_unreachable inside the machine's headers."""
    path = HERE / "named_arg_missing.cpp"
    out = output(device, (32, 32))
    diag = _failure(lambda: run([out], [kernel(path, ttnn.ComputeConfigDescriptor(), named=[("cols", 1)])], []))
    assert diag.code == "E5001", diag.render()
    assert diag.span is not None and diag.span.line == line_of(path, "MISSING")
    assert "names an argument the host did not pass" in diag.message, diag.render()


def test_emitted_power_tile_takes_the_exponent_as_float_bits() -> None:
    """hypot's ``a ** 2`` is ``power_tile(0, 0x40000000u)``: 0.81.1's calculate_unary_power reads
    its parameter as an fp32's bits, so an emitted integer 2 (a denormal exponent) would make every
    element sqrt(2). The example asserts torch.hypot's answer itself. Warm: about 8 s on the machine
    under load."""
    from tilecraft.cli import main

    script = str(Path(__file__).parents[2] / "examples" / "hypot_block_expression.py")
    assert main(["run", "--level", "cpp", script]) == 0


def compute_calls(program) -> list[tuple]:
    """The compute kernel's trace events (file name, line, kind, fields a-d) of ``program()``."""
    traces = []
    with session.using(emulator_hooks=[lambda program, result: traces.append(result.trace)]):
        program()
    (trace,) = traces
    events = trace.events[trace.events["slot"] == TRISC]
    return [(Path(trace.files[e["file"]]).name, int(e["line"]), Ev(int(e["kind"])), int(e["a"]), int(e["b"]),
             int(e["c"]), int(e["d"])) for e in events]


#: a bfloat16 tile's page in bytes: how the trace gives a CB operand of a compute call
PAGE = 2048


def test_the_machine_reports_the_exp_chains_compute_calls(device, ops) -> None:
    """The trace (tensix_call_events.py): the exp chain's compute calls of test_wheel_kernels.py (the
    same builds, so no new compile) reach the trace from the machine once each, in the kernel's
    order, inits included, at the kernel's lines, with the CB operands as page bytes and the SFPU
    operation's code."""
    chain = {"SFPU_OP_EXP_INCLUDE": "1", "SFPU_OP_CHAIN_0": "exp_tile_init<false>(); exp_tile<false>(0);"}
    tiles = 6

    def program():
        x = torch.randn(64, 96)
        tx, out = dram(device, x), output(device, (64, 96))
        run([tx, out], [unary_reader(ops, tx, tiles), sfpu_compute(ops, "unary", tiles, chain),
                        unary_writer(ops, out, 2, tiles)], [cb(0), cb(2)])
    calls = compute_calls(program)
    exp = SfpuUnary.Exp.value
    per_tile = [(Ev.ACQUIRE, 0, 0), (Ev.CB_WAIT, 0, 1), (Ev.CB_RESERVE, 2, 1), (Ev.COPY, PAGE, 0),
                (Ev.SFPU_INIT, exp, 0), (Ev.SFPU_UNARY, exp, 0), (Ev.COMMIT, 0, 0), (Ev.REGS_WAIT, 0, 0),
                (Ev.PACK, PAGE, 0), (Ev.CB_POP, 0, 1), (Ev.CB_PUSH, 2, 1), (Ev.RELEASE, 0, 0)]
    want = [(Ev.HW_STARTUP, 0, 0), (Ev.INIT, int(Mode.COPY), 0), *per_tile * tiles]
    assert [(kind, a, b) for _, _, kind, a, b, _, _ in calls] == want
    source = (ops / "eltwise/unary/device/kernels/compute/eltwise_sfpu.cpp").read_text().splitlines()
    for name, line, kind, *_ in calls:  # each at the line of its call (an SFPU call's: the chain's macro)
        assert name == "eltwise_sfpu.cpp" and CALL_NAMES[kind].search(source[line - 1]), (kind, source[line - 1])


#: how each kind of event's call is spelt on its line (the object API's members for the CB calls)
CALL_NAMES = {Ev.HW_STARTUP: re.compile(r"compute_kernel_hw_startup|init_sfpu"), Ev.INIT: re.compile(r"_init"),
              Ev.ACQUIRE: re.compile(r"tile_regs_acquire"), Ev.CB_WAIT: re.compile(r"wait_front"),
              Ev.CB_RESERVE: re.compile(r"reserve_back"), Ev.COPY: re.compile(r"copy_tile"),
              Ev.SFPU_INIT: re.compile(r"SFPU_OP_CHAIN_0"), Ev.SFPU_UNARY: re.compile(r"SFPU_OP_CHAIN_0"),
              Ev.COMMIT: re.compile(r"tile_regs_commit"), Ev.REGS_WAIT: re.compile(r"tile_regs_wait"),
              Ev.PACK: re.compile(r"pack_tile"), Ev.CB_POP: re.compile(r"pop_front"),
              Ev.CB_PUSH: re.compile(r"push_back"), Ev.RELEASE: re.compile(r"tile_regs_release")}


def test_inits_reconfigs_and_broadcasts_reach_the_trace(device) -> None:
    """tensix_compute/trace_calls.cpp's reconfigurations (one and two operands, the packer, with and
    without the old CB), inits (binary, the broadcasts, unary_bcast and its uninit, copy, SFPU), the
    named and templated broadcast forms and an SFPU call whose operation its name does not say
    (``negative_tile``: Neg): each line's ``// TRACE:`` comment lists the events its call reports
    (kind and fields a-d), which the machine reports at that line in that order. A call made inside
    another (``sub_tiles_bcast`` -> ``any_tiles_bcast``, ``add_init`` -> ``binary_tiles_init``)
    reports once, at the kernel's line."""
    path = HERE / "trace_calls.cpp"

    def program():
        a, b = torch.randn(32, 32), torch.randn(32, 32)
        ta, tb, out = dram(device, a), dram(device, b), output(device, (192, 32))
        pair = kernel(KERNELS / "reader_pair.cpp", ttnn.ReaderConfigDescriptor(),
                      rt=[ta.buffer_address(), tb.buffer_address(), 1],
                      ct=[*ttnn.TensorAccessorArgs(ta).get_compile_time_args(),
                          *ttnn.TensorAccessorArgs(tb).get_compile_time_args()])
        run([ta, tb, out], [pair, kernel(path, ttnn.ComputeConfigDescriptor()), writer(out, 16, 6)],
            [cb(0), cb(1), cb(16, pages=6)])
    want = []
    for number, text in enumerate(path.read_text().splitlines(), 1):
        if "// TRACE: " in text:
            for event in text.split("// TRACE: ")[1].split(";"):
                kind, *fields = event.split()
                repeat = 6 if "pack_tile" in text else 1  # the pack loop's six tiles
                want += [(path.name, number, Ev[kind], *map(int, fields))] * repeat
    calls = compute_calls(program)
    assert [kind for *_, kind, _, _, _, _ in calls].count(Ev.RECONFIG) == 8
    assert calls == want


def test_both_architectures_machines_run_in_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wormhole's and Blackhole's machines differ in their code (config addresses, encodings), and
    each compute bridge is loaded globally so that the TRISC objects resolve the machine's layer in
    it: each arch's machine lives in its own C++ namespace (tensix_build.MACHINE_NAMESPACES), so a
    Blackhole kernel after a Wormhole one, and back, binds to its own (test_compute.py's add, the
    same builds)."""
    from tests.emu.test_compute import binary_program
    from tilecraft import device_arith

    monkeypatch.setattr(session, "_default", None)
    torch.manual_seed(0)
    a, b = torch.randn(64, 64), torch.randn(64, 64)
    for arch in ("blackhole", "wormhole_b0", "blackhole"):
        with session.using(arch=arch):
            device = ttnn.open_device(0)
            try:
                ea, eb, got = binary_program(device, a, b, ttnn.bfloat16, ttnn.bfloat16,
                                             [("INIT", "add_init"), ("CALL", "add_tiles")])
            finally:
                ttnn.close_device(device)
        assert torch.equal(got, device_arith.pack_bf16(device_arith.eltwise("add", ea, eb, 4, False))), arch


#: test_wheel_kernels.py's cases (the wheel's own kernels, unchanged, against torch) run on Blackhole's
#: machine: its test functions with a Blackhole device (the ``device`` fixture's Blackhole session)
EXP = {"SFPU_OP_EXP_INCLUDE": "1", "SFPU_OP_CHAIN_0": "exp_tile_init<false>(); exp_tile<false>(0);"}
RELU = {"SFPU_OP_RELU_FAMILY_INCLUDE": "1", "SFPU_OP_CHAIN_0": "relu_tile_init(); relu_tile(0);"}
BLACKHOLE_WHEEL_CASES = {  # name: (test_wheel_kernels.py's test function, its case's arguments)
    "unary_exp": (wheel.test_ttnn_unary_kernels_run_unchanged, ("unary", EXP, torch.exp)),
    "binary_mul_bfloat8_b": (wheel.test_ttnn_eltwise_binary_kernels_run_unchanged,
                             ("mul_tiles", "ELWMUL", "mul", ttnn.bfloat8_b)),
    "bmm": (wheel.test_ttnn_bmm_kernels_run_unchanged, (1, 2, 3, 2, 0, ttnn.bfloat16)),
    "unary_relu": (wheel.test_ttnn_unary_kernels_run_unchanged, ("unary", RELU, torch.relu)),
    "binary_add": (wheel.test_ttnn_eltwise_binary_kernels_run_unchanged, ("add_tiles", "ELWADD", "add", ttnn.bfloat16)),
    "typecast_to_float32": (wheel.test_ttnn_typecast_chain_runs_unchanged, (ttnn.bfloat16, ttnn.float32)),
    "transpose_wh": (wheel.test_ttnn_transpose_wh_kernels_run_unchanged, ("transpose",)),
    "bmm_large_block": (wheel.test_ttnn_bmm_large_block_kernels_run_unchanged, ()),
}


@pytest.mark.parametrize("device,case", [pytest.param("blackhole", name, marks=[] if i < 3 else [pytest.mark.slow])
                                         for i, name in enumerate(BLACKHOLE_WHEEL_CASES)], indirect=["device"])
def test_wheel_kernels_run_on_blackhole(device, ops, case) -> None:
    """The wheel's compute kernels (exp chain, bfloat8_b multiply, bmm by default; relu, add,
    typecast, transpose and the large-block matmul slow) compiled against Blackhole's compute API
    and LLK and run on Blackhole's machine pass test_wheel_kernels.py's torch goldens."""
    function, args = BLACKHOLE_WHEEL_CASES[case]
    function(device, ops, *args)
