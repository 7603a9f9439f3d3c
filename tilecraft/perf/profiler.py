"""``tilecraft profile``: time every program a script launches and print the profile.

The profiler is a session program hook: each launched program is estimated right after it is
built (before the simulator runs it, or instead of it with ``--no-values``), and its report is
printed at once. ``--trace`` writes all programs into one Chrome trace, one after the other.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from typing import Callable
from pathlib import Path

from ..options import RunOptions
from ..arch import ARCHS, BOARDS
from ..ir.program import ProgramIR
from ..ttnn import generic
from ..ttnn.fidelity import MathFidelity
from . import estimate, resolve_arch
from .report import format_estimate
from .result import Estimate
from .plot import PlotUnavailable, plot_estimates
from .trace import trace_events

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
    p.add_argument("--level", default="language", choices=["language"])
    p.add_argument("--exact", action="store_true", help=argparse.SUPPRESS)


class Profiler:
    """The program hook; :meth:`finish` writes the trace after the script."""

    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.arch = resolve_arch(args.arch)
        self.script = os.path.abspath(args.script)
        self.estimates: list[Estimate] = []
        #: kernel-level programs (PyKernel ops, generic_op hosts) the script ran, which nothing times yet
        self.untimed: list[str] = []
        self.emulator_run_before = generic.last_run

    def run_options(self, opts: RunOptions) -> RunOptions:
        """``opts`` for the profiled run: the profiled architecture (its full grid for ``grid="auto"``),
        and no values computed with ``--no-values``."""
        return dataclasses.replace(opts, arch=self.arch.name, grid=opts.grid or self.arch.compute_grid,
                                   simulate=not self.args.no_values)

    def __call__(self, program: ProgramIR) -> None:
        est = estimate(program, self.arch, self.args.fidelity, self.args.fp32_acc, trace=bool(self.args.trace))
        self.estimates.append(est)
        print(format_estimate(est, {self.script}), flush=True)

    def kernel_level(self, name: str) -> None:
        """A kernel-level program (``name`` as a message says it) ran: the cost model times
        language-level (TT-Lang) programs only."""
        self.untimed.append(name)
        print(f"tilecraft: {name} is a kernel-level program: it ran on "
              "the kernel emulator but is not timed (the cost model times TT-Lang programs; it has no kernel-level "
              "model yet)", file=sys.stderr)

    def finish(self, code: int) -> int:
        if not self.estimates:
            if generic.last_run is not self.emulator_run_before and not self.untimed:
                self.kernel_level("a ttnn.generic_op program")  # a micro-op host's own descriptors
            if self.untimed and code == 0:
                print(f"tilecraft: nothing to profile: {len(self.untimed)} kernel-level program(s) ran untimed",
                      file=sys.stderr)
                return 2
            if code == 0:
                print("tilecraft: the script launched no kernel program", file=sys.stderr)
            return code
        if self.args.trace:
            self.write_trace(Path(self.args.trace))
        if self.args.plot:
            try:
                plot_estimates(self.estimates, Path(self.args.plot))
            except PlotUnavailable as exc:
                print(f"tilecraft: error: {exc}", file=sys.stderr)
                return 2
            print(f"tilecraft: wrote {self.args.plot}", file=sys.stderr)
        if code != 0 and self.args.no_values:
            print("tilecraft: note: the script failed after its programs were profiled; with --no-values "
                  "no values are computed, so checks on results fail", file=sys.stderr)
            return 0
        return code

    def write_trace(self, path: Path) -> None:
        events, offset, pid_base = [], 0.0, 0
        for est in self.estimates:
            part = trace_events(est)
            for event in part:
                event["pid"] += pid_base
                if "ts" in event:
                    event["ts"] += offset
            events += part
            pid_base += est.cores
            offset += est.seconds * 1e6
        path.write_text(json.dumps({"traceEvents": events, "displayTimeUnit": "ns"}))
        print(f"tilecraft: wrote {path}", file=sys.stderr)
