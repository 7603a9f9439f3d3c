"""``tilecraft profile``: time every program a script launches and print the profile.

The profiler is a session lowering hook (with ``--level metal`` it times the launch's one
lowering): each launched program is estimated right after it is built (before the simulator runs
it, or instead of it with ``--no-values``), and its report is printed at once. Kernel-level programs (``ttnn.generic_op`` hosts such as micro-ops, PyKernel ops,
and TT-Lang programs with ``--level cpp``, which run as their emitted C++) are timed by the
kernel-level model from the calls the emulator recorded (an emulator hook), with a line table of
the kernels' source. Every ttnn op the script runs is timed too (an op hook; :mod:`.ttnn_ops`), and
after the script the op-by-op table lists ops and programs in the order they ran (:mod:`.timeline`).
``--trace`` writes them all into one Chrome trace, one after the other on one timeline track.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from typing import Any, Callable
from pathlib import Path

from ..options import RunOptions
from ..arch import ARCHS, BOARDS
from ..emu.launch import EmulationResult
from ..emu.program_spec import ProgramSpec
from ..sim.accuracy import AccuracyLog
from ..ttnn.fidelity import MathFidelity
from ..ttnn import op_record
from ..ttnn.op_record import OpCall
from ..metal.lowered import LoweredProgram
from . import estimate, estimate_kernels, estimate_metal, resolve_arch
from .line_map import to_source_lines
from .report import format_estimate
from .result import Estimate
from .plot import PlotUnavailable, plot_estimates
from .timeline import Entry, Kernel, format_table, trace_events
from .ttnn_ops import replayed_op, time_op

#: profile's own options, for the CLI's split between tilecraft's options and the script's
OPTIONS = {"--trace": True, "--plot": True, "--fidelity": True, "--fp32-acc": False, "--no-values": False}


def add_parser(sub: argparse._SubParsersAction, script_options: Callable[[argparse.ArgumentParser], None]) -> None:
    """The ``profile`` command; ``script_options`` adds the options every script command takes."""
    p = sub.add_parser("profile", help="run a script and predict the run time of every kernel program it launches")
    script_options(p)
    p.add_argument("--arch", default="wormhole_b0", choices=[*ARCHS, *BOARDS])
    p.add_argument("--fidelity", default="HiFi4", choices=[f.name for f in MathFidelity])
    p.add_argument("--fp32-acc", action="store_true", help="accumulate in fp32 (halves DST)")
    p.add_argument("--trace", help="write a Chrome-trace JSON (ui.perfetto.dev) to this file")
    p.add_argument("--plot", help="draw the roofline and a per-core summary to this PNG (needs matplotlib)")
    p.add_argument("--no-values", action="store_true",
                   help="only time the programs; do not simulate values (for real problem sizes)")
    p.add_argument("--level", default="language", choices=["language", "metal", "cpp"],
                   help="language: time the TT-Lang IR; metal: time the lowered kernels' Metalium calls (TT-Lang "
                        "line table, no values needed); cpp: run the emitted C++ on the kernel emulator and time "
                        "those kernels (C++ line table)")
    p.add_argument("--exact", action="store_true",
                   help="reference mode: evaluate values one operation at a time, and time every operation "
                        "(no loop periods skipped)")


class Profiler:
    """The program hook; :meth:`finish` writes the trace after the script."""

    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.arch = resolve_arch(args.arch)
        self.script = os.path.abspath(args.script)
        self.estimates: list[Estimate] = []
        #: the name of the TT-Lang program whose emitted C++ the emulator runs next (``--level cpp``)
        self.emitted_name = ""
        #: the replays of the kernel programs the running ttnn op ran (its 0.81.1 kernels on the emulator)
        self.op_kernels: list[Estimate] = []
        #: the ttnn ops and kernel programs in the order the script ran them
        self.timeline: list[Entry] = []
        #: generated C++ file -> line -> the PyKernel Python span it prints (from each PyKernel program run)
        self.origins: dict[str, dict] = {}
        #: the device's error at each fidelity, per store, measured while values are simulated at the language level
        self.accuracy = AccuracyLog()

    def run_options(self, opts: RunOptions) -> RunOptions:
        """``opts`` for the profiled run: the profiled architecture (its full grid for ``grid="auto"``),
        and no values computed with ``--no-values``."""
        emulated = self.args.level == "cpp"  # the emitted C++ must run to be traced
        return dataclasses.replace(opts, arch=self.arch.name, grid=opts.grid or self.arch.compute_grid,
                                   simulate=emulated or not self.args.no_values,
                                   level="language" if self.args.level == "metal" else opts.level,
                                   accuracy=None if emulated else self.accuracy)

    def results(self, program: ProgramIR, tensors: Any) -> None:
        """A TT-Lang program ran (a result hook): what each fidelity costs in accuracy, next to its time."""
        table = self.accuracy.report(program.name)
        if table:
            print(table, flush=True)

    def __call__(self, lowered: LoweredProgram) -> None:
        """A TT-Lang program was built (a lowering hook): time its IR, or with ``--level metal`` the
        kernels of the launch's one lowering (with ``--level cpp`` its emitted kernels are timed when
        they run, by :meth:`emulated`)."""
        if self.args.level == "cpp":  # timed when its emitted C++ runs: name that program after it
            self.emitted_name = f"{lowered.program.name} (emitted C++)"
            return
        if self.args.level == "metal":
            est = estimate_metal(lowered.metal(), self.arch, trace=bool(self.args.trace))
        else:
            est = estimate(lowered.program, self.arch, self.args.fidelity, self.args.fp32_acc, trace=bool(self.args.trace),
                           fast_forward=not self.args.exact, lowered=lowered)
        out = lowered.program.tensors[-1] if lowered.program.tensors else None
        self._add(est, Kernel(est, tuple(out.shape) if out else (), out.fmt.name if out else "-",
                              "kernel" if self.args.level == "metal" else "language"))
        print(format_estimate(est, {self.script}), flush=True)

    def emulated(self, program: ProgramSpec, result: EmulationResult) -> None:
        """The emulator ran a kernel-level program: time it from its call trace. A program a ttnn op
        runs (its own 0.81.1 kernels) is kept for that op's row (:meth:`ttnn_op`)."""
        assert result.trace is not None
        est = estimate_kernels(program, result.trace, self.arch, name=self.emitted_name, trace=bool(self.args.trace))
        self.emitted_name = ""
        if op_record.inside_op():
            self.op_kernels.append(est)
            return
        if self.origins:  # a PyKernel op: its rows at the Python lines that printed the C++
            est.lines = to_source_lines(est.lines, self.origins)
        out = program.tensors[-1] if program.tensors else None
        self._add(est, Kernel(est, tuple(out.storage.shape) if out else (), out.fmt.name if out else "-", "kernel"))
        print(format_estimate(est), flush=True)

    def ttnn_op(self, call: OpCall) -> None:
        """The script ran a ttnn op (an op hook): time it on the profiled architecture, by the replay
        of the kernels it ran on the emulator if it ran any, else by its cost rule."""
        if self.op_kernels:
            self.timeline.append(replayed_op(call, self.op_kernels))
            self.op_kernels = []
        else:
            self.timeline.append(time_op(call, self.arch))

    def _add(self, est: Estimate, entry: Kernel) -> None:
        self.estimates.append(est)
        self.timeline.append(entry)

    def pykernel(self, program: Any, tensors: Any) -> None:
        """A PyKernel program is about to run (a kernel hook): remember where its C++ lines come from."""
        self.origins.update(program.origins())

    def finish(self, code: int) -> int:
        if not self.timeline:
            if code == 0:
                print("tilecraft: the script launched no kernel program and ran no ttnn op", file=sys.stderr)
            return code
        print(format_table(self.timeline, self.arch.board or self.arch.name), flush=True)
        if self.args.trace:
            self.write_trace(Path(self.args.trace))
        if self.args.plot and self.estimates:
            try:
                plot_estimates(self.estimates, Path(self.args.plot))
            except PlotUnavailable as exc:
                print(f"tilecraft: error: {exc}", file=sys.stderr)
                return 2
            print(f"tilecraft: wrote {self.args.plot}", file=sys.stderr)
        elif self.args.plot:
            print(f"tilecraft: {self.args.plot} not written: the plot is of kernel programs, and the script "
                  "launched none (its ttnn ops are in the table above)", file=sys.stderr)
        return code

    def values_skipped(self) -> tuple[str, str] | None:
        """What was done without values, and how to get them (None: values were computed, or nothing
        was profiled yet): a script that fails after ``--no-values`` is reported as ``tilecraft
        emit``'s is (``E0710``, exit 1)."""
        if not self.args.no_values or self.args.level == "cpp" or not self.estimates:
            return None
        return ("its programs were profiled by tilecraft profile --no-values",
                "profile without --no-values to simulate the launches and run the checks")

    def write_trace(self, path: Path) -> None:
        events = trace_events(self.timeline)
        path.write_text(json.dumps({"traceEvents": events, "displayTimeUnit": "ns"}))
        print(f"tilecraft: wrote {path}", file=sys.stderr)
