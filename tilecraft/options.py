"""Run options: one explicit object instead of environment switches (see STYLE.md)."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from typing import Any

import torch

#: chips in the simulated system unless told otherwise: the published TT-Lang simulator's default
DEFAULT_DEVICES = 4
#: environment variable that sets the number of simulated chips (the CLI's --devices wins)
DEVICES_VARIABLE = "TILECRAFT_DEVICES"
#: environment variable that sets the torch device values are evaluated on (the CLI's --device wins)
DEVICE_VARIABLE = "TILECRAFT_DEVICE"


def devices_from_environment() -> int:
    """``$TILECRAFT_DEVICES`` as a chip count, or the default; a bad value is an error that names it."""
    text = os.environ.get(DEVICES_VARIABLE)
    if text is None:
        return DEFAULT_DEVICES
    if not text.strip().isdigit() or int(text) < 1:
        raise ValueError(f"{DEVICES_VARIABLE} must be a positive number of chips, got {text!r}")
    return int(text)


def device_from_environment() -> str:
    """``$TILECRAFT_DEVICE`` (checked by :func:`check_device` when a run starts), or ``cpu``."""
    return os.environ.get(DEVICE_VARIABLE, "cpu").strip() or "cpu"


def check_device(name: str, source: str = "--device") -> str:
    """``name`` as a torch device the simulator can evaluate values on, or a ValueError that says
    why not and what to do (a CUDA device on a machine or a torch build without CUDA, a typo)."""
    try:
        device = torch.device(name)
    except RuntimeError:
        raise ValueError(f"{source} takes a torch device such as cpu or cuda (cuda:1 for the second GPU), "
                         f"not {name!r}") from None
    if device.type not in ("cpu", "cuda"):
        raise ValueError(f"{source} {name!r}: values are evaluated on cpu or cuda, not {device.type}")
    if device.type == "cuda":
        if not torch.cuda.is_available():
            build = f"torch {torch.__version__}" + (" is a CPU-only build" if torch.version.cuda is None
                                                   else " finds no CUDA device")
            raise ValueError(f"{source} {name!r}: {build}; install a CUDA build of torch on a machine with an "
                             "NVIDIA GPU, or use --device cpu")
        if device.index is not None and device.index >= torch.cuda.device_count():
            raise ValueError(f"{source} {name!r}: there are {torch.cuda.device_count()} CUDA devices")
    return str(device)


def warm_up(device: str) -> threading.Thread | None:
    """Start creating ``device``'s CUDA context and BLAS handle in the background (None for the CPU).

    Creating them takes seconds (5 to 12 s seen on an H200 machine), and nothing needs them until
    the first value is evaluated, after the script has built its tensors and the skeleton has run
    on the CPU; started at once, the two overlap. A failure here is left to the evaluation, which
    meets it again and reports it."""
    if torch.device(device).type != "cuda":
        return None

    def create() -> None:
        try:
            one = torch.ones(1, 1, device=device)
            torch.mm(one, one)
            torch.cuda.synchronize(device)
        except Exception:  # noqa: BLE001 - the evaluation reports it (see the docstring)
            pass

    thread = threading.Thread(target=create, name="tilecraft-device-warm-up", daemon=True)
    thread.start()
    return thread


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
    #: the torch device values are evaluated on ("cpu", "cuda", "cuda:1"); tensors are copied
    #: there for a launch and back when it ends
    device: str = field(default_factory=device_from_environment)
    #: print the Python the simulator generates for each thread before it runs (show-ir --generated)
    show_generated: bool = False
    #: simulate each launched program; False only builds it and calls the program hooks
    #: (``tilecraft profile --no-values`` times real problem sizes without computing values)
    simulate: bool = True
    #: how block math computes at the language level: "ideal" (fp32, docs/numerics.md sections 4-6)
    #: or "device" (the device's FPU, SFPU and packer arithmetic, bit for bit as ``--level cpp``:
    #: docs/numerics.md section 9)
    numerics: str = "ideal"
    #: where the language level records the device's error at each math fidelity for every block
    #: store (a ``tilecraft.sim.accuracy.AccuracyLog``; ``tilecraft profile`` prints it); None: not measured
    accuracy: Any = None
    #: kernel emulator (generic_op, ``--level cpp``): stop at the first sanitizer error (as tt-metal's
    #: watcher does), or record it and run on with the hardware's behaviour (corrupted L1 included)
    emulator_stop_at_first_error: bool = True
