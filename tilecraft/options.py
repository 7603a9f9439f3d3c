"""Run options: one explicit object instead of environment switches (see STYLE.md)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

#: chips in the simulated system unless told otherwise: the published TT-Lang simulator's default
DEFAULT_DEVICES = 4
#: environment variable that sets the number of simulated chips (the CLI's --devices wins)
DEVICES_VARIABLE = "TILECRAFT_DEVICES"


def devices_from_environment() -> int:
    """``$TILECRAFT_DEVICES`` as a chip count, or the default; a bad value is an error that names it."""
    text = os.environ.get(DEVICES_VARIABLE)
    if text is None:
        return DEFAULT_DEVICES
    if not text.strip().isdigit() or int(text) < 1:
        raise ValueError(f"{DEVICES_VARIABLE} must be a positive number of chips, got {text!r}")
    return int(text)


@dataclass(frozen=True)
class RunOptions:
    """How kernel calls run; the session (:mod:`tilecraft.session`) holds the ones in force."""

    #: architecture whose limits (L1 size, default grid) apply
    arch: str = "wormhole_b0"
    #: grid used for ``grid="auto"``/``"full"`` programs; None: the architecture's compute grid
    grid: tuple[int, ...] | None = None
    #: evaluate values one operation at a time in program order (the exact reference mode)
    exact: bool = False
    #: which IR the simulator runs: "language" (the program as written) or "metal" (lowered to
    #: TT-Metalium calls, as the emitted kernels would run)
    level: str = "language"
    #: chips in the simulated system (``ttnn.GetNumAvailableDevices()``; meshes must fit)
    devices: int = field(default_factory=devices_from_environment)
    #: print the Python the simulator generates for each thread before it runs (show-ir --generated)
    show_generated: bool = False
    #: simulate each launched program; False only builds it and calls the program hooks
    #: (``tilecraft profile --no-values`` times real problem sizes without computing values)
    simulate: bool = True
    #: kernel emulator (generic_op, ``--level cpp``): stop at the first sanitizer error (as tt-metal's
    #: watcher does), or record it and run on with the hardware's behaviour (corrupted L1 included)
    emulator_stop_at_first_error: bool = True
