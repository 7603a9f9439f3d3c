"""``tilecraft tune``: run a script and tune every ``@ttl.autotune`` operation it calls.

    tilecraft tune SCRIPT.py [--arch n150|p150|...] [--fidelity HiFi2] [--workers N]
                   [--scheduler ADDRESS] [--serial] [--top K] [--exhaustive] [--plot out.png]
                   [--json out.json] [--values] [--cached]
    tilecraft tune --cache list|clear

Every tuned call sweeps its candidates (a Dask LocalCluster of one worker per core by default,
``--scheduler`` for an existing cluster, ``--serial`` in this process), shows a progress bar, then
prints the best configurations and the pruned ones with their reasons. The winners are stored in
the cache for later runs of the program (``--cached`` reuses them here too). Like ``tilecraft
profile --no-values``, launches are built but not simulated unless ``--values`` is given, so a
script that checks its results fails after tuning: the command says so (``E0710``) and exits 1.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import sys
from pathlib import Path
from typing import Callable, ContextManager

from ..options import RunOptions
from ..arch import ARCHS, BOARDS
from ..perf import resolve_arch
from ..perf.plot import PlotUnavailable
from ..ttnn.fidelity import MathFidelity
from . import options as tune_options
from .cache import TuneCache
from .plot import plot_sweeps
from .report import RichUnavailable, print_result, summary, to_json
from .runners import close_shared
from .sweep import SweepResult

#: tune's own options, for the CLI's split between tilecraft's options and the script's
OPTIONS = {"--fidelity": True, "--workers": True, "--scheduler": True, "--serial": False,
           "--top": True, "--exhaustive": False, "--plot": True, "--json": True, "--values": False,
           "--cached": False, "--connect-timeout": True, "--accuracy": False, "--max-error": True}


def add_parser(sub: argparse._SubParsersAction, script_options: Callable[[argparse.ArgumentParser], None]) -> None:
    p = sub.add_parser("tune", help="tune the @ttl.autotune operations a script calls, on the cost model "
                       "(or: tilecraft tune --cache list|clear)")
    script_options(p)
    p.add_argument("--arch", choices=[*ARCHS, *BOARDS], help="board or generation to tune for "
                   "(default: each operation's arch=, else wormhole_b0)")
    p.add_argument("--fidelity", choices=[f.name for f in MathFidelity],
                   help="math fidelity the cost model assumes (default: each operation's fidelity=)")
    p.add_argument("--workers", type=_positive,
                   help="worker processes of the local Dask cluster (default: one per core)")
    p.add_argument("--scheduler", help="address of an existing Dask scheduler (default: $TILECRAFT_DASK_SCHEDULER, "
                   "else a local cluster)")
    p.add_argument("--connect-timeout", type=float, default=10.0, help="seconds to wait for the scheduler")
    p.add_argument("--serial", action="store_true", help="evaluate candidates in this process, without Dask")
    p.add_argument("--top", type=_positive, default=5, help="configurations to rank (the cut-off keeps these exact)")
    p.add_argument("--exhaustive", action="store_true", help="estimate every candidate to its end (no cut-off)")
    p.add_argument("--plot", help="draw predicted time against each hyper-parameter to this PNG (matplotlib)")
    p.add_argument("--json", help="write every sweep as JSON to this file")
    p.add_argument("--values", action="store_true", help="simulate the script's launches with values "
                   "(the winners' too); default: only build them")
    p.add_argument("--cached", action="store_true", help="reuse cached winners instead of sweeping again")
    p.add_argument("--accuracy", action="store_true", help="simulate the ranked candidates on the call's inputs and "
                   "show each one's error at the fidelity against an fp64 golden (an accuracy column)")
    p.add_argument("--max-error", type=_fraction, help="the largest error a winner may have, relative to each "
                   "store's largest value (e.g. 0.01); implies --accuracy")
    p.add_argument("--level", default="language", choices=["language"], help=argparse.SUPPRESS)
    p.add_argument("--exact", action="store_true", help=argparse.SUPPRESS)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0.0:
        raise argparse.ArgumentTypeError(f"expected an error bound such as 0.01 (1%), got {text!r}")
    return value


class TuneSession:
    """The tuning options for one script run (``tuning()``), and each sweep reported as it ends."""

    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.results: list[SweepResult] = []

    def run_options(self, opts: RunOptions) -> RunOptions:
        """``opts`` for the tuned run: the board's architecture and full grid; values only with --values."""
        board = resolve_arch(self.args.arch or "wormhole_b0")
        return dataclasses.replace(opts, arch=board.name, grid=opts.grid or board.compute_grid,
                                   simulate=self.args.values)

    def tuning(self) -> ContextManager[tune_options.TuneOptions]:
        """The block the script runs in, with the command line's tuning options."""
        args = self.args
        changes = dict(arch=args.arch, fidelity=args.fidelity, dask=not args.serial, workers=args.workers,
                       top=args.top, exhaustive=args.exhaustive, use_cache=args.cached, progress=True,
                       report=self.report, connect_timeout=args.connect_timeout,
                       accuracy=args.accuracy or args.max_error is not None, max_error=args.max_error)
        if args.scheduler:
            changes["scheduler"] = args.scheduler
        return tune_options.using(**changes)

    def report(self, result: SweepResult) -> None:
        self.results.append(result)
        try:
            print_result(result)
        except RichUnavailable as exc:
            print(f"tilecraft: {exc}; {summary(result)}", flush=True)

    def finish(self, code: int) -> int:
        close_shared()
        if not self.results:
            if code == 0:
                print("tilecraft: the script called no @ttl.autotune operation", file=sys.stderr)
            return code
        if self.args.json:
            Path(self.args.json).write_text(json.dumps([to_json(r) for r in self.results], indent=1))
            print(f"tilecraft: wrote {self.args.json}", file=sys.stderr)
        if self.args.plot:
            try:
                plot_sweeps(self.results, Path(self.args.plot))
            except PlotUnavailable as exc:
                print(f"tilecraft: error: {exc}", file=sys.stderr)
                return 2
            print(f"tilecraft: wrote {self.args.plot}", file=sys.stderr)
        return code

    def values_skipped(self) -> tuple[str, str] | None:
        """What was done without values, and how to get them (None: values were computed, or
        nothing was tuned yet)."""
        if self.args.values or not self.results:
            return None
        return ("its operations were tuned by tilecraft tune without --values",
                "pass --values to simulate the launches (the winners' too) and run the checks")


def is_cache_command(argv: list[str]) -> bool:
    return any(a == "--cache" or a.startswith("--cache=") for a in argv)


def run_cache(argv: list[str]) -> int:
    """``tilecraft tune --cache list|clear [--cache-dir DIR]``."""
    parser = argparse.ArgumentParser(prog="tilecraft tune", description="inspect or clear the tuning cache")
    parser.add_argument("--cache", required=True, choices=["list", "clear"])
    parser.add_argument("--cache-dir", type=Path, default=None,
                        help=f"default: ${tune_options.CACHE_VARIABLE}, else the tune folder of tilecraft's cache")
    args = parser.parse_args(argv)
    cache = TuneCache(args.cache_dir or tune_options.default_cache_dir())
    if args.cache == "clear":
        print(f"tilecraft: removed {cache.clear()} cached tuning results from {cache.root}")
        return 0
    entries = cache.entries()
    print(f"{len(entries)} cached tuning result{'s' * (len(entries) != 1)} in {cache.root}")
    for e in entries:
        q = e.question
        when = datetime.datetime.fromtimestamp(e.created).strftime("%Y-%m-%d %H:%M")
        key = " ".join(f"{k}={v}" for k, v in q.get("key", {}).items())
        print(f"  {q.get('program')}({key}) on {q.get('arch')} {q.get('fidelity')}: "
              f"{' '.join(f'{k}={v}' for k, v in e.winner.items())}, {e.predicted_s * 1e6:,.1f} us {e.bound}-bound "
              f"[program {q.get('program_hash')}, tilecraft {q.get('tilecraft')}, {when}] {e.path.name}")
    return 0
