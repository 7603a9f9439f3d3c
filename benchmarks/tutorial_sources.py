"""Benchmark inputs: the published TT-Lang tutorials, resized.

Why resize: the tutorials ship at sizes meant for hardware (matmul 8192^3 takes
~40 minutes in the reference simulator), so the benchmarks run them at sizes
that take seconds to a minute. Why a textual rewrite: the point is to run the
authors' programs unmodified apart from the problem size, so the only edit is
one exact source line, replaced by another. It must match exactly once;
otherwise the tutorial changed upstream and we refuse to benchmark a program we
did not mean to.

The tutorials themselves come from tests/tutorials.py (downloaded at run time,
never copied into this repository). The programs the tutorials lack (a multicast
matmul, flash attention) are in benchmarks/reference_programs/, written in the
spelling the published simulator 1.1.6 accepts, at their benchmark size.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tests.tutorials import tutorials_dir


@dataclass(frozen=True)
class Resize:
    """Replace the source line `old` (ignoring indentation) with `new`."""

    old: str
    new: str


def elementwise_size(n: int) -> Resize:
    """The elementwise (and broadcast) tutorials set their problem size in this line."""
    return Resize("shape = (2048, 2048)", f"shape = ({n}, {n})")


def matmul_size(m: int, k: int, n: int) -> Resize:
    """The matmul tutorials set their problem size in this line."""
    return Resize("M, K, N = 8192, 8192, 8192", f"M, K, N = {m}, {k}, {n}")


def resize_source(source: str, resize: Resize) -> str:
    """Apply `resize` to a tutorial's source; raise ValueError unless it matches exactly once."""
    lines = source.splitlines(keepends=True)
    hits = [i for i, line in enumerate(lines) if line.strip() == resize.old]
    if len(hits) != 1:
        raise ValueError(
            f"expected exactly one line {resize.old!r} in the tutorial, found {len(hits)}; "
            "the published tutorial changed, update benchmarks/tutorial_sources.py"
        )
    line = lines[hits[0]]
    indent = line[: len(line) - len(line.lstrip())]
    ending = line[len(line.rstrip("\r\n")):]
    lines[hits[0]] = f"{indent}{resize.new}{ending}"
    return "".join(lines)


def write_resized(tutorial: str, resize: Resize | None, dest_dir: Path, root: Path | None = None) -> Path:
    """Write tutorial `tutorial` (a path relative to `root`, by default the tutorials dir) resized
    into `dest_dir` (copied as it is when `resize` is None).

    The copy keeps the tutorial's file name under a directory per tutorial group,
    so error messages still point at a recognisable file.
    """
    source = ((root or tutorials_dir()) / tutorial).read_text()
    target = dest_dir / tutorial
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(source if resize is None else resize_source(source, resize))
    return target
