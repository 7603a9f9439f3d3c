"""tilecraft's stand-in for ``tt_umd`` (the user-mode driver) inside the LLK harness.

The suite imports it at module level for its RTL-simulator host; any attribute used means a
simulator or silicon path, which the harness does not provide.
"""

from tilecraft.emu.llk_suite.device import HardwareOnly


def __getattr__(name: str):
    if name.startswith("__"):
        raise AttributeError(name)
    raise HardwareOnly(f"tt_umd.{name}", "the user-mode driver talks to silicon or an RTL simulator")
