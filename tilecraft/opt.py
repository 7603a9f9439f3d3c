"""``tilecraft opt FILE.ir [-p pass,pass] [--to ir|metal|cpp]``: run IR passes on a printed program.

Like ``mlir-opt``/``xdsl-opt``: the input is the text ``tilecraft show-ir`` prints, the passes are
the named passes of :data:`tilecraft.ir.passes.PIPELINE`, and the output is the IR after them
(or, with ``--to metal``, the program lowered to the metal dialect, one thread per kernel; with
``--to cpp``, the C++ of every kernel the lowering makes of it). The input is verified
first (an invalid input is the caller's mistake); the IR after every pass is verified too (a
failure there is a bug in the pass). Pass and lowering tests are written as IR files with
``// RUN:`` and ``// CHECK:`` lines (tests/ir/).
"""

from __future__ import annotations

import argparse
import sys

from .diagnostics import KernelError
from .ir.parser import IRSyntaxError, parse_program
from .ir.passes import PIPELINE, run_pipeline
from .ir.printer import print_program
from .ir.verify import IRVerificationError, verify_program
from .metal.cpp import print_kernel
from .metal.lower import lower_program
from .metal.metal_text import print_metal_program


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("opt", help="run IR passes on an IR file (the text show-ir prints) and print the result")
    p.add_argument("file", help="the IR file ('-' reads standard input)")
    p.add_argument("-p", "--passes", help="passes to run, comma-separated, in order (default: none; "
                   f"known: {', '.join(name for name, _ in PIPELINE)})")
    p.add_argument("--to", choices=["ir", "metal", "cpp"], default="ir",
                   help="print the IR after the passes, the program lowered to the metal dialect (one thread per "
                   "kernel), or the C++ of its kernels")
    p.add_argument("--arch", default="wormhole_b0", choices=["wormhole_b0", "blackhole"])


def run_opt(args: argparse.Namespace) -> int:
    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file).read()
    except OSError as exc:
        print(f"tilecraft: error: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        program = verify_program(parse_program(text), "parsing")
    except (IRSyntaxError, IRVerificationError) as exc:
        print(f"tilecraft: error: {args.file}: invalid IR: {exc}", file=sys.stderr)
        return 1
    names = [n.strip() for n in args.passes.split(",") if n.strip()] if args.passes else []
    known = {name for name, _ in PIPELINE}
    unknown = [n for n in names if n not in known]
    if unknown:
        print(f"tilecraft: error: unknown pass {unknown[0]!r}; passes: {', '.join(sorted(known))}", file=sys.stderr)
        return 2
    run_pipeline(program, names)
    if args.to == "ir":
        print(print_program(program))
        return 0
    try:
        metal = lower_program(program, args.arch)
    except KernelError as exc:  # a program the lowering rejects (E3xxx, E0401, ...): its diagnostic, no traceback
        print("\n".join(d.render() for d in exc.diagnostics), file=sys.stderr)
        return 1
    if args.to == "metal":
        print(print_metal_program(program, metal))
    else:
        print("\n".join(f"// ---- kernel {k.name} ----\n{print_kernel(metal, k)}" for k in metal.kernels), end="")
    return 0
