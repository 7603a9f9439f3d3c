"""ttnn ops on the wheel's kernels at ``--level cpp`` (tilecraft/ttnn/wheel_ops): each host's result
against torch, the calls a host refuses (with why), and ``tilecraft run --level cpp``'s account of
which ops ran where.

Tolerance. A host's program computes as the device does: bfloat16 operands and CBs, a bfloat16 DST,
the FPU's fidelity phases, the SFPU's evaluation stored by truncation. The language level computes
in fp32 and rounds the result once. Both are checked against a float64 torch golden on the same
bfloat16 inputs, within a bound that covers that rounding (a few bfloat16 ulps of the result's
size); a wrong program (a missing broadcast, transposed operands, the wrong row) is off by far more.

Cost. The kernels compile with g++ (cached); each cold host costs seconds. The default run keeps
the refusals (no compile) and one CLI run whose one kernel op, ``exp``, reuses the kernels
tests/emu/test_wheel_kernels.py's default case compiles; every other host and the model-like
script are ``-m slow``.
"""

from __future__ import annotations

import os
import re
import shutil
import warnings
from pathlib import Path
from typing import Callable

import pytest
import torch

import tilecraft.ttnn as ttnn
from tilecraft import session
from tilecraft.cli import main
from tilecraft.diagnostics import DiagnosticWarning
from tilecraft.emu import wheel_kernels
from tilecraft.ttnn import generic, wheel_ops

SLOW = pytest.mark.slow
TILE, RM = ttnn.TILE_LAYOUT, ttnn.ROW_MAJOR_LAYOUT
NO_FP32 = ttnn.WormholeComputeKernelConfig(math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=False)


@pytest.fixture
def wheel() -> None:
    """The host's C++ compiler and the wheel's kernels, which a host's program needs."""
    if shutil.which("g++") is None:
        pytest.skip("no g++: the kernel emulator compiles kernels with the host C++ compiler")
    try:
        wheel_kernels.ensure_kernels()
    except wheel_kernels.KernelsUnavailable as error:
        if os.environ.get("TILECRAFT_REQUIRE_HEADERCHECK") == "1":
            pytest.fail(f"the ttnn wheel's kernels cannot be had: {error}", pytrace=False)
        pytest.skip(f"the ttnn 0.81.1 wheel's kernels are unavailable: {error}")


def on(device, values: torch.Tensor, layout=TILE, dtype=ttnn.bfloat16) -> ttnn.Tensor:
    return ttnn.from_torch(values, dtype=dtype, layout=layout, device=device)


def exact(t: ttnn.Tensor) -> torch.Tensor:
    """A tensor's values (bfloat16 or float32 on the device) in float64, for the goldens."""
    return ttnn.to_torch(t).double()


def at_cpp(call: Callable[[], ttnn.Tensor]) -> tuple[torch.Tensor, wheel_ops.Tally]:
    """``call`` at ``--level cpp``: its result and the tally of the ops it made."""
    with session.using(level="cpp"), wheel_ops.tallied() as tally:
        result = call()
    return exact(result), tally


def randn(*shape: int, seed: int = 0) -> torch.Tensor:
    torch.manual_seed(seed)
    return torch.randn(*shape)


#: case -> (the op's name in the tally, the call given a device, the float64 golden given the inputs the
#: call made, the tolerance (relative and absolute, of values of size ~1))
Case = tuple[str, Callable, float]


def _binary(op: str, a_shape: tuple, b_shape: tuple, **kwargs) -> Case:
    fn = {"add": torch.add, "subtract": torch.sub, "multiply": torch.mul}[op]

    def make(device):
        a, b = on(device, randn(*a_shape, seed=1)), on(device, randn(*b_shape, seed=2))
        out = getattr(ttnn, op)(a, b, **kwargs)
        assert out.memory_config() == kwargs.get("memory_config", ttnn.DRAM_MEMORY_CONFIG)
        return out, fn(exact(a), exact(b))
    return op, make, 2 ** -7


def _binary_number(op: str, number: float) -> Case:
    """A tensor and a Python number, which the host packs truncated to bfloat16 (pack_scalar_runtime_arg)."""
    fn = {"add": torch.add, "subtract": torch.sub, "multiply": torch.mul}[op]
    truncated = float(torch.tensor(number).view(torch.int32).bitwise_and(-65536).view(torch.float32))

    def make(device):
        a = on(device, randn(2, 64, 96, seed=1))
        return getattr(ttnn, op)(a, number), fn(exact(a), truncated)
    return op, make, 2 ** -7


def _unary(op: str, golden: Callable, **kwargs) -> Case:
    def make(device):
        x = on(device, randn(2, 64, 96, seed=3).clamp(-3, 3) + (4 if op in ("sqrt", "rsqrt", "reciprocal", "log") else 0))
        return getattr(ttnn, op)(x, **kwargs), golden(exact(x))
    return op, make, 2 ** -6


def _matmul(op: str, a_shape: tuple, b_shape: tuple, b_dtype=ttnn.bfloat16) -> Case:
    def make(device):
        a, b = on(device, randn(*a_shape, seed=4)), on(device, randn(*b_shape, seed=5) / 8, dtype=b_dtype)
        return getattr(ttnn, op)(a, b), exact(a) @ exact(b)
    return op, make, 2 ** -6


def _norm(op: str, affine: str) -> Case:
    def make(device):
        x = on(device, randn(2, 64, 96, seed=6) * 2 + 0.5)
        weight = on(device, randn(1, 96, seed=7)) if "weight" in affine else None
        bias = on(device, randn(1, 96, seed=8)) if "bias" in affine else None
        out = getattr(ttnn, op)(x, weight=weight, bias=bias, epsilon=1e-5, compute_kernel_config=NO_FP32)
        v = exact(x)
        centred = v if op == "rms_norm" else v - v.mean(-1, keepdim=True)
        want = centred * torch.rsqrt(centred.pow(2).mean(-1, keepdim=True) + 1e-5)
        want = want * exact(weight) if weight is not None else want
        return out, want + exact(bias) if bias is not None else want
    return op, make, 2 ** -5  # six bfloat16 roundings in a chain (tests/emu/test_wheel_norms.py)


def _softmax(width: int, stable: bool) -> Case:
    def make(device):
        x = on(device, randn(2, 32, width, seed=9) * 3)
        return ttnn.softmax(x, dim=-1, numeric_stable=stable), torch.softmax(exact(x), -1)
    return "softmax", make, 2 ** -5


def _layout(to: ttnn.Layout, dtype) -> Case:
    def make(device):
        x = on(device, randn(2, 64, 96, seed=10), layout=RM if to is TILE else TILE, dtype=dtype)
        out = ttnn.to_layout(x, to)
        assert out.layout is to
        return out, exact(x)
    return "to_layout", make, 0.0


def _typecast(src, dst) -> Case:
    def make(device):
        x = on(device, randn(64, 64, seed=11).mul(50).round(), dtype=src)
        return ttnn.typecast(x, dst), exact(x)
    return "typecast", make, 0.0


def _reduce(op: str, width: int) -> Case:
    golden = {"sum": lambda v: v.sum(-1, keepdim=True), "mean": lambda v: v.mean(-1, keepdim=True),
              "max": lambda v: v.amax(-1, keepdim=True)}[op]

    def make(device):
        x = on(device, randn(2, 64, width, seed=13))
        return getattr(ttnn, op)(x, dim=-1, keepdim=True), golden(exact(x))
    return op, make, 2 ** -6


def _concat(widths: tuple[int, ...]) -> Case:
    def make(device):
        parts = [on(device, randn(2, 64, w, seed=14 + i)) for i, w in enumerate(widths)]
        return ttnn.concat(parts, dim=-1), torch.cat([exact(p) for p in parts], -1)
    return "concat", make, 0.0


def _transpose() -> Case:
    def make(device):
        x = on(device, randn(2, 64, 96, seed=12))
        return ttnn.transpose(x, -2, -1), exact(x).transpose(-2, -1)
    return "transpose", make, 0.0


CASES: dict[str, Case] = {
    "add same shape": _binary("add", (2, 64, 96), (2, 64, 96)),
    "add bias row": _binary("add", (2, 64, 96), (1, 96)),
    "subtract column of a": _binary("subtract", (2, 64, 1), (2, 64, 96)),
    "multiply scalar tile": _binary("multiply", (2, 64, 96), (2, 1, 1)),
    "add batch-broadcast b": _binary("add", (2, 64, 96), (64, 96)),
    "multiply by a number": _binary_number("multiply", 1.7),
    "add into L1": _binary("add", (64, 64), (64, 64), memory_config=ttnn.L1_MEMORY_CONFIG),
    "exp": _unary("exp", torch.exp),
    "gelu": _unary("gelu", lambda x: torch.nn.functional.gelu(x)),
    "gelu approximate": _unary("gelu", lambda x: torch.nn.functional.gelu(x, approximate="tanh"),
                               fast_and_approximate_mode=True),
    "relu": _unary("relu", torch.relu),
    "silu": _unary("silu", torch.nn.functional.silu),
    "sigmoid": _unary("sigmoid", torch.sigmoid),
    "tanh": _unary("tanh", torch.tanh),
    "sqrt": _unary("sqrt", torch.sqrt),
    "rsqrt": _unary("rsqrt", torch.rsqrt),
    "reciprocal": _unary("reciprocal", torch.reciprocal),
    "neg": _unary("neg", torch.neg),
    "log": _unary("log", torch.log),
    "abs": _unary("abs", torch.abs),
    "square": _unary("square", torch.square),
    "sin": _unary("sin", torch.sin),
    "cos": _unary("cos", torch.cos),
    "matmul": _matmul("matmul", (64, 96), (96, 64)),
    "matmul batched, one b": _matmul("matmul", (2, 64, 64), (64, 96)),
    "linear bfloat8_b weights": _matmul("linear", (64, 64), (64, 32), ttnn.bfloat8_b),
    "rms_norm weight": _norm("rms_norm", "weight"),
    "layer_norm weight bias": _norm("layer_norm", "weight+bias"),
    "softmax": _softmax(96, True),
    "softmax padded unstable": _softmax(80, False),
    "tilize": _layout(TILE, ttnn.bfloat16),
    "untilize float32": _layout(RM, ttnn.float32),
    "typecast bfloat16 to float32": _typecast(ttnn.bfloat16, ttnn.float32),
    "transpose": _transpose(),
    "concat unaligned widths": _concat((40, 50, 64)),
    "sum over W": _reduce("sum", 96),
    "mean over a padded W": _reduce("mean", 80),
    "max over W": _reduce("max", 64),
}


def test_every_host_has_a_case() -> None:
    assert {op for op, _, _ in CASES.values()} == set(wheel_ops.HOSTS)


def test_every_host_names_kernels_of_the_wheel_and_is_in_the_docs(wheel) -> None:
    """Each kernel file a host's description names is one of the wheel's, and docs/ttnn.md's table
    has a row for each hosted op."""
    names = {p.name for p in wheel_kernels.operations(wheel_kernels.ensure_kernels()).rglob("*.cpp")}
    for host in wheel_ops.HOSTS.values():
        files = re.findall(r"[\w]+\.cpp", host.kernels)
        assert files and set(files) <= names, (host.op, set(files) - names)
    table = (Path(__file__).resolve().parents[2] / "docs" / "ttnn.md").read_text().split(
        "## ttnn ops on the wheel's kernels")[1].split("\n## ")[0]
    rows = {op for line in table.splitlines() if line.startswith("| `")
            for op in re.findall(r"`(\w+)`", line.split(" | ")[0])}
    assert rows == set(wheel_ops.HOSTS)


@SLOW
@pytest.mark.parametrize("case", list(CASES))
def test_a_host_computes_the_op_on_the_wheels_kernels(device, wheel, case: str) -> None:
    """Each host's program, run through the op at ``--level cpp``: the tally says it ran on the
    kernels, and the result is the torch golden's within the device's precision."""
    op, make, tolerance = CASES[case]
    inputs: dict[str, torch.Tensor] = {}

    def call() -> ttnn.Tensor:
        out, inputs["want"] = make(device)
        return out
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        got, tally = at_cpp(call)
    assert dict(tally.on_kernels) == {op: 1} and not tally.at_language_level
    # ttnn's padded softmax writer pushes its mask tile without reserving it (tests/emu/test_wheel_norms.py)
    codes = {w.message.diagnostic.code for w in seen if isinstance(w.message, DiagnosticWarning)}
    assert codes == ({"E5210"} if case == "softmax padded unstable" else set())
    want = inputs["want"]
    assert got.shape == want.shape
    scale = want.abs().max().clamp(min=1)
    assert (got - want).abs().max() <= tolerance * scale, (got - want).abs().max()


#: calls a host refuses -> the reason the tally gives; none compiles anything
REFUSED = {
    "a number first": (lambda d: ttnn.subtract(2.0, on(d, randn(64, 64))), "subtract",
                       "a Python number as the first operand"),
    "fused activation": (lambda d: ttnn.multiply(on(d, randn(64, 64)), on(d, randn(64, 64)),
                                                 input_tensor_a_activations=[ttnn.UnaryOpType.SILU]),
                         "multiply", "fused activations"),
    "both broadcast": (lambda d: ttnn.add(on(d, randn(64, 1)), on(d, randn(1, 64))), "add",
                       "a broadcast of both operands, or of leading dims that do not fold"),
    "norm with fp32 DST": (lambda d: ttnn.rms_norm(on(d, randn(64, 64)), epsilon=1e-5), "rms_norm",
                           "fp32_dest_acc_en (the host runs bfloat16 intermediates: pass a compute_kernel_config "
                           "without it)"),
    "matmul with bias": (lambda d: ttnn.linear(on(d, randn(64, 64)), on(d, randn(64, 64)), bias=on(d, randn(1, 64))),
                         "linear", "a bias (the fused bias kernel has no host)"),
    "unaligned matmul": (lambda d: ttnn.matmul(on(d, randn(40, 64)), on(d, randn(64, 64))), "matmul",
                         "M, K or N not a whole number of tiles"),
    "transpose of batch dims": (lambda d: ttnn.transpose(on(d, randn(2, 3, 64, 64)), 0, 1), "transpose",
                                "a transpose of dims other than the last two"),
    "softmax over rows": (lambda d: ttnn.softmax(on(d, randn(64, 64)), dim=0), "softmax",
                          "softmax over a dim other than the last"),
    "host operand": (lambda d: ttnn.exp(ttnn.from_torch(randn(64, 64), dtype=ttnn.bfloat16, layout=TILE)), "exp",
                     "an operand is on the host"),
    "a row wider than L1": (lambda d: ttnn.layer_norm(on(d, randn(32, 8192)), epsilon=1e-5,
                                                      compute_kernel_config=NO_FP32),
                            "layer_norm", "its circular buffers need 1580 KiB of a core's L1, which has 1364 KiB"),
    "keepdim=False": (lambda d: ttnn.sum(on(d, randn(64, 64)), dim=-1), "sum", "keepdim=False"),
    "no host": (lambda d: ttnn.permute(on(d, randn(2, 64, 64)), (0, 2, 1)), "permute", "no kernel host"),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_a_call_no_host_takes_runs_at_the_language_level_and_says_why(device, case: str) -> None:
    make, op, reason = REFUSED[case]
    with session.using(level="cpp"), wheel_ops.tallied() as tally:
        got = make(device)
    assert not tally.on_kernels and dict(tally.at_language_level) == {(op, reason): 1}
    with session.using(level="language"), wheel_ops.tallied() as language:
        want = make(device)
    assert torch.equal(exact(got), exact(want)) and language.empty()


CHEAP_SCRIPT = """\
import sys
import torch
import ttnn

device = ttnn.open_device(device_id=0)
torch.manual_seed(21)
x = ttnn.from_torch(torch.randn(64, 96), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
y = ttnn.reshape(ttnn.exp(x), (96, 64))
torch.save(ttnn.to_torch(y), sys.argv[1])
"""


def test_level_cpp_says_which_ops_ran_on_the_wheels_kernels(tmp_path: Path, capsys, fresh_process_state,
                                                            wheel) -> None:
    """``tilecraft run --level cpp``: exp runs eltwise_sfpu.cpp with its reader and writer (the kernels
    tests/emu/test_wheel_kernels.py's default case compiles), the reshape, which has no host, runs at the
    language level, and the run ends with the account; the values are the language level's within
    bfloat16."""
    script = tmp_path / "cheap.py"
    script.write_text(CHEAP_SCRIPT)
    assert main(["run", "--level", "cpp", str(script), str(tmp_path / "cpp.pt")]) == 0
    err = capsys.readouterr().err
    assert err.strip().splitlines()[-1] == ("ttnn ops on wheel kernels: exp×1; at language level: "
                                            "reshape×1 (no kernel host)")
    assert main(["run", str(script), str(tmp_path / "language.pt")]) == 0
    assert "ttnn ops on wheel kernels" not in capsys.readouterr().err  # only --level cpp gives the account
    got, want = (torch.load(tmp_path / f"{level}.pt").double() for level in ("cpp", "language"))
    assert (got - want).abs().max() <= 2 ** -7 * want.abs().max()


MODEL_SCRIPT = """\
import sys
import torch
import ttnn

device = ttnn.open_device(device_id=0)
torch.manual_seed(5)
table, w = torch.randn(100, 128), torch.randn(128, 64) / 8
bias, gain = torch.randn(1, 64), torch.randn(1, 64)
ids = ttnn.from_torch(torch.randint(0, 100, (1, 64)), dtype=ttnn.uint32, layout=ttnn.ROW_MAJOR_LAYOUT, device=device)
bf16 = dict(dtype=ttnn.bfloat16, device=device)
x = ttnn.embedding(ids, ttnn.from_torch(table, layout=ttnn.ROW_MAJOR_LAYOUT, **bf16))
x = ttnn.to_layout(ttnn.reshape(x, (64, 128)), ttnn.TILE_LAYOUT)
h = ttnn.matmul(x, ttnn.from_torch(w, layout=ttnn.TILE_LAYOUT, **bf16))
h = ttnn.gelu(ttnn.add(h, ttnn.from_torch(bias, layout=ttnn.TILE_LAYOUT, **bf16)))
config = ttnn.WormholeComputeKernelConfig(math_fidelity=ttnn.MathFidelity.HiFi4, fp32_dest_acc_en=False)
h = ttnn.rms_norm(h, weight=ttnn.from_torch(gain, layout=ttnn.TILE_LAYOUT, **bf16), epsilon=1e-5,
                  compute_kernel_config=config)
p = ttnn.to_layout(ttnn.softmax(h, dim=-1), ttnn.ROW_MAJOR_LAYOUT)
torch.save(ttnn.to_torch(p), sys.argv[1])
"""


@SLOW
def test_a_model_script_runs_end_to_end_on_the_wheels_kernels(tmp_path: Path, capsys, fresh_process_state,
                                                              wheel) -> None:
    """An embedding, to_layout, matmul, a broadcast bias add, gelu, rms_norm and softmax: every op but the
    embedding and the reshape runs on the wheel's kernels; the probabilities are the language level's
    and torch's within the device's precision."""
    script = tmp_path / "model.py"
    script.write_text(MODEL_SCRIPT)
    assert main(["run", "--level", "cpp", str(script), str(tmp_path / "cpp.pt")]) == 0
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        "ttnn ops on wheel kernels: add×1, gelu×1, matmul×1, rms_norm×1, softmax×1, to_layout×2; "
        "at language level: embedding×1 (no kernel host), reshape×1 (no kernel host)")
    assert main(["run", str(script), str(tmp_path / "language.pt")]) == 0
    got, want = (torch.load(tmp_path / f"{level}.pt").double() for level in ("cpp", "language"))
    torch.manual_seed(5)
    table, w, bias, gain = torch.randn(100, 128), torch.randn(128, 64) / 8, torch.randn(1, 64), torch.randn(1, 64)
    ids = torch.randint(0, 100, (1, 64))
    bf = (lambda t: t.to(torch.bfloat16).double())
    h = torch.nn.functional.gelu(bf(table)[ids[0]] @ bf(w) + bf(bias))
    golden = torch.softmax(h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-5) * bf(gain), -1)
    assert got.shape == want.shape == golden.shape == (64, 64)
    for result in (got, want):
        assert (result - golden).abs().max() <= 2 ** -5 * golden.abs().max()
    assert (got - want).abs().max() <= 2 ** -5 * want.abs().max()


def test_a_traced_op_replays_its_program_once_on_the_new_values(device, wheel) -> None:
    """A trace captured at ``--level cpp`` records the op as one call: execute_trace runs its program
    once more (not also the generic_op its host made) on what the input holds then. exp's kernels are
    those tests/emu/test_wheel_kernels.py's default case compiles."""
    with session.using(level="cpp"):
        x = on(device, randn(64, 96, seed=15))
        trace_id = ttnn.begin_trace_capture(device)
        y = ttnn.exp(x)
        ttnn.end_trace_capture(device, trace_id)
        ttnn.copy_host_to_device_tensor(ttnn.from_torch(torch.full((64, 96), 0.5), dtype=ttnn.bfloat16,
                                                        layout=TILE), x)
        with generic.recorded_runs() as runs:
            ttnn.execute_trace(device, trace_id)
    assert len(runs) == 1
    assert torch.allclose(exact(y), torch.full((64, 96), 0.5).exp().double(), rtol=2 ** -7)
