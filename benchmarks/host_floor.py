"""A tutorial's host code alone: ``tilecraft run SCRIPT`` with every kernel call skipped.

What a tutorial process costs besides simulating: importing torch and tilecraft, building its
tensors, its own torch reference (an 8192^3 fp32 GEMM in the matmul tutorials) and its PCC check
(of the untouched output, so the tutorial's final assertion fails; that is expected and ignored).
bench_scale runs it as ``step1_host`` / ``step4_host``: a simulation's own share of the process is
its wall time minus this one.

    .venv/bin/python -m benchmarks.host_floor SCRIPT [tilecraft run options]
"""

from __future__ import annotations

import contextlib
import io
import sys

from tilecraft import session
from tilecraft.cli import main as tilecraft_main


def main(argv: list[str]) -> int:
    with session.using(launcher=lambda kernel, args, kwargs: None), contextlib.redirect_stderr(io.StringIO()):
        tilecraft_main(["run", *argv])  # fails at the tutorial's PCC assertion: nothing was computed
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
