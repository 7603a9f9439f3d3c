"""``ttexalens.debug_tensix.TensixDebug``: instruction injection over the debug bus (silicon only)."""

from tilecraft.emu.llk_suite.device import HardwareOnly


class TensixDebug:
    def __init__(self, *_args, **_kwargs) -> None:
        raise HardwareOnly("TensixDebug", "instruction injection uses the Tensix debug registers")
