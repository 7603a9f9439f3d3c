"""Emitted kernels next to hand-written ones: lines of code and the sequence of Metalium calls.

    .venv/bin/python -m benchmarks.emit_comparison [--show]

For the elementwise add, the SFPU chain and the tiled matmul it prints, per kernel, the lines
of code (without comments and blank lines) and the Metalium calls in program order with their
loop nesting, for tilecraft's emission of examples/compare_*.py and for the hand-written
kernels in tilecraft/metal/reference_kernels. docs/emit.md quotes its output.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from benchmarks.emit_tools import programs_of
from tilecraft.metal.emit import emit_program
from tilecraft.metal.reference_kernels import DIRECTORY as REFERENCE

ROOT = Path(__file__).resolve().parent.parent
PAIRS = [("compare_eltwise_add", "eltwise_add"), ("compare_sfpu_chain", "sfpu_chain"), ("compare_matmul", "matmul")]
ROLES = {"riscv_1": "reader", "riscv_0": "writer", "compute": "compute"}
_NOT_CALLS = {"for", "if", "while", "static_cast", "get_arg_val", "get_common_arg_val", "get_compile_time_arg_val",
              "TensorAccessorArgs", "TensorAccessor", "kernel_main", "reinterpret_cast", "return", "sizeof",
              "get_tile_size"}


def code_lines(text: str) -> list[str]:
    body = text[text.index("void kernel_main"):]
    return [line for line in body.splitlines() if line.strip() and not line.strip().startswith("//")]


def call_sequence(text: str) -> list[str]:
    """Metalium calls in order, with ``[`` / ``]`` for the loops around them."""
    out = []
    for line in code_lines(text)[1:]:
        stripped = line.strip()
        if stripped.startswith("for "):
            out.append("[")
            continue
        if stripped == "}":
            if out and out[-1] == "[":
                out.pop()
            else:
                out.append("]")
            continue
        for name in re.findall(r"\b([a-z_][a-z0-9_]*)\s*(?:<[^()]*>)?\s*\(", stripped):
            if name not in _NOT_CALLS:
                out.append(name)
    return _compact(out)


def _compact(seq: list[str]) -> list[str]:
    """Drop brackets closing non-loops (if/else) and merge repeats: a a a -> a x3."""
    depth, cleaned = 0, []
    for item in seq:
        if item == "[":
            depth += 1
        elif item == "]":
            if depth == 0:
                continue
            depth -= 1
        cleaned.append(item)
    cleaned += ["]"] * depth
    merged: list[str] = []
    for item in cleaned:
        if merged and merged[-1].split(" x")[0] == item and item not in "[]":
            base, _, n = merged[-1].partition(" x")
            merged[-1] = f"{base} x{int(n or 1) + 1}"
        else:
            merged.append(item)
    return merged


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", action="store_true", help="also print the emitted kernels")
    args = parser.parse_args()
    for example, ref in PAIRS:
        (program,) = programs_of(ROOT / "examples" / f"{example}.py")
        emitted = emit_program(program)
        print(f"## {example} vs reference_kernels/{ref}\n")
        for kernel in emitted.program.kernels:
            role = ROLES[kernel.processor]
            ours = emitted.files[f"{kernel.name}.cpp"]
            theirs = (REFERENCE / ref / f"{role}.cpp").read_text()
            print(f"### {role}: {len(code_lines(ours))} lines emitted, {len(code_lines(theirs))} hand-written")
            print("emitted:      " + " ".join(call_sequence(ours)))
            print("hand-written: " + " ".join(call_sequence(theirs)) + "\n")
            if args.show:
                print(ours)


if __name__ == "__main__":
    main()
