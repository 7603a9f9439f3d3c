"""``tilecraft``: run TT-Lang scripts in the simulator, show their IR.

``tilecraft run SCRIPT.py [script args] [--grid C,R] [--arch A] [--diagnostics-format json]``
runs an unmodified script: its ``import ttl`` and ``import ttnn`` are served by tilecraft. Any
kernel error ends the run with status 1 and the diagnostic (``file:line:col: error[CODE]``).
tilecraft's own options may stand anywhere; arguments after ``--`` go to the script untouched.
``tilecraft profile SCRIPT.py [--arch A] [--fidelity F] [--trace out.json] [--no-values]``
predicts the run time of every program the script launches (docs/performance-model.md).
``tilecraft tune SCRIPT.py [--arch A] [--workers N] [--scheduler ADDRESS] ...`` tunes every
``@ttl.autotune`` operation the script calls (docs/autotune.md).
``tilecraft cache info|prune|clear`` shows the kernel emulator's cache and prunes it (cache_command.py).

``tilecraft emit``, ``tilecraft tune`` (without ``--values``) and ``tilecraft profile --no-values``
compute no values, so a script that checks its results fails after the command's work is done:
the command says so in one diagnostic (``E0710``, at the script's line that raised) and exits 1,
as for any failed script.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import runpy
import sys
import traceback
import warnings
from pathlib import Path
from typing import Any, Callable, Sequence

import torch

from . import cache_command, opt, options, session
from .frontend.single_thread import graduated_script
from .tilelang import graduate as tilelang_graduate
from .ir.printer import print_program
from .ir.program_ir import GeneratedThreads
from .metal.check_emitted import require_compiles
from .metal.emit import Emitted, render_program
from .metal.lowered import LoweredProgram
from .metal.headercheck import HeadersUnavailable, ToolchainUnavailable
from .pykernel import pykernel_program
from .diagnostics import Diagnostic, DiagnosticWarning, KernelError, UsageError, render_json, user_frame_span
from .perf import profiler
from .lsp import command as lsp_command
from .scripts import PACKAGE_DIR, install_modules
from .sim.device_math import DEVICE, IDEAL, NUMERICS
from .wheels import WheelUnavailable
from .emu import cache_budget
from .tune import cli as tune_cli
from .ttnn import wheel_ops

#: a script that raised after a command that computes no values did its work (emit, tune, profile --no-values)
SCRIPT_FAILED_WITHOUT_VALUES = "E0710"
#: frames in this directory are tilecraft's own (hidden from users' tracebacks)
_OWN_OPTIONS = {"--grid": True, "--devices": True, "--device": True, "--generated": False, "--arch": True, "--diagnostics-format": True, "--exact": False, "-o": True,
                "--numerics": True,
                "--level": True,
                "--output": True, **profiler.OPTIONS, **tune_cli.OPTIONS}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="tilecraft", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name, text in (("run", "run a script on the simulator"),
                       ("show-ir", "run a script and print the IR of every kernel program it launches"),
                       ("show-threads", "run a script and print it with each single-threaded operation written as "
                                        "the explicit threads the compiler made of it"),
                       ("emit", "run a script and write TT-Metalium C++ for every kernel program it launches")):
        p = sub.add_parser(name, help=text)
        add_script_options(p)
        p.add_argument("--arch", default="wormhole_b0", choices=["wormhole_b0", "blackhole"])
        p.add_argument("--level", default="language", choices=["language", "metal", "cpp"],
                       help="simulate the program as written, lowered to Metalium calls, or run the emitted C++ "
                            "kernels on the kernel emulator")
        p.add_argument("--exact", action="store_true",
                       help="evaluate values one operation at a time (reference mode, slow)")
        if name == "emit":
            p.add_argument("-o", "--output", required=True, help="directory for the emitted files")
        if name == "show-ir":
            p.add_argument("--generated", action="store_true",
                           help="also print the Python the simulator generates for each thread")
    profiler.add_parser(sub, add_script_options)
    tune_cli.add_parser(sub, add_script_options)
    opt.add_parser(sub)
    if argv and argv[0] == "opt":
        return opt.run_opt(parser.parse_args(argv))
    lsp_command.add_parser(sub)
    if argv and argv[0] == "lsp":
        return lsp_command.run(parser.parse_args(argv))
    cache_command.add_parser(sub)
    if argv and argv[0] == "cache":
        return cache_command.run(parser.parse_args(argv))
    if argv and argv[0] == "tune" and tune_cli.is_cache_command(argv[1:]):
        return tune_cli.run_cache(argv[1:])
    if not argv or argv[0] not in ("run", "show-ir", "show-threads", "emit", "profile", "tune"):
        parser.parse_args(argv)  # prints usage / help
        return 2
    own, script_args = split_arguments(argv[1:])
    args = parser.parse_args([argv[0], *own])
    return run_script(args, script_args)


def add_script_options(p: argparse.ArgumentParser) -> None:
    """What every command that runs a script takes: the script and the simulated system."""
    p.add_argument("script", help="the Python script")
    p.add_argument("--grid", help="grid for grid=\"auto\"/\"full\" programs, e.g. 8,8")
    p.add_argument("--devices", type=int, help="chips in the simulated system (default: $TILECRAFT_DEVICES "
                   f"or {options.DEFAULT_DEVICES})")
    p.add_argument("--device", help="torch device the values are evaluated on: cpu or cuda (default: "
                   f"${options.DEVICE_VARIABLE} or cpu)")
    p.add_argument("--diagnostics-format", default="text", choices=["text", "json"])
    p.add_argument("--numerics", default=IDEAL, choices=NUMERICS,
                   help="block math at the language level: ideal fp32 (default), or the device's FPU, SFPU and "
                        "packer arithmetic, bit for bit as --level cpp computes it (docs/numerics.md section 9)")


def split_arguments(argv: list[str]) -> tuple[list[str], list[str]]:
    """tilecraft's options (anywhere before ``--``) and the script path vs the script's arguments."""
    own: list[str] = []
    rest: list[str] = []
    i = 0
    script_seen = False
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest += argv[i + 1:]
            break
        key = arg.split("=", 1)[0]
        if key in _OWN_OPTIONS:
            own.append(arg)
            if _OWN_OPTIONS[key] and "=" not in arg and i + 1 < len(argv):
                value = argv[i + 1]
                if value.startswith("-") and arg.startswith("--"):
                    own[-1] = f"{arg}={value}"  # joined, so argparse takes a value like -2,4 as the value
                else:
                    own.append(value)
                i += 1
        elif not script_seen and not arg.startswith("-"):
            own.append(arg)
            script_seen = True
        else:
            rest.append(arg)
        i += 1
    return own, rest


def run_script(args: argparse.Namespace, script_args: list[str]) -> int:
    """Run one script with fresh options and hooks (nothing carries over to the next run)."""
    try:
        grid = parse_grid(args.grid) if args.grid else None
        devices = args.devices if args.devices is not None else options.devices_from_environment()
        if devices < 1:
            raise ValueError(f"--devices takes a positive number of chips, not {devices}")
        device = options.check_device(args.device) if args.device is not None else \
            options.check_device(options.device_from_environment(), f"${options.DEVICE_VARIABLE}")
        cache_budget.max_size()  # a bad $TILECRAFT_CACHE_MAX_SIZE is said now, not after the first build
        if args.numerics == DEVICE and getattr(args, "level", "language") == "metal":
            raise ValueError("--numerics device computes at the language level (and --level cpp always computes "
                             "with the device's arithmetic); --level metal computes ideally")
    except ValueError as exc:
        print(f"tilecraft: error: {exc}", file=sys.stderr)
        return 2
    opts = options.RunOptions(arch=args.arch, grid=grid, exact=args.exact, level=args.level, devices=devices, device=device,
                              show_generated=getattr(args, "generated", False), numerics=args.numerics)
    hooks: list[session.ProgramHook] = []
    lowering_hooks: list[session.LoweringHook] = []
    kernel_hooks: list[session.KernelHook] = []
    if args.command == "show-ir":
        hooks.append(lambda program: print(print_program(program)))
        lowering_hooks.append(print_added_buffers)
        kernel_hooks.append(lambda program, tensors: print(pykernel_program.ir_text(program)))
    generated: list[GeneratedThreads] = []
    if args.command == "show-threads":
        hooks.append(lambda program: generated.append(program.generated_threads) if program.generated_threads else None)
    emitter = Emitter(Path(args.output)) if args.command == "emit" else None
    if emitter is not None:
        opts = dataclasses.replace(opts, simulate=False)  # emission needs no values
        lowering_hooks.append(emitter)
        kernel_hooks.append(emitter.pykernel)
    timer = profiler.Profiler(args) if args.command == "profile" else None
    tuner = tune_cli.TuneSession(args) if args.command == "tune" else None
    valueless = emitter or tuner or timer
    if timer is not None:
        opts = timer.run_options(opts)
        lowering_hooks.append(timer)
        kernel_hooks.append(timer.pykernel)
    if tuner is not None:
        opts = tuner.run_options(opts)
    saved_path = list(sys.path)
    reporter = Reporter(args.diagnostics_format)
    warming = options.warm_up(device) if opts.simulate else None
    try:
        with warnings.catch_warnings(), session.using(opts, program_hooks=hooks, lowering_hooks=lowering_hooks,
                                                      kernel_hooks=kernel_hooks,
                                                      emulator_hooks=[timer.emulated] if timer else [],
                                                      op_hooks=[timer.ttnn_op] if timer else [],
                                                      result_hooks=[timer.results] if timer else []), \
                (tuner.tuning() if tuner is not None else contextlib.nullcontext()), \
                wheel_ops.tallied() as ttnn_ops:
            warnings.simplefilter("default", DiagnosticWarning)
            warnings.showwarning = reporter.show_warning
            # show-threads prints a program: what the script prints goes to stderr
            with contextlib.redirect_stdout(sys.stderr) if args.command == "show-threads" else contextlib.nullcontext():
                code = _run(args, script_args, reporter,
                            lambda exc: failed_without_values(exc, valueless.values_skipped()) if valueless else None)
        if opts.level == "cpp" and opts.simulate and not ttnn_ops.empty() and args.diagnostics_format == "text":
            print(wheel_ops.render(ttnn_ops), file=sys.stderr)  # which ttnn ops ran on the wheel's kernels
        finisher = timer or tuner
        if args.command == "show-threads":
            return print_threads(args.script, generated, code)
        return finisher.finish(code) if finisher is not None else code
    finally:
        reporter.finish()
        sys.path[:] = saved_path
        if warming is not None:
            warming.join()  # not left half-done when the interpreter exits


def print_threads(script: str, generated: list[GeneratedThreads], code: int) -> int:
    """``show-threads``: the script with its single-threaded operations as explicit threads."""
    if not generated:
        print(f"tilecraft: {script} launched no single-threaded operation (one whose body defines no threads)",
              file=sys.stderr)
        return code or 1
    launches = tilelang_graduate.replacements(generated)
    text = graduated_script(generated[0].file, generated, [(r.first, r.last, r.text) for r in launches])
    print(tilelang_graduate.standalone_imports(text) if launches else text, end="")
    return code


def print_added_buffers(lowered: LoweredProgram) -> None:
    """``show-ir``: after the program's IR, the buffers the compiler adds when it lowers it (the
    L1 need's added buffers, each with why); nothing for a program that does not lower."""
    if lowered.not_emittable() is not None:
        return
    need = lowered.metal().l1_need
    if need is not None and need.added:
        print(f"// buffers the compiler adds to program '{need.program}', per core:")
        print("\n".join(f"//   {b.describe()}" for b in need.added))


def parse_grid(text: str) -> tuple[int, ...]:
    """``--grid 8,8`` (or ``8x8``): positive integers, one per grid dimension."""
    try:
        grid = tuple(int(x) for x in text.replace("x", ",").split(","))
    except ValueError:
        raise ValueError(f"--grid takes positive integers like 8,8, not {text!r}") from None
    if not all(g >= 1 for g in grid):
        raise ValueError(f"--grid takes positive integers like 8,8; every extent must be at least 1, not {text!r}")
    return grid


class Reporter:
    """Prints the run's diagnostics: text as they come, or one JSON document at the end."""

    def __init__(self, fmt: str):
        self.fmt = fmt
        self.pending: list[Diagnostic] = []

    def report(self, diagnostics: Sequence[Diagnostic]) -> None:
        if self.fmt == "json":
            self.pending.extend(diagnostics)
        else:
            for diag in diagnostics:
                print(diag.render(), file=sys.stderr)

    def show_warning(self, message: Any, category: Any, filename: str, lineno: int, file: Any = None,
                     line: Any = None) -> None:
        """``warnings.showwarning``: tilecraft's warnings as diagnostics, others as Python prints them."""
        if isinstance(message, DiagnosticWarning):
            self.report([message.diagnostic])
        else:
            print(warnings.formatwarning(message, category, filename, lineno, line), file=sys.stderr, end="")

    def finish(self) -> None:
        if self.pending:
            print(render_json(self.pending), file=sys.stderr)
            self.pending = []


def _run(args: argparse.Namespace, script_args: list[str], reporter: Reporter,
         explain: Callable[[BaseException], Diagnostic | None] = lambda exc: None) -> int:
    """Run the script; its own exception is reported as ``explain`` says (None: a traceback)."""
    install_modules()
    script = os.path.abspath(args.script)
    if not os.path.exists(script):
        print(f"tilecraft: error: no such script: {args.script}", file=sys.stderr)
        return 2
    saved_argv, saved_path = sys.argv, list(sys.path)  # given back: main() may be called again in-process
    sys.argv = [script, *script_args]
    sys.path.insert(0, os.path.dirname(script))
    try:
        return _run_script(script, reporter, explain)
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path


def _run_script(script: str, reporter: Reporter, explain: Callable[[BaseException], Diagnostic | None]) -> int:
    try:
        runpy.run_path(script, run_name="__main__")
    except KernelError as exc:
        reporter.report(exc.diagnostics)
        return 1
    except UsageError as exc:  # a host-side call made wrongly: reported at the user's line
        reporter.report([exc.diagnostic(user_frame_span(exc.__traceback__, PACKAGE_DIR))])
        return 1
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BrokenPipeError:  # output piped into a reader that stopped early (`| head`)
        return 0
    except Exception as exc:  # noqa: BLE001 - the script's own error, or a bug in tilecraft
        explained = explain(exc)
        if explained is not None:
            reporter.report([explained])
        else:
            report_exception(exc)
        return 1
    return 0


def failed_without_values(exc: BaseException, skipped: tuple[str, str] | None) -> Diagnostic | None:
    """The script's own exception after a command that computes no values did its work (``skipped``:
    what it did and how to get the values; None when it did nothing yet): one diagnostic at the
    script's line, not a traceback. An exception inside tilecraft is not the script's."""
    span = user_frame_span(exc.__traceback__, PACKAGE_DIR)
    frames = traceback.extract_tb(exc.__traceback__)
    if skipped is None or span is None or (frames and frames[-1].filename.startswith(PACKAGE_DIR)):
        return None
    done, hint = skipped
    text = str(exc).splitlines()[0] if str(exc) else ""
    return Diagnostic(SCRIPT_FAILED_WITHOUT_VALUES, f"the script raised {type(exc).__name__}"
                      f"{': ' + text if text else ''} after {done}, which computes no values, so checks on "
                      "results fail", span, hint=hint)


def report_exception(exc: BaseException) -> None:
    """Python's traceback for the user's own errors (frames inside tilecraft are hidden); a
    failure that starts inside tilecraft is a tilecraft bug and says so, except what this machine
    lacks: memory (one line: which memory, and what to do), and a Tenstorrent wheel that could not be
    downloaded or a host toolchain that is missing (their message says what to install or reach)."""
    frames = traceback.extract_tb(exc.__traceback__)
    package = PACKAGE_DIR
    user = [f for f in frames if not f.filename.startswith(package) and "<frozen" not in f.filename]
    simulating = any(f.filename.startswith(package) for f in frames)
    if simulating and isinstance(exc, (MemoryError, torch.cuda.OutOfMemoryError)):
        where = "GPU" if isinstance(exc, torch.cuda.OutOfMemoryError) else "host"
        print(f"tilecraft: error: the simulation ran out of {where} memory"
              f"{' (' + str(exc).splitlines()[0] + ')' if str(exc) else ''}; "
              "free memory, simulate a smaller problem, or run with --device cpu where the GPU is too small",
              file=sys.stderr)
        return
    if simulating and isinstance(exc, (WheelUnavailable, ToolchainUnavailable)):
        print(f"tilecraft: error: {exc}", file=sys.stderr)
        return
    if frames and frames[-1].filename.startswith(package):
        print("tilecraft: internal error (a bug in tilecraft, please report it):", file=sys.stderr)
        print("".join(traceback.format_exception(exc)), file=sys.stderr, end="")
        return
    print("Traceback (most recent call last):", file=sys.stderr)
    print("".join(traceback.format_list(user)), file=sys.stderr, end="")
    print("".join(traceback.format_exception_only(exc)), file=sys.stderr, end="")


class Emitter:
    """Writes each launched program's emission into its own subdirectory (once per program) and
    header-checks what it wrote. Programs are not simulated under ``tilecraft emit``: emission
    reads the program, not its values, so a script's checks on its results fail (``E0710``)."""

    def __init__(self, root: Path):
        self.root = root
        self.done: dict[str, str] = {}
        #: a program did not emit (a diagnostic was reported): the command fails
        self.failed = False
        self.check_unavailable: str | None = None

    def __call__(self, lowered: LoweredProgram) -> None:
        """A lowering hook: the files of the launch's one lowering."""
        self.emit(lowered.emitted, lowered.program.name, lowered.program.span)

    def pykernel(self, program: "pykernel_program.PyKernelProgram", tensors: Sequence[Any]) -> None:
        """A PyKernel program: its kernel-level IR is already made; the same files are written."""
        source = program.span.file if program.span is not None else None
        self.emit(lambda: render_program(program.metal(tensors), source), program.name, program.span)

    def emit(self, render: Callable[[], Emitted], name: str, span: Any) -> None:
        """Render a program, write its files and header-check them; a diagnostic fails the command."""
        try:
            emitted = render()
            directory = self.write(emitted, name)
            if directory is not None:
                self.check(emitted, directory, span)
        except KernelError:
            self.failed = True
            raise

    def check(self, emitted: Emitted, directory: Path, span: Any) -> None:
        """The header check on the kernels just written (E3004 when one does not compile)."""
        if self.check_unavailable is not None:
            return
        try:
            require_compiles(emitted, str(directory), span)
        except (ToolchainUnavailable, HeadersUnavailable) as exc:
            self.check_unavailable = str(exc)
            print(f"tilecraft: note: the header check did not run: {exc}", file=sys.stderr)

    def values_skipped(self) -> tuple[str, str] | None:
        """What was done without values, and how to get them (None: nothing emitted yet)."""
        if not self.done or self.failed:
            return None
        return "its programs were emitted by tilecraft emit", "tilecraft run computes the values and runs the checks"

    def write(self, emitted: Emitted, program_name: str) -> Path | None:
        """The directory written, or None for a program already written."""
        key = "".join(emitted.files.values())
        name = program_name.strip("_") or "program"
        if self.done.get(name) == key:
            return None  # the same program launched again (e.g. once per device of a mesh)
        while name in self.done:
            name += "_"
        self.done[name] = key
        for path in emitted.write(self.root / name):
            print(f"tilecraft: wrote {path}", file=sys.stderr)
        return self.root / name


if __name__ == "__main__":
    sys.exit(main())
