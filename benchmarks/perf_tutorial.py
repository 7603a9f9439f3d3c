"""Time the performance model on the published matmul step 4 (8192^3 on the full 8x8 grid).

Why not ``tilecraft profile`` on the tutorial file: its script body also builds the 8192^3
result on the host with torch to check it, which takes longer than the model. This loads the
tutorial's definitions only (the source up to its ``torch.manual_seed`` line, written to a
temporary file so that the front end can read the thread sources), builds the program for
zero tensors of the real size and times :func:`tilecraft.perf.estimate` on it.

    .venv/bin/python -m benchmarks.perf_tutorial [--size 8192] [--arch wormhole_b0]
"""

from __future__ import annotations

import argparse
import runpy
import tempfile
import time
from pathlib import Path

from tests.tutorials import tutorials_dir
from tilecraft.scripts import install_modules
from tilecraft.perf import estimate, resolve_arch
from tilecraft.perf.capture import programs
from tilecraft.perf.report import format_estimate

STEP4 = "matmul/step_4_multinode_grid_full.py"
SCRIPT_BODY = "torch.manual_seed(42)"


def load_definitions(path: Path, workdir: Path, device: object) -> dict:
    """The tutorial's definitions; its helpers read the global ``device`` the script body opens."""
    source = path.read_text()
    cut = source.index(SCRIPT_BODY)
    copy = workdir / path.name
    copy.write_text(source[:cut])
    return runpy.run_path(str(copy), init_globals={"device": device})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=8192)
    parser.add_argument("--arch", default="wormhole_b0")
    parser.add_argument("--fidelity", default="HiFi4")
    args = parser.parse_args()
    install_modules()
    import ttnn  # served by tilecraft after install_modules()

    arch = resolve_arch(args.arch)
    with tempfile.TemporaryDirectory() as tmp:
        ns = load_definitions(tutorials_dir() / STEP4, Path(tmp), ttnn.open_device(device_id=0))
        n = args.size
        tensors = [ttnn.zeros((n, n), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT) for _ in range(3)]
        start = time.perf_counter()
        with programs(arch.name, arch.compute_grid) as launched:
            ns["tutorial_operation"](*tensors)
        built = time.perf_counter()
        est = estimate(launched[0], arch, args.fidelity)
        done = time.perf_counter()
    print(format_estimate(est))
    print(f"\nbuild {built - start:.1f} s, estimate {done - built:.1f} s")


if __name__ == "__main__":
    main()
