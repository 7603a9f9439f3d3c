"""Running generated scripts through ``tilecraft run``, each in a fresh process, and judging them.

Each run is a child forked from a fork server that has torch and tilecraft imported (so a run
costs milliseconds, not the second a new interpreter needs) and calls the CLI's ``main`` in the
child: every run sees what a new ``tilecraft`` process would (no options, hooks, module aliases
or caches left by an earlier program), and a program that hangs is killed after a timeout.
The child sends back the exit status, what was printed, and, for every launch, the storage and
the logical values of every tensor of the program.

The checks return an :class:`Outcome` instead of asserting, so that the tests and the
benchmark campaign (which counts outcomes by class) share them.
"""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import pickle
import re
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import torch

import tilecraft
from tilecraft import dtypes
from tilecraft.numerics import TOLERANCES, Tolerance, matches_golden

from .host_inputs import HostScript
from .mutations import Mutant
from .programs import Program
from .source import file_name

TILECRAFT_DIR = str(Path(tilecraft.__file__).parent)
SCRIPTS = Path(os.environ.get("TILECRAFT_PROPERTY_DIR", Path(tempfile.gettempdir()) / "tilecraft-property"))
TIMEOUT_S = 60.0
#: --level cpp compiles the emitted kernels with g++ (cached): seconds per kernel on a loaded machine
CPP_TIMEOUT_S = 300.0


@dataclass(frozen=True)
class Launch:
    storages: tuple[torch.Tensor, ...]
    values: tuple[torch.Tensor, ...]


@dataclass(frozen=True)
class Run:
    status: int | str  # the exit status, or "timeout" / "died"
    stdout: str
    stderr: str
    launches: tuple[Launch, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """``klass`` "passed", or the class of the failure (the campaign counts them)."""

    klass: str
    detail: str = ""
    script: str = ""
    #: what a passing check could not check (the metal level rejecting a construct with E3001)
    notes: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        return self.klass == "passed"

    def __str__(self) -> str:
        return f"{self.klass}: {self.detail}\n  script: {self.script}"


def write_script(name: str, text: str) -> Path:
    SCRIPTS.mkdir(parents=True, exist_ok=True)
    path = SCRIPTS / name
    if not path.exists() or path.read_text() != text:
        # Written aside and renamed: another process (an xdist worker) may be running this very
        # script, and must never read it half written.
        with tempfile.NamedTemporaryFile("w", dir=SCRIPTS, suffix=".tmp", delete=False) as partial:
            partial.write(text)
        os.replace(partial.name, path)
    return path


def run(script: Path | str, *options: str, timeout: float = TIMEOUT_S) -> Run:
    """``tilecraft run script *options`` in a forked child."""
    return run_in_one_process([(script, options)], timeout)[0]


#: the level "every use": the language level without the evaluate-once pass, where each store that
#: uses a named expression computes it, as before the pass existed
EVERY_USE = "every_use"


def run_every_use(script: Path | str, *options: str, timeout: float = TIMEOUT_S) -> Run:
    """``tilecraft run script *options`` in a forked child whose pipeline leaves out evaluate-once."""
    result = in_child(_run_every_use, [(str(script), tuple(options))], timeout=timeout)
    return Run(result, "", f"the child {result}") if isinstance(result, str) else result[0]


def _run_every_use(invocations: Sequence[tuple[str, Sequence[str]]]) -> list[Run]:
    from tilecraft.ir import passes

    passes.PIPELINE[:] = [p for p in passes.PIPELINE if p[0] != "evaluate-once"]
    return _run_all(invocations)


def run_in_one_process(invocations: Sequence[tuple[Path | str, Sequence[str]]],
                       timeout: float = TIMEOUT_S) -> list[Run]:
    """Several ``tilecraft run`` invocations one after the other in one forked child (what a
    long-lived process such as a test session or a language server does)."""
    result = in_child(_run_all, [(str(s), tuple(o)) for s, o in invocations], timeout=timeout)
    if isinstance(result, str):
        return [Run(result, "", f"the child {result}")] * len(invocations)
    return result


def _context() -> multiprocessing.context.BaseContext:
    """Children forked from a fork server that has only imported tilecraft: never from the test
    process itself, whose other threads (torch's pool, an event loop, a Dask client) may hold a
    lock at the moment of the fork and leave the child waiting on it forever."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["tests.property.harness", "tilecraft.cli"])
    return context


def in_child(fn: Callable, *args: object, timeout: float = TIMEOUT_S) -> object:
    """``fn(*args)`` in a child forked from a clean server; its (picklable) result, or "timeout" / "died"."""
    context = _context()
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_report, args=(sender, fn, args))
    child.start()
    sender.close()
    try:
        if not receiver.poll(timeout):
            child.kill()
            child.join()
            return "timeout"
        result = pickle.loads(receiver.recv_bytes())
    except EOFError:
        child.join()
        return "died"
    finally:
        receiver.close()
    child.join()
    return result


def _report(sender, fn: Callable, args: Sequence[object]) -> None:
    sender.send_bytes(pickle.dumps(fn(*args)))
    sender.close()


def _run_all(invocations: Sequence[tuple[str, Sequence[str]]]) -> list[Run]:
    from tilecraft import session
    from tilecraft.cli import main

    results = []
    for script, options in invocations:
        launches: list[Launch] = []
        hook = (lambda program, tensors, seen=launches: seen.append(Launch(
            tuple(t.storage.clone() for t in tensors), tuple(t.to_torch() for t in tensors))))
        out, err = io.StringIO(), io.StringIO()
        try:
            with session.using(result_hooks=[hook]), redirect_stdout(out), redirect_stderr(err):
                status = main(["run", script, *options])
        except BaseException as exc:  # noqa: BLE001 - main() itself must never raise: report it
            status = 99
            err.write(f"main() raised {type(exc).__name__}: {exc}")
        results.append(Run(status, out.getvalue(), err.getvalue(), tuple(launches)))
    return results


def emitted_kernel_errors(script: Path | str) -> list[str]:
    """The header check's errors for every kernel ``tilecraft emit`` writes for ``script`` (run in
    a child, like :func:`run`)."""
    result = in_child(_check_emission, str(script))
    return [f"the child {result}"] if isinstance(result, str) else result


def _check_emission(script: str) -> list[str]:
    from benchmarks.emit_tools import programs_of
    from tilecraft.metal.check_emitted import check_emitted
    from tilecraft.metal.emit import emit_program

    return [f"{name}: {result.diagnostics}" for program in programs_of(Path(script))
            for name, result in check_emitted(emit_program(program)) if not result.ok]


# ---------------------------------------------------------------------------- valid programs
def failure_of(result: Run) -> Outcome | None:
    """The class of a run that did not succeed."""
    if result.status == 0:
        return None
    if result.status in ("timeout", "died"):
        return Outcome(str(result.status), result.stderr)
    if "internal error" in result.stderr:
        return Outcome("internal error", _last_line(result.stderr))
    match = re.search(r"error\[(E\d+)\]", result.stderr)
    if match:
        return Outcome(f"rejected {match[1]}", _first_line(result.stderr))
    return Outcome("failed", _last_line(result.stderr))


def check_program(program: Program, levels: Sequence[str] = ("exact", "metal")) -> Outcome:
    """The program runs, matches its golden, and gives the same bits in the other ``levels``."""
    script = write_script(file_name(program.kind, program.text), program.text)
    base = run(script, *program.cli_args)
    failure = failure_of(base)
    if failure:
        return _at(failure, script)
    if len(base.launches) != 1:
        return Outcome("launch count", f"{len(base.launches)} launches", str(script))
    mismatch = golden_mismatch(program, base.launches[0])
    if mismatch:
        return Outcome("golden mismatch", mismatch, str(script))
    if program.stdout is not None and sorted(base.stdout.splitlines()) != sorted(program.stdout):
        return Outcome("output differs from Python", f"printed {base.stdout.splitlines()}, Python prints "
                       f"{list(program.stdout)}", str(script))
    notes: list[str] = []
    if "named_twice" in program.features:  # evaluate once (ir/evaluate_once.py) must change no bit
        levels = (*levels, EVERY_USE)
    for level in levels:
        if level == "metal" and not program.lowers:
            continue
        options = {"exact": ("--exact",), "metal": ("--level", "metal")}.get(level, ())
        other = run_every_use(script, *program.cli_args) if level == EVERY_USE else \
            run(script, *program.cli_args, *options)
        failure = failure_of(other)
        if failure and level == "metal" and failure.klass == "rejected E3001":
            notes.append(f"metal level: not lowered ({_not_lowered(failure.detail)})")
            continue
        if failure:
            return _at(Outcome(f"{level}: {failure.klass}", failure.detail), script)
        differs = bits_differ(base.launches, other.launches)
        if differs:
            return Outcome(f"{level} differs", differs, str(script))
        # print is simulator-only: the lowering turns it into a comment (metal/lower_common.py)
        printed = sorted(other.stdout.splitlines())
        if program.stdout is not None and level != "metal" and printed != sorted(program.stdout):
            return Outcome(f"{level} output differs from Python", f"printed {other.stdout.splitlines()}",
                           str(script))
    return Outcome("passed", script=str(script), notes=tuple(notes))


def check_program_cpp(program: Program) -> Outcome:
    """The program as the C++ ``tilecraft emit`` writes, on the kernel emulator (``--level cpp``):
    it matches the golden, or it stops with a diagnostic ("diagnosed E...": an emitter limit such as
    E3001, an API the emulator does not model, a sanitizer finding). A wrong result, or a failure
    without a diagnostic, is what must never happen (issue 21)."""
    script = write_script(file_name(program.kind, program.text), program.text)
    result = run(script, *program.cli_args, "--level", "cpp", timeout=CPP_TIMEOUT_S)
    failure = failure_of(result)
    if failure and failure.klass.startswith("rejected "):
        code = failure.klass.split()[1]
        return Outcome(f"diagnosed {code}", failure.detail, str(script))
    if failure:
        return _at(Outcome(f"cpp: {failure.klass}", failure.detail), script)
    if len(result.launches) != 1:
        return Outcome("cpp: launch count", f"{len(result.launches)} launches", str(script))
    mismatch = golden_mismatch(program, result.launches[0])
    if mismatch:
        return Outcome("cpp: golden mismatch", mismatch, str(script))
    device = run(script, *program.cli_args, "--numerics", "device")
    failure = failure_of(device)
    if failure:
        return _at(Outcome(f"numerics device: {failure.klass}", failure.detail), script)
    if len(device.launches) != 1:
        return Outcome("numerics device: launch count", f"{len(device.launches)} launches", str(script))
    apart = device_mismatch(program, result.launches[0], device.launches[0])
    if apart:
        return Outcome("cpp: differs from --numerics device", apart, str(script))
    same = all(torch.equal(x.contiguous().view(torch.uint8), y.contiguous().view(torch.uint8))
               for x, y in zip(result.launches[0].storages, device.launches[0].storages))
    return Outcome("passed", script=str(script), notes=(
        "bit for bit --numerics device" if same else "within the format's tolerance of --numerics device",))


def device_mismatch(program: Program, cpp: Launch, device: Launch) -> str | None:
    """Where ``--level cpp`` and the language level at ``--numerics device`` (the model of the
    same arithmetic, docs/numerics.md section 9) are apart by more than the output format's
    tolerance at any one element.

    The torch golden alone is too loose for the emitted C++: :func:`matches_golden` also passes on
    PCC over the whole tensor, and one wrong element (or a few) among a thousand leaves the PCC
    above 0.999, so a kernel that drops or misplaces a datum would pass. The device model computes
    the device's roundings (fidelity, accumulation, pack rounding) and runs the LLK's own SFPU code
    for the transcendental functions (sim/sfpu_machine.py), so elementwise ``allclose`` at the
    format's tolerance holds wherever the machine is right; the tolerance leaves room for what the
    model does not copy bit for bit."""
    for index, fmt_name in program.outputs.items():
        actual, want = cpp.values[index].double(), device.values[index].double()
        tol = TOLERANCES[fmt_name]
        if actual.shape != want.shape:
            return f"output {index}: shape {tuple(actual.shape)}, --numerics device {tuple(want.shape)}"
        if torch.allclose(actual, want, rtol=tol.rtol, atol=tol.atol, equal_nan=True):
            continue
        if _truncated_alike(program, actual, want, getattr(dtypes, fmt_name)):
            continue
        far = ~torch.isclose(actual, want, rtol=tol.rtol, atol=tol.atol, equal_nan=True)
        worst = int(far.flatten().nonzero()[0])
        return (f"output {index} ({fmt_name}): {int(far.sum())} of {far.numel()} elements apart, first at "
                f"flat index {worst}: got {actual.flatten()[worst].item()!r}, --numerics device "
                f"{want.flatten()[worst].item()!r}")
    return None


def diagnosed_or_passed(outcome: Outcome) -> bool:
    return outcome.passed or outcome.klass.startswith("diagnosed ")


def _not_lowered(message: str) -> str:
    """What E3001 names: "block 'pow' with these operands ..." -> "block 'pow'"."""
    match = re.search(r"error\[E3001\]: (.*?)(?: with| cannot|$)", message)
    return match[1] if match else message


def golden_mismatch(program: Program, launch: Launch) -> str | None:
    expected = program.golden(launch.values)
    for index, fmt_name in program.outputs.items():
        actual = launch.values[index]
        want = expected[index]
        fmt = getattr(dtypes, fmt_name)
        if tuple(actual.shape) != tuple(want.shape):
            return f"output {index}: shape {tuple(actual.shape)}, golden {tuple(want.shape)}"
        if not matches_golden(actual, want, fmt) and not _truncated_alike(program, actual, want, fmt):
            diff = (actual.double() - want.double()).abs()
            worst = int(diff.nan_to_num(float("inf")).argmax())
            return (f"output {index} ({fmt_name}): max |diff| {diff.nan_to_num(float('inf')).max().item():.4g} "
                    f"at flat index {worst}: got {actual.flatten()[worst].item()!r}, "
                    f"golden {want.flatten()[worst].item()!r}")
    return None


def _truncated_alike(program: Program, actual: torch.Tensor, want: torch.Tensor, fmt: dtypes.DataFormat) -> bool:
    """An integer output of a function computed in fp32 (silu, selu, ...) is truncated by the store:
    a last-bit difference of the fp32 value from the golden's moves it by one across an integer."""
    return (fmt.is_integer and "inexact_functions" in program.features
            and bool(((actual.double() - want.double()).abs() <= 1).all()))


def bits_differ(a: Sequence[Launch], b: Sequence[Launch]) -> str | None:
    if len(a) != len(b):
        return f"{len(a)} launches vs {len(b)}"
    for i, (la, lb) in enumerate(zip(a, b)):
        for j, (x, y) in enumerate(zip(la.storages, lb.storages)):
            if x.dtype != y.dtype or not torch.equal(x, y):
                count = int((x != y).sum()) if x.shape == y.shape else -1
                return f"launch {i}, tensor {j}: {count} of {x.numel()} elements differ"
    return None


# ---------------------------------------------------------------------------- mistakes
@dataclass(frozen=True)
class Expected:
    """The diagnostic a mutant must get: its code, and the line (any of ``lines``) it points at."""

    code: str
    lines: tuple[int, ...]


def check_mutant(mutant: "Mutant") -> Outcome:
    """The mutant, written to its own file, gets its diagnostic (see :func:`check_diagnosed`)."""
    script = write_script(file_name(f"mutant_{mutant.mutation}", mutant.text), mutant.text)
    return check_diagnosed(script, Expected(mutant.code, tuple(i + 1 for i in mutant.lines)), mutant.cli_args)


def check_diagnosed(script: Path, expected: Expected, cli_args: Sequence[str] = ()) -> Outcome:
    """``tilecraft run`` fails with the expected code at the expected line, in text (no traceback)
    and in JSON (which must parse)."""
    as_json, text = run_in_one_process([(script, (*cli_args, "--diagnostics-format", "json")), (script, cli_args)])
    if as_json.status in ("timeout", "died"):
        return Outcome(str(as_json.status), as_json.stderr, str(script))
    if "internal error" in as_json.stderr:
        return Outcome("internal error", _last_line(as_json.stderr), str(script))
    if as_json.status == 0:
        return Outcome("not diagnosed", f"expected {expected.code} at line {expected.lines}", str(script))
    try:
        diagnostics = json.loads(as_json.stderr)["diagnostics"]
        first = next(d for d in diagnostics if d["severity"] == "error")  # warnings may come first
    except (ValueError, KeyError, TypeError, StopIteration):
        return Outcome("no JSON diagnostic", _last_line(as_json.stderr), str(script))
    span = first.get("span") or {}
    got = f"{first['code']} at {span.get('file')}:{span.get('line')}: {first['message']}"
    if first["code"] != expected.code:
        return Outcome(f"wrong code {first['code']}", f"expected {expected.code}; got {got}", str(script))
    if span.get("file") != str(script):
        return Outcome("wrong file", got, str(script))
    if span.get("line") not in expected.lines:
        return Outcome("wrong line", f"expected line {expected.lines}; got {got}", str(script))
    header = f"{script}:{span['line']}:{span['col']}: error[{expected.code}]: "
    if text.status != 1 or header not in text.stderr:
        return Outcome("text differs from JSON", _first_line(text.stderr), str(script))
    if "Traceback" in text.stderr or TILECRAFT_DIR in text.stderr:
        return Outcome("traceback", _last_line(text.stderr), str(script))
    return Outcome("passed", script=str(script))


def check_host_script(host: "HostScript") -> Outcome:
    script = write_script(file_name(f"host_{host.mistake}", host.text), host.text)
    return check_user_error(script, host.lines, host.cli_args)


def check_cli_usage_error(host: "HostScript", option: str) -> Outcome:
    """A bad command-line option: exit status 2 and a message that names the option."""
    script = write_script(file_name(f"host_{host.mistake}", host.text), host.text)
    result = run(script, *host.cli_args)
    if "internal error" in result.stderr:
        return Outcome("internal error", _last_line(result.stderr), str(script))
    if result.status != 2 or option not in result.stderr:
        return Outcome("not a usage error", f"status {result.status}: {_last_line(result.stderr)}", str(script))
    return Outcome("passed", script=str(script))


def check_user_error(script: Path, lines: Sequence[int], cli_args: Sequence[str] = ()) -> Outcome:
    """A bad host input: a clear error that names the user's line, never an internal error."""
    result = run(script, *cli_args)
    if result.status in ("timeout", "died"):
        return Outcome(str(result.status), result.stderr, str(script))
    if "internal error" in result.stderr:
        return Outcome("internal error", _last_line(result.stderr), str(script))
    if result.status == 0:
        return Outcome("accepted", "the run succeeded", str(script))
    located = any(f'"{script}", line {line}' in result.stderr or f"{script}:{line}:" in result.stderr
                  for line in lines)
    if not located:
        return Outcome("not at the user's line", _last_line(result.stderr), str(script))
    if TILECRAFT_DIR in result.stderr:
        return Outcome("tilecraft frames shown", _last_line(result.stderr), str(script))
    return Outcome("passed", script=str(script))


# ---------------------------------------------------------------------------- helpers
def _at(outcome: Outcome, script: Path) -> Outcome:
    return Outcome(outcome.klass, outcome.detail, str(script))


def _first_line(text: str) -> str:
    return next((line for line in text.splitlines() if line.strip()), "")


def _last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""
