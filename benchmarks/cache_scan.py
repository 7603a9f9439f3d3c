"""What the emulator cache's size check costs on a cache shaped like a developer's 24 GB one.

The check (tilecraft/emu/cache_budget.py) lists every entry and stats every file, and a build runs
it at most once a minute over all processes; this measures one check, to show what that interval
buys. The cache is synthetic, in a temporary directory, shaped like the one that grew to 24 GB:
420 precompiled prefixes (its 23 GB of them at ~55 MB each; four files each), and, assumed, 12
machine trees (2,447 files each, the count of a real ``tensix-tree`` entry) and 2,000 kernels
(eight files each). File sizes do not
matter to the scan (it reads the inode's block count), so the files are empty.

    python -m benchmarks.cache_scan [--repeat 5]

Prints the median and the spread of the scan (``entries()``) and of a prune that removes nothing
(the check a build makes while the cache is within its limit), and the machine's load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from tilecraft.emu import cache_budget

#: kind: (entries, files per entry, directories per entry)
SHAPE = {"tensix-prefix": (420, 4, 0), "tensix-tree": (12, 2447, 200), "kernels": (2000, 8, 0)}


def build(root: Path) -> int:
    """The synthetic cache under ``root``; returns its file count."""
    files = 0
    for kind, (count, per_entry, directories) in SHAPE.items():
        for i in range(count):
            entry = root / kind / f"{kind}-{i}"
            folders = [entry / f"d{d}" for d in range(directories)] or [entry]
            for folder in folders:
                folder.mkdir(parents=True)
            for f in range(per_entry):
                (folders[f % len(folders)] / f"f{f}").touch()
            files += per_entry
    return files


def timed(run, repeat: int) -> list[float]:
    seconds = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        seconds.append(time.perf_counter() - start)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tc-cache-scan-") as tmp:
        os.environ["TILECRAFT_CACHE_DIR"] = tmp
        files = build(cache_budget.bounded_root())
        entries = len(cache_budget.entries())
        print(f"synthetic cache: {entries} entries, {files} files; load {os.getloadavg()[0]:.1f}")
        for what, run in (("scan (entries)", cache_budget.entries),
                          ("prune within the limit", lambda: cache_budget.prune(cache_budget.DEFAULT_MAX_SIZE))):
            seconds = timed(run, args.repeat)
            print(f"{what}: median {statistics.median(seconds):.3f} s (min {min(seconds):.3f}, "
                  f"max {max(seconds):.3f}) over {args.repeat}")
        print(f"load after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
