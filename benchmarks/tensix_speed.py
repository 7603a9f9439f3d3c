"""Time the Tensix machine's arithmetic instructions, and write the golden hashes that hold them.

The program is tests/emu/tensix/arith_driver.cpp linked with every machine source, built with the
runner's flags (``tensix_build.RUNNER_FLAGS``), so the times are those the LLK suite's runs see:

    .venv/bin/python -m benchmarks.tensix_speed                  # ns per instruction, medians of 5
    .venv/bin/python -m benchmarks.tensix_speed --repeat 9 --reps 40000
    .venv/bin/python -m benchmarks.tensix_speed --write-golden   # regenerate the golden hashes

``--write-golden`` rewrites tests/emu/tensix/data/arith_golden.txt (test_arith_golden.py): only
meaningful on a machine model whose bits are known to be right, since the test then holds every
later model to them.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DRIVER = ROOT / "tests" / "emu" / "tensix" / "arith_driver.cpp"
GOLDEN = ROOT / "tests" / "emu" / "tensix" / "data" / "arith_golden.txt"
MACHINE_DIR = ROOT / "tilecraft" / "emu" / "tensix"


def build() -> Path:
    """The driver, built once per content of the machine and the driver (cached in /tmp)."""
    from tilecraft import wheel_headers
    from tilecraft.emu.tensix_build import RUNNER_FLAGS

    tt_metal = wheel_headers.ensure_headers() / "tt_metal"
    hw = tt_metal / "hw" / "inc" / "internal" / "tt-1xx" / "wormhole"
    includes = [MACHINE_DIR, hw, hw / "wormhole_b0_defines", tt_metal / "tt-llk" / "tt_llk_wormhole_b0" / "common" / "inc"]
    sources = sorted(MACHINE_DIR.glob("*.cpp")) + [DRIVER]
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources + sorted(MACHINE_DIR.glob("*.h")))
                            + " ".join(RUNNER_FLAGS).encode()).hexdigest()[:16]
    out_dir = Path(os.environ.get("TMPDIR", "/tmp")) / f"tilecraft-tensix-speed-{digest}"
    exe = out_dir / "arith_driver"
    if exe.exists():
        return exe
    out_dir.mkdir(parents=True, exist_ok=True)
    flags = ["g++", *RUNNER_FLAGS, "-DTC_ARCH_WORMHOLE", "-w", *(f"-I{p}" for p in includes)]

    def compile_one(source: Path) -> Path:
        obj = out_dir / f"{source.stem}.o"
        subprocess.run([*flags, "-c", str(source), "-o", str(obj)], check=True)
        return obj

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        objects = list(pool.map(compile_one, sources))
    subprocess.run([*flags, *map(str, objects), "-o", str(exe)], check=True)
    return exe


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs; the table shows medians")
    parser.add_argument("--reps", type=int, default=20000, help="instructions per kind per run")
    parser.add_argument("--write-golden", action="store_true", help=f"rewrite {GOLDEN.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    exe = build()
    if args.write_golden:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(subprocess.run([str(exe), "hash"], check=True, capture_output=True, text=True).stdout)
        print(f"wrote {GOLDEN.relative_to(ROOT)}")
        return 0
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    runs: dict[str, list[float]] = {}
    for _ in range(args.repeat):
        out = subprocess.run([str(exe), "bench", str(args.reps)], check=True, capture_output=True, text=True).stdout
        for line in out.splitlines():
            name, _, value = line.rpartition(" ")
            if value.startswith("("):  # "sfpu::mad per lane 4.20 (1)": the sink, not a time
                name, _, value = name.rpartition(" ")
            runs.setdefault(name, []).append(float(value))
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print(f"{'instruction':<24} {'ns (median of ' + str(args.repeat) + ')':>20}")
    for name, values in runs.items():
        print(f"{name:<24} {statistics.median(values):>20.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
