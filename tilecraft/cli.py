"""``tilecraft``: run TT-Lang scripts in the simulator, show their IR.

``tilecraft run SCRIPT.py [script args] [--grid C,R] [--arch A] [--diagnostics-format json]``
runs an unmodified script: its ``import ttl`` and ``import ttnn`` are served by tilecraft. Any
kernel error ends the run with status 1 and the diagnostic (``file:line:col: error[CODE]``).
tilecraft's own options may stand anywhere; arguments after ``--`` go to the script untouched.
``tilecraft profile SCRIPT.py [--arch A] [--fidelity F] [--trace out.json] [--no-values]``
predicts the run time of every program the script launches (docs/performance-model.md).
"""

from __future__ import annotations

import argparse
import os
import runpy
import sys
import traceback
from pathlib import Path
from typing import Sequence

from . import driver, options
from .ir.printer import print_program
from .ir.program import ProgramIR
from .metal.emit import emit_program
from .diagnostics import Diagnostic, KernelError, UsageError, render_json, user_frame_span
from .perf import profiler

#: frames in this directory are tilecraft's own (hidden from users' tracebacks)
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_OWN_OPTIONS = {"--grid": True, "--arch": True, "--diagnostics-format": True, "--exact": False, "-o": True,
                "--level": True,
                "--output": True, **profiler.OPTIONS}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="tilecraft", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name, text in (("run", "run a script on the simulator"),
                       ("show-ir", "run a script and print the IR of every kernel program it launches"),
                       ("emit", "run a script and write TT-Metalium C++ for every kernel program it launches")):
        p = sub.add_parser(name, help=text)
        p.add_argument("script", help="the Python script")
        p.add_argument("--grid", help="grid for grid=\"auto\"/\"full\" programs, e.g. 8,8")
        p.add_argument("--arch", default="wormhole_b0", choices=["wormhole_b0", "blackhole"])
        p.add_argument("--diagnostics-format", default="text", choices=["text", "json"])
        p.add_argument("--level", default="language", choices=["language", "metal"],
                       help="simulate the program as written, or lowered to Metalium calls")
        p.add_argument("--exact", action="store_true",
                       help="evaluate values one operation at a time (reference mode, slow)")
        if name == "emit":
            p.add_argument("-o", "--output", required=True, help="directory for the emitted files")
    profiler.add_parser(sub)
    if not argv or argv[0] not in ("run", "show-ir", "emit", "profile"):
        parser.parse_args(argv)  # prints usage / help
        return 2
    own, script_args = split_arguments(argv[1:])
    args = parser.parse_args([argv[0], *own])
    return run_script(args, script_args)


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
                own.append(argv[i + 1])
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
    grid = None
    if args.grid:
        try:
            grid = tuple(int(x) for x in args.grid.replace("x", ",").split(","))
        except ValueError:
            print(f"tilecraft: error: --grid takes integers like 8,8, not {args.grid!r}", file=sys.stderr)
            return 2
    options.current = options.RunOptions(arch=args.arch, grid=grid, exact=args.exact, level=args.level)
    hooks = list(driver.program_hooks)
    if args.command == "show-ir":
        driver.program_hooks.append(lambda program: print(print_program(program)))
    if args.command == "emit":
        driver.program_hooks.append(Emitter(Path(args.output), args.arch))
    timer = profiler.Profiler.install(args) if args.command == "profile" else None
    saved_path = list(sys.path)
    try:
        code = _run(args, script_args)
        return timer.finish(code) if timer is not None else code
    finally:
        driver.program_hooks[:] = hooks
        sys.path[:] = saved_path


def _run(args: argparse.Namespace, script_args: list[str]) -> int:
    install_modules()
    script = os.path.abspath(args.script)
    if not os.path.exists(script):
        print(f"tilecraft: error: no such script: {args.script}", file=sys.stderr)
        return 2
    sys.argv = [script, *script_args]
    sys.path.insert(0, os.path.dirname(script))
    try:
        runpy.run_path(script, run_name="__main__")
    except KernelError as exc:
        print_diagnostics(exc.diagnostics, args.diagnostics_format)
        return 1
    except UsageError as exc:  # a host-side call made wrongly: reported at the user's line
        span = user_frame_span(exc.__traceback__, PACKAGE_DIR)
        print_diagnostics([exc.diagnostic(span)], args.diagnostics_format)
        return 1
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BrokenPipeError:  # output piped into a reader that stopped early (`| head`)
        return 0
    except Exception as exc:  # noqa: BLE001 - the script's own error, or a bug in tilecraft
        report_exception(exc)
        return 1
    return 0


def print_diagnostics(diagnostics: Sequence[Diagnostic], fmt: str) -> None:
    if fmt == "json":
        print(render_json(list(diagnostics)), file=sys.stderr)
    else:
        for diag in diagnostics:
            print(diag.render(), file=sys.stderr)


def report_exception(exc: BaseException) -> None:
    """Python's traceback for the user's own errors (frames inside tilecraft are hidden); a
    failure that starts inside tilecraft is a tilecraft bug and says so."""
    frames = traceback.extract_tb(exc.__traceback__)
    package = PACKAGE_DIR
    user = [f for f in frames if not f.filename.startswith(package) and "<frozen" not in f.filename]
    if frames and frames[-1].filename.startswith(package):
        print("tilecraft: internal error (a bug in tilecraft, please report it):", file=sys.stderr)
        print("".join(traceback.format_exception(exc)), file=sys.stderr, end="")
        return
    print("Traceback (most recent call last):", file=sys.stderr)
    print("".join(traceback.format_list(user)), file=sys.stderr, end="")
    print("".join(traceback.format_exception_only(exc)), file=sys.stderr, end="")


class Emitter:
    """Writes each launched program's emission into its own subdirectory (once per program)."""

    def __init__(self, root: Path, arch: str):
        self.root = root
        self.arch = arch
        self.done: dict[str, str] = {}

    def __call__(self, program: ProgramIR) -> None:
        emitted = emit_program(program, self.arch)
        key = "".join(emitted.files.values())
        name = program.name.strip("_") or "program"
        if self.done.get(name) == key:
            return  # the same program launched again (e.g. once per device of a mesh)
        while name in self.done:
            name += "_"
        self.done[name] = key
        for path in emitted.write(self.root / name):
            print(f"tilecraft: wrote {path}", file=sys.stderr)


def install_modules() -> None:
    """Serve ``import ttl`` and ``import ttnn`` from tilecraft, as the published simulator does."""
    import tilecraft
    import tilecraft.ttnn
    sys.modules["ttl"] = tilecraft
    sys.modules["ttnn"] = tilecraft.ttnn


if __name__ == "__main__":
    sys.exit(main())
