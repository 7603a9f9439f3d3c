"""The accuracy cost of each math fidelity, measured on a program's own inputs (``tilecraft profile``).

The cost model charges LoFi a quarter of HiFi4's matrix-unit time; what LoFi costs in accuracy is
measured here: every block store of a simulated program is evaluated again with the device's
arithmetic at each fidelity (:class:`~tilecraft.sim.device_math.DeviceMath`, packed into the block's
format as the device packs it) and against an fp64 golden of the same expression on the same
leaves (:class:`~tilecraft.sim.device_math.GoldenMath`). Per store line and fidelity the largest
absolute error is kept, with the largest golden magnitude to put it in proportion.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable

import torch

from ..device_arith import FIDELITY_PHASES
from .device_math import DeviceMath, GoldenMath
from .language.exprprog import compile_expression

#: the fidelities measured, cheapest first
FIDELITIES = tuple(FIDELITY_PHASES)
#: executions of a store measured per batch (the first ones): the device model runs in float64
#: numpy, far slower than the simulator's own evaluation, so large runs are measured on a sample
SAMPLE_BLOCKS = 64


@dataclass
class StoreAccuracy:
    """One store line's errors so far: per fidelity the largest |device - golden|, and the largest |golden|."""

    file: str
    line: int
    max_error: dict[str, float]
    magnitude: float = 0.0

    def relative(self, fidelity: str) -> float:
        """The error relative to the store's largest golden magnitude (inf for a zero golden with an error)."""
        err = self.max_error[fidelity]
        return err / self.magnitude if self.magnitude else (0.0 if err == 0 else float("inf"))


class AccuracyLog:
    """The errors of every store of every program run with it (``RunOptions.accuracy``), at ``fidelities``."""

    def __init__(self, fidelities: tuple[str, ...] = FIDELITIES) -> None:
        self.fidelities = fidelities
        #: program name -> (file, line) -> errors
        self.programs: dict[str, dict[tuple[str, int], StoreAccuracy]] = {}

    def worst(self, fidelity: str) -> float:
        """The largest relative error of any store of any program at ``fidelity`` (0 if none was measured)."""
        return max((e.relative(fidelity) for stores in self.programs.values() for e in stores.values()), default=0.0)

    def auditor(self, program: str, loc: Any, root: Any, defs: dict, leaves: list[Any], accumulate: bool,
                fmt: Any) -> Callable[[list[torch.Tensor], int, Any], None] | None:
        """What a compute site calls with each batch of its leaves; None for integer stores
        (integer math has no fidelity) and stores without a source line."""
        if fmt.is_integer or loc is None:
            return None
        golden = compile_expression(root, defs, leaves, accumulate, GoldenMath())
        devices = {f: (DeviceMath(f), compile_expression(root, defs, leaves, accumulate, DeviceMath(f)))
                   for f in self.fidelities}
        stores = self.programs.setdefault(program, {})
        key = (loc.file, loc.line)
        entry = stores.setdefault(key, StoreAccuracy(*key, dict.fromkeys(self.fidelities, 0.0)))

        def audit(values: list[torch.Tensor], n: int, device: Any) -> None:
            if n > SAMPLE_BLOCKS:
                values, n = [v[:SAMPLE_BLOCKS] if v.shape[0] == n else v for v in values], SAMPLE_BLOCKS
            want = golden([v.double() for v in values], n, device).double()
            finite = torch.isfinite(want)  # an inf or NaN golden has no error to measure
            if not finite.any():
                return
            entry.magnitude = max(entry.magnitude, want[finite].abs().max().item())
            for f, (math, evaluate) in devices.items():
                got = math.pack(evaluate(values, n, device), fmt).double().expand_as(want)
                entry.max_error[f] = max(entry.max_error[f], (got[finite] - want[finite]).abs().max().item())

        return audit

    def report(self, program: str) -> str:
        """The table ``tilecraft profile`` prints after the program ran (empty when nothing was measured)."""
        stores = self.programs.get(program)
        if not stores:
            return ""
        out = ["  accuracy by fidelity: max |error| of each store against an fp64 golden on this run's inputs "
               "(relative to the store's largest |value|)",
               f"  {'line':<28} " + " ".join(f"{f:>18}" for f in self.fidelities)]
        for (file, line), entry in sorted(stores.items()):
            where = f"{os.path.basename(file)}:{line}"
            cells = " ".join(f"{entry.max_error[f]:>9.3g} ({entry.relative(f):>6.2%})" for f in self.fidelities)
            out.append(f"  {where:<28} {cells}")
        return "\n".join(out)
