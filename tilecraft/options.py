"""Run options: one explicit object instead of environment switches (see STYLE.md)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class RunOptions:
    #: architecture whose limits (L1 size, default grid) apply
    arch: str = "wormhole_b0"
    #: grid used for ``grid="auto"``/``"full"`` programs; None: the architecture's compute grid
    grid: tuple[int, ...] | None = None
    #: evaluate values one operation at a time in program order (the exact reference mode)
    exact: bool = False
    #: which IR the simulator runs: "language" (the program as written) or "metal" (lowered to
    #: TT-Metalium calls, as the emitted kernels would run)
    level: str = "language"
    #: simulate each launched program; False only builds it and calls the program hooks
    #: (``tilecraft profile --no-values`` times real problem sizes without computing values)
    simulate: bool = True


#: the options in force; the CLI and tests set fields on it
current = RunOptions()
