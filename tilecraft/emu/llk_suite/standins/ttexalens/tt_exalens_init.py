"""Opening the harness device: ``init_ttexalens`` (silicon or a simulator .so on real ttexalens)."""

from tilecraft.emu.llk_suite.device import HardwareOnly, close_context, open_context
from tilecraft.emu.llk_suite.harness_env import chip_arch


def init_ttexalens(simulation_directory=None, **_options):
    if simulation_directory is not None:
        raise HardwareOnly("init_ttexalens(simulation_directory=...)",
                           "the harness runs on tilecraft's machine, not on a simulator library")
    return open_context(chip_arch())


def cleanup_global_context() -> None:
    close_context()
